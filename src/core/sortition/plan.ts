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
import { checkPlanCost, planCost, type PlanCost } from './cost.js'
import { PLAN_METHODS, smallestGateRelaxation, type PlanMethod, type PlanMethodSettings } from './gate.js'
import { noValidPanel } from './infeasible.js'
import { SORTITION_LIMITS, type QuotaTable, type SortitionPool } from './pool.js'
import { OtherQuotas, roundMeets } from './quota-tally.js'
import { otherFeatures, type PanelPlan } from './round.js'

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
  /**
   * How the planner chooses the exact features when none are given (commit side; docs/spec.md,
   * Choosing E): `'size'` (default) adds, while one fits the planner's trial cost, the feature giving
   * the smallest relaxed count; `'time'` does that only while the candidates are cheap to count
   * (a count cost of at most 2^16 units), then adds a costlier feature only when a model of the time to a first
   * panel (counting, the gate's trials and the draw's rounds, with acceptance rates estimated from
   * method 1's gate trials) says it pays; but it counts every feature whenever that count costs at most
   * 2^22 units (`PLANNER_EXACT_COST`: no gate, exact probabilities). The method-1 gate then stops
   * at its 7th kept trial (as with `stopAtKept`). `panelDraw` uses `'time'`.
   */
  chooseBy?: 'size' | 'time'
}

/**
 * Count cost (work units, docs/spec.md, Work bound) under which the `'time'` planner counts a
 * candidate set of exact features without weighing it first: a few milliseconds of counting.
 */
export const PLANNER_CHEAP_COST = 2 ** 16

/**
 * Count cost (work units) up to which the `'time'` planner counts every feature exactly, whatever its
 * model says: a full count needs no gate and gives exact selection probabilities (about 0.2 s of
 * counting at most), which an organizer would rather have than a few milliseconds saved.
 */
