/**
 * Backoff between retries, shared by the edges: an exponential ceiling, optional full jitter, and a
 * server's `Retry-After` as a floor.
 *
 * @module
 */

/** Parameters of {@link backoffMs}. */
export interface BackoffOptions {
  /** Retries already made before this one (0 for the first retry). */
  readonly attempt: number
  /** Ceiling of the first retry, ms; doubles with each attempt. */
  readonly baseMs: number
  /** Largest ceiling, ms. */
  readonly maxMs: number
  /** Full jitter: a source of numbers in [0, 1) that scales the ceiling; omit for no jitter. */
  readonly random?: (() => number) | undefined
  /** The server's `Retry-After` (ms): the wait is at least this. */
  readonly retryAfterMs?: number | undefined
}

/**
 * The pause before a retry: `min(maxMs, baseMs · 2^attempt)`, times `random()` when given (full
 * jitter), and never less than `retryAfterMs`. Always finite and at least 0; at most
 * `max(maxMs, retryAfterMs)`.
 *
 * @example backoffMs({ attempt: 2, baseMs: 200, maxMs: 5000 }) // 800
 */
export function backoffMs(o: BackoffOptions): number {
  const attempt = Math.max(0, Math.floor(o.attempt))
  const ceiling = Math.min(o.maxMs, o.baseMs * 2 ** Math.min(attempt, 1023))
  let r = 1
  if (o.random !== undefined) {
    r = o.random()
    if (!(r >= 0)) r = 0
    if (r > 1) r = 1
  }
  const delay = Math.max(0, r * ceiling)
  return o.retryAfterMs === undefined ? delay : Math.max(delay, o.retryAfterMs)
}
