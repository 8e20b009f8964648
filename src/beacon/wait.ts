/**
 * `waitFor`: waiting for a future block, as a plain function over anything that can give the head,
 * walk the chain down and say the publication interval (a {@link BeaconClient} does).
 *
 * @module
 */
import type { BeaconBlock } from '../core/block.js'
import { InvalidInputError } from '../core/errors.js'
import { LIMITS } from '../core/limits.js'
import { sleep, throwIfAborted } from '../net/abort.js'
import { AllGatewaysFailedError, WaitTimeoutError } from './errors.js'
import type { BeaconHead } from './head.js'
import type { SourceCallOptions } from './source.js'

/**
 * What {@link waitFor} needs from a beacon client.
 * @category Beacon
 */
export interface WaitSource {
  /** The latest head accepted so far, without any request. */
  readonly knownHead: BeaconHead | undefined
  /** Polls for the head. */
  latest(options?: SourceCallOptions): Promise<BeaconHead>
  /** Blocks from `from` down to sequence `to`, newest first, each link checked. */
  chainDown(from: BeaconBlock, to: number, options?: SourceCallOptions): Promise<BeaconBlock[]>
  /** The publication interval, ms (may make requests to learn it). */
  intervalMs(options?: SourceCallOptions): Promise<number>
  /** The publication interval as known now, ms, without requests (the configured one, when set). */
  currentIntervalMs(): number
}

/**
 * Progress of {@link waitFor}.
 * @category Beacon
 */
export interface WaitProgress {
  /** Latest sequence seen. */
  readonly sequence: number
  /** The awaited sequence. */
  readonly target: number
  /** Blocks still to come (0 when reached). */
  readonly remaining: number
  /** The publication interval in use, in ms. */
  readonly intervalMs: number
  /** Estimated local time the target appears. */
  readonly estimatedTime: Date
  /** Whether the latest head was authenticated by a signed record. */
  readonly authenticated: boolean
}

/**
 * Options of {@link waitFor}.
 * @category Beacon
 */
export interface WaitOptions extends SourceCallOptions {
  /** Called after each poll. */
  onProgress?: (p: WaitProgress) => void
  /** Give up after this many ms with {@link WaitTimeoutError} (default: never). */
  timeoutMs?: number
  /**
   * While waiting, walk each new head down to this sequence (with `chainDown`: every block checked
   * against its CID, every link by hash), so that when the awaited block appears only the blocks
   * published since the last poll are still to fetch. A draw passes the lowest block its proof carries
   * (the commitment's `after` block). A prefetch that no gateway could serve is left to the final walk
   * (which fails over and retries as usual); a fork or a broken chain ends the wait at once, as the
   * final walk would. Skipped when the walk would be longer than `maxChainBlocks`. Default: no prefetch.
   */
  prefetchDownTo?: number
}

/**
 * Options of the {@link waitFor} function beyond {@link WaitOptions}.
 * @category Beacon
 */
export interface WaitForOptions extends WaitOptions {
  /** Clock in ms (default `Date.now`). */
  now?: () => number
  /** Keep polling through this many consecutive polls where every gateway failed (default 5). */
  maxFailedPolls?: number
  /**
   * Longest `Retry-After` (ms) waited for between polls when every gateway is rate-limited (default
   * 30 000, the client's `maxRetryWaitMs`; one publication interval when that is longer): a longer one
   * ends the wait with the gateways' error.
   */
  maxRetryWaitMs?: number
}

/**
 * Result of {@link waitFor}.
 * @category Beacon
 */
export interface WaitResult {
  /** The awaited block. */
  readonly block: BeaconBlock
  /** Blocks from the head down to the awaited one, newest first (`chain[0]` is the head, last is `block`). */
  readonly chain: readonly BeaconBlock[]
  /** The head the chain starts from (with its record when signed). */
  readonly head: BeaconHead
}

/**
 * Waits until block `n` is published, polling at a pace learned from the chain's timestamps and
 * the record TTL (about once per interval, a few re-polls when a block is late; never a busy loop).
 * Resolves with the verified block and the chain from the head down to it.
 *
 * @throws `AbortedError`, {@link WaitTimeoutError}, `ForkError`, {@link AllGatewaysFailedError}.
 * @example
 * const { block } = await waitFor(new BeaconClient(), plan.target, { onProgress: (p) => console.log(p.remaining) })
 * @category Beacon
 */
