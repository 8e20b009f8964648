/**
 * A round's choice of how many members each cell gives (docs/spec.md, The `panel` draw): for each cell
 * in order, `x` uniform in `[0, W_i(s))` and the first count whose cumulative block
 * `Σ_{c' ≤ c} C(n_i, c') · W_{i+1}(next(s, c'))` exceeds `x`.
 *
 * Each visited state's cumulative blocks are kept per counter in flat typed arrays, one slot per
 * transition of the layer (no object per state): when `W_i(s)` is a safe integer the blocks themselves
 * (exact doubles), else their top 48 bits as read by the sampler, `floor(cum / 2^(8·(L − 6)))`. A
 * round then builds no bigint: an attempt and a block are compared exactly only when their top 48 bits
 * are equal (about once in 2^47 comparisons), the block then recomputed from the counter.
 *
 * @module
 */
import type { RandomStream } from '../random/stream.js'
import { drawIndex } from '../random/uniform.js'
import { ChaChaStream } from '../random/stream.js'
import { countsAsDoubles, type Counter } from './count.js'

/**
 * The round's choice of count for each cell in order (docs/spec.md, The panel draw): for each cell,
 * `x` uniform in `[0, W_i(s))`, then the first count whose cumulative block exceeds `x`: the same
 * bytes and the same choice as subtracting the blocks one by one.
 */
export function chooseCounts(counter: Counter, stream: RandomStream, counts: { [i: number]: number }): void {
  const c = cacheOf(counter)
  const { stateBase, first, next, count, bytes: bytesOf, top, cum } = c
  const T = stateBase.length - 1
  let s = 0
  for (let i = 0; i < T; i++) {
    const g = stateBase[i]! + s
    let bytes = bytesOf[g]!
    if (bytes === 0) bytes = fillState(counter, c, i, s, g)
    let q = first[g]!
    if (bytes < 0) {
      // W_i(s) is a safe integer: the blocks are exact doubles.
      const total = top[g]!
      const x = total < 2 ? 0 : drawIndex(stream, total)
      while (x >= cum[q]!) q++
    } else {
      const exact = c.exact
      exact.i = i
      exact.s = s
      q = chooseBig(stream, bytes, c.mask[g]!, top[g]!, counter.layers[i]!.ways[s]!, cum, q, first[g + 1]!, exact)
    }
    counts[i] = count[q]!
    s = next[q]!
  }
}

/** Block `q`'s exact cumulative value (a tie of the top 48 bits). */
interface ExactBlocks {
  at(q: number): bigint
}

/**
 * The spec's `uniform(W_i(s))` and the choice of count for a `W_i(s)` above 2^53 (`n`, read with `L`
 * bytes and `topMask`), from the top 48 bits of each attempt's bytes: the same bytes read, the same
 * attempts rejected and the same count chosen as `drawBig` and the block scan. `cumTop[from … to)` are
 * the top 48 bits of the cumulative blocks and `nTop` those of `n`; `exact.at(q)` gives block `q`'s exact
 * cumulative value, asked for only when the tops tie. Returns the chosen index in `[from, to)`.
 */
function chooseBig(stream: RandomStream, L: number, topMask: number, nTop: number, n: bigint, cumTop: Float64Array, from: number, to: number, exact: ExactBlocks): number {
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
    let lo = from
    let hi = to - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumTop[mid]! < top) lo = mid + 1
      else hi = mid
    }
    while (cumTop[lo]! === top) {
      x ??= bigOf(bytes, off, L, topMask)
      if (x < exact.at(lo)) break
      lo++
    }
    return lo
  }
}

/**
 * The count position `relaxedPanel` chooses for a state with completion count `total` and
 * cumulative blocks `cum` (ascending, the last equal to `total`), on `stream`: for tests of the
 * 48-bit fast path against the spec's literal rule.
 * @internal
 */
