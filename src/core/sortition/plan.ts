/**
 * Planning `panel` draws (commit side, and a verifier reading a committed plan): the work bound check,
 * the choice of the exact features, the count and the commit-time acceptance gate (docs/spec.md,
 * Work bound, Commit-time gate, Choosing E).
 *
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { InvalidInputError, LimitExceededError, OrbitdrawError } from '../errors.js'
import { streamFromSeed, type RandomStream } from '../random/stream.js'
import { buildCounter, type Counter } from './count.js'
import { checkPlanCost, planCost } from './cost.js'
import { PLAN_METHODS, smallestGateRelaxation, type PlanMethod, type PlanMethodSettings } from './gate.js'
import { noValidPanel } from './infeasible.js'
import { SORTITION_LIMITS, type QuotaTable, type SortitionPool } from './pool.js'
import { otherFeatures, relaxedPanel, type PanelPlan } from './round.js'

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
  /**
   * The plan method (docs/spec.md, Plan methods): 1 (default) or 2 (a sequential gate of at most
   * 40,000 trials needing 12 kept, and 400,000 rounds). Method 2 is committed as `"plan": 2`.
   */
  method?: PlanMethod
  /**
   * When method 1's gate refuses the plan, try method 2's gate on the same exact features (within
   * method 2's work bound) and return a method-2 plan if it admits it (commit side; default false).
   */
  fallbackToMethod2?: boolean
  /**
   * With `fallbackToMethod2`: when method 2's gate refuses too, continue its trials as method 3's gate
   * and return a method-3 plan (with its committed `maxRounds`) if that admits it (default false).
   */
  fallbackToMethod3?: boolean
  /** Method 3, replaying a committed plan: the committed round cap (`maxRounds`, 1 … 4,000,000). */
  maxRounds?: number
  /**
   * A verifier replaying a committed plan: method 1's gate stops at its 7th kept trial instead of
   * drawing all 2,000 (the verdict cannot change after it: docs/spec.md, Commit-time gate). The
   * plan's `gate` then reports the trials drawn. A refusal draws every trial, as at commit. Default false.
   */
  stopAtKept?: boolean
}

/**
 * The stream of the commit-time acceptance gate: seed = SHA-256("orbitdraw sortition acceptance v1")
 * (method 1) or SHA-256("orbitdraw sortition acceptance v2") (method 2).
 * @category Sortition
 */
export function acceptanceStream(method: PlanMethod = 1): RandomStream {
  return streamFromSeed(sha256(new TextEncoder().encode(PLAN_METHODS[method].seed)))
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
 * the plan method's gate runs on its acceptance stream (`acceptanceStream`): method 1 draws
 * {@link SORTITION_LIMITS.acceptanceTrials} relaxed panels and needs
 * {@link SORTITION_LIMITS.minAcceptedTrials} to meet every quota; method 2 draws until
 * {@link SORTITION_LIMITS.minAcceptedTrialsV2} do, at most {@link SORTITION_LIMITS.acceptanceTrialsV2}.
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
  const gate = PLAN_METHODS[options.method ?? 1]
  if (gate === undefined) throw new InvalidInputError('INVALID_ARGUMENT', `plan method ${String(options.method)} is not 1, 2 or 3`, 'use plan method 1, 2 or 3')
  const given = options.maxRounds
  if (given !== undefined && (gate.method !== 3 || !Number.isSafeInteger(given) || given < 1 || given > SORTITION_LIMITS.maxRejectionRoundsV3)) {
    throw new InvalidInputError('INVALID_ARGUMENT', `maxRounds must be a whole number from 1 to ${SORTITION_LIMITS.maxRejectionRoundsV3}, with plan method 3 only`, 'give maxRounds only to replay a method-3 plan')
  }
  // The greedy choice of E charges method 1's rounds for method 3 (whose cap is only known after its gate).
  const plannerRounds = gate.method === 3 ? PLAN_METHODS[1].rounds : gate.rounds
  let counter: Counter
  if (options.exactFeatures !== undefined) {
    const idx = options.exactFeatures.map((name) => {
      const f = pool.features.findIndex((x) => x.name === name)
      if (f < 0) throw new InvalidInputError('INVALID_ARGUMENT', `exact feature ${JSON.stringify(name)} is not a feature of the pool`, 'name features of the pool')
      return f
    })
    if (new Set(idx).size !== idx.length) throw new InvalidInputError('INVALID_ARGUMENT', 'an exact feature is named twice', 'name each feature once')
    checkPlanCost(pool, quotas, k, idx, gate.method, given ?? (gate.method === 3 ? plannerRounds : undefined))
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
        const rounds = order.length === pool.features.length ? 1 : plannerRounds
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
    checkPlanCost(pool, quotas, k, counter.exact, gate.method, given ?? (gate.method === 3 ? plannerRounds : undefined))
  }
  const exact = counter.exact.length === pool.features.length
  const plan: PanelPlan = { pool, quotas, k, counter, exact, ...(gate.method === 1 ? {} : { method: gate.method }), ...(given === undefined ? {} : { maxRounds: given }) }
  if (counter.count === 0n) throw noValidPanel(plan, budget, options.explain !== false)
  if (exact || options.skipAcceptanceCheck === true) return plan
  if (gate.method === 1) {
    const first = runGate(plan, gate, options.stopAtKept === true)
    if (first.refused === undefined) return { ...plan, gate: first.result }
    if (options.fallbackToMethod2 !== true) throw first.refused
    return sequentialGates(plan, options.fallbackToMethod3 === true, first.refused)
  }
  return sequentialGates(plan, gate.method === 3, undefined, gate.method === 3)
}

