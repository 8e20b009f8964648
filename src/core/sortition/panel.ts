/**
 * The `panel` engine: a panel drawn uniformly at random among all size-k subsets of the pool that meet
 * every quota, exactly (docs/spec.md, Sortition).
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
import { sha256 } from '@noble/hashes/sha2.js'
import { InvalidInputError, LimitExceededError, OrbitdrawError } from '../errors.js'
import { streamFromSeed, type RandomStream } from '../random/stream.js'
import { bigSampler, drawBig, uniformBigInt } from '../random/uniform.js'
import { pickIndices } from '../random/shuffle.js'
import { buildCounter, expectedCellCounts, type Counter } from './count.js'
import { planCost } from './cost.js'
import { brokenQuotas, smallestGateRelaxation } from './gate.js'
import { InfeasibleQuotasError, SORTITION_LIMITS, type QuotaTable, type SortitionPool } from './pool.js'

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
 * {@link SORTITION_LIMITS.maxRejectionRounds}.
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
  for (let round = 1; round <= SORTITION_LIMITS.maxRejectionRounds; round++) {
    const r = relaxedPanel(plan.counter, stream)
    if (others.length === 0 || meetsQuotas(plan.pool, plan.quotas, r.members, others)) return { members: r.members, rounds: round, cellCounts: r.cellCounts }
  }
  throw new LimitExceededError('SORTITION_REJECTION_LIMIT', `no relaxed panel met every quota in ${SORTITION_LIMITS.maxRejectionRounds} rounds`, 'the quotas are too tight for the exact features of this plan; count more features exactly or relax the quotas')
}

function otherFeatures(plan: PanelPlan): number[] {
  return plan.pool.features.map((_, f) => f).filter((f) => !plan.counter.exact.includes(f))
}

/**
 * Options for {@link planPanel}.
 * @category Sortition
 */
export interface PanelPlanOptions {
  /** The exact features by name, in DP order; default: chosen greedily (see {@link planPanel}). */
  exactFeatures?: readonly string[]
  /** A local state budget of the counter (default: none; the protocol's bound is the plan's cost). */
  maxStates?: number
  /**
   * Search the smallest relaxation when no panel exists (default true). A verifier reading a committed
   * plan passes false: it only needs the refusal, and the search recounts.
   */
  explain?: boolean
  /**
   * Skip the commit-time acceptance gate (a verifier replaying a committed plan: its work is bounded by
   * {@link SORTITION_LIMITS.maxRejectionRounds} anyway). Default false.
   */
  skipAcceptanceCheck?: boolean
}

/**
 * The stream of the commit-time acceptance estimate: seed = SHA-256("orbitdraw sortition acceptance v1").
 * @category Sortition
 */
export function acceptanceStream(): RandomStream {
  return streamFromSeed(sha256(new TextEncoder().encode('orbitdraw sortition acceptance v1')))
}

/**
 * Refuses a plan whose work bound ({@link planCost}) exceeds the protocol's limits, before any counting:
 * `SORTITION_COST_LIMIT` when the counter's bound exceeds {@link SORTITION_LIMITS.maxCountCost} or the
 * rejection rounds' bound exceeds {@link SORTITION_LIMITS.maxDrawCost}. Takes time linear in the cells
 * times `k` (stopping as soon as the count bound is exceeded).
 *
 * @throws {@link LimitExceededError} `SORTITION_COST_LIMIT`.
 * @category Sortition
 */
export function checkPlanCost(pool: SortitionPool, quotas: QuotaTable, k: number, exact: readonly number[]): void {
  const rounds = exact.length === pool.features.length ? 1 : SORTITION_LIMITS.maxRejectionRounds
  const c = planCost(pool, quotas, k, exact, rounds, SORTITION_LIMITS.maxCountCost)
  const hint = 'count exactly over fewer features (the others are enforced by rejection), merge values, or use fewer features'
  if (c.count > SORTITION_LIMITS.maxCountCost) {
    throw new LimitExceededError('SORTITION_COST_LIMIT', `counting exactly over ${exact.length} feature(s) may take more than ${SORTITION_LIMITS.maxCountCost} work units (the plan's bound passes it${c.count >= 2 ** 40 ? '' : ` at ${c.count}`}; docs/spec.md, Work bound)`, hint)
  }
  if (c.draw > SORTITION_LIMITS.maxDrawCost) {
    throw new LimitExceededError('SORTITION_COST_LIMIT', `the rejection rounds of this plan may take ${c.draw} work units, more than ${SORTITION_LIMITS.maxDrawCost} (${c.rounds} rounds of at most ${c.round}; docs/spec.md, Work bound)`, hint)
  }
}

