/**
 * The hot loops of the exact counter (count.ts): one layer of the forward pass over numeric state keys,
 * and one layer of the backward pass. Each is a small function over typed arrays and numbers only, so
 * that the engine compiles it in a few milliseconds at its first calls: a cold count was mostly the
 * optimizing compiler working on the whole layer function (Maps, closures and all; `--trace-opt`: 170
 * and 740 ms of compile for one count at load 9) while the loop ran unoptimized. Same states, same
 * transitions, same order, same counts as before.
 *
 * @module
 */

/**
 * An open-addressing hash map from whole numbers below 2^53 (state keys) to state indices: typed
 * arrays, no allocation per entry (a `Map` of such keys boxes each one). {@link NumberIndex.clear}
 * empties it in constant time (a generation stamp per slot), so one index serves every layer of a
 * count and grows only with the largest layer.
 * @internal
 */
export class NumberIndex {
  keys = new Float64Array(1024)
  vals = new Int32Array(1024)
  /** The generation of each slot's entry: a slot is used when it equals {@link NumberIndex.gen}. */
  gens = new Int32Array(1024)
  mask = 1023
  used = 0
  gen = 1

  /** The index of `key`; when absent, stores `fresh` and returns -1. */
  lookup(key: number, fresh: number): number {
    const r = probe(this.keys, this.vals, this.gens, this.gen, this.mask, key, fresh)
    if (r < 0 && ++this.used * 2 > this.mask) this.grow(0)
    return r
  }

  /** Forgets every entry (constant time). */
  clear(): void {
    this.used = 0
    if (++this.gen === 0x7fffffff) {
      this.gens.fill(0)
      this.gen = 1
    }
  }

  /** Makes room for `more` entries beyond those stored, keeping the table at most half full. */
  reserve(more: number): void {
    if ((this.used + more) * 2 > this.mask) this.grow(more)
  }

  private grow(more: number): void {
    const { keys, vals, gens, gen } = this
    let size = keys.length * 2
    while ((this.used + more) * 2 > size - 1) size *= 2
    this.keys = new Float64Array(size)
    this.vals = new Int32Array(size)
    this.gens = new Int32Array(size)
    this.mask = size - 1
    for (let i = 0; i < keys.length; i++) if (gens[i] === gen) probe(this.keys, this.vals, this.gens, gen, this.mask, keys[i]!, vals[i]!)
  }
}

/** The slot of `key`. */
function slotOf(key: number, mask: number): number {
  const lo = key >>> 0
  const hi = (key / 4294967296) >>> 0
  return (Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b) ^ (lo >>> 15)) & mask
}

/** Finds `key` (returns its value) or stores it with `fresh` (returns -1); the table must have a free slot. */
function probe(keys: Float64Array, vals: Int32Array, gens: Int32Array, gen: number, mask: number, key: number, fresh: number): number {
  let h = slotOf(key, mask)
  while (gens[h] === gen) {
    if (keys[h] === key) return vals[h]!
    h = (h + 1) & mask
  }
  gens[h] = gen
  keys[h] = key
  vals[h] = fresh
  return -1
}

/**
 * One cell's data for {@link expandStates}, per layer: the next layer's slots (`copy`: the source
 * slot in the current state, −1 = opened at this cell; `slotFeature`, `slotMin`), per exact feature
 * `j` this cell's value (`hitCur`, `hitNext`: its slot now and after, −1 = new / closes here; `vMin`,
 * `vMax`, `rest`: respondents with it in later cells; `unopened`: the mins of the values not opened
 * yet), and the numeric key's multipliers (`mult`: size first, then each slot; `hitMult`: the key's
 * step per member taken).
 */
export interface LayerStep {
  readonly P: number
  readonly E: number
  readonly k: number
  /** Members of the cell. */
  readonly n: number
  /** Respondents in the cells after this one. */
  readonly remaining: number
  readonly copy: Int32Array
  readonly slotFeature: Int32Array
  readonly slotMin: Int32Array
  readonly hitCur: Int32Array
  readonly hitNext: Int32Array
  readonly vMin: Int32Array
  readonly vMax: Int32Array
  readonly rest: Int32Array
  readonly unopened: Int32Array
  readonly mult: Float64Array
  readonly hitMult: number
}

/** The growing output of one forward layer: the next states, the transitions and their counts. */
export interface LayerOut {
  states: Int32Array
  trans: Int32Array
  readonly start: Uint32Array
  /** Next states so far. */
  size: number
  /** Transitions so far. */
  nTrans: number
}

