/**
 * Exact counting of quota-satisfying panels by dynamic programming over **cells** (docs/spec.md,
 * Sortition, Counting).
 *
 * The counter enforces the quotas of an ordered list of *exact features* E. Respondents are grouped
 * into cells by their values on E (the projection of their type); cells are sorted lexicographically by
 * that tuple of value indices, in the order of E. A panel is described by how many members `c_i` it
 * takes from each cell `i` (there are `C(n_i, c_i)` ways to choose them), so the number of size-k panels
 * that meet every quota of E is the sum over valid count vectors of the product of `C(n_i, c_i)`.
 *
 * The DP walks the cells in order. Its state after cell `i` is the panel size so far and the running
 * count of every *open* feature value: one of E whose first cell is `<= i` and last cell `> i`. A value
 * is checked against its max whenever it grows and against its min when its last cell is passed; then
 * it is forgotten. States that cannot be completed (see {@link buildCounter}) are pruned. `W_i(s)`, the
 * number of ways to complete state `s` from cell `i`, is computed backwards with bigints; the panel
 * count is `W_0(start)`.
 *
 * @module
 */
import { LimitExceededError } from '../errors.js'
import type { QuotaTable, SortitionPool } from './pool.js'
import { backwardLayer, expandStates, NumberIndex, type LayerOut, type LayerStep } from './count-layer.js'

export { NumberIndex } from './count-layer.js'

/**
 * One cell: respondents that share their values on the exact features.
 * @category Sortition
 */
export interface Cell {
  /** Value index per exact feature (in the order of the exact features). */
  readonly key: readonly number[]
  /** The respondents of the cell: canonical pool indices, ascending. */
  readonly members: readonly number[]
}

/**
 * One layer of the DP: the states before cell `i`, their transitions and completion counts, in flat
 * typed arrays (no object per state).
 * @category Sortition
 */
export interface CounterLayer {
  /** Number of states. */
  readonly size: number
  /** Numbers per state: the size so far, then the count of every open value. */
  readonly stride: number
  /** State `s` is `states[s·stride … s·stride + stride − 1]`. */
  readonly states: Int32Array
  /** Transitions of state `s`: pairs `(c, next)` at `trans[2·start[s] … 2·start[s + 1] − 1]`, c ascending. */
  readonly start: Uint32Array
  /** The transition pairs, flat. */
  readonly trans: Int32Array
  /** `W_i(s)`: ways to complete state `s` from this layer on. */
  readonly ways: bigint[]
}

/**
 * The exact counter of one pool, quota table, panel size and list of exact features.
 * @category Sortition
 */
export interface Counter {
  /** The exact features: indices into the pool's features, in DP order. */
  readonly exact: readonly number[]
  /** The cells, in DP order. */
  readonly cells: readonly Cell[]
  /** `binom[i][c] = C(n_i, c)` for `c = 0 .. min(n_i, k)`. */
  readonly binom: readonly (readonly bigint[])[]
  /** Layers `0 .. cells.length` (the last has the single final state `[k]`). */
  readonly layers: readonly CounterLayer[]
  /** The number of size-k panels meeting every quota of the exact features. */
  readonly count: bigint
  /** Number of DP states created (all layers). */
  readonly states: number
  /** The panel size. */
  readonly k: number
}

/** Binomial coefficients C(n, c) for c = 0 .. m, exactly. */
export function binomialRow(n: number, m: number): bigint[] {
  const row = [1n]
  const N = BigInt(n)
  for (let c = 1; c <= m; c++) row.push((row[c - 1]! * (N - BigInt(c - 1))) / BigInt(c))
  return row
}

/** Groups the pool into cells by the values on `exact`, sorted lexicographically by key. */
export function makeCells(pool: SortitionPool, exact: readonly number[]): Cell[] {
  // The planner asks for the same cells many times (its work bound, then the counter): cached per pool.
  let byExact = cellCache.get(pool)
  if (byExact === undefined) cellCache.set(pool, (byExact = new Map()))
  const id = exact.join(',')
  const hit = byExact.get(id)
  if (hit !== undefined) return hit
  const cells = groupCells(pool, exact)
  if (byExact.size < 64) byExact.set(id, cells)
  return cells
}