/**
 * The exact features in DP order: more values first, then canonical feature order.
 * @category Sortition
 */
export function dpOrder(pool: SortitionPool, features: readonly number[]): number[] {
  return [...features].sort((a, b) => pool.features[b]!.values.length - pool.features[a]!.values.length || a - b)
}

/**
 * Plans `panel` draws (commit side): chooses the exact features, counts, and checks that draws will
 * finish.
 *
 * Exact features, unless given: start with none; repeatedly add the feature whose addition gives the
 * smallest relaxed count within {@link SORTITION_LIMITS.planTrialCost} count cost (ties: canonical order); stop when none fits. The
 * features are then put in DP order (more values first, then canonical order). When some features are left to rejection,
 * {@link SORTITION_LIMITS.acceptanceTrials} relaxed panels are drawn on the acceptance stream (seed =
 * SHA-256("orbitdraw sortition acceptance v1")) and at
 * least {@link SORTITION_LIMITS.minAcceptedTrials} must meet every quota.
 *
 * @throws {@link InfeasibleQuotasError} `NO_VALID_PANEL` when the count is 0, with the smallest single
 *   quota change that makes it positive when every feature is counted exactly.
 * @throws {@link LimitExceededError} `SORTITION_STATE_LIMIT` (given exact features too costly),
 *   `SORTITION_ACCEPTANCE_TOO_LOW` (draws could exhaust the rejection rounds).
 * @example
 * ```ts
 * const pool = makePool(['gender', 'age'], rows)
 * const plan = planPanel(pool, checkQuotas(pool, quotaRows, 40), 40)
 * plan.counter.count // number of valid panels (exact plan) or of relaxed panels
 * ```
 * @category Sortition
 */
