/**
 * RFC 3161 time-stamps of commitments: token parsing and the commitment-time check. Pure and
 * browser-safe. See `docs/timestamps.md`.
 *
 * @module
 */
export { checkCommitmentTime, type CommitmentTimeInput } from './check.js'
export type { CommitmentTimeResult, TimestampTokenResult, TimestampProblem } from './result.js'
export { parseTrustAnchor, parseTrustAnchors, type TimestampTrustAnchor } from './anchor.js'
export { DEFAULT_TIMESTAMP_AUTHORITIES, PUBLIC_TIMESTAMP_AUTHORITIES } from './defaults.js'
export { BUILT_IN_ROOT_FINGERPRINTS, DIGICERT_TRUSTED_ROOT_G4_PEM, DIGICERT_ASSURED_ID_ROOT_CA_PEM, USERTRUST_RSA_CERTIFICATION_AUTHORITY_PEM } from './roots.js'
export { parseTimestampToken, TokenProblem, type ParsedToken, type TstInfo, type TokenSigner, type SignerCertId } from './token.js'
export { parseCertificate, type ParsedCertificate } from './certificate.js'
export type { Der, TagClass } from './der.js'
