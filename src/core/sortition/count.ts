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
 * One layer of the DP: the states before cell `i`, per state its transitions and its completion count.
 * @category Sortition
 */
export interface CounterLayer {
  /** State vectors: `[size so far, ...open counts]`. */
  readonly states: number[][]
  /** Transitions of state `s`: `trans[s]` is a flat list `c0, next0, c1, next1, ...` (c ascending). */
  readonly trans: number[][]
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
  const layers: { states: number[][]; trans: number[][] }[] = [{ states: [[0]], trans: [] }]
  let created = 1
  const overBudget = (): LimitExceededError =>
    new LimitExceededError('SORTITION_STATE_LIMIT', `counting exactly over ${E} feature(s) needs more than ${maxStates} states`, 'count exactly over fewer features (the others are enforced by rejection), merge values, or use fewer features')
  for (let i = 0; i < T; i++) {
    const cur = layers[i]!
    const nextOpen = open[i + 1]!
    const P = nextOpen.length
    const curPos = new Map(open[i]!.map(([j, v], p) => [j * 1024 + v, p]))
    const nextPos = new Map(nextOpen.map(([j, v], p) => [j * 1024 + v, p]))
    const key = cells[i]!.key
    const n = cells[i]!.members.length
    // Per next slot: source slot in the current state (-1 = opened at this cell), feature, min.
    const copy = nextOpen.map(([j, v]) => curPos.get(j * 1024 + v) ?? -1)
    const slotFeature = nextOpen.map(([j]) => j)
    const slotMin = nextOpen.map(([j, v]) => table.min[exact[j]!]![v]!)
    // Per exact feature: this cell's value, its slot now (-1 = new) and after (-1 = closes here), bounds.
    const hitCur = key.map((v, j) => curPos.get(j * 1024 + v) ?? -1)
    const hitNext = key.map((v, j) => nextPos.get(j * 1024 + v) ?? -1)
    const vMin = key.map((v, j) => table.min[exact[j]!]![v]!)
    const vMax = key.map((v, j) => table.max[exact[j]!]![v]!)
    const rest = key.map((v, j) => avail[j]![v]! - upto[i]![j]!)
    const unopened = unopenedMin[i + 1]!
    // Numeric state keys when the mixed radix fits below 2^53 (else strings): size, then each slot.
    const radix = [k + 1, ...nextOpen.map(([j, v]) => table.max[exact[j]!]![v]! + 1)]
    const mult: number[] = []
    let m = 1
    for (const r of radix) {
      mult.push(m)
      m *= r
    }
    const numeric = m <= Number.MAX_SAFE_INTEGER
    let hitMult = 0
    for (let j = 0; j < E; j++) if (hitNext[j]! >= 0) hitMult += mult[1 + hitNext[j]!]!
    const index = new Map<number | string, number>()
    const next = { states: [] as number[][], trans: [] as number[][] }
    const base = new Array<number>(P)
    const need = new Array<number>(E)
    const remaining = total[i + 1]!
    for (const st of cur.states) {
      const size = st[0]!
      let baseKey = 0
      for (let j = 0; j < E; j++) need[j] = unopened[j]!
      for (let p = 0; p < P; p++) {
        const x = copy[p]! < 0 ? 0 : st[1 + copy[p]!]!
        base[p] = x
        baseKey += x * mult[1 + p]!
        if (slotMin[p]! > x) need[slotFeature[p]!]! += slotMin[p]! - x
      }
      const t: number[] = []
      for (let c = 0; c <= n && size + c <= k; c++) {
        const ns = size + c
        if (ns + remaining < k) continue // not enough respondents left
        // This cell's values: max always; min when closing; reachability of min when staying open;
        // the missing mins of every exact feature fit in the seats left.
        let ok = true
        let overMax = false
        for (let j = 0; j < E; j++) {
          const cnt = (hitCur[j]! < 0 ? 0 : st[1 + hitCur[j]!]!) + c
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
        let sk: number | string
        if (numeric) sk = baseKey + ns * mult[0]! + c * hitMult
        else {
          const vec = [ns, ...base]
          for (let j = 0; j < E; j++) if (hitNext[j]! >= 0) vec[1 + hitNext[j]!]! += c
          sk = vec.join(',')
        }
        let idx = index.get(sk)
        if (idx === undefined) {
          idx = next.states.length
          index.set(sk, idx)
          const vec = [ns, ...base]
          for (let j = 0; j < E; j++) if (hitNext[j]! >= 0) vec[1 + hitNext[j]!]! += c
          next.states.push(vec)
          if (++created > maxStates) throw overBudget()
        }
        t.push(c, idx)
      }
      cur.trans.push(t)
    }
    layers.push(next)
  }
  // Backward pass.
  const out: CounterLayer[] = layers.map((l) => ({ states: l.states, trans: l.trans, ways: new Array<bigint>(l.states.length).fill(0n) }))
  const fin = out[T]!
  fin.states.forEach((s, idx) => (fin.ways[idx] = s[0] === k ? 1n : 0n))
  for (let i = T - 1; i >= 0; i--) {
    const L = out[i]!
    const W = out[i + 1]!.ways
    const b = binom[i]!
    for (let s = 0; s < L.states.length; s++) {
      const t = L.trans[s]!
      let w = 0n
      for (let x = 0; x < t.length; x += 2) {
        const nw = W[t[x + 1]!]!
        if (nw !== 0n) w += b[t[x]!]! * nw
      }
      L.ways[s] = w
    }
  }
  return { exact, cells, binom, layers: out, count: out[0]!.ways[0]!, states: created, k }
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
    for (let s = 0; s < L.states.length; s++) {
      const f = fwd[s]!
      if (f === 0n) continue
      const t = L.trans[s]!
      for (let x = 0; x < t.length; x += 2) {
        const c = t[x]!
        const nx = t[x + 1]!
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
