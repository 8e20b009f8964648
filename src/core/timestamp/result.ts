/**
 * What {@link checkCommitmentTime} reports.
 *
 * @module
 */

/**
 * Stable names of the ways a time-stamp token can fail. Each token reports the first one found, in
 * the order documented in `docs/timestamps.md`.
 * @category Time-stamping
 */
export type TimestampProblem =
  /** Over `maxTimestampTokenBytes`, or more than `maxTimestampCerts` certificates. */
  | 'TIMESTAMP_TOKEN_OVERSIZE'
  /** Not DER, not a CMS SignedData, missing or duplicated required fields. */
  | 'TIMESTAMP_TOKEN_MALFORMED'
  /** The signed content is not id-ct-TSTInfo (ContentInfo or eContentType). */
  | 'TIMESTAMP_NOT_TSTINFO'
  /** Two carried certificates have the same issuer, subject and subjectPublicKeyInfo. */
  | 'TIMESTAMP_DUPLICATE_CERTIFICATE'
  /** The content-type signed attribute is missing, doubled (twice, or two values), or not id-ct-TSTInfo. */
  | 'TIMESTAMP_CONTENT_TYPE_MISMATCH'
  /** A refused or unknown algorithm (imprint not SHA-256, SHA-1 digests or signatures, unknown curves...). */
  | 'TIMESTAMP_ALGORITHM_REFUSED'
  /** The token stamps some other data than this commitment. */
  | 'TIMESTAMP_IMPRINT_MISMATCH'
  /** genTime + accuracy is not strictly before the deadline. */
  | 'TIMESTAMP_LATE'
  /** The message-digest attribute does not match the TSTInfo. */
  | 'TIMESTAMP_MESSAGE_DIGEST_MISMATCH'
  /** The token does not carry the certificate its SignerInfo names. */
  | 'TIMESTAMP_SIGNER_CERT_MISSING'
  /** Neither signing-certificate (ESSCertID) nor signing-certificate-v2 (ESSCertIDv2) is a signed attribute. */
  | 'TIMESTAMP_SIGNER_CERT_ID_MISSING'
  /** signing-certificate or signing-certificate-v2 appears twice, or with more than one value. */
  | 'TIMESTAMP_SIGNER_CERT_ID_DUPLICATE'
  /** A signing-certificate attribute names another certificate than the signer's. */
  | 'TIMESTAMP_SIGNER_CERT_ID_MISMATCH'
  /** The signer certificate lacks a critical extended key usage of exactly id-kp-timeStamping, or a usable key usage. */
  | 'TIMESTAMP_NOT_TIMESTAMPING_CERT'
  /** A certificate of the chain was not valid at genTime. */
  | 'TIMESTAMP_CERT_NOT_VALID_AT_GENTIME'
  /** A certificate of the chain is unusable (not a CA where one is needed, unknown critical extension). */
  | 'TIMESTAMP_CERT_UNUSABLE'
  /** A CA's pathLenConstraint allows fewer intermediate CAs below it than the chain has (RFC 5280 6.1.4). */
  | 'TIMESTAMP_PATH_LEN_EXCEEDED'
  /** The token needs more signature checks than `maxTimestampSignatureChecksPerToken`, or than the proof has left of `maxTimestampSignatureChecksPerProof`. */
  | 'TIMESTAMP_LIMIT_EXCEEDED'
  /** The token's or a certificate's signature does not verify. */
  | 'TIMESTAMP_BAD_SIGNATURE'
  /** The chain reaches no trusted time-stamping root (or is longer than `maxTimestampChainDepth`). */
  | 'TIMESTAMP_UNTRUSTED'
  /** This host cannot do the cryptography (RSA without Web Crypto); says nothing about the token. */
  | 'TIMESTAMP_UNCHECKABLE'

/**
 * The verdict on one token.
 * @category Time-stamping
 */
export interface TimestampTokenResult {
  /** Position in the input list. */
  readonly index: number
  readonly ok: boolean
  readonly status: 'ok' | 'failed' | 'uncheckable'
  /** The TSA: common name of the signer certificate, when it was found. */
  readonly authority: string | null
  /** genTime, ISO 8601 UTC with milliseconds, when the token could be read. */
  readonly time: string | null
  /** Stated accuracy, seconds (0 when the token states none), when the token could be read. */
  readonly accuracySeconds: number | null
  /** deadline − (genTime + accuracy), seconds; positive when early enough. */
  readonly marginSeconds: number | null
  /** Signatures actually checked for this token (its own and its chain's; at most its counted cost, see `maxTimestampSignatureChecksPerToken`). */
  readonly signatureChecks: number
  /** The first problem found, or null when ok. */
  readonly problem: TimestampProblem | null
  /** One line: what the token proves, or what is wrong with it. */
  readonly detail: string
}

/**
 * Result of {@link checkCommitmentTime}.
 * @category Verify
 */
export interface CommitmentTimeResult {
  /**
   * `ok`: at least one token is fully valid. `failed`: none is (including "no token").
   * `uncheckable`: none is valid and at least one could not be checked only because this host
   * lacks the cryptography (never because a token is bad).
   */
  readonly status: 'ok' | 'failed' | 'uncheckable'
  /** One human line for the verdict. */
  readonly detail: string
  /** The earliest valid token's time (ISO), when status is ok. */
  readonly time: string | null
  /** Per token, in input order. */
  readonly tokens: readonly TimestampTokenResult[]
}
