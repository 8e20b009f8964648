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
import type { Counter } from './count.js'

/**
 * The round's choice of count for each cell in order (docs/spec.md, The panel draw): for each cell,
 * `x` uniform in `[0, W_i(s))`, then the first count whose cumulative block exceeds `x`: the same
 * bytes and the same choice as subtracting the blocks one by one.
 */
export function chooseCounts(counter: Counter, stream: RandomStream, counts: { [i: number]: number }): void {
  const { layers, cells } = counter
  const cache = cacheOf(counter)
  let s = 0
  for (let i = 0; i < cells.length; i++) {
    const L = layers[i]!
    const c = cache[i] ?? (cache[i] = newLayerCache(L.size, L.trans.length >> 1))
    if (c.L[s] === 0) fillState(counter, c, i, s)
    const from = L.start[s]!
    const to = L.start[s + 1]!
    const bytes = c.L[s]!
    let q: number
    if (bytes < 0) {
      // W_i(s) is a safe integer: the blocks are exact doubles.
      const total = c.top[s]!
      const x = total < 2 ? 0 : drawIndex(stream, total)
      const cum = c.cum
      q = from
      while (x >= cum[q]!) q++
    } else q = chooseBig(stream, bytes, c.mask[s]!, c.top[s]!, L.ways[s]!, c.cum, from, to, (p) => exactCum(counter, i, s, p))
    const t = L.trans
    counts[i] = t[2 * q]!
    s = t[2 * q + 1]!
  }
}

/**
 * The spec's `uniform(W_i(s))` and the choice of count for a `W_i(s)` above 2^53 (`n`, read with `L`
 * bytes and `topMask`), from the top 48 bits of each attempt's bytes: the same bytes read, the same
 * attempts rejected and the same count chosen as `drawBig` and the block scan. `cumTop[from … to)` are
 * the top 48 bits of the cumulative blocks and `nTop` those of `n`; `exact(q)` gives block `q`'s exact
 * cumulative value, asked for only when the tops tie. Returns the chosen index in `[from, to)`.
 */
function chooseBig(stream: RandomStream, L: number, topMask: number, nTop: number, n: bigint, cumTop: Float64Array, from: number, to: number, exact: (q: number) => bigint): number {
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
      if (x < exact(lo)) break
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
  return chooseBig(stream, L, topMask, Number(total >> shift), total, Float64Array.from(cum, (x) => Number(x >> shift)), 0, cum.length, (q) => cum[q]!)
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** The big-endian integer of `bytes[off … off + L)`, its first byte masked (as `drawBig` reads it). */
function bigOf(bytes: Uint8Array, off: number, L: number, topMask: number): bigint {
  let hex = '0x' + HEX[bytes[off]! & topMask]!
  for (let q = 1; q < L; q++) hex += HEX[bytes[off + q]!]!
  return BigInt(hex)
}

/**
 * One layer's cached choices, filled state by state at the state's first visit: per state, `L` (0 =
 * not filled yet; −1 = `W_i(s)` is a safe integer; else the sampler's bytes per attempt), `mask` (the
 * sampler's top-byte mask) and `top` (`W_i(s)` itself when safe, else its top 48 bits); per transition
 * (aligned with the layer's `trans`), `cum`: the cumulative block (safe) or its top 48 bits.
 */
interface LayerCache {
  readonly L: Int32Array
  readonly mask: Uint8Array
  readonly top: Float64Array
  readonly cum: Float64Array
}

const caches = new WeakMap<Counter, (LayerCache | undefined)[]>()

function cacheOf(counter: Counter): (LayerCache | undefined)[] {
  let c = caches.get(counter)
  if (c === undefined) caches.set(counter, (c = new Array<LayerCache | undefined>(counter.cells.length).fill(undefined)))
  return c
}

function newLayerCache(states: number, transitions: number): LayerCache {
  return { L: new Int32Array(states), mask: new Uint8Array(states), top: new Float64Array(states), cum: new Float64Array(transitions) }
}

/** Fills state `s` of layer `i`: its sampler and its cumulative blocks (a zero block repeats the previous sum, so it is never chosen). */
function fillState(counter: Counter, c: LayerCache, i: number, s: number): void {
  const L = counter.layers[i]!
  const W = counter.layers[i + 1]!.ways
  const b = counter.binom[i]!
  const t = L.trans
  const total = L.ways[s]!
  const from = L.start[s]!
  const to = L.start[s + 1]!
  const cum = c.cum
  let acc = 0n
  if (total <= MAX_SAFE) {
    for (let q = from; q < to; q++) {
      const w = W[t[2 * q + 1]!]!
      if (w !== 0n) acc += b[t[2 * q]!]! * w
      cum[q] = Number(acc)
    }
    c.top[s] = Number(total)
    c.L[s] = -1
    return
  }
  const { L: bytes, topMask } = samplerOf(total)
  const shift = BigInt(8 * (bytes - 6))
  for (let q = from; q < to; q++) {
    const w = W[t[2 * q + 1]!]!
    if (w !== 0n) acc += b[t[2 * q]!]! * w
    cum[q] = Number(acc >> shift)
  }
  c.top[s] = Number(total >> shift)
  c.mask[s] = topMask
  c.L[s] = bytes
}

/** The exact cumulative block of transition `q` of state `s` at layer `i` (a tie of the top 48 bits: rare). */
function exactCum(counter: Counter, i: number, s: number, q: number): bigint {
  const L = counter.layers[i]!
  const W = counter.layers[i + 1]!.ways
  const b = counter.binom[i]!
  const t = L.trans
  let acc = 0n
  for (let p = L.start[s]!; p <= q; p++) acc += b[t[2 * p]!]! * W[t[2 * p + 1]!]!
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