/** Cells per pool and exact-feature list (a pool is immutable data). */
const cellCache = new WeakMap<SortitionPool, Map<string, Cell[]>>()

function groupCells(pool: SortitionPool, exact: readonly number[]): Cell[] {
  // The key as a mixed-radix number (first feature most significant: numeric order = lexicographic order).
  const E = exact.length
  const radix = new Int32Array(E)
  const at = new Int32Array(E)
  let product = 1
  for (let j = 0; j < E; j++) {
    radix[j] = pool.features[exact[j]!]!.values.length
    at[j] = exact[j]!
    product *= radix[j]!
  }
  const n = pool.respondents.length
  if (product <= 2 ** 31) {
    const types = flatTypes(pool)
    const F = pool.features.length
    // Each respondent's key, then the distinct keys in order, then each cell's members in pool order.
    const keys = new Float64Array(n)
    for (let i = 0; i < n; i++) keys[i] = cellKey(types, i * F, radix, at)
    const sorted = keys.slice().sort()
    let distinct = 0
    for (let x = 0; x < n; x++) if (x === 0 || sorted[x]! !== sorted[x - 1]!) sorted[distinct++] = sorted[x]!
    const cells: { key: number[]; members: number[] }[] = []
    for (let c = 0; c < distinct; c++) cells.push({ key: [], members: [] })
    for (let i = 0; i < n; i++) {
      const cell = cells[rankOf(sorted, distinct, keys[i]!)]!
      if (cell.members.length === 0) for (let j = 0; j < E; j++) cell.key.push(types[i * F + at[j]!]!)
      cell.members.push(i)
    }
    return cells
  }
  const byKey = new Map<string, { key: number[]; members: number[] }>()
  pool.respondents.forEach((r, i) => {
    const key = exact.map((f) => r.type[f]!)
    const s = key.join(',')
    let cell = byKey.get(s)
    if (cell === undefined) byKey.set(s, (cell = { key, members: [] }))
    cell.members.push(i)
  })
  return [...byKey.values()].sort((a, b) => {
    for (let j = 0; j < a.key.length; j++) if (a.key[j] !== b.key[j]) return a.key[j]! - b.key[j]!
    return 0
  })
}

/** The index of `key` among the first `size` numbers of `sorted` (ascending, `key` among them). */
function rankOf(sorted: Float64Array, size: number, key: number): number {
  let lo = 0
  let hi = size - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]! < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The mixed-radix key of the type at `types[from …]` over the features `at` (radices `radix`). */
function cellKey(types: Int32Array, from: number, radix: Int32Array, at: Int32Array): number {
  let x = 0
  for (let j = 0; j < at.length; j++) x = x * radix[j]! + types[from + at[j]!]!
  return x
}

/** The pool's types, flat: respondent `i`'s value index of feature `f` at `i · F + f` (cached per pool). */
function flatTypes(pool: SortitionPool): Int32Array {
  let flat = typesCache.get(pool)
  if (flat === undefined) {
    const F = pool.features.length
    const { respondents } = pool
    flat = new Int32Array(respondents.length * F)
    for (let i = 0; i < respondents.length; i++) {
      const type = respondents[i]!.type
      for (let f = 0; f < F; f++) flat[i * F + f] = type[f]!
    }
    typesCache.set(pool, flat)
  }
  return flat
}

const typesCache = new WeakMap<SortitionPool, Int32Array>()

