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
// The local `derived` source (moved from the core in issue 12: a REST feature, not needed to verify a draw).
export { derivedValue, derivedValues, derivedPublicKey, DerivedSource, DERIVED_SEED_BYTES, DERIVED_VALUE_BYTES, type DerivedSeed } from './derived.js'
