/**
 * One `panel` draw: rounds of a relaxed panel (uniform over the panels meeting the quotas of the exact
 * features) kept when they meet every other quota (docs/spec.md, The `panel` draw).
 *
 * A plan fixes the *exact features* E whose quotas the counter ({@link buildCounter}) enforces. One
 * draw is a sequence of rounds; each round draws a panel uniformly among the size-k panels that meet the
 * quotas of E (the relaxed set), then keeps it if it also meets the quotas of the other features, else
 * starts a new round on the same stream. Every relaxed panel is equally likely in every round, so the
 * kept panel is uniform among the panels meeting every quota. When E holds every feature the first
 * round is always kept.
 *
 * @module
 */
import { LimitExceededError } from '../errors.js'
import type { RandomStream } from '../random/stream.js'
import { bigSampler, drawBig, drawIndex, uniformBigInt } from '../random/uniform.js'
import { chooseCounts } from './choose-counts.js'
import type { Counter } from './count.js'
import { PLAN_METHODS, type PlanMethod } from './gate.js'
import { InfeasibleQuotasError, type QuotaTable, type SortitionPool } from './pool.js'
import { OtherQuotas, roundMeets } from './quota-tally.js'

export { OtherQuotas } from './quota-tally.js'

/**
 * A committed plan for `panel` draws: the pool, quotas, panel size and the exact features.
 * @category Sortition
 */
export interface PanelPlan {
  /** The pool. */
  readonly pool: SortitionPool
  /** The quota table (aligned with the pool). */
  readonly quotas: QuotaTable
  /** The panel size. */
  readonly k: number
  /** The exact counter (its `exact` lists the exact features in DP order). */
  readonly counter: Counter
  /** True when every feature is counted exactly (no rejection; `counter.count` is the number of valid panels). */
  readonly exact: boolean
  /** The plan method (docs/spec.md, Plan methods): its gate and round cap. Absent: method 1. */
  readonly method?: PlanMethod
  /** Method 3: the committed round cap (16 times the trials its gate drew). */
  readonly maxRounds?: number
  /** The commit-time gate's trials drawn and kept, when it ran (commit side; not part of a commitment). */
  readonly gate?: { readonly trials: number; readonly kept: number }
}

/**
 * Outcome of a `panel` draw.
 * @category Sortition
 */
export interface PanelDraw {
  /** The panel: canonical pool indices, ascending. */
  readonly members: number[]
  /** Rounds used (1 = the first relaxed panel was kept). */
  readonly rounds: number
  /** Members taken from each cell in the kept round (DP order), for vectors and audits. */
  readonly cellCounts: number[]
}

const TWO256 = 1n << 256n

/** Exact uniform integer in [0, n) for any bigint n >= 1: the spec's rejection rule at every size. */
export function uniformBelow(stream: RandomStream, n: bigint): bigint {
  return n <= TWO256 ? uniformBigInt(stream, n) : drawBig(stream, bigSampler(n))
}

/**
 * True when `members` (pool indices) meet every quota of `table` on the given features.
 * @category Sortition
 */
export function meetsQuotas(pool: SortitionPool, table: QuotaTable, members: readonly number[], features: readonly number[]): boolean {
  for (const f of features) {
    const cnt = new Array<number>(pool.features[f]!.values.length).fill(0)
    for (const m of members) cnt[pool.respondents[m]!.type[f]!]!++
    for (let v = 0; v < cnt.length; v++) if (cnt[v]! < table.min[f]![v]! || cnt[v]! > table.max[f]![v]!) return false
  }
  return true
}

/**
 * One round: a panel uniform among the relaxed set of the counter. For each cell `i` in order, draws
 * `x` uniform in `[0, W_i(s))` and takes the first count `c` (ascending) whose block
 * `C(n_i, c) · W_{i+1}(next(s, c))` contains `x`; then, for each cell with `c_i > 0` in order,
 * `pickIndices(n_i, c_i)` chooses the members (positions in the cell's ascending member list).
 * @category Sortition
 */
export function relaxedPanel(counter: Counter, stream: RandomStream): { members: number[]; cellCounts: number[] } {
  const counts = new Array<number>(counter.cells.length)
  chooseCounts(counter, stream, counts)
  const members: number[] = []
  counter.cells.forEach((cell, i) => {
    const c = counts[i]!
    if (c > 0) pickInto(stream, cell.members, c, members, members.length)
  })
  members.sort((a, b) => a - b)
  return { members, cellCounts: counts }
}

