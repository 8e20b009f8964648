/**
 * The Orbitport REST edge: the cTRNG client's options and answers, token storage, the beacon fallback,
 * signatures of values, the local `derived` source, and the edge's errors. Server-side only (it holds the
 * client secret).
 *
 * ```ts
 * import { MemoryTokenStore, createSignatureVerifier, OrbitportError } from 'orbitdraw/rest'
 * ```
 *
 * The `orbitdraw/rest` entry: this file is the only list of its names; `OrbitportClient` itself is at
 * the root (`orbitdraw`), the network error family in `orbitdraw/errors`.
 *
 * @module orbitdraw/rest
 */
// The client's options and what it returns.
export { SOURCE_NAMES, type SourceName, type RandomOptions } from './client.js'
export { DEFAULT_AUTH_URL, DEFAULT_BASE_URL, type RetryOptions } from './options.js'
export { SATELLITE_WIRE_NAMES, type SatelliteWireName, type CtrngResponse, type RandomValue, type ValueSignature, type ValueSource } from './response.js'
export type { Logger } from './scrub.js'
// Token storage.
export { MemoryTokenStore, type StoredToken, type TokenStore } from './token.js'
// The beacon fallback (values from the beacon when the satellite source is down).
export { beaconFallbackFrom, defaultFallbackOn, type BeaconFallback, type BeaconHeadSource, type BeaconValues } from './fallback.js'
// Signatures of cTRNG values.
export { createSignatureVerifier, verifyValueSignature, type SignatureCurve, type SignatureEncoding, type MessageConstruction, type PublicKeyInput, type SignatureOptions, type SignatureCheck, type SignatureVerifier } from './signature.js'
// The local `derived` source.
export { derivedValue, derivedValues, derivedPublicKey, DerivedSource, DERIVED_METHODS, DERIVED_SEED_BYTES, DERIVED_VALUE_BYTES, type DerivedMethod, type DerivedSeed } from './derived.js'
// The REST edge's errors (the shared network family's classes: `orbitdraw/errors`).
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
