/**
 * Typed errors of the time-stamping client. Each has a stable `code`; all extend {@link OrbitdrawError}.
 *
 * @module
 */
import { OrbitdrawError } from '../core/errors.js'
import type { TimestampProblem } from '../core/timestamp/result.js'
import { NET_ERROR_CODES } from '../net/errors.js'
import type { RedirectRefusal } from '../net/redirect.js'

/**
 * The codes of an authority's failure ({@link TimestampAuthorityFailure.code}) other than the token
 * check's own {@link TimestampProblem}s.
 * @category Errors
 */
export const TIMESTAMP_FAILURE_CODES = [
  'TIMESTAMP_HTTP_ERROR',
  'TIMESTAMP_BAD_REPLY',
  'TIMESTAMP_REJECTED',
  'TIMESTAMP_CLOCK_SKEW',
  'TIMESTAMP_REDIRECT_REFUSED',
  NET_ERROR_CODES.network.timestamp,
  NET_ERROR_CODES.timeout.timestamp,
  NET_ERROR_CODES.aborted.timestamp,
] as const

/**
 * Why one authority gave no token: a code of {@link TIMESTAMP_FAILURE_CODES}, or a problem the token
 * check found in its token.
 * @category Errors
 */
export type TimestampFailureCode = (typeof TIMESTAMP_FAILURE_CODES)[number] | TimestampProblem

/**
 * Why one authority gave no usable token.
 * @category Errors
 */
export interface TimestampAuthorityFailure {
  /** The authority's URL. */
  readonly authority: string
  /**
   * `TIMESTAMP_HTTP_ERROR`, `TIMESTAMP_NETWORK_ERROR`, `TIMESTAMP_TIMEOUT`, `TIMESTAMP_REJECTED`
   * (PKIStatus not granted), `TIMESTAMP_BAD_REPLY` (unreadable reply, nonce not echoed), `TIMESTAMP_CLOCK_SKEW`,
   * `TIMESTAMP_REDIRECT_REFUSED` (see {@link TimestampAuthorityFailure.redirect}), `ABORTED`, or a
   * `TimestampProblem` from the token check (`TIMESTAMP_IMPRINT_MISMATCH`, `TIMESTAMP_BAD_SIGNATURE`, ...).
   */
  readonly code: TimestampFailureCode
  readonly detail: string
  /**
   * With `TIMESTAMP_REDIRECT_REFUSED`: why the authority's redirect was not followed. As on every edge,
   * a redirect is followed only within the authority's origin (307/308, at most 3 hops); one to another
   * origin (`cross-origin`), or a 301/302/303 that would turn the POST into a GET (`method-change`), is
   * refused before any request goes there.
   */
  readonly redirect?: RedirectRefusal
}

const CHOICE = 'retry later, name another authority (--tsa URL / authorities), or commit knowingly without a time-stamp (--no-timestamp; the draw will then not prove when it was committed)'

/**
 * No authority gave a usable token (`TIMESTAMP_UNAVAILABLE`); {@link failures} says why, per authority.
 * @category Errors
 */
export class TimestampUnavailableError extends OrbitdrawError<'TIMESTAMP_UNAVAILABLE'> {
  static {
    Object.defineProperty(this, 'name', { value: 'TimestampUnavailableError' })
  }

  constructor(readonly failures: readonly TimestampAuthorityFailure[]) {
    super('TIMESTAMP_UNAVAILABLE', `no time-stamping authority gave a valid token: ${failures.map((f) => `${f.authority}: ${f.code} (${f.detail})`).join('; ')}`, CHOICE)
  }
}