export function planPanel(pool: SortitionPool, quotas: QuotaTable, k: number, options: PanelPlanOptions = {}): PanelPlan {
  const budget = options.maxStates ?? Infinity
  let counter: Counter
  if (options.exactFeatures !== undefined) {
    const idx = options.exactFeatures.map((name) => {
      const f = pool.features.findIndex((x) => x.name === name)
      if (f < 0) throw new InvalidInputError('INVALID_ARGUMENT', `exact feature ${JSON.stringify(name)} is not a feature of the pool`, 'name features of the pool')
      return f
    })
    if (new Set(idx).size !== idx.length) throw new InvalidInputError('INVALID_ARGUMENT', 'an exact feature is named twice', 'name each feature once')
    checkPlanCost(pool, quotas, k, idx)
    counter = buildCounter(pool, quotas, k, idx, budget)
  } else {
    counter = buildCounter(pool, quotas, k, [], budget)
    let chosen: number[] = []
    for (;;) {
      let best: Counter | undefined
      for (let f = 0; f < pool.features.length; f++) {
        if (chosen.includes(f)) continue
        const order = dpOrder(pool, [...chosen, f])
        // Candidates within the trial budget and the protocol's bound (no counting before that).
        const rounds = order.length === pool.features.length ? 1 : SORTITION_LIMITS.maxRejectionRounds
        const cost = planCost(pool, quotas, k, order, rounds, SORTITION_LIMITS.planTrialCost)
        if (cost.stopped || cost.count > SORTITION_LIMITS.planTrialCost || cost.draw > SORTITION_LIMITS.maxDrawCost) continue
        let c: Counter
        try {
          c = buildCounter(pool, quotas, k, order, budget)
        } catch (err) {
          if (err instanceof OrbitdrawError && err.code === 'SORTITION_STATE_LIMIT') continue
          throw err
        }
        if (best === undefined || c.count < best.count) best = c
        if (c.count === 0n) break
      }
      if (best === undefined) break
      counter = best
      chosen = [...best.exact]
      if (best.count === 0n) break
    }
    checkPlanCost(pool, quotas, k, counter.exact)
  }
  const exact = counter.exact.length === pool.features.length
  const plan: PanelPlan = { pool, quotas, k, counter, exact }
  if (counter.count === 0n) throw noValidPanel(plan, budget, options.explain !== false)
  if (!exact && options.skipAcceptanceCheck !== true) {
    const stream = acceptanceStream()
    const others = otherFeatures(plan)
    let kept = 0
    // Trials that break exactly one quota of the other features: that quota and by how many seats.
    const single = new Map<string, number[]>()
    // Per trial, the most seats by which it breaks any quota: widening every quota of the other
    // features by that many seats would keep it.
    const worst: number[] = []
    for (let t = 0; t < SORTITION_LIMITS.acceptanceTrials; t++) {
      const broken = brokenQuotas(pool, quotas, relaxedPanel(counter, stream).members, others)
      worst.push(broken.reduce((a, [, by]) => Math.max(a, by), 0))
      if (broken.length === 0) kept++
      else if (broken.length === 1) {
        const [key, by] = broken[0]!
        const list = single.get(key) ?? []
        list.push(by)
        single.set(key, list)
      }
    }
    if (kept < SORTITION_LIMITS.minAcceptedTrials) {
      const names = others.map((f) => JSON.stringify(pool.features[f]!.name)).join(', ')
      const fix = smallestGateRelaxation(pool, quotas, single, kept)
      const widen = [...worst].sort((a, b) => a - b)[SORTITION_LIMITS.minAcceptedTrials - 1]!
      const all = `widen every quota of ${names} by ${widen} seat(s) (min − ${widen}, max + ${widen}): with the same exact features, the same trials would then keep ${worst.filter((x) => x <= widen).length} of ${SORTITION_LIMITS.acceptanceTrials}`
      throw new LimitExceededError(
        'SORTITION_ACCEPTANCE_TOO_LOW',
        `only ${kept} of ${SORTITION_LIMITS.acceptanceTrials} panels drawn under the quotas of the exactly counted features also met the quotas of ${names} (at least ${SORTITION_LIMITS.minAcceptedTrials} needed)${kept === 0 ? ' (the quotas may be infeasible)' : ''}`,
        fix === undefined
          ? `no single quota change is enough: ${all}; or merge some of their values, or use fewer features (the exact counter fits ${counter.exact.length} of ${pool.features.length} features within the work bound)`
          : `${fix}; or ${all}`,
      )
    }
  }
  return plan
}

/**
 * NO_VALID_PANEL with the smallest single-quota relaxation among the exactly counted features (every
 * feature for an exact plan), each candidate recounted within the work bound.
 */
function noValidPanel(plan: PanelPlan, budget: number, explain: boolean): InfeasibleQuotasError {
  const { pool, quotas, k } = plan
  let best: { delta: number; text: string } | undefined
  // The search changes quotas of the exactly counted features only (for an exact plan: every feature):
  // with the others left to rejection, a zero count is a conflict among these.
  const counted = [...plan.counter.exact].sort((x, y) => x - y)
  const recount = (min: number[][], max: number[][]): bigint => {
    checkPlanCost(pool, { min, max }, k, plan.counter.exact)
    return buildCounter(pool, { min, max }, k, plan.counter.exact, budget).count
  }
  if (explain) {
    // Try lowering one min or raising one max by delta = 1, 2, ...; the smallest delta wins (ties:
    // canonical order, mins before maxes). Bounded: at most k steps per quota, each a recount.
    const maxTrials = 200
    let trials = 0
    for (let delta = 1; delta <= k && best === undefined && trials < maxTrials; delta++) {
      for (const f of counted) {
        if (best !== undefined) break
        for (let v = 0; v < pool.features[f]!.values.length && best === undefined && trials < maxTrials; v++) {
          for (const side of ['min', 'max'] as const) {
            const min = quotas.min.map((r) => r.slice())
            const max = quotas.max.map((r) => r.slice())
            if (side === 'min') {
              if (min[f]![v]! < delta) continue
              min[f]![v] = min[f]![v]! - delta
            } else {
              if (max[f]![v]! + delta > k) continue
              max[f]![v] = max[f]![v]! + delta
            }
            trials++
            let count: bigint
            try {
              count = recount(min, max)
            } catch {
              continue
            }
            if (count > 0n) {
              const name = `${JSON.stringify(pool.features[f]!.name)}=${JSON.stringify(pool.features[f]!.values[v])}`
              best = { delta, text: side === 'min' ? `lower the min of ${name} from ${quotas.min[f]![v]} to ${min[f]![v]}` : `raise the max of ${name} from ${quotas.max[f]![v]} to ${max[f]![v]}` }
              break
            }
          }
        }
      }
    }
  }
  if (best === undefined && explain) {
    // No single quota change is enough: find the first feature (canonical order) whose quotas, dropped
    // altogether, leave some valid panel.
    for (const f of counted) {
      if (best !== undefined) break
      const min = quotas.min.map((r, i) => (i === f ? r.map(() => 0) : r.slice()))
      const max = quotas.max.map((r, i) => (i === f ? r.map(() => k) : r.slice()))
      try {
        if (recount(min, max) > 0n) {
          best = { delta: 0, text: `no single quota change is enough; relax several quotas of ${JSON.stringify(pool.features[f]!.name)} (without its quotas, valid panels exist)` }
        }
      } catch {
        // over the state budget: try the next feature
      }
    }
  }
  const relax = best?.text ?? 'relax the quotas: the features\' quotas cannot all hold together (no combination of members fits every feature at once)'
  return new InfeasibleQuotasError('NO_VALID_PANEL', `no size-${k} panel of the pool meets every quota (counted exactly over ${plan.counter.exact.length} feature(s))`, relax)
}