/**
 * Builds the exact counter: forward pass (reachable, prunable states, transitions), backward pass
 * (bigint ways). Deterministic in its inputs.
 *
 * Pruning after each cell, for every exact feature: each value's running count is at most its max;
 * a value whose last cell is passed is at least its min; a value still open can still reach its min
 * with the respondents left in later cells; the missing mins of the feature's values not yet closed
 * fit in the seats left (`k - size`); and the respondents left fill the seats left.
 *
 * Callers bound the work first with the plan's cost (`planCost`, checked by `planPanel`); the
 * optional state budget is a local safety net of the caller, not part of the protocol.
 *
 * @param maxStates - state budget (default: none).
 * @throws {@link LimitExceededError} `SORTITION_STATE_LIMIT` when the DP needs more states than `maxStates`.
 * @category Sortition
 */
export function buildCounter(pool: SortitionPool, table: QuotaTable, k: number, exact: readonly number[], maxStates = Infinity): Counter {
  const cells = makeCells(pool, exact)
  const T = cells.length
  const E = exact.length
  const nVals = exact.map((f) => pool.features[f]!.values.length)
  // first/last cell of every exact feature value; respondents with the value in cells after i.
  const first = nVals.map((m) => new Array<number>(m).fill(T))
  const last = nVals.map((m) => new Array<number>(m).fill(-1))
  cells.forEach((c, i) =>
    c.key.forEach((v, j) => {
      if (first[j]![v]! === T) first[j]![v] = i
      last[j]![v] = i
    }),
  )
  // after[i][j] = respondents with value key_j(cell i) in cells > i (for the open-value prune).
  const total = new Array<number>(T + 1).fill(0)
  for (let i = T - 1; i >= 0; i--) total[i] = total[i + 1]! + cells[i]!.members.length
  const seen = nVals.map((m) => new Array<number>(m).fill(0))
  const upto: number[][] = cells.map((c) => c.key.map((v, j) => (seen[j]![v]! += c.members.length)))
  const avail = nVals.map((m) => new Array<number>(m).fill(0))
  cells.forEach((c) => c.key.forEach((v, j) => (avail[j]![v]! += c.members.length)))
  // Open slots of layer i (before cell i): (j, v) with first < i <= last, sorted by (j, v).
  const open: [number, number][][] = []
  for (let i = 0; i <= T; i++) {
    const s: [number, number][] = []
    for (let j = 0; j < E; j++) for (let v = 0; v < nVals[j]!; v++) if (first[j]![v]! < i && i <= last[j]![v]!) s.push([j, v])
    open.push(s)
  }
  // Sum of the mins of values not opened yet at layer i (first >= i), per feature.
  const unopenedMin: number[][] = []
  for (let i = 0; i <= T; i++) unopenedMin.push(exact.map((f, j) => table.min[f]!.reduce((a, m, v) => a + (first[j]![v]! >= i ? m : 0), 0)))

  const binom = cells.map((c) => binomialRow(c.members.length, Math.min(c.members.length, k)))
  // Forward pass, layer by layer: states as flat vectors, transitions as flat (c, next) pairs.
  const built: { size: number; stride: number; states: Int32Array; start: Uint32Array; trans: Int32Array }[] = []
  let curSize = 1
  let curStride = 1
  let curStates: Int32Array = new Int32Array(1)
  let created = 1
  const overBudget = (): LimitExceededError =>
    new LimitExceededError('SORTITION_STATE_LIMIT', `counting exactly over ${E} feature(s) needs more than ${maxStates} states`, 'count exactly over fewer features (the others are enforced by rejection), merge values, or use fewer features')
  const slot = new Int32Array(E + 1)
  for (let j = 0; j < E; j++) slot[j + 1] = slot[j]! + nVals[j]!
  const scratch = { states: new Int32Array(1024), trans: new Int32Array(1024) }
  const inputs: ForwardInputs = { open, cells, table, exact, k, avail, upto, unopenedMin, total, maxStates, overBudget, index: new NumberIndex(), slot, curPos: new Int32Array(slot[E]!), nextPos: new Int32Array(slot[E]!), scratch }
  for (let i = 0; i < T; i++) {
    const next = forwardLayer(inputs, i, curSize, curStride, curStates, created)
    built.push({ size: curSize, stride: curStride, states: curStates, start: next.start, trans: next.trans })
    created = next.created
    curSize = next.size
    curStride = next.stride
    curStates = next.states
  }
  built.push({ size: curSize, stride: curStride, states: curStates, start: new Uint32Array(curSize + 1), trans: new Int32Array(0) })
  // Backward pass, layer by layer (count-layer.ts: doubles while exact, else bigints).
  const out: CounterLayer[] = built.map((l) => ({ ...l, ways: new Array<bigint>(l.size).fill(0n) }))
  const fin = out[T]!
  const waysN: Float64Array[] = new Array<Float64Array>(T + 1)
  const binomN = binom.map((row) => Float64Array.from(row, Number))
  waysN[T] = new Float64Array(fin.size)
  for (let s = 0; s < fin.size; s++) {
    fin.ways[s] = fin.states[s * fin.stride] === k ? 1n : 0n
    waysN[T][s] = fin.states[s * fin.stride] === k ? 1 : 0
  }
  for (let i = T - 1; i >= 0; i--) {
    const L = out[i]!
    waysN[i] = new Float64Array(L.size)
    backwardLayer(L.size, L.start, L.trans, binom[i]!, binomN[i]!, out[i + 1]!.ways, waysN[i + 1]!, L.ways, waysN[i]!)
  }
  const counter: Counter = { exact, cells, binom, layers: out, count: out[0]!.ways[0]!, states: created, k }
  doubles.set(counter, { ways: waysN, binom: binomN })
  return counter
}

