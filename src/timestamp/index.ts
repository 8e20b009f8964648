/**
 * Time-stamping: RFC 3161 tokens over a commitment, their parsing and checks (pure: `src/core/timestamp/`),
 * the trust anchors, and the client side (requests to public or the emulator's authorities, the margin a
 * commitment's tokens must leave its target). See `docs/timestamps.md`.
 *
 * ```ts
 * import { parseTrustAnchor, DEFAULT_TIMESTAMP_AUTHORITIES, checkCommitmentTime } from 'orbitdraw/timestamp'
 * ```
 *
 * The `orbitdraw/timestamp` entry: this file and the core's `src/core/timestamp/index.ts` (re-exported
 * whole) are the only lists of its names; `timestampCommitment` itself is at the root (`orbitdraw`).
 *
 * @module orbitdraw/timestamp
 */
export * from '../core/timestamp/index.js'
export { commitmentDigest, DEFAULT_TSA_URLS, type KeptTimestamp } from './client.js'
export { TimestampUnavailableError, TIMESTAMP_FAILURE_CODES, type TimestampAuthorityFailure, type TimestampFailureCode } from './errors.js'
export { timestampMarginMs, earliestTargetTimeMs, TimestampMarginError, type MarginTarget, type Retarget } from './margin.js'