export const PLANNER_EXACT_COST = 2 ** 22

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
  // The 'time' planner's method-1 gate trials on the chosen features (they are that gate's trials).
  let pilot: Trials | undefined
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
    const byTime = options.chooseBy === 'time'
    // The 'time' planner counts without weighing only the cheap candidates here; the rest, below.
    const trialCost = byTime ? PLANNER_CHEAP_COST : SORTITION_LIMITS.planTrialCost
    for (;;) {
      let best: Counter | undefined
      for (let f = 0; f < pool.features.length; f++) {
        if (chosen.includes(f)) continue
        const order = dpOrder(pool, [...chosen, f])
        // Candidates within the trial budget and the protocol's bound (no counting before that).
        const rounds = order.length === pool.features.length ? 1 : plannerRounds
        const cost = planCost(pool, quotas, k, order, rounds, trialCost)
        if (!affordable(cost, trialCost)) continue
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
    const full = byTime && counter.count > 0n && counter.exact.length < pool.features.length ? fullCountIfCheap(pool, quotas, k, budget) : undefined
    if (full !== undefined) counter = full
    else if (byTime && counter.count > 0n && gate.method === 1 && options.skipAcceptanceCheck !== true) {
      const weighed = weighDeeper(pool, quotas, k, counter, plannerRounds, budget)
      counter = weighed.counter
      pilot = weighed.pilot
    }
    checkPlanCost(pool, quotas, k, counter.exact, gate.method, given ?? (gate.method === 3 ? plannerRounds : undefined))
  }
  const exact = counter.exact.length === pool.features.length
  const plan: PanelPlan = { pool, quotas, k, counter, exact, ...(gate.method === 1 ? {} : { method: gate.method }), ...(given === undefined ? {} : { maxRounds: given }) }
  if (counter.count === 0n) throw noValidPanel(plan, budget, options.explain !== false)
  if (exact || options.skipAcceptanceCheck === true) return plan
  if (gate.method === 1) {
    const stop = options.stopAtKept === true || options.chooseBy === 'time'
    const first = pilot !== undefined ? gateResult(plan, gate, pilot, true) : runGate(plan, gate, stop)
    if (first.refused === undefined) return { ...plan, gate: first.result }
    if (options.fallbackToMethod2 !== true) throw first.refused()
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
function sequentialGates(plan: PanelPlan, allow3: boolean, refused1: (() => LimitExceededError) | undefined, only3 = false): PanelPlan {
  const { pool, quotas, k, counter } = plan
  const fits2 = !only3 && costWithin(pool, quotas, k, counter.exact, 2)
  const v3 = PLAN_METHODS[3]
  const perTrial = SORTITION_LIMITS.roundsPerTrialV3
  const round = planCost(pool, quotas, k, counter.exact, 1).round
  const cap3 = allow3 ? Math.min(v3.trials, Math.floor(SORTITION_LIMITS.maxDrawCost / (perTrial * round))) : 0
  if (!fits2 && cap3 < 1) {
    if (refused1 !== undefined) throw refused1()
    throw new LimitExceededError('SORTITION_COST_LIMIT', `the rejection rounds of this plan do not fit the draw cost (${SORTITION_LIMITS.maxDrawCost}) of plan method ${only3 ? 3 : 2}`, 'count more features exactly, merge values, or relax the quotas')
  }
  const v2 = PLAN_METHODS[2]
  const more = (t: number, kept: number): boolean => (fits2 && t < v2.trials && kept < v2.kept) || (kept < v3.kept && t < cap3)
  const trials = runTrials(plan, acceptanceStream(2), more, false, true)
  const { keptAt } = trials
  if (fits2 && keptAt.length >= v2.kept && keptAt[v2.kept - 1]! <= v2.trials) return { ...plan, method: 2, gate: { trials: keptAt[v2.kept - 1]!, kept: v2.kept } }
  if (cap3 >= 1 && keptAt.length >= v3.kept && keptAt[v3.kept - 1]! <= cap3) {
    const t = keptAt[v3.kept - 1]!
    return { ...plan, method: 3, maxRounds: perTrial * t, gate: { trials: t, kept: v3.kept } }
  }
  const settings = cap3 >= 1 ? { ...v3, trials: trials.count } : v2
  // The hint needs every trial's full tally: the same trials again (a refusal only).
  throw refusal(plan, settings, runTrials(plan, acceptanceStream(2), more))
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
  /** The trials drawn. */
  readonly count: number
  /** False when drawn with `fast` or without `hints` (then `single` and `worst` are empty: redraw the same trials for a hint). */
  readonly full: boolean
  /** Trials that break exactly one quota of the other features: that quota and by how many seats. */
  readonly single: Map<string, number[]>
  /** Per trial, the most seats by which it breaks any quota. */
  readonly worst: number[]
  /** With `perFeature`: per feature left to rejection (canonical order), the trials meeting its quotas. */
  readonly meets?: Int32Array
}

/**
 * Draws trials on `stream` while `more(trials so far, kept so far)`; `perFeature`: also count, per
 * other feature, the trials meeting its quotas. `fast`: only which trials are kept (each trial stops
 * counting at its first max passed, reading the same bytes), no hint data. `hints` (default true;
 * ignored with `fast`): the data a refusal's hint needs (`single`, `worst`).
 */
function runTrials(plan: PanelPlan, stream: RandomStream, more: (t: number, kept: number) => boolean, perFeature = false, fast = false, hints = true): Trials {
  const check = otherQuotasOf(plan)
  // Two loops in two functions: the engine compiles (and, with too little feedback, recompiles) each alone.
  if (fast && !perFeature) return keptTrials(plan, stream, more, check)
  return talliedTrials(plan, stream, more, check, perFeature, hints)
}

/**
 * The quota test of a plan's rounds, one per counter and quota table: the planner's pilot trials and
 * the gates run on the same counter one after the other (each run resets the test's tallies per round).
 */
function otherQuotasOf(plan: PanelPlan): OtherQuotas {
  const hit = otherQuotas.get(plan.counter)
  if (hit !== undefined && hit.pool === plan.pool && hit.quotas === plan.quotas) return hit.check
  const check = new OtherQuotas(plan)
  otherQuotas.set(plan.counter, { pool: plan.pool, quotas: plan.quotas, check })
  return check
}

const otherQuotas = new WeakMap<Counter, { pool: SortitionPool; quotas: QuotaTable; check: OtherQuotas }>()

/** {@link runTrials} with `fast` (and no `perFeature`): only which trials are kept. */
function keptTrials(plan: PanelPlan, stream: RandomStream, more: (t: number, kept: number) => boolean, check: OtherQuotas): Trials {
  const { counter } = plan
  const keptAt: number[] = []
  const counts = new Int32Array(counter.cells.length)
  const members = new Int32Array(plan.k)
  let t = 0
  while (more(t, keptAt.length)) {
    t++
    if (roundMeets(counter, stream, counts, members, check, true)) keptAt.push(t)
  }
  return { keptAt, count: t, full: false, single: new Map(), worst: [] }
}

/** {@link runTrials} without `fast` (or with `perFeature`): every trial tallied in full. */
function talliedTrials(plan: PanelPlan, stream: RandomStream, more: (t: number, kept: number) => boolean, check: OtherQuotas, perFeature: boolean, hints: boolean): Trials {
  const { counter } = plan
  const { others, offset, slots, lo, hi, cnt, featureOf } = check
  const keptAt: number[] = []
  const single = new Map<string, number[]>()
  const worst: number[] = []
  const meets = perFeature ? new Int32Array(others.length) : undefined
  const fails = new Uint8Array(others.length)
  const counts = new Int32Array(counter.cells.length)
  const members = new Int32Array(plan.k)
  let t = 0
  while (more(t, keptAt.length)) {
    t++
    roundMeets(counter, stream, counts, members, check, false)
    let broken = 0
    let most = 0
    let which = -1
    for (let x = 0; x < slots; x++) {
      const by = cnt[x]! < lo[x]! ? lo[x]! - cnt[x]! : cnt[x]! > hi[x]! ? cnt[x]! - hi[x]! : 0
      if (by === 0) continue
      if (meets !== undefined) fails[featureOf[x]!] = 1
      broken++
      which = x
      if (by > most) most = by
    }
    if (hints) worst.push(most)
    if (meets !== undefined) {
      for (let j = 0; j < others.length; j++) meets[j]! += 1 - fails[j]!
      fails.fill(0)
    }
    if (broken === 0) keptAt.push(t)
    else if (broken === 1 && hints) singleBreak(single, others, offset, cnt, lo, which, most)
  }
  return { keptAt, count: t, full: hints, single, worst, ...(meets === undefined ? {} : { meets }) }
}

/** Records a trial that breaks exactly one quota, slot `which`, by `most` seats (keyed as brokenQuotas keys it: `f:v:min` or `f:v:max`). */
function singleBreak(single: Map<string, number[]>, others: readonly number[], offset: readonly number[], cnt: Int32Array, lo: Int32Array, which: number, most: number): void {
  let j = offset.length - 1
  while (offset[j]! > which) j--
  const key = `${others[j]!}:${which - offset[j]!}:${cnt[which]! < lo[which]! ? 'min' : 'max'}`
  const list = single.get(key) ?? []
  list.push(most)
  single.set(key, list)
}

/**
 * The commit-time gate of a plan method on its own stream (docs/spec.md, Commit-time gate, Plan
 * methods): the trials drawn and kept (`stopAtKept`: stop at the kept count the gate needs, the
 * verdict being settled), and when it refuses the plan the `SORTITION_ACCEPTANCE_TOO_LOW`
 * error with what to relax, computed from the same trials.
 */
function runGate(plan: PanelPlan, gate: PlanMethodSettings, stopAtKept = false): { result: { trials: number; kept: number }; refused?: () => LimitExceededError } {
  return gateResult(plan, gate, runTrials(plan, acceptanceStream(gate.method), gateMore(gate, stopAtKept)), stopAtKept)
}

/** Whether a gate draws another trial after `t` trials with `kept` kept (`stopAtKept`: see {@link runGate}). */
function gateMore(gate: PlanMethodSettings, stopAtKept: boolean): (t: number, kept: number) => boolean {
  return (t, kept) => t < gate.trials && !((gate.sequential || stopAtKept) && kept >= gate.kept)
}

/**
 * A gate's verdict from its trials, and when it refuses the refusal (built when asked for: a refused
 * method 1 usually goes on to method 2; trials drawn without hint data are drawn again for it).
 */
function gateResult(plan: PanelPlan, gate: PlanMethodSettings, trials: Trials, stopAtKept: boolean): { result: { trials: number; kept: number }; refused?: () => LimitExceededError } {
  const result = { trials: trials.count, kept: trials.keptAt.length }
  if (result.kept >= gate.kept) return { result }
  return { result, refused: () => refusal(plan, gate, trials.full ? trials : runTrials(plan, acceptanceStream(gate.method), gateMore(gate, stopAtKept))) }
}

/** True when a plan's cost is within the planner's count budget and the protocol's key and draw cost limits. */
function affordable(cost: PlanCost, countBudget: number): boolean {
  return !cost.stopped && cost.count <= countBudget && cost.keys <= SORTITION_LIMITS.maxKeyCost && cost.draw <= SORTITION_LIMITS.maxDrawCost
}

/** A counter of every feature when its count cost is at most {@link PLANNER_EXACT_COST} (and its draw cost within the limit), else undefined. */
function fullCountIfCheap(pool: SortitionPool, quotas: QuotaTable, k: number, budget: number): Counter | undefined {
  const order = dpOrder(pool, pool.features.map((_, f) => f))
  const cost = planCost(pool, quotas, k, order, 1, PLANNER_EXACT_COST)
  if (!affordable(cost, PLANNER_EXACT_COST)) return undefined
  try {
    return buildCounter(pool, quotas, k, order, budget)
  } catch (err) {
    if (err instanceof OrbitdrawError && err.code === 'SORTITION_STATE_LIMIT') return undefined
    throw err
  }
}

/** The planner's model of one round's time, in count-cost units (about 50 ns each in Node). */
// The planner's model of a round, in count-cost units, from the work bound's `k + w · Σ (m_i + 1)` (the
// round cost before issue 22 charged picks, tests and blocks: kept so the planner's choices do not move).
const modelRound = (cost: Pick<PlanCost, 'words' | 'blocks'>, k: number): number => 100 + (k + cost.words * cost.blocks) / 8

/**
 * The `'time'` planner's second phase (commit side; docs/spec.md, Choosing E): from the cheaply
 * chosen `start`, run method 1's gate on its exact features, stopping at its 7th kept trial (these
 * are the gate's own trials if the plan stops here), and estimate from them the acceptance rate `p`
 * and, for each feature `f` left to rejection, the share `r_f` of trials meeting `f`'s quotas; adding
 * `f` would raise the rate to about `p / r_f` (exactly so in expectation: `|R(E + f)| = r_f · |R(E)|`).
 * The modelled time to a first panel of stopping here (the draw's rounds; method 2/3's gate too when
 * method 1's refuses) is compared with counting `E + f` (its count cost, within the planner's trial
 * cost and the draw cost) and then its gate and draw; the cheapest wins, and the step repeats from it.
 * Deterministic: every figure comes from the work bound and the gate stream, never the clock.
 */
function weighDeeper(pool: SortitionPool, quotas: QuotaTable, k: number, start: Counter, plannerRounds: number, budget: number): { counter: Counter; pilot?: Trials } {
  const g1 = PLAN_METHODS[1]
  let counter = start
  for (;;) {
    if (counter.exact.length === pool.features.length) return { counter }
    const here: PanelPlan = { pool, quotas, k, counter, exact: false }
    // Without hint data: a refusal's hint draws the same trials again (gateResult).
    const pilot = runTrials(here, acceptanceStream(1), gateMore(g1, true), true, false, false)
    const trials = pilot.count
    const kept = pilot.keptAt.length
    // Time grows with 1/p: its expectation under the trials (Jeffreys prior: trials / (kept − 1/2)).
    const p = Math.max(kept - 0.5, 0.25) / trials
    const admitted = kept >= g1.kept
    // Rounds still to draw: the draw's, and method 2/3's gate (10 to 12 kept) when method 1 refuses.
    const rest = (rate: number, gate1: boolean): number => (gate1 ? 1 : 12) / rate
    const here1 = planCost(pool, quotas, k, counter.exact, 1)
    // Stopping cannot be admitted when method 3's trial cap (the draw cost's) is short of 10 kept at this rate: then any deeper E is better.
    const cap3 = Math.min(PLAN_METHODS[3].trials, Math.floor(SORTITION_LIMITS.maxDrawCost / (SORTITION_LIMITS.roundsPerTrialV3 * here1.round)))
    const stay = admitted || PLAN_METHODS[3].kept / p <= cap3 ? rest(p, admitted) * modelRound(here1, k) : Infinity
    let best: { order: number[]; time: number } | undefined
    const others = otherFeatures(here)
    others.forEach((f, j) => {
      const order = dpOrder(pool, [...counter.exact, f])
      const rounds = order.length === pool.features.length ? 1 : plannerRounds
      // A candidate whose count alone costs more than stopping here cannot win: its bound stops there.
      const cost = planCost(pool, quotas, k, order, rounds, Math.min(SORTITION_LIMITS.planTrialCost, stay))
      if (!affordable(cost, SORTITION_LIMITS.planTrialCost)) return
      const share = (pilot.meets![j]! + 1) / (trials + 1)
      const rate = Math.min(1, p / share)
      // Its method-1 gate (to the 7th kept, or all 2,000 trials), then the rest.
      const gate1 = rate * g1.trials >= 2 * g1.kept
      const time = cost.count + (Math.min(g1.trials, g1.kept / rate) + (order.length === pool.features.length ? 0 : rest(rate, gate1))) * modelRound(cost, k)
      if (best === undefined || time < best.time) best = { order, time }
    })
    if (best === undefined || best.time >= stay) return { counter, pilot }
    let next: Counter
    try {
      next = buildCounter(pool, quotas, k, best.order, budget)
    } catch (err) {
      if (err instanceof OrbitdrawError && err.code === 'SORTITION_STATE_LIMIT') return { counter, pilot }
      throw err
    }
    if (next.count === 0n) return { counter: next }
    counter = next
  }
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
