/**
 * Typed errors of the time-stamping client. Each has a stable `code`; all extend {@link OrbitdrawError}.
 *
 * @module
 */
import { OrbitdrawError } from '../core/errors.js'

/**
 * Why one authority gave no usable token.
 * @category Errors
 */
export interface TimestampAuthorityFailure {
  /** The authority's URL. */
  readonly authority: string
  /**
   * `TIMESTAMP_HTTP_ERROR`, `TIMESTAMP_NETWORK_ERROR`, `TIMESTAMP_TIMEOUT`, `TIMESTAMP_REJECTED`
   * (PKIStatus not granted), `TIMESTAMP_BAD_REPLY` (unreadable reply, nonce not echoed), `TIMESTAMP_CLOCK_SKEW`, `ABORTED`, or a
   * `TimestampProblem` from the token check (`TIMESTAMP_IMPRINT_MISMATCH`, `TIMESTAMP_BAD_SIGNATURE`, ...).
   */
  readonly code: string
  readonly detail: string
}

const CHOICE = 'retry later, name another authority (--tsa URL / authorities), or commit knowingly without a time-stamp (--no-timestamp; the draw will then not prove when it was committed)'

/**
 * No authority gave a usable token (`TIMESTAMP_UNAVAILABLE`); {@link failures} says why, per authority.
 * @category Errors
 */
export class TimestampUnavailableError extends OrbitdrawError {
  constructor(readonly failures: readonly TimestampAuthorityFailure[]) {
    super('TIMESTAMP_UNAVAILABLE', `no time-stamping authority gave a valid token: ${failures.map((f) => `${f.authority}: ${f.code} (${f.detail})`).join('; ')}`, CHOICE)
  }
}
