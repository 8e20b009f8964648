/**
 * The REST client's retry policy: bounded attempts, each with its own timeout, exponential backoff
 * with full jitter (at least the server's `Retry-After`), and one deadline for the whole call.
 *
 * @module
 */
import type { OrbitdrawError } from '../core/errors.js'
import { sleep, throwIfAborted, timedSignal, type TimedSignal } from '../net/abort.js'
import { backoffMs } from '../net/backoff.js'
import { TimeoutError } from '../net/errors.js'

/** Thrown by an attempt to say it may be retried (the wrapped error is thrown when it may not). */
export class Retryable {
  constructor(
    readonly error: OrbitdrawError,
    readonly retryAfterMs?: number,
  ) {}
}

/** One HTTP attempt's signals. */
export interface AttemptContext {
  /** Aborts on the attempt timeout, the deadline, or the caller's signal. */
  readonly signal: AbortSignal
  readonly callerSignal: AbortSignal | undefined
  /** True when the attempt was cut short by the whole-call deadline rather than its own timeout. */
  deadlineHit(): boolean
}

/** What one attempt returns: the body text, or `again` to repeat at once without counting a retry. */
export type AttemptResult = { text: string } | { again: true }

/** The retry policy with its defaults filled in. */
export interface ResolvedRetry {
  readonly retries: number
  readonly baseDelayMs: number
  readonly maxDelayMs: number
  readonly deadlineMs: number
  readonly random: () => number
}

/** The retry policy with the per-attempt timeout. */
export interface RetryPolicy extends ResolvedRetry {
  /** Timeout of one attempt, ms. */
  readonly timeoutMs: number
}

const ABORT = { edge: 'rest' } as const

/**
 * Runs `attempt` with bounded retries. `attempt` gets `begin`, which starts the attempt's timer (call
 * it when the request is sent, not while waiting for a token) and returns its signals. A thrown
 * {@link Retryable} is retried with backoff and jitter within the count and the deadline; anything
 * else ends the call.
 *
 * @param onRetry - told about each retry (for logging).
 */
export async function withRetries(
  policy: RetryPolicy,
  url: string,
  signal: AbortSignal | undefined,
  attempt: (begin: () => AttemptContext) => Promise<AttemptResult>,
  onRetry?: (info: { error: OrbitdrawError; retry: number; delayMs: number }) => void,
): Promise<string> {
  const deadline = performance.now() + policy.deadlineMs
  let retry = 0
  for (;;) {
    throwIfAborted(signal, ABORT)
    let timed: TimedSignal | undefined
    const begin = (): AttemptContext => {
      const remaining = deadline - performance.now()
      if (remaining <= 0) throw new TimeoutError({ edge: 'rest', url, timeoutMs: policy.deadlineMs, scope: 'deadline' })
      const limit = Math.min(policy.timeoutMs, remaining)
      const t = timedSignal(limit, signal)
      timed = t
      return { signal: t.signal, callerSignal: signal, deadlineHit: () => t.timedOut() && limit < policy.timeoutMs }
    }
    try {
      const r = await attempt(begin)
      if ('text' in r) return r.text
      continue
    } catch (err) {
      if (!(err instanceof Retryable)) throw err
      if (retry >= policy.retries) throw err.error
      const delay = backoffMs({ attempt: retry, baseMs: policy.baseDelayMs, maxMs: policy.maxDelayMs, random: policy.random, retryAfterMs: err.retryAfterMs })
      if (performance.now() + delay >= deadline) throw err.error
      retry++
      onRetry?.({ error: err.error, retry, delayMs: delay })
      await sleep(delay, signal, ABORT)
    } finally {
      timed?.dispose()
    }
  }
}
