/**
 * Documented resource limits. Each is checked before work proportional to the input is done, and
 * exceeding one raises {@link LimitExceededError} naming the limit.
 *
 * @module
 */
import { LimitExceededError } from './errors.js'

/**
 * Resource limits enforced by the core. Values are part of the documented behaviour.
 * @category Formats
 */
export const LIMITS = {
  /**
   * Largest beacon block accepted, in bytes (real blocks are about 300 bytes). Also the largest
   * gateway answer the beacon client reads for a block or the unsigned head JSON (IPNS records:
   * `maxIpnsRecordBytes`): a declared Content-Length over it is refused unread, a body streamed past
   * it is cut off at the limit, never buffered whole (`GATEWAY_HTTP_ERROR`, status 413).
   */
  maxBlockBytes: 64 * 1024,
  /** Most `ctrng` values accepted in one block. */
  maxCtrngValues: 1024,
  /** Most blocks a proof's chain may carry (head down to the oldest block it needs). */
  maxChainBlocks: 10_000,
  /** Most participants in one draw. */
  maxParticipants: 50_000_000,
  /** Longest participant entry, in UTF-8 bytes. */
  maxEntryBytes: 1024,
  /** Largest label, in UTF-8 bytes. */
  maxLabelBytes: 1024,
  /** Largest marshalled IPNS record accepted, in bytes (the IPNS spec's limit; real ones are about 800 bytes). */
  maxIpnsRecordBytes: 10 * 1024,
  /**
   * Largest proof accepted by the parser, in **bytes** of UTF-8 JSON text; a proof given as a string
   * is measured as its UTF-8 encoding. Checked before decoding.
   */
  maxProofBytes: 256 * 1024 * 1024,
  /**
   * Deepest nesting of arrays and objects in any JSON document the core parses (proofs, commitments,
   * blocks). Real proofs nest 5 deep, blocks 3. Checked in one pass before `JSON.parse`
   * (`JSON_TOO_DEEP`), so a file of nested brackets costs no memory beyond its text.
   */
  maxJsonDepth: 64,
  /**
   * Most members of one object in any JSON document the core parses (proofs, commitments, blocks,
   * receipts, secret files). No orbitdraw object has more than a dozen; the bulk of a document is in
   * arrays. Checked in the same pass as `maxJsonDepth` (`LIMIT_EXCEEDED`): JavaScript engines build
   * an object of millions of keys in more than linear time (2,000,000 keys in one object: 28 s in
   * `JSON.parse`; the same keys in objects of 1,000: 2.4 s).
   */
  maxObjectKeys: 1024,
  /** Widest `range` draw (max - min + 1), as a power of two exponent: 2^256. */
  maxRangeWidthBits: 256,
  /**
   * Largest magnitude of a `range` bound, as a power of two exponent: −2^256 ≤ min ≤ max ≤ 2^256. A
   * bound's text is at most 79 characters (2^256 has 78 digits), checked before it is read as an
   * integer: each drawn value is printed at the bounds' size, so a bound of 400,000 digits cost a
   * verifier 0.1 s a value.
   */
  maxRangeBoundBits: 256,
  /** Most values a `range` draw may produce, and most winners a `pick`/`weighted` draw may have. */
  maxDrawCount: 10_000_000,
  /**
   * Longest CID or IPNS name accepted as text (real ones are 46 to 65 characters). Checked before
   * decoding: base58 and base36 decoding take time quadratic in the length.
   */
  maxCidChars: 256,
  /**
   * Largest commitment, in bytes of canonical DAG-JSON (commit) or of UTF-8 JSON text (parse; a
   * string is measured as its UTF-8 encoding). Checked before decoding it. Most commitments are under
   * 2 KiB (a label is at most 1 KiB); a sortition draw carries its pool's composition (its per-type
   * counts and quotas: about 20 KiB for 2,000 respondents on 6 features) or its candidate panels.
   */
  maxCommitmentBytes: 1024 * 1024,
  /**
   * Largest participant receipt, in bytes (or characters) of JSON text, checked before parsing: a
   * commitment (at most maxCommitmentBytes) plus an entry, a salt and a path of at most 64 hashes.
   */
  maxReceiptBytes: 1024 * 1024 + 32 * 1024,
  /**
   * Largest RFC 3161 time-stamp token accepted, in DER bytes (real ones with their certificates are
   * 2 to 7 KiB). Also the largest trust-anchor certificate, and (plus 4 KiB) the largest
   * time-stamping reply the client reads. Problem: `TIMESTAMP_TOKEN_OVERSIZE`.
   */
  maxTimestampTokenBytes: 64 * 1024,
  /** Most time-stamp tokens a proof or a commitment file may carry. */
  maxTimestampTokens: 16,
  /** Most certificates one token may carry. Problem: `TIMESTAMP_TOKEN_OVERSIZE`. */
  maxTimestampCerts: 16,
  /** Longest certificate chain followed from a token's signer to a trust anchor (signer counts as 1). */
  maxTimestampChainDepth: 6,
  /**
   * Most signature checks one token may need: its signature plus one per name-matching (issuer,
   * certificate) pair reachable from its signer certificate, counted from its bytes before any
   * signature is checked (docs/spec.md, Commitment time). Problem: `TIMESTAMP_LIMIT_EXCEEDED`.
   */
  maxTimestampSignatureChecksPerToken: 32,
  /**
   * Most signature checks all the tokens of one proof (one `checkCommitmentTime` call) may need
   * together, counted the same way, token by token in order. Problem: `TIMESTAMP_LIMIT_EXCEEDED`.
   */
  maxTimestampSignatureChecksPerProof: 128,
  // ---- Edges (defaults of the networked parts; the core never does I/O) -------------------------
  /** Default timeout of one gateway request, ms (BeaconClient `timeoutMs`). Error: `GATEWAY_TIMEOUT`. */
  gatewayTimeoutMs: 10_000,
  /** Largest REST (token or cTRNG) response read, in bytes (OrbitportClient `maxResponseBytes`). Error: `ORBITPORT_INVALID_RESPONSE`. */
  maxRestResponseBytes: 64 * 1024,
  /** Default timeout of one REST attempt including its body, ms (OrbitportClient `timeoutMs`). Error: `ORBITPORT_TIMEOUT`. */
  restTimeoutMs: 10_000,
  /** Default budget of one REST call including retries and waits, ms (`retry.deadlineMs`). Error: `ORBITPORT_TIMEOUT`. */
  restDeadlineMs: 30_000,
  /** Default timeout of one time-stamping request, ms (`timestampCommitment` `timeoutMs`). Error: `TIMESTAMP_UNAVAILABLE`. */
  timestampTimeoutMs: 15_000,
  /** Largest request body the emulator reads (token endpoint), in bytes. Answer: HTTP 413. */
  maxEmulatorRequestBytes: 64 * 1024,
} as const

/** Throws {@link LimitExceededError} when `value > limit`. */
export function checkLimit(name: keyof typeof LIMITS, value: number | bigint, what: string): void {
  const limit = LIMITS[name]
  if (value > limit) {
    throw new LimitExceededError('LIMIT_EXCEEDED', `${what} is ${value}, over the limit ${name} = ${limit}`, 'reduce the input below the documented limit (see docs/security.md)')
  }
}
