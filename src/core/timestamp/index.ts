/**
 * RFC 3161 time-stamps of commitments, the pure part: token parsing, the commitment-time check and
 * the trust anchors (built-in roots). Browser-safe. See `docs/timestamps.md`. Exported by the
 * `orbitdraw/timestamp` entry (src/timestamp/index.ts) with the time-stamping client.
 *
 * @module
 */
/** @category Time-stamping */
export { checkCommitmentTime, type CommitmentTimeInput } from './check.js'
/** @category Time-stamping */
export type { CommitmentTimeResult, TimestampTokenResult, TimestampProblem } from './result.js'
/** @category Time-stamping */
export { parseTrustAnchor, parseTrustAnchors, type TimestampTrustAnchor } from './anchor.js'
/** @category Time-stamping */
export { DEFAULT_TIMESTAMP_AUTHORITIES, PUBLIC_TIMESTAMP_AUTHORITIES } from './defaults.js'
/** @category Time-stamping */
export { BUILT_IN_ROOT_FINGERPRINTS } from './roots.js'
/** @category Time-stamping */
export { parseTimestampToken, TokenProblem, type ParsedToken, type TstInfo, type TokenSigner, type SignerCertId } from './token.js'
/** @category Time-stamping */
export type { ParsedCertificate } from './certificate.js'
/** @category Time-stamping */
export type { Der, TagClass } from './der.js'
