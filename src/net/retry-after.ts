/**
 * `Retry-After` (RFC 9110 section 10.2.3), one parser for every edge, in one unit: milliseconds.
 *
 * @module
 */

const DELTA_SECONDS = /^\d{1,15}$/
// IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`.
const HTTP_DATE_GMT = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]{0,6}, [0-9]{2}[ -][A-Z][a-z]{2}[ -][0-9]{2,4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$/
// Obsolete asctime `Sun Nov  6 08:49:37 1994` (always UTC).
const ASCTIME = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]{4}$/

/**
 * How long a `Retry-After` header asks to wait, in ms: delta-seconds (`120`) or an HTTP-date (a date
 * in the past is 0). `undefined` when the header is absent or is neither form (`soon`, `-5`, `1.5`):
 * loose date parsing would read garbage such as `-5` as a date.
 *
 * @param nowMs - the client's clock, for HTTP-dates.
 * @example retryAfterMs('120', Date.now()) // 120000
 * @example retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT')) // 60000
 */
export function retryAfterMs(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined
  const v = value.trim()
  if (DELTA_SECONDS.test(v)) return Number(v) * 1000
  let t = Number.NaN
  if (HTTP_DATE_GMT.test(v)) t = Date.parse(v)
  else if (ASCTIME.test(v)) t = Date.parse(`${v} GMT`)
  if (!Number.isFinite(t)) return undefined
  return Math.max(0, t - nowMs)
}