/**
 * Method 2's gate and, when allowed, method 3's on the same trials (docs/spec.md, Plan methods): rounds
 * on method 2's gate stream one after the other; method 2 admits the plan when the 12th kept trial is
 * within 40,000 trials (and its work bound holds); else method 3 admits it when the 10th kept trial,
 * trial `t`, is within its trial cap, with `maxRounds = 16 · t`. The cap: 250,000 trials, and fewer
 * when `16 · t` rounds would pass the draw cost. `refused1` is method 1's refusal, thrown when neither
 * method can run.
 */
function sequentialGates(plan: PanelPlan, allow3: boolean, refused1: LimitExceededError | undefined, only3 = false): PanelPlan {
  const { pool, quotas, k, counter } = plan
  const fits2 = !only3 && costWithin(pool, quotas, k, counter.exact, 2)
  const v3 = PLAN_METHODS[3]
  const perTrial = SORTITION_LIMITS.roundsPerTrialV3
  const round = planCost(pool, quotas, k, counter.exact, 1).round
  const cap3 = allow3 ? Math.min(v3.trials, Math.floor(SORTITION_LIMITS.maxDrawCost / (perTrial * round))) : 0
  if (!fits2 && cap3 < 1) {
    if (refused1 !== undefined) throw refused1
    throw new LimitExceededError('SORTITION_COST_LIMIT', `the rejection rounds of this plan do not fit the draw cost (${SORTITION_LIMITS.maxDrawCost}) of plan method ${only3 ? 3 : 2}`, 'count more features exactly, merge values, or relax the quotas')
  }
  const v2 = PLAN_METHODS[2]
  const trials = runTrials(plan, acceptanceStream(2), (t, kept) => (fits2 && t < v2.trials && kept < v2.kept) || (kept < v3.kept && t < cap3))
  const { keptAt } = trials
  if (fits2 && keptAt.length >= v2.kept && keptAt[v2.kept - 1]! <= v2.trials) return { ...plan, method: 2, gate: { trials: keptAt[v2.kept - 1]!, kept: v2.kept } }
  if (cap3 >= 1 && keptAt.length >= v3.kept && keptAt[v3.kept - 1]! <= cap3) {
    const t = keptAt[v3.kept - 1]!
    return { ...plan, method: 3, maxRounds: perTrial * t, gate: { trials: t, kept: v3.kept } }
  }
  const settings = cap3 >= 1 ? { ...v3, trials: trials.worst.length } : v2
  throw refusal(plan, settings, trials)
}

/** True when the plan's work bound holds under `method`. */
function costWithin(pool: SortitionPool, quotas: QuotaTable, k: number, exact: readonly number[], method: PlanMethod): boolean {
  try {
    checkPlanCost(pool, quotas, k, exact, method)
    return true
  } catch {
    return false
  }
}

/** Trials of a gate: the 1-based trial numbers that were kept, and what a refusal's hint needs. */
interface Trials {
  readonly keptAt: number[]
  /** Trials that break exactly one quota of the other features: that quota and by how many seats. */
  readonly single: Map<string, number[]>
  /** Per trial, the most seats by which it breaks any quota. */
  readonly worst: number[]
}