/**
 * A counter's completion counts and binomials as doubles (`Number` of each bigint: exact up to 2^53,
 * else rounded), layer by layer and cell by cell, for the rounds' safe-integer sums.
 */
export function countsAsDoubles(counter: Counter): { readonly ways: readonly Float64Array[]; readonly binom: readonly Float64Array[] } {
  let d = doubles.get(counter)
  if (d === undefined) doubles.set(counter, (d = { ways: counter.layers.map((l) => Float64Array.from(l.ways, Number)), binom: counter.binom.map((row) => Float64Array.from(row, Number)) }))
  return d
}

const doubles = new WeakMap<Counter, { ways: Float64Array[]; binom: Float64Array[] }>()

/** What {@link forwardLayer} reads of the whole count (computed once per counter). */
interface ForwardInputs {
  readonly open: readonly (readonly [number, number])[][]
  readonly cells: readonly Cell[]
  readonly table: QuotaTable
  readonly exact: readonly number[]
  readonly k: number
  readonly avail: readonly number[][]
  readonly upto: readonly number[][]
  readonly unopenedMin: readonly number[][]
  readonly total: readonly number[]
  readonly maxStates: number
  readonly overBudget: () => LimitExceededError
  /** The state index, shared by every layer (cleared per layer). */
  readonly index: NumberIndex
  /** First flat slot of each exact feature's values (`slot[j] + v`), and scratch positions per slot. */
  readonly slot: Int32Array
  readonly curPos: Int32Array
  readonly nextPos: Int32Array
  /** The numeric layers' output arrays, shared by every layer (grown as needed). */
  readonly scratch: { states: Int32Array; trans: Int32Array }
}

/**
 * One layer of the forward pass (cell `i`): the transitions of every current state and the next
 * layer's states. A function of its own so that the engine optimizes it at its first calls (inside one
 * large function the loop ran unoptimized for most of a cold count).
 */
