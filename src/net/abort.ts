/**
 * Abort and timeout plumbing shared by the edges: sleeping that a signal cuts short, racing a shared
 * promise against one caller's signal, and one request's signal composed of the caller's signal and
 * a timeout. Every abort becomes the family's {@link AbortedError} (the edge picks its code).
 *
 * @module
 */
import { AbortedError, type NetEdge } from './errors.js'

/** Who is waiting, for the {@link AbortedError} an abort turns into. */
export interface AbortContext {
  /** The edge waiting. */
  readonly edge: NetEdge
  /** What was under way (`waitFor(12)`, `signed head`), for the message. */
  readonly what?: string | undefined
}

/** The {@link AbortedError} for `signal`'s abort (its reason becomes the `cause`). */
export function abortedError(ctx: AbortContext, reason: unknown): AbortedError {
  return new AbortedError(reason === undefined ? { edge: ctx.edge, what: ctx.what } : { edge: ctx.edge, what: ctx.what, cause: reason })
}

/** Throws {@link AbortedError} when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, ctx: AbortContext): void {
  if (signal?.aborted === true) throw abortedError(ctx, signal.reason)
}

/**
 * The longest delay one `setTimeout` keeps (2^31 − 1 ms, about 24.8 days). Node and browsers fire a
 * longer one after 1 ms (Node also prints a `TimeoutOverflowWarning`), so longer waits are chained.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * Resolves after `ms` (at once for `ms <= 0`), or rejects with {@link AbortedError} as soon as
 * `signal` fires (at once when it already has). The timer is cleared on abort. A wait longer than
 * {@link MAX_TIMER_MS} is several timers in a row, never a timer that fires at once.
 *
 * @example await sleep(250, signal, { edge: 'beacon', what: 'waitFor(12)' })
 */
export function sleep(ms: number, signal: AbortSignal | undefined, ctx: AbortContext): Promise<void> {
  if (signal?.aborted === true) return Promise.reject(abortedError(ctx, signal.reason))
  if (!(ms > 0)) return Promise.resolve()
  return new Promise<void>((resolve, reject) => {
    const cancel = after(ms, () => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    })
    const onAbort = (): void => {
      cancel()
      reject(abortedError(ctx, signal?.reason))
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** Calls `fn` once `ms` have passed, one timer at a time past {@link MAX_TIMER_MS}; returns what cancels it. */
function after(ms: number, fn: () => void): () => void {
  let left = ms
  let timer: ReturnType<typeof setTimeout>
  const arm = (): void => {
    const step = Math.min(left, MAX_TIMER_MS)
    left -= step
    timer = setTimeout(() => (left > 0 ? arm() : fn()), step)
  }
  arm()
  return () => clearTimeout(timer)
}

/**
 * `promise`, unless `signal` fires first: then {@link AbortedError}. The promise itself keeps running
 * (it may be shared by other callers); only this caller stops waiting for it.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined, ctx: AbortContext): Promise<T> {
  if (signal === undefined) return promise
  if (signal.aborted) return Promise.reject(abortedError(ctx, signal.reason))
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortedError(ctx, signal.reason))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort)
        resolve(v)
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(e)
      },
    )
  })
}

/** One request's signal: fires when the caller's signal does or when `timeoutMs` passes. */
export interface TimedSignal {
  /** Pass it to `fetch`. */
  readonly signal: AbortSignal
  /** True once the timeout (not the caller) aborted it. */
  timedOut(): boolean
  /** True when the caller's signal has fired. */
  callerAborted(): boolean
  /** Clears the timer and the listener on the caller's signal. Call it when the request is done. */
  dispose(): void
}

/**
 * Composes the caller's `signal` with a timeout of `timeoutMs` into one {@link TimedSignal} (a timeout
 * past {@link MAX_TIMER_MS} is kept too, not fired at once). Always `dispose()` it (in a `finally`).
 *
 * @example
 * const t = timedSignal(10_000, options.signal)
 * try { await fetch(url, { signal: t.signal }) } finally { t.dispose() }
 */
export function timedSignal(timeoutMs: number, signal: AbortSignal | undefined): TimedSignal {
  const controller = new AbortController()
  let timedOut = false
  const cancel = after(timeoutMs, () => {
    timedOut = true
    controller.abort()
  })
  const onAbort = (): void => controller.abort(signal?.reason)
  if (signal?.aborted === true) controller.abort(signal.reason)
  else signal?.addEventListener('abort', onAbort, { once: true })
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    callerAborted: () => signal?.aborted === true,
    dispose: () => {
      cancel()
      signal?.removeEventListener('abort', onAbort)
    },
  }
}
