/**
 * The drand edge: a client of drand relays bound to a pinned chain.
 *
 * @module
 */
export { DEFAULT_DRAND_URLS, DrandClient, type DrandClientOptions } from './client.js'
export { DRAND_ERROR_CODES, DrandError, type DrandErrorCode } from './errors.js'