function forwardLayer(g: ForwardInputs, i: number, curSize: number, curStride: number, curStates: Int32Array, created: number): { start: Uint32Array; trans: Int32Array; size: number; stride: number; states: Int32Array; created: number } {
  const { open, cells, table, exact, k, avail, upto, unopenedMin, total, maxStates, overBudget } = g
  const E = exact.length
  const curOpen = open[i]!
  const nextOpen = open[i + 1]!
  const P = nextOpen.length
  const stride = 1 + P
  // Position of each open value (j, v) in the current and the next states (−1: not open there).
  const curPos = g.curPos.fill(-1)
  const nextPos = g.nextPos.fill(-1)
  for (let p = 0; p < curOpen.length; p++) curPos[g.slot[curOpen[p]![0]]! + curOpen[p]![1]] = p
  for (let p = 0; p < P; p++) nextPos[g.slot[nextOpen[p]![0]]! + nextOpen[p]![1]] = p
  const key = cells[i]!.key
  const n = cells[i]!.members.length
  // Per next slot: source slot in the current state (-1 = opened at this cell), feature, min.
  const copy = new Int32Array(P)
  const slotFeature = new Int32Array(P)
  const slotMin = new Int32Array(P)
  // Numeric state keys when the mixed radix fits below 2^53 (else strings): size, then each slot.
  const mult = new Float64Array(1 + P)
  let m = k + 1
  mult[0] = 1
  for (let p = 0; p < P; p++) {
    const j = nextOpen[p]![0]
    const v = nextOpen[p]![1]
    copy[p] = curPos[g.slot[j]! + v]!
    slotFeature[p] = j
    slotMin[p] = table.min[exact[j]!]![v]!
    mult[1 + p] = m
    m *= table.max[exact[j]!]![v]! + 1
  }
  // Per exact feature: this cell's value, its slot now and after (-1 = new / closes here), bounds.
  const hitCur = new Int32Array(E)
  const hitNext = new Int32Array(E)
  const vMin = new Int32Array(E)
  const vMax = new Int32Array(E)
  const rest = new Int32Array(E)
  for (let j = 0; j < E; j++) {
    const v = key[j]!
    hitCur[j] = curPos[g.slot[j]! + v]!
    hitNext[j] = nextPos[g.slot[j]! + v]!
    vMin[j] = table.min[exact[j]!]![v]!
    vMax[j] = table.max[exact[j]!]![v]!
    rest[j] = avail[j]![v]! - upto[i]![j]!
  }
  const unopened = unopenedMin[i + 1]!
  const numeric = m <= Number.MAX_SAFE_INTEGER
  let hitMult = 0
  for (let j = 0; j < E; j++) if (hitNext[j]! >= 0) hitMult += mult[1 + hitNext[j]!]!
  const start = new Uint32Array(curSize + 1)
  const base = new Int32Array(P)
  const need = new Int32Array(E)
  if (numeric) {
    // The hot loop in count-layer.ts; it returns early when the output or the index needs room.
    const step: LayerStep = { P, E, k, n, remaining: total[i + 1]!, copy, slotFeature, slotMin, hitCur, hitNext, vMin, vMax, rest, unopened: Int32Array.from(unopened), mult, hitMult }
    // The output in scratch arrays shared by every layer (grown as needed), copied out at the end.
    const o: LayerOut = { states: g.scratch.states, trans: g.scratch.trans, start, size: 0, nTrans: 0 }
    const index = g.index
    index.clear()
    const room = Math.min(n, k) + 1
    for (let s = 0; s < curSize; ) {
      s = expandStates(step, curStates, curSize, curStride, s, o, index, base, need, maxStates - created)
      if (created + o.size > maxStates) throw overBudget()
      if (s === curSize) break
      if ((o.nTrans + room) * 2 > o.trans.length) o.trans = grownInt32(o.trans, (o.nTrans + room) * 2)
      if ((o.size + room) * stride > o.states.length) o.states = grownInt32(o.states, (o.size + room) * stride)
      index.reserve(room)
    }
    g.scratch.states = o.states
    g.scratch.trans = o.trans
    return { start, trans: o.trans.slice(0, 2 * o.nTrans), size: o.size, stride, states: o.states.slice(0, o.size * stride), created: created + o.size }
  }
  const index = new Map<string, number>()
  let nStates = 0
  let nextStates = new Int32Array(Math.max(16, curSize * stride))
  let trans = new Int32Array(Math.max(16, curSize * 4))
  let nTrans = 0
  const vec = new Int32Array(stride)
  const remaining = total[i + 1]!
  for (let s = 0; s < curSize; s++) {
    start[s] = nTrans
    const off = s * curStride
    const size = curStates[off]!
    for (let j = 0; j < E; j++) need[j] = unopened[j]!
    for (let p = 0; p < P; p++) {
      const x = copy[p]! < 0 ? 0 : curStates[off + 1 + copy[p]!]!
      base[p] = x
      if (slotMin[p]! > x) need[slotFeature[p]!]! += slotMin[p]! - x
    }
    for (let c = 0; c <= n && size + c <= k; c++) {
      const ns = size + c
      if (ns + remaining < k) continue // not enough respondents left
      // This cell's values: max always; min when closing; reachability of min when staying open;
      // the missing mins of every exact feature fit in the seats left.
      let ok = true
      let overMax = false
      for (let j = 0; j < E; j++) {
        const cnt = (hitCur[j]! < 0 ? 0 : curStates[off + 1 + hitCur[j]!]!) + c
        if (cnt > vMax[j]!) {
          overMax = true
          break
        }
        const q = hitNext[j]!
        if (q < 0) {
          if (cnt < vMin[j]!) ok = false
        } else {
          if (cnt + rest[j]! < vMin[j]!) ok = false
          const nj = need[j]! - Math.max(0, vMin[j]! - base[q]!) + Math.max(0, vMin[j]! - cnt)
          if (nj > k - ns) ok = false
        }
      }
      if (overMax) break // counts only grow with c
      if (!ok) continue
      for (let j = 0; j < E; j++) if (hitNext[j]! < 0 && need[j]! > k - ns) ok = false
      if (!ok) continue
      vec[0] = ns
      for (let p = 0; p < P; p++) vec[1 + p] = base[p]!
      for (let j = 0; j < E; j++) if (hitNext[j]! >= 0) vec[1 + hitNext[j]!]! += c
      const sk = vec.join(',')
      let idx = index.get(sk) ?? -1
      if (idx < 0) index.set(sk, nStates)
      if (idx < 0) {
        idx = nStates++
        if (nStates * stride > nextStates.length) {
          const grown = new Int32Array(nextStates.length * 2)
          grown.set(nextStates)
          nextStates = grown
        }
        nextStates.set(vec, idx * stride)
        if (++created > maxStates) throw overBudget()
      }
      if (2 * nTrans + 2 > trans.length) {
        const grown = new Int32Array(trans.length * 2)
        grown.set(trans)
        trans = grown
      }
      trans[2 * nTrans] = c
      trans[2 * nTrans + 1] = idx
      nTrans++
    }
  }
  start[curSize] = nTrans
  return { start, trans: trans.slice(0, 2 * nTrans), size: nStates, stride, states: nextStates.slice(0, nStates * stride), created }
}