/** Draws trials on `stream` while `more(trials so far, kept so far)`. */
function runTrials(plan: PanelPlan, stream: RandomStream, more: (t: number, kept: number) => boolean): Trials {
  const { pool, quotas, counter } = plan
  const others = otherFeatures(plan)
  const keptAt: number[] = []
  const single = new Map<string, number[]>()
  const worst: number[] = []
  // The quotas of the other features, flat: slot = offset of the feature + value.
  const offset: number[] = []
  let slots = 0
  for (const f of others) {
    offset.push(slots)
    slots += pool.features[f]!.values.length
  }
  const lo = new Int32Array(slots)
  const hi = new Int32Array(slots)
  others.forEach((f, j) => pool.features[f]!.values.forEach((_, v) => ((lo[offset[j]! + v] = quotas.min[f]![v]!), (hi[offset[j]! + v] = quotas.max[f]![v]!))))
  // Each respondent's slots, flat: slotOf[r · others + j].
  const slotOf = new Int32Array(pool.respondents.length * others.length)
  pool.respondents.forEach((r, i) => others.forEach((f, j) => (slotOf[i * others.length + j] = offset[j]! + r.type[f]!)))
  const cnt = new Int32Array(slots)
  while (more(worst.length, keptAt.length)) {
    const members = relaxedPanel(counter, stream).members
    cnt.fill(0)
    for (const m of members) for (let j = 0; j < others.length; j++) cnt[slotOf[m * others.length + j]!]!++
    let broken = 0
    let most = 0
    let which = -1
    for (let x = 0; x < slots; x++) {
      const by = cnt[x]! < lo[x]! ? lo[x]! - cnt[x]! : cnt[x]! > hi[x]! ? cnt[x]! - hi[x]! : 0
      if (by === 0) continue
      broken++
      which = x
      if (by > most) most = by
    }
    worst.push(most)
    if (broken === 0) keptAt.push(worst.length)
    else if (broken === 1) {
      // The one broken quota, keyed as brokenQuotas keys it: `f:v:min` or `f:v:max`.
      let j = offset.length - 1
      while (offset[j]! > which) j--
      const key = `${others[j]!}:${which - offset[j]!}:${cnt[which]! < lo[which]! ? 'min' : 'max'}`
      const list = single.get(key) ?? []
      list.push(most)
      single.set(key, list)
    }
  }
  return { keptAt, single, worst }
}

/**
 * The commit-time gate of a plan method on its own stream (docs/spec.md, Commit-time gate, Plan
 * methods): the trials drawn and kept (`stopAtKept`: stop at the kept count the gate needs, the
 * verdict being settled), and when it refuses the plan the `SORTITION_ACCEPTANCE_TOO_LOW`
 * error with what to relax, computed from the same trials.
 */
function runGate(plan: PanelPlan, gate: PlanMethodSettings, stopAtKept = false): { result: { trials: number; kept: number }; refused?: LimitExceededError } {
  const trials = runTrials(plan, acceptanceStream(gate.method), (t, kept) => t < gate.trials && !((gate.sequential || stopAtKept) && kept >= gate.kept))
  const result = { trials: trials.worst.length, kept: trials.keptAt.length }
  return result.kept >= gate.kept ? { result } : { result, refused: refusal(plan, gate, trials) }
}

/** The `SORTITION_ACCEPTANCE_TOO_LOW` error of a gate that refused, with what to relax (from the same trials). */
function refusal(plan: PanelPlan, gate: PlanMethodSettings, trials: Trials): LimitExceededError {
  const { pool, quotas, counter } = plan
  const others = otherFeatures(plan)
  const { single, worst } = trials
  const kept = trials.keptAt.length
  const names = others.map((f) => JSON.stringify(pool.features[f]!.name)).join(', ')
  const fix = smallestGateRelaxation(pool, quotas, single, kept, gate)
  const sorted = [...worst].sort((a, b) => a - b)
  const widen = sorted[gate.kept - 1] ?? sorted.at(-1) ?? 0
  const all = `widen every quota of ${names} by ${widen} seat(s) (min − ${widen}, max + ${widen}): with the same exact features, the same trials would then keep ${worst.filter((x) => x <= widen).length} of ${gate.trials}`
  return new LimitExceededError(
    'SORTITION_ACCEPTANCE_TOO_LOW',
    `only ${kept} of ${gate.trials} panels drawn under the quotas of the exactly counted features also met the quotas of ${names} (at least ${gate.kept} needed; plan method ${gate.method})${kept === 0 ? ' (the quotas may be infeasible)' : ''}`,
    fix === undefined
      ? `no single quota change is enough: ${all}; or merge some of their values, or use fewer features (the exact counter fits ${counter.exact.length} of ${pool.features.length} features within the work bound)`
      : `${fix}; or ${all}`,
  )
}
