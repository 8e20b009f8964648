/**
 * The beacon's publication interval, learned from what the client has seen: the chain's own
 * timestamps when they span enough blocks, else when heads were first seen, else the genesis block's
 * configured interval, else a hint. Pure: no requests, no clock.
 *
 * @module
 */
import type { BeaconBlock } from '../core/block.js'

/** A head and the local time it was first seen (ms). */
export interface SeenHead {
  readonly sequence: number
  readonly at: number
}

/** An interval estimate. */
export interface IntervalEstimate {
  /** The interval, ms (at least 100). */
  readonly ms: number
  /** Seconds between the lowest and highest non-genesis block timestamps used (0 when none). */
  readonly spanSeconds: number
}

/** Default interval when nothing is known (ms). */
export const DEFAULT_INTERVAL_MS = 60_000

/**
 * The span of block timestamps (seconds) from which the interval is taken as read: whole-second
 * timestamps then err by at most a tenth. A shorter span yields to a consistent genesis interval, and
 * the client walks back further to reach this one (`BeaconClient.intervalMs`).
 */
export const RELIABLE_SPAN_SECONDS = 10

/**
 * Estimates the publication interval from `chain` (blocks known to be in the chain), `seen` (heads in
 * the order first seen) and, as a last resort, `hintMs` (default {@link DEFAULT_INTERVAL_MS}). An
 * estimate from block timestamps over one day a block is implausible and passed over, as a genesis
 * block's stated interval over a day is: timestamps are the publisher's (or, for an unsigned head, a
 * gateway's) and blocks dated 2^40 s apart put every expected time past what a date holds.
 *
 * @example estimateInterval(knownBlocks, seenHeads).ms // 60000 for a chain published once a minute
 */
export function estimateInterval(chain: Iterable<BeaconBlock>, seen: readonly SeenHead[], hintMs?: number): IntervalEstimate {
  let lo: BeaconBlock | undefined
  let hi: BeaconBlock | undefined
  let genesis: BeaconBlock | undefined
  for (const b of chain) {
    if (b.sequence === 0) {
      genesis = b // genesis may predate the first block by any time
      continue
    }
    if (lo === undefined || b.sequence < lo.sequence) lo = b
    if (hi === undefined || b.sequence > hi.sequence) hi = b
  }
  const spanSeconds = lo !== undefined && hi !== undefined ? hi.timestamp - lo.timestamp : 0
  // The genesis block's configured interval (Go time.Duration, nanoseconds), when it is known.
  const configured = genesis === undefined ? undefined : genesisIntervalMs(genesis)
  if (lo !== undefined && hi !== undefined && hi.sequence > lo.sequence && spanSeconds >= 2) {
    const blocks = hi.sequence - lo.sequence
    const ms = Math.max(100, (spanSeconds * 1000) / blocks)
    // Whole-second timestamps put the real span within 1 s of the one read: over a short span the
    // estimate can be off by half (2 s read for 1.1 s). The configured interval, when the timestamps
    // allow it, is then the better figure; over a long span the timestamps (the real pace) win.
    if (spanSeconds < RELIABLE_SPAN_SECONDS && configured !== undefined && configured >= ((spanSeconds - 1) * 1000) / blocks && configured <= ((spanSeconds + 1) * 1000) / blocks) {
      return { ms: configured, spanSeconds }
    }
    if (ms <= MAX_INTERVAL_MS) return { ms, spanSeconds }
  }
  const first = seen[0]
  const last = seen[seen.length - 1]
  if (first !== undefined && last !== undefined && last.sequence > first.sequence && last.at > first.at) {
    return { ms: Math.max(100, (last.at - first.at) / (last.sequence - first.sequence)), spanSeconds }
  }
  if (configured !== undefined) return { ms: configured, spanSeconds }
  if (lo !== undefined && hi !== undefined && hi.sequence > lo.sequence && spanSeconds < 2) {
    // Whole-second timestamps over a short span: an upper bound, halved.
    return { ms: Math.max(100, ((spanSeconds + 1) * 1000) / (hi.sequence - lo.sequence) / 2), spanSeconds }
  }
  return { ms: hintMs ?? DEFAULT_INTERVAL_MS, spanSeconds }
}

/** Shortest and longest genesis `metadata.interval` taken as plausible (100 ms, 1 day), in ns. */
const MIN_INTERVAL_NS = 100_000_000
const MAX_INTERVAL_NS = 86_400_000_000_000
/** The longest interval taken as plausible, in ms (1 day). */
const MAX_INTERVAL_MS = MAX_INTERVAL_NS / 1_000_000

/**
 * The publication interval a genesis block's `metadata.interval` states, in ms. The publisher writes
 * a Go `time.Duration`: integer **nanoseconds** (60 s = 60000000000). `undefined` when the block has
 * no such field, or a value that is not an integer between 100 ms and 1 day (a value in seconds or
 * ms, as some tools write, is thus ignored rather than misread). Chain timestamps, when they span
 * enough blocks, are preferred over it: the configured interval and the real pace differ.
 *
 * @example genesisIntervalMs(genesis) // 60000 for {"metadata":{"interval":60000000000}}
 * @category Beacon
 */
export function genesisIntervalMs(block: Pick<BeaconBlock, 'sequence' | 'metadata'>): number | undefined {
  if (block.sequence !== 0) return undefined
  const v = block.metadata?.interval
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < MIN_INTERVAL_NS || v > MAX_INTERVAL_NS) return undefined
  return v / 1_000_000
}
