/**
 * A round's choice of how many members each cell gives (docs/spec.md, The `panel` draw): for each cell
 * in order, `x` uniform in `[0, W_i(s))` and the first count whose cumulative block exceeds `x`, with
 * each visited state's cumulative blocks cached per counter. Moved out of `round.ts` unchanged.
 *
 * @module
 */
import type { RandomStream } from '../random/stream.js'
import { bigSampler, drawIndex, type BigSampler } from '../random/uniform.js'
import { ChaChaStream } from '../random/stream.js'
import type { Counter } from './count.js'

/**
 * The round's choice of count for each cell in order (docs/spec.md, The panel draw): for each cell,
 * `x` uniform in `[0, W_i(s))`, then the first count whose cumulative block exceeds `x`: the same
 * bytes and the same choice as subtracting the blocks one by one.
 */
export function chooseCounts(counter: Counter, stream: RandomStream, counts: { [i: number]: number }): void {
  const { layers, cells } = counter
  const steps = stepsOf(counter)
  let s = 0
  for (let i = 0; i < cells.length; i++) {
    const step = stepOf(counter, steps, i, s)
    let chosen: number
    if (step.small !== undefined) {
      const x = step.small < 2 ? 0 : drawIndex(stream, step.small)
      const cum = step.smallCum!
      chosen = 0
      while (x >= cum[chosen]!) chosen++
    } else chosen = chooseBig(stream, step)
    const p = step.trans[chosen]!
    const t = layers[i]!.trans
    counts[i] = t[p]!
    s = t[p + 1]!
  }
}

/**
 * The spec's `uniform(W_i(s))` and the choice of count for a `W_i(s)` above 2^53, from the top 48 bits
 * of each attempt's bytes: an attempt and a cumulative block are compared as bigints only when their
 * top 48 bits are equal (about once in 2^47 comparisons), so a round builds no bigint. The same bytes
 * read, the same attempts rejected and the same count chosen as {@link drawBig} and the block scan.
 */
function chooseBig(stream: RandomStream, step: Step): number {
  const { L, topMask, n } = step.sampler!
  const cum = step.cum!
  const cumTop = step.cumTop!
  const nTop = step.nTop!
  for (;;) {
    let bytes: Uint8Array
    let off = 0
    if (stream instanceof ChaChaStream && stream.pos + L <= stream.end) {
      bytes = stream.buf
      off = stream.pos
      stream.pos = off + L
    } else bytes = stream.nextBytes(L)
    let top = bytes[off]! & topMask
    for (let q = 1; q < 6; q++) top = top * 256 + bytes[off + q]!
    if (top > nTop) continue
    let x: bigint | undefined
    if (top === nTop && (x = bigOf(bytes, off, L, topMask)) >= n) continue
    // The first count whose cumulative top is at least the attempt's; its block holds x unless the tops tie.
    let lo = 0
    let hi = cumTop.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumTop[mid]! < top) lo = mid + 1
      else hi = mid
    }
    while (cumTop[lo]! === top) {
      x ??= bigOf(bytes, off, L, topMask)
      if (x < cum[lo]!) break
      lo++
    }
    return lo
  }
}

/**
 * The count position {@link relaxedPanel} chooses for a state with completion count `total` and
 * cumulative blocks `cum` (ascending, the last equal to `total`), on `stream`: for tests of the
 * 48-bit fast path against the spec's literal rule.
 * @internal
 */
export function chooseCount(stream: RandomStream, total: bigint, cum: readonly bigint[]): number {
  if (total <= MAX_SAFE) {
    const x = total < 2n ? 0 : drawIndex(stream, Number(total))
    return cum.findIndex((c) => BigInt(x) < c)
  }
  const sampler = bigSampler(total)
  const shift = BigInt(8 * (sampler.L - 6))
  return chooseBig(stream, { trans: new Int32Array(cum.length), sampler, cum: [...cum], cumTop: Float64Array.from(cum, (x) => Number(x >> shift)), nTop: Number(total >> shift) })
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** The big-endian integer of `bytes[off … off + L)`, its first byte masked (as {@link drawBig} reads it). */
function bigOf(bytes: Uint8Array, off: number, L: number, topMask: number): bigint {
  let hex = '0x' + HEX[bytes[off]! & topMask]!
  for (let q = 1; q < L; q++) hex += HEX[bytes[off + q]!]!
  return BigInt(hex)
}

/**
 * One state's choice of count, precomputed once per visited state: the cumulative blocks
 * `Σ_{c' ≤ c} C(n_i, c') · W_{i+1}(next(s, c'))` of its transitions with a non-empty block, and the
 * uniform sampler of `W_i(s)` (numbers when `W_i(s)` is a safe integer).
 */
interface Step {
  /** Positions (into the layer's `trans`) of the transitions with a non-empty block, in order. */
  readonly trans: Int32Array
  readonly small?: number
  readonly smallCum?: Float64Array
  readonly sampler?: BigSampler
  readonly cum?: bigint[]
  /** `floor(cum[c] / 2^(8·(L − 6)))` and `floor(W_i(s) / 2^(8·(L − 6)))`: the top 48 bits (numbers). */
  readonly cumTop?: Float64Array
  readonly nTop?: number
}

/**
 * Cached steps per layer, indexed by state (an array per layer, allocated at its first visit: a
 * lookup is an index, not a hash); at most {@link STEP_CACHE_BLOCKS} blocks kept per counter (memory bound).
 */
interface StepCache {
  readonly layers: ((Step | undefined)[] | undefined)[]
  blocks: number
}
const stepCaches = new WeakMap<Counter, StepCache>()
const STEP_CACHE_BLOCKS = 4_000_000

function stepsOf(counter: Counter): StepCache {
  let c = stepCaches.get(counter)
  if (c === undefined) stepCaches.set(counter, (c = { layers: counter.cells.map(() => undefined), blocks: 0 }))
  return c
}

function stepOf(counter: Counter, cache: StepCache, i: number, s: number): Step {
  let layer = cache.layers[i]
  if (layer === undefined) cache.layers[i] = layer = new Array<Step | undefined>(counter.layers[i]!.size).fill(undefined)
  const hit = layer[s]
  if (hit !== undefined) return hit
  const L = counter.layers[i]!
  const W = counter.layers[i + 1]!.ways
  const b = counter.binom[i]!
  const t = L.trans
  const total = L.ways[s]!
  const pos: number[] = []
  const cum: bigint[] = []
  let acc = 0n
  for (let p = 2 * L.start[s]!; p < 2 * L.start[s + 1]!; p += 2) {
    const block = b[t[p]!]! * W[t[p + 1]!]!
    if (block === 0n) continue
    acc += block
    pos.push(p)
    cum.push(acc)
  }
  const trans = Int32Array.from(pos)
  let step: Step
  if (total <= MAX_SAFE) step = { trans, small: Number(total), smallCum: Float64Array.from(cum, Number) }
  else {
    const sampler = bigSampler(total)
    const shift = BigInt(8 * (sampler.L - 6))
    step = { trans, sampler, cum, cumTop: Float64Array.from(cum, (x) => Number(x >> shift)), nTop: Number(total >> shift) }
  }
  if (cache.blocks + cum.length <= STEP_CACHE_BLOCKS) {
    cache.blocks += cum.length
    layer[s] = step
  }
  return step
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)
