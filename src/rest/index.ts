/**
 * Orbitport REST edge: the authenticated cTRNG client, its errors, signature verification and token
 * storage. Server-side only (it holds the client secret).
 *
 * Every name is listed on purpose (no `export *`); the `orbitdraw` entry re-exports them by name.
 *
 * @module
 */
// The client, its options and what it returns.
export { OrbitportClient, SOURCE_NAMES, type SourceName, type RandomOptions } from './client.js'
export { DEFAULT_AUTH_URL, DEFAULT_BASE_URL, type OrbitportClientOptions, type RetryOptions } from './options.js'
export { SATELLITE_WIRE_NAMES, type SatelliteWireName, type CtrngResponse, type RandomValue, type ValueSignature, type ValueSource } from './response.js'
export type { Logger } from './scrub.js'
// Token storage.
export { MemoryTokenStore, type StoredToken, type TokenStore } from './token.js'
// The beacon fallback (values from the beacon when the satellite source is down).
export { beaconFallbackFrom, defaultFallbackOn, type BeaconFallback, type BeaconHeadSource, type BeaconValues } from './fallback.js'
// Signatures of cTRNG values.
export { createSignatureVerifier, verifyValueSignature, type SignatureCurve, type SignatureEncoding, type MessageConstruction, type PublicKeyInput, type SignatureOptions, type SignatureCheck, type SignatureVerifier } from './signature.js'
// The local `derived` source (moved from the core in issue 12: a REST feature, not needed to verify a draw).
export { derivedValue, derivedValues, derivedPublicKey, DerivedSource, DERIVED_METHODS, DERIVED_SEED_BYTES, DERIVED_VALUE_BYTES, type DerivedMethod, type DerivedSeed } from './derived.js'
// The REST edge's errors, the shared network family's classes among them (one class per name on every edge).
export { NetError, NetworkError, TimeoutError, RateLimitedError, AbortedError, type NetEdge } from '../net/errors.js'
export {
  OrbitportError,
  ServerError,
  InsufficientCreditsError,
  ServiceNotFoundError,
  RedirectError,
  InvalidResponseError,
  AuthError,
  TokenError,
  SignatureError,
  UnsignedValueError,
  UnknownSourceError,
  BrowserSecretError,
  FallbackError,
  ORBITPORT_ERROR_CODES,
  type OrbitportErrorCode,
  type HttpErrorOptions,
} from './errors.js'
export type { RedirectRefusal } from '../net/redirect.js'
// Deprecated aliases, kept as they were.
export { AbortError } from './errors.js'
export { parseRetryAfter } from './response.js'
