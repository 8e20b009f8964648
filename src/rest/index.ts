/**
 * Orbitport REST edge: the authenticated cTRNG client, its errors, signature verification and token
 * storage. Server-side only (it holds the client secret).
 *
 * @module
 */
export * from './errors.js'
export type { RedirectRefusal } from '../net/redirect.js'
export * from './signature.js'
export * from './token.js'
export * from './client.js'
