/**
 * Documented resource limits. Each is checked before work proportional to the input is done, and
 * exceeding one raises {@link LimitExceededError} naming the limit.
 *
 * @module
 */
import { LimitExceededError } from './errors.js'

/** Resource limits enforced by the core. Values are part of the documented behaviour. */
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
  /** Largest proof file accepted by the parser, in bytes of JSON text. */
  maxProofBytes: 256 * 1024 * 1024,
  /** Widest `range` draw (max - min + 1), as a power of two exponent: 2^256. */
  maxRangeWidthBits: 256,
  /** Most values a `range` draw may produce, and most winners a `pick`/`weighted` draw may have. */
  maxDrawCount: 10_000_000,
  /**
   * Longest CID or IPNS name accepted as text (real ones are 46 to 65 characters). Checked before
   * decoding: base58 and base36 decoding take time quadratic in the length.
   */
  maxCidChars: 256,
  /**
   * Largest commitment, in bytes of canonical DAG-JSON (commit) or characters of JSON text (parse).
   * Checked before decoding it (real commitments are under 2 KiB; a label is at most 1 KiB).
   */
  maxCommitmentBytes: 64 * 1024,
  // ---- Edges (defaults of the networked parts; the core never does I/O) -------------------------
  /** Default timeout of one gateway request, ms (BeaconClient `timeoutMs`). Error: `GATEWAY_TIMEOUT`. */
  gatewayTimeoutMs: 10_000,
  /** Largest REST (token or cTRNG) response read, in bytes (OrbitportClient `maxResponseBytes`). Error: `ORBITPORT_INVALID_RESPONSE`. */
  maxRestResponseBytes: 64 * 1024,
  /** Default timeout of one REST attempt including its body, ms (OrbitportClient `timeoutMs`). Error: `ORBITPORT_TIMEOUT`. */
  restTimeoutMs: 10_000,
  /** Default budget of one REST call including retries and waits, ms (`retry.deadlineMs`). Error: `ORBITPORT_TIMEOUT`. */
  restDeadlineMs: 30_000,
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
