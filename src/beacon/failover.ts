/**
 * Failover across several {@link BlockSource}s (gateways): each operation goes to the source that
 * last worked first, then to the others in order, for `1 + retries` rounds. A source that answered
 * 429 is skipped until its `Retry-After` passed; between rounds the client waits for the earliest one
 * (when within `maxRetryWaitMs`) or a short linear backoff. Every failure is kept, typed, in
 * {@link AllGatewaysFailedError}.
 *
 * @module
 */
import type { BeaconBlock } from '../core/block.js'
import { OrbitdrawError } from '../core/errors.js'
import { sleep, throwIfAborted } from '../net/abort.js'
import { AbortedError, RateLimitedError } from '../net/errors.js'
import { AllGatewaysFailedError, BadResponseError, ChainBrokenError, ForkError, LegacyBlockError, StaleResponseError, type GatewayFailure } from './errors.js'
import type { BlockSource, HeadAnswer, RecordAnswer, SourceCallOptions } from './source.js'

/** Extra sleep past a source's Retry-After deadline, covering timer and clock drift (ms). */
const RETRY_AFTER_MARGIN_MS = 50

/** Failover policy. */
export interface FailoverOptions {
  /** Extra rounds over all sources after every source failed once. */
  readonly retries: number
  /** Base pause between rounds, ms (round r waits `r · retryDelayMs`). */
  readonly retryDelayMs: number
  /** Longest Retry-After (ms) waited for on its own before giving up. */
  readonly maxRetryWaitMs: number
  /** Clock in ms. */
  readonly now: () => number
}

/**
 * Errors that end an operation at once instead of trying the next source: the caller aborted, or the
 * answer proves something about the beacon itself (a fork, a broken chain, an old-format block that
 * every source serves alike).
 */
function isFinal(err: unknown): boolean {
  return err instanceof AbortedError || err instanceof ForkError || err instanceof ChainBrokenError || err instanceof LegacyBlockError
}

/**
 * A {@link BlockSource} over several sources with failover and rate-limit pauses.
 *
 * @example
 * const source = new FailoverSource(gateways.map((g) => new GatewaySource(g, http)), { retries: 1, retryDelayMs: 250, maxRetryWaitMs: 30_000, now: Date.now })
 */
export class FailoverSource implements BlockSource {
  /** The sources, in their configured order. */
  readonly sources: readonly BlockSource[]
  readonly id: string
  readonly #o: FailoverOptions
  readonly #blockedUntil = new Map<string, number>()
  #preferred = 0

  constructor(sources: readonly BlockSource[], options: FailoverOptions) {
    if (sources.length === 0) throw new RangeError('FailoverSource needs at least one source')
    this.sources = Object.freeze([...sources])
    this.id = this.sources.map((s) => s.id).join(', ')
    this.#o = options
  }

  async block(cid: string, options: SourceCallOptions = {}): Promise<BeaconBlock> {
    return this.#must(`block ${cid}`, options.signal, (s) => s.block(cid, options))
  }

  async record(name: string, options: SourceCallOptions = {}): Promise<RecordAnswer> {
    return this.#must(`IPNS record of ${name}`, options.signal, (s) => s.record(name, options))
  }

  async unsignedHead(name: string, options: SourceCallOptions = {}): Promise<HeadAnswer> {
    return this.#must(`unsigned head of ${name}`, options.signal, (s) => s.unsignedHead(name, options))
  }

  async #must<T>(what: string, signal: AbortSignal | undefined, op: (s: BlockSource) => Promise<T>): Promise<T> {
    const failures: GatewayFailure[] = []
    const got = await this.firstOf(what, signal, failures, op)
    if (got === undefined) throw new AllGatewaysFailedError(what, failures)
    return got.value
  }

  /**
   * Runs `op` on each usable source (the last one that worked first) until one succeeds, for up to
   * `1 + retries` rounds. Failures are appended to `failures` (an {@link AllGatewaysFailedError} from
   * a nested failover contributes its own); `undefined` when every attempt failed. Rounds stop early
   * when a whole round answered only {@link StaleResponseError}s (a later round would say the same).
   */
  async firstOf<T>(what: string, signal: AbortSignal | undefined, failures: GatewayFailure[], op: (s: BlockSource) => Promise<T>, retries = this.#o.retries): Promise<{ value: T } | undefined> {
    const n = this.sources.length
    for (let round = 0; round <= retries; round++) {
      if (round > 0) {
        const now = this.#o.now()
        const soonest = Math.min(...this.sources.map((s) => (this.#blockedUntil.get(s.id) ?? 0) - now))
        // Sleep a little past a Retry-After deadline: a timer may fire before the clock reaches it,
        // and the source must not still look blocked when the round starts.
        const wait = Math.max(this.#o.retryDelayMs * round, soonest > 0 ? soonest + RETRY_AFTER_MARGIN_MS : 0)
        if (wait > this.#o.maxRetryWaitMs) break
        const roundFailures = failures.slice(-n)
        if (roundFailures.length > 0 && roundFailures.every((f) => f.error instanceof StaleResponseError)) break
        await sleep(wait, signal, { edge: 'beacon', what })
      }
      for (let i = 0; i < n; i++) {
        const source = this.sources[(this.#preferred + i) % n]!
        throwIfAborted(signal, { edge: 'beacon', what })
        const blocked = this.#blockedUntil.get(source.id) ?? 0
        if (blocked > this.#o.now()) {
          failures.push({ gateway: source.id, error: new RateLimitedError({ edge: 'beacon', url: source.id, retryAfterMs: blocked - this.#o.now(), what }) })
          continue
        }
        try {
          const value = await op(source)
          this.#preferred = this.sources.indexOf(source)
          return { value }
        } catch (err) {
          if (isFinal(err)) throw err
          if (err instanceof AllGatewaysFailedError) {
            failures.push(...err.failures)
            continue
          }
          const e = err instanceof OrbitdrawError ? err : new BadResponseError(source.id, what, String(err), { cause: err })
          if (e instanceof RateLimitedError) this.#blockedUntil.set(source.id, this.#o.now() + (e.retryAfterMs ?? 0))
          failures.push({ gateway: source.id, error: e })
        }
      }
    }
    return undefined
  }
}