export function chooseCount(stream: RandomStream, total: bigint, cum: readonly bigint[]): number {
  if (total <= MAX_SAFE) {
    const x = total < 2n ? 0 : drawIndex(stream, Number(total))
    return cum.findIndex((c) => BigInt(x) < c)
  }
  const { L, topMask } = samplerOf(total)
  const shift = BigInt(8 * (L - 6))
  return chooseBig(stream, L, topMask, Number(total >> shift), total, Float64Array.from(cum, (x) => Number(x >> shift)), 0, cum.length, { at: (q) => cum[q]! })
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** The big-endian integer of `bytes[off … off + L)`, its first byte masked (as `drawBig` reads it). */
function bigOf(bytes: Uint8Array, off: number, L: number, topMask: number): bigint {
  let hex = '0x' + HEX[bytes[off]! & topMask]!
  for (let q = 1; q < L; q++) hex += HEX[bytes[off + q]!]!
  return BigInt(hex)
}

/**
 * A counter's cached choices, every layer in one set of flat typed arrays (state `s` of layer `i` is
 * `g = stateBase[i] + s`; its transitions are `first[g] … first[g + 1] − 1`, numbered across layers):
 * per transition the count it takes (`count`), the next layer's state (`next`) and `cum`: the
 * cumulative block (when `W_i(s)` is safe) or its top 48 bits, filled at the state's first visit; per
 * state `bytes` (0 = not filled yet; −1 = `W_i(s)` is a safe integer; else the sampler's bytes per
 * attempt), `mask` (the sampler's top-byte mask) and `top` (`W_i(s)` itself when safe, else its top 48
 * bits).
 */
interface CounterCache {
  readonly stateBase: Int32Array
  readonly first: Int32Array
  readonly count: Int32Array
  readonly next: Int32Array
  readonly cum: Float64Array
  readonly bytes: Int32Array
  readonly mask: Uint8Array
  readonly top: Float64Array
  /** The counter's completion counts and binomials as doubles (`countsAsDoubles`). */
  readonly waysN: readonly Float64Array[]
  readonly binomN: readonly Float64Array[]
  /** The exact blocks of the state being chosen (set before each big choice). */
  readonly exact: ExactBlocks & { i: number; s: number }
}

const caches = new WeakMap<Counter, CounterCache>()

function cacheOf(counter: Counter): CounterCache {
  let c = caches.get(counter)
  if (c === undefined) caches.set(counter, (c = newCache(counter)))
  return c
}

function newCache(counter: Counter): CounterCache {
  const T = counter.cells.length
  const stateBase = new Int32Array(T + 1)
  let states = 0
  let transitions = 0
  for (let i = 0; i < T; i++) {
    stateBase[i] = states
    states += counter.layers[i]!.size
    transitions += counter.layers[i]!.trans.length >> 1
  }
  stateBase[T] = states
  const first = new Int32Array(states + 1)
  const count = new Int32Array(transitions)
  const next = new Int32Array(transitions)
  let t0 = 0
  for (let i = 0; i < T; i++) {
    const { size, start, trans } = counter.layers[i]!
    const g0 = stateBase[i]!
    for (let s = 0; s < size; s++) first[g0 + s] = t0 + start[s]!
    const n = trans.length >> 1
    for (let q = 0; q < n; q++) {
      count[t0 + q] = trans[2 * q]!
      next[t0 + q] = trans[2 * q + 1]!
    }
    t0 += n
  }
  first[states] = t0
  const exact = {
    i: 0,
    s: 0,
    at(q: number): bigint {
      return exactCum(counter, this.i, this.s, q - first[stateBase[this.i]! + this.s]!)
    },
  }
  const d = countsAsDoubles(counter)
  return { stateBase, first, count, next, waysN: d.ways, binomN: d.binom, cum: new Float64Array(transitions), bytes: new Int32Array(states), mask: new Uint8Array(states), top: new Float64Array(states), exact }
}

/**
 * Fills state `s` of layer `i` (`g` in the cache): its sampler and its cumulative blocks (a zero block
 * repeats the previous sum, so it is never chosen). Returns its `bytes`.
 */
function fillState(counter: Counter, c: CounterCache, i: number, s: number, g: number): number {
  const L = counter.layers[i]!
  const W = counter.layers[i + 1]!.ways
  const b = counter.binom[i]!
  const t = L.trans
  const total = L.ways[s]!
  const from = L.start[s]!
  const to = L.start[s + 1]!
  const cum = c.cum
  const at = c.first[g]! - from
  if (total <= MAX_SAFE) {
    // Every nonzero block and every partial sum is at most W_i(s) < 2^53: exact in doubles.
    const Wn = c.waysN[i + 1]!
    const bn = c.binomN[i]!
    let sum = 0
    for (let q = from; q < to; q++) {
      const w = Wn[t[2 * q + 1]!]!
      if (w !== 0) sum += bn[t[2 * q]!]! * w
      cum[at + q] = sum
    }
    c.top[g] = Number(total)
    return (c.bytes[g] = -1)
  }
  let acc = 0n
  const { L: bytes, topMask } = samplerOf(total)
  const shift = BigInt(8 * (bytes - 6))
  for (let q = from; q < to; q++) {
    const w = W[t[2 * q + 1]!]!
    if (w !== 0n) acc += b[t[2 * q]!]! * w
    cum[at + q] = Number(acc >> shift)
  }
  c.top[g] = Number(total >> shift)
  c.mask[g] = topMask
  return (c.bytes[g] = bytes)
}

/** The exact cumulative block of the state's `p`-th transition (`s` at layer `i`; a tie of the top 48 bits: rare). */
function exactCum(counter: Counter, i: number, s: number, p: number): bigint {
  const L = counter.layers[i]!
  const W = counter.layers[i + 1]!.ways
  const b = counter.binom[i]!
  const t = L.trans
  let acc = 0n
  for (let q = L.start[s]!; q <= L.start[s]! + p; q++) acc += b[t[2 * q]!]! * W[t[2 * q + 1]!]!
  return acc
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * The uniform sampler's shape for `n > 2^53` (docs/spec.md, Uniform integer in [0, n)): `b` = bit
 * length of `n − 1` (read from its hexadecimal digits), `L = ceil(b / 8)` bytes per attempt, the top
 * byte masked to its low `b − 8(L − 1)` bits; the same as `bigSampler`.
 */
function samplerOf(n: bigint): { L: number; topMask: number } {
  const hex = (n - 1n).toString(16)
  const b = 4 * (hex.length - 1) + (32 - Math.clz32(parseInt(hex[0]!, 16)))
  const L = (b + 7) >> 3
  return { L, topMask: (1 << (b - 8 * (L - 1))) - 1 }
}