/**
 * Exact selection probability of one respondent type: `numerator / denominator`, reduced.
 * @category Sortition
 */
export interface TypeProbability {
  /** The type: value index per feature (canonical order). */
  readonly type: readonly number[]
  /** Respondents of this type. */
  readonly respondents: number
  /** Numerator of the probability that a given respondent of this type is on the panel. */
  readonly numerator: bigint
  /** Denominator (positive). */
  readonly denominator: bigint
  /** The probability as a decimal string rounded down to 12 digits after the point. */
  readonly decimal: string
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b]
  return a < 0n ? -a : a
}

/** `num / den` (0 <= num <= den) rounded down to `digits` decimals. */
export function decimalString(num: bigint, den: bigint, digits = 12): string {
  const scaled = (num * 10n ** BigInt(digits)) / den
  const s = scaled.toString().padStart(digits + 1, '0')
  return `${s.slice(0, -digits)}.${s.slice(-digits)}`
}

/**
 * Exact selection probability of every respondent type under the uniform `panel` draw: the probability
 * that a given respondent of the type is on the panel (the same for every respondent of a type).
 * Needs an exact plan (every feature counted exactly), where the cells are the types.
 *
 * @throws {@link InvalidInputError} `SORTITION_NOT_EXACT` for a plan with features left to rejection.
 * @category Sortition
 */
export function selectionProbabilities(plan: PanelPlan): TypeProbability[] {
  if (!plan.exact) {
    throw new InvalidInputError('SORTITION_NOT_EXACT', 'selection probabilities are only exact when every feature is counted exactly', 'use a plan whose exact features include every feature')
  }
  const { counter, pool } = plan
  const e = expectedCellCounts(counter)
  return counter.cells.map((cell, i) => {
    const n = BigInt(cell.members.length)
    let num = e[i]!
    let den = counter.count * n
    const g = gcd(num, den)
    if (g > 1n) {
      num /= g
      den /= g
    }
    return { type: pool.respondents[cell.members[0]!]!.type, respondents: cell.members.length, numerator: num, denominator: den, decimal: decimalString(num, den) }
  })
}

/**
 * Name of a failed check of a claimed `panel` outcome (see {@link checkPanelClaim}).
 * @category Sortition
 */
export type PanelCheck = (typeof PANEL_CHECK_NAMES)[number]

/**
 * The names of the checks of a claimed `panel` outcome, in the order they run (`verify` reports each
 * of them for a `panel` draw). The one list of these names.
 * @category Sortition
 */
export const PANEL_CHECK_NAMES = ['panel-size', 'panel-distinct', 'panel-members-known', 'panel-quotas', 'panel-replay'] as const