export async function waitFor(source: WaitSource, n: number, options: WaitForOptions = {}): Promise<WaitResult> {
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidInputError('INVALID_SEQUENCE', `sequence ${n} is not a non-negative integer`, 'pass a block sequence number')
  const now = options.now ?? Date.now
  const maxFailedPolls = options.maxFailedPolls ?? 5
  const maxRetryWaitMs = options.maxRetryWaitMs ?? 30_000
  const started = now()
  const deadline = options.timeoutMs === undefined ? Infinity : started + options.timeoutMs
  const signal = options.signal
  const ctx = { edge: 'beacon' as const, what: `waitFor(${n})` }
  const call = signal ? { signal } : {}
  let interval: number | undefined
  let lastSeq = -1
  let lastChangeAt = now()
  let failedPolls = 0
  const floor = options.prefetchDownTo
  if (floor !== undefined && (!Number.isSafeInteger(floor) || floor < 0 || floor > n)) {
    throw new InvalidInputError('INVALID_SEQUENCE', `prefetchDownTo ${floor} is not a sequence at or below ${n}`, 'pass the lowest block the caller needs (at or below the awaited one)')
  }
  /** The highest block walked down to `floor` so far: the next prefetch stops there. */
  let walkedTop: BeaconBlock | undefined
  for (;;) {
    throwIfAborted(signal, ctx)
    let head: BeaconHead
    try {
      head = await source.latest(call)
      failedPolls = 0
    } catch (err) {
      // A poll that finds no gateway answering is retried at the next poll (a long wait should
      // survive a network blip); forks, aborts and repeated failures end the wait.
      if (!(err instanceof AllGatewaysFailedError) || ++failedPolls > maxFailedPolls || source.knownHead === undefined) throw err
      if (interval === undefined) interval = await source.intervalMs(call).catch(() => undefined)
      // A gateway asking for a longer pause than the caller accepts (hours, years) ends the wait now,
      // as a failover round does, rather than sleeping silently for it: up to maxRetryWaitMs, or one
      // publication interval when that is longer.
      if ((err.retryAfterMs ?? 0) > Math.max(maxRetryWaitMs, interval ?? 0)) throw err
      // Exponential backoff from a quarter interval (1 s when the interval is not known).
      const base = interval === undefined ? 1000 : clamp(interval / 4, 100, 5000)
      const pause = Math.max(err.retryAfterMs ?? 0, Math.min(base * 2 ** (failedPolls - 1), Math.max(interval ?? 0, 30_000)))
      if (now() + pause > deadline) throw err
      await sleep(pause, signal, ctx)
      continue
    }
    if (head.block.sequence >= n) {
      const chain = await source.chainDown(head.block, n, call)
      options.onProgress?.({ sequence: head.block.sequence, target: n, remaining: 0, intervalMs: interval ?? source.currentIntervalMs(), estimatedTime: new Date(now()), authenticated: head.authenticated })
      return { block: chain[chain.length - 1]!, chain, head }
    }
    if (interval === undefined) interval = await source.intervalMs(call)
    const t = now()
    if (head.block.sequence !== lastSeq) {
      // First sight: the head was published before we saw it; its timestamp (publisher clock,
      // whole seconds) says how long before, bounded by one interval against clock skew.
      const age = lastSeq === -1 ? clamp(t - head.block.timestamp * 1000, 0, interval) : 0
      lastSeq = head.block.sequence
      lastChangeAt = t - age
    }
    interval = source.currentIntervalMs()
    const remaining = n - head.block.sequence
    const eta = Math.max(t, lastChangeAt + remaining * interval)
    options.onProgress?.({ sequence: head.block.sequence, target: n, remaining, intervalMs: interval, estimatedTime: new Date(eta), authenticated: head.authenticated })
    if (t >= deadline) throw new WaitTimeoutError(n, head.block.sequence, options.timeoutMs!)
    // Next poll: when the next block is due (but at most one interval away so progress stays visible);
    // when it is late, re-poll at a quarter of min(interval, TTL). Never faster than 100 ms.
    const ttl = head.recordInfo?.ttlMs
    const repoll = clamp(Math.min(interval, ttl !== undefined && ttl > 0 ? ttl : interval) / 4, 100, interval)
    const due = lastChangeAt + interval - t
    let wait = due > 0 ? Math.min(due + Math.min(50, interval / 10), interval) : repoll
    wait = Math.max(100, Math.min(wait, deadline - t))
    if (floor !== undefined && head.block.sequence > (walkedTop?.sequence ?? floor - 1) && head.block.sequence - floor + 1 <= LIMITS.maxChainBlocks) {
      // The time until the next poll walks the new blocks (the pause shrinks by the walk's time).
      if (await prefetch(source, head.block, walkedTop?.sequence ?? floor, call)) walkedTop = head.block
      wait = Math.max(0, wait - (now() - t))
    }
    await sleep(wait, signal, ctx)
  }
}

/**
 * Walks `from` down to sequence `to` ahead of need; false when no gateway could serve a block (not an
 * answer about the chain: a later walk asks again). Everything else (a fork, a broken link, an abort) is thrown.
 */
async function prefetch(source: WaitSource, from: BeaconBlock, to: number, call: SourceCallOptions): Promise<boolean> {
  try {
    await source.chainDown(from, to, call)
    return true
  } catch (err) {
    if (!(err instanceof AllGatewaysFailedError)) throw err
    return false
  }
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(Math.max(x, lo), Math.max(lo, hi))
}
