/**
 * The time-stamping edge: RFC 3161 requests to public (or the emulator's) authorities.
 *
 * @module
 */
export { timestampCommitment, commitmentDigest, DEFAULT_TSA_URLS, type TimestampOptions, type TimestampResult, type KeptTimestamp } from './client.js'
export { TimestampUnavailableError, TIMESTAMP_FAILURE_CODES, type TimestampAuthorityFailure, type TimestampFailureCode } from './errors.js'
export { stampBeforeTarget, timestampMarginMs, earliestTargetTimeMs, TimestampMarginError, type MarginTarget, type Retarget, type StampBeforeTargetInput, type StampedBeforeTarget } from './margin.js'