/**
 * Result of {@link checkPanelClaim}: every failed check by name, with what was wrong.
 * @category Sortition
 */
export interface PanelClaimResult {
  /** True when no check failed. */
  readonly ok: boolean
  /** The failed checks, in the order run. */
  readonly failed: readonly { readonly check: PanelCheck; readonly detail: string }[]
  /** The replayed panel (canonical pool indices), when the replay ran. */
  readonly replayed?: readonly number[]
}

/**
 * Checks a claimed panel (canonical pool indices) against a committed plan and the draw's stream, the
 * way a verifier does: size k (`panel-size`), no repeated member (`panel-distinct`), every member in the
 * pool (`panel-members-known`), every quota met (`panel-quotas`), and equal to the replayed draw
 * (`panel-replay`). Never throws on a bad claim: every failed check is returned by name. Work is bounded
 * by the claim's length and {@link SORTITION_LIMITS.maxRejectionRounds}.
 *
 * @example
 * ```ts
 * const r = checkPanelClaim(plan, streamFromSeed(seed), claimedMembers)
 * if (!r.ok) console.log(r.failed.map((f) => f.check))
 * ```
 * @category Sortition
 */
export function checkPanelClaim(plan: PanelPlan, stream: RandomStream, claimed: readonly number[]): PanelClaimResult {
  const failed = checkPanelShape(plan, claimed)
  let replayed: number[] | undefined
  try {
    replayed = drawPanel(plan, stream).members
    const sorted = [...claimed].sort((a, b) => a - b)
    if (sorted.length !== replayed.length || sorted.some((m, i) => m !== replayed![i])) failed.push({ check: 'panel-replay', detail: 'the panel differs from the replayed draw' })
  } catch (err) {
    if (!(err instanceof OrbitdrawError)) throw err
    failed.push({ check: 'panel-replay', detail: `the draw cannot be replayed: ${err.detail}` })
  }
  return replayed === undefined ? { ok: failed.length === 0, failed } : { ok: failed.length === 0, failed, replayed }
}

/**
 * The checks of a claimed panel that need no replay (`panel-size`, `panel-distinct`,
 * `panel-members-known`, `panel-quotas`): every failure, in that order. Linear in the claim's length
 * and the number of feature values.
 * @category Sortition
 */
export function checkPanelShape(plan: Pick<PanelPlan, 'pool' | 'quotas' | 'k'>, claimed: readonly number[]): { check: PanelCheck; detail: string }[] {
  const failed: { check: PanelCheck; detail: string }[] = []
  const n = plan.pool.respondents.length
  if (claimed.length !== plan.k) failed.push({ check: 'panel-size', detail: `the panel has ${claimed.length} members, the plan ${plan.k}` })
  const seen = new Set<number>()
  const dup = claimed.find((m) => (seen.has(m) ? true : (seen.add(m), false)))
  if (dup !== undefined) failed.push({ check: 'panel-distinct', detail: `member ${dup} appears twice` })
  const unknown = claimed.find((m) => !Number.isSafeInteger(m) || m < 0 || m >= n)
  if (unknown !== undefined) {
    failed.push({ check: 'panel-members-known', detail: `member ${String(unknown)} is not in the pool of ${n}` })
    // A member's values are its index's committed type, never its entry text: outside the pool it has none.
    failed.push({ check: 'panel-quotas', detail: `not checked: member ${String(unknown)} is outside the pool of ${n}, so it has no committed type to count (a member's values come from its index, never from its entry text)` })
  } else {
    const broken: string[] = []
    plan.pool.features.forEach((f, fi) => {
      const cnt = new Array<number>(f.values.length).fill(0)
      for (const m of claimed) cnt[plan.pool.respondents[m]!.type[fi]!]!++
      cnt.forEach((c, v) => {
        if (c < plan.quotas.min[fi]![v]! || c > plan.quotas.max[fi]![v]!) broken.push(`${JSON.stringify(f.name)}=${JSON.stringify(f.values[v])}: ${c} not in ${plan.quotas.min[fi]![v]}..${plan.quotas.max[fi]![v]}`)
      })
    })
    if (broken.length > 0) failed.push({ check: 'panel-quotas', detail: `quotas broken: ${broken.join('; ')}` })
  }
  return failed
}