/**
 * Expands the current states `s0 …` of one layer (numeric keys): each state's transitions (every
 * count `c` the pruning keeps, ascending) and the new states they reach, in first-reached order.
 * Stops before a state whose transitions might not fit the output's arrays or the index, and returns
 * it (the caller grows them and calls again), and likewise once more than `limit` states are
 * created (the caller's state budget); returns `curSize` when done. Scratch: `base` (P), `need` (E).
 */
export function expandStates(g: LayerStep, curStates: Int32Array, curSize: number, curStride: number, s0: number, out: LayerOut, index: NumberIndex, base: Int32Array, need: Int32Array, limit: number): number {
  const { P, E, k, n, remaining, copy, slotFeature, slotMin, hitCur, hitNext, vMin, vMax, rest, unopened, mult, hitMult } = g
  const stride = 1 + P
  const room = Math.min(n, k) + 1
  const sizeMult = mult[0]!
  for (let s = s0; s < curSize; s++) {
    if (out.size > limit || (out.nTrans + room) * 2 > out.trans.length || (out.size + room) * stride > out.states.length || (index.used + room) * 2 > index.mask) return s
    out.start[s] = out.nTrans
    const off = s * curStride
    const size = curStates[off]!
    let baseKey = 0
    for (let j = 0; j < E; j++) need[j] = unopened[j]!
    for (let p = 0; p < P; p++) {
      const from = copy[p]!
      const x = from < 0 ? 0 : curStates[off + 1 + from]!
      base[p] = x
      baseKey += x * mult[1 + p]!
      const lack = slotMin[p]! - x
      if (lack > 0) need[slotFeature[p]!]! += lack
    }
    for (let c = 0; c <= n && size + c <= k; c++) {
      const ns = size + c
      if (ns + remaining < k) continue // not enough respondents left
      // This cell's values: max always; min when closing; reachability of min when staying open;
      // the missing mins of every exact feature fit in the seats left.
      let ok = true
      let overMax = false
      for (let j = 0; j < E; j++) {
        const h = hitCur[j]!
        const cnt = (h < 0 ? 0 : curStates[off + 1 + h]!) + c
        if (cnt > vMax[j]!) {
          overMax = true
          break
        }
        const q = hitNext[j]!
        const lo = vMin[j]!
        if (q < 0) {
          if (cnt < lo) ok = false
        } else {
          if (cnt + rest[j]! < lo) ok = false
          const was = lo - base[q]!
          const now = lo - cnt
          if (need[j]! - (was > 0 ? was : 0) + (now > 0 ? now : 0) > k - ns) ok = false
        }
      }
      if (overMax) break // counts only grow with c
      if (!ok) continue
      for (let j = 0; j < E; j++) if (hitNext[j]! < 0 && need[j]! > k - ns) ok = false
      if (!ok) continue
      let idx = index.lookup(baseKey + ns * sizeMult + c * hitMult, out.size)
      if (idx < 0) {
        idx = out.size++
        const at = idx * stride
        const states = out.states
        states[at] = ns
        for (let p = 0; p < P; p++) states[at + 1 + p] = base[p]!
        for (let j = 0; j < E; j++) {
          const q = hitNext[j]!
          if (q >= 0) states[at + 1 + q]! += c
        }
      }
      const t = 2 * out.nTrans++
      out.trans[t] = c
      out.trans[t + 1] = idx
    }
  }
  out.start[curSize] = out.nTrans
  return curSize
}

/**
 * One layer of the backward pass: `ways[s] = Σ C(n_i, c) · next[t]` over state `s`'s transitions
 * `(c, t)`. Sums whose every product and partial sum stays below 2^53 are computed in doubles (exact
 * there) and converted once; the others in bigints. `binomN[c]` is `C(n_i, c)` as a double (exact
 * when at most 2^53, else above it), `nextN[t]` the next layer's ways as doubles (likewise).
 */
export function backwardLayer(size: number, start: Uint32Array, trans: Int32Array, binom: readonly bigint[], binomN: Float64Array, next: readonly bigint[], nextN: Float64Array, ways: bigint[], waysN: Float64Array): void {
  for (let s = 0; s < size; s++) {
    const from = 2 * start[s]!
    const to = 2 * start[s + 1]!
    let w = 0
    let x = from
    for (; x < to; x += 2) {
      const p = binomN[trans[x]!]! * nextN[trans[x + 1]!]!
      w += p
      if (!(w <= MAX_SAFE)) break
    }
    if (x >= to) {
      ways[s] = BigInt(w)
      waysN[s] = w
      continue
    }
    let big = 0n
    for (let y = from; y < to; y += 2) {
      const nw = next[trans[y + 1]!]!
      if (nw !== 0n) big += binom[trans[y]!]! * nw
    }
    ways[s] = big
    waysN[s] = Number(big)
  }
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER
