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
import { bigSampler, drawBig, uniformBigInt } from '../random/uniform.js'
import { pickIndices } from '../random/shuffle.js'
import type { Counter } from './count.js'
import { PLAN_METHODS, type PlanMethod } from './gate.js'
import { InfeasibleQuotasError, type QuotaTable, type SortitionPool } from './pool.js'

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
  const { layers, binom, cells } = counter
  const counts = new Array<number>(cells.length)
  let s = 0
  for (let i = 0; i < cells.length; i++) {
    const L = layers[i]!
    const W = layers[i + 1]!.ways
    let x = uniformBelow(stream, L.ways[s]!)
    const t = L.trans
    let chosen = -1
    for (let p = 2 * L.start[s]!; p < 2 * L.start[s + 1]!; p += 2) {
      const block = binom[i]![t[p]!]! * W[t[p + 1]!]!
      if (x < block) {
        chosen = p
        break
      }
      x -= block
    }
    counts[i] = t[chosen]!
    s = t[chosen + 1]!
  }
  const members: number[] = []
  cells.forEach((cell, i) => {
    const c = counts[i]!
    if (c > 0) for (const p of pickIndices(stream, cell.members.length, c)) members.push(cell.members[p]!)
  })
  members.sort((a, b) => a - b)
  return { members, cellCounts: counts }
}

/**
 * Draws a `panel`: rounds of {@link relaxedPanel} on `stream` until one meets every quota, at most
 * the plan method's round cap ({@link SORTITION_LIMITS.maxRejectionRounds} for method 1,
 * {@link SORTITION_LIMITS.maxRejectionRoundsV2} for method 2).
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
  const others = otherFeatures(plan)
  const cap = PLAN_METHODS[plan.method ?? 1].rounds
  for (let round = 1; round <= cap; round++) {
    const r = relaxedPanel(plan.counter, stream)
    if (others.length === 0 || meetsQuotas(plan.pool, plan.quotas, r.members, others)) return { members: r.members, rounds: round, cellCounts: r.cellCounts }
  }
  throw new LimitExceededError('SORTITION_REJECTION_LIMIT', `no relaxed panel met every quota in ${cap} rounds`, 'the quotas are too tight for the exact features of this plan; count more features exactly or relax the quotas')
}

/** The features of a plan left to rejection (not exact), canonical order. */
export function otherFeatures(plan: Pick<PanelPlan, 'pool' | 'counter'>): number[] {
  return plan.pool.features.map((_, f) => f).filter((f) => !plan.counter.exact.includes(f))
}