/** A copy of `a` with room for at least `need` numbers (twice its length or more). */
function grownInt32(a: Int32Array, need: number): Int32Array {
  const grown = new Int32Array(Math.max(need, 2 * a.length))
  grown.set(a)
  return grown
}

/**
 * Exact expected number of members taken from each cell, over the uniform distribution on the panels
 * the counter counts, as a numerator over `count` (forward-backward pass). Only meaningful when
 * `count > 0`.
 */
export function expectedCellCounts(counter: Counter): bigint[] {
  const { layers, binom, cells } = counter
  let fwd: bigint[] = [1n]
  const out: bigint[] = []
  for (let i = 0; i < cells.length; i++) {
    const L = layers[i]!
    const W = layers[i + 1]!.ways
    const nf = new Array<bigint>(W.length).fill(0n)
    let e = 0n
    for (let s = 0; s < L.size; s++) {
      const f = fwd[s]!
      if (f === 0n) continue
      for (let x = 2 * L.start[s]!; x < 2 * L.start[s + 1]!; x += 2) {
        const c = L.trans[x]!
        const nx = L.trans[x + 1]!
        const paths = f * binom[i]![c]!
        nf[nx] = nf[nx]! + paths
        if (c > 0) e += paths * BigInt(c) * W[nx]!
      }
    }
    out.push(e)
    fwd = nf
  }
  return out
}