/**
 * {@link relaxedPanel} without its sort, into scratch arrays (the gate's and the draw's hot path): the
 * same bytes read and the same members, written to `out[0 … k)` in pick order; `counts` receives the
 * members taken from each cell.
 */
export function relaxedInto(counter: Counter, stream: RandomStream, counts: Int32Array, out: Int32Array): void {
  chooseCounts(counter, stream, counts)
  const cells = counter.cells
  let at = 0
  for (let i = 0; i < cells.length; i++) {
    const c = counts[i]!
    if (c > 0) at = pickInto(stream, cells[i]!.members, c, out, at)
  }
}

/** Scratch of {@link pickInto}: position → 1 + the position now there (0 = untouched). */
let moved = new Int32Array(1024)
const touched: number[] = []

/**
 * `pickIndices(stream, members.length, c)` (docs/spec.md, Pick k of n), the chosen members appended to
 * `out` in pick order: the same bytes read and the same positions, with a typed scratch array instead
 * of a map (a round picks up to k members, so this is the round's hot path).
 */
export function pickMembers(stream: RandomStream, members: readonly number[], c: number, out: number[]): void {
  pickInto(stream, members, c, out, out.length)
}

/** {@link pickMembers} writing `out[at …]`; returns the index after the last written. */
function pickInto(stream: RandomStream, members: readonly number[], c: number, out: { [i: number]: number }, at: number): number {
  const n = members.length
  if (moved.length < n) moved = new Int32Array(Math.max(n, 2 * moved.length))
  try {
    for (let i = 0; i < c; i++) {
      const m = n - i
      const j = m === 1 ? i : i + drawIndex(stream, m)
      const atI = moved[i]! === 0 ? i : moved[i]! - 1
      if (j === i) out[at++] = members[atI]!
      else {
        out[at++] = members[moved[j]! === 0 ? j : moved[j]! - 1]!
        moved[j] = atI + 1
        touched.push(j)
      }
    }
  } finally {
    for (const j of touched) moved[j] = 0
    touched.length = 0
  }
  return at
}

/**
 * Draws a `panel`: rounds of {@link relaxedPanel} on `stream` until one meets every quota, at most
 * the plan method's round cap ({@link SORTITION_LIMITS.maxRejectionRounds} for method 1,
 * {@link SORTITION_LIMITS.maxRejectionRoundsV2} for method 2, the committed `maxRounds` for method 3:
 * `roundCap`).
 *
 * @throws {@link LimitExceededError} `SORTITION_REJECTION_LIMIT` if no round is kept within the limit
 *   (the commit-time check makes this vanishingly unlikely: see docs/spec.md, Sortition).
 * @example
 * ```ts
 * const plan = planPanel(pool, table, 40)
 * const { members } = drawPanel(plan, streamFromSeed(seed))
 * ```
 * @category Sortition
 */
export function drawPanel(plan: PanelPlan, stream: RandomStream): PanelDraw {
  if (plan.counter.count === 0n) throw new InfeasibleQuotasError('NO_VALID_PANEL', 'no panel meets the quotas', 'relax the quotas (see planPanel)')
  const check = new OtherQuotas(plan)
  const cap = roundCap(plan)
  const counts = new Int32Array(plan.counter.cells.length)
  const members = new Int32Array(plan.k)
  for (let round = 1; round <= cap; round++) {
    if (roundMeets(plan.counter, stream, counts, members, check, true)) return { members: Array.from(members).sort((a, b) => a - b), rounds: round, cellCounts: Array.from(counts) }
  }
  throw new LimitExceededError('SORTITION_REJECTION_LIMIT', `no relaxed panel met every quota in ${cap} rounds`, 'the quotas are too tight for the exact features of this plan; count more features exactly or relax the quotas')
}

/**
 * The most rounds one draw of `plan` may use: its method's cap, or for method 3 the committed
 * `maxRounds` (docs/spec.md, Plan methods).
 * @category Sortition
 */
export function roundCap(plan: Pick<PanelPlan, 'method' | 'maxRounds'>): number {
  return plan.method === 3 ? plan.maxRounds ?? 1 : PLAN_METHODS[plan.method ?? 1].rounds
}

/** The features of a plan left to rejection (not exact), canonical order. */
export function otherFeatures(plan: Pick<PanelPlan, 'pool' | 'counter'>): number[] {
  return plan.pool.features.map((_, f) => f).filter((f) => !plan.counter.exact.includes(f))
}
