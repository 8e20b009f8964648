/**
 * Households: at most one panel member per household (docs/spec.md, Sortition, Households).
 *
 * The rule is committed as the households of two or more respondents, each a list of committed
 * indices; a respondent in no listed household is a household of one. A draw is the plan's rounds
 * ({@link relaxedPanel}) on the draw's stream, each round kept when its panel meets every quota of the
 * features outside the exact features **and** has no two members in one household: every round is an
 * independent uniform draw from the relaxed set, so the kept panel is uniform among the panels that
 * meet every quota and the household rule. The rounds share the plan method's round cap
 * ({@link roundCap}: 100,000 for method 1, 400,000 for method 2, the committed `maxRounds` for method
 * 3); the commit-time gate ({@link checkHouseholdAcceptance}) is the plan method's gate (its stream,
 * trials and kept count) counting a trial as kept only when it keeps both rules, which gives the same
 * failure bound as the method's quota gate; when it refuses, the commit tries the next method
 * ({@link planWithHouseholds}), as the quota gates do.
 *
 * Matching (commit time only; the commitment carries the groups, never the values): two respondents
 * share a household when their household values are equal after {@link normalizeHousehold}.
 *
 * @module
 */
import { InvalidInputError, LimitExceededError } from '../errors.js'
import type { RandomStream } from '../random/stream.js'
import { checkPlanCost, planCost } from './cost.js'
import { PLAN_METHODS, type PlanMethod } from './gate.js'
import { acceptanceStream } from './plan.js'
import { SORTITION_LIMITS, type SortitionPool } from './pool.js'
import { OtherQuotas, relaxedInto, roundCap, type PanelDraw, type PanelPlan } from './round.js'

/** The White_Space characters of Unicode 15 (the set a household value's runs of space are taken from). */
const SPACE_RUN = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/gu

/**
 * The household matching key of a raw value: Unicode NFC; every run of White_Space characters (Unicode
 * 15: U+0009–U+000D, U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F,
 * U+3000) replaced by one U+0020 and the ends trimmed; Unicode's default full lowercase mapping
 * (`toLowerCase()` without a locale, Python's `str.lower()`); NFC again. Two values match when their
 * keys are equal code point for code point.
 *
 * @example
 * ```ts
 * normalizeHousehold('  12 Rue  de la PAIX ') === normalizeHousehold('12 rue de la paix') // true
 * ```
 * @category Sortition
 */
export function normalizeHousehold(value: string): string {
  return value.normalize('NFC').replace(SPACE_RUN, ' ').trim().toLowerCase().normalize('NFC')
}

/**
 * The committed households of a pool in committed order: the groups of two or more participants whose
 * household values match ({@link normalizeHousehold}), each a list of committed indices ascending, the
 * groups ordered by their first index.
 *
 * @param ids - the respondents' ids in committed order.
 * @param households - each respondent's raw household value, by id.
 * @throws {@link InvalidInputError} `SORTITION_HOUSEHOLD_INVALID` for a respondent without a value or
 *   whose value is empty once normalized.
 * @category Sortition
 */
export function householdGroups(ids: readonly string[], households: ReadonlyMap<string, string>): number[][] {
  const byKey = new Map<string, number[]>()
  ids.forEach((id, i) => {
    const raw = households.get(id)
    if (raw === undefined) throw new InvalidInputError('SORTITION_HOUSEHOLD_INVALID', `respondent ${JSON.stringify(id)} has no household value`, 'give every respondent a household value (for someone living alone, any value nobody else has, such as their id)')
    const key = normalizeHousehold(raw)
    if (key === '') throw new InvalidInputError('SORTITION_HOUSEHOLD_INVALID', `respondent ${JSON.stringify(id)} has an empty household value`, 'give every respondent a household value (for someone living alone, any value nobody else has, such as their id)')
    const g = byKey.get(key)
    if (g === undefined) byKey.set(key, [i])
    else g.push(i)
  })
  return [...byKey.values()].filter((g) => g.length > 1).sort((a, b) => a[0]! - b[0]!)
}

/**
 * The first problem of committed households against `n` participants, or undefined: each group has 2
 * to `n` indices in `[0, n)`, ascending; groups ordered by their first index; no index in two groups.
 */
export function householdsProblem(groups: readonly (readonly number[])[], n: number): { path: string; detail: string } | undefined {
  const seen = new Set<number>()
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!
    if (!Array.isArray(group) || group.length < 2) return { path: `[${g}]`, detail: 'a household lists at least two respondents (a respondent alone is not listed)' }
    for (let j = 0; j < group.length; j++) {
      const x = group[j]!
      if (!Number.isSafeInteger(x) || x < 0 || x >= n) return { path: `[${g}][${j}]`, detail: `index ${String(x)} is not one of the ${n} committed respondents` }
      if (j > 0 && x <= group[j - 1]!) return { path: `[${g}][${j}]`, detail: 'the indices of a household must be ascending, each once' }
      if (seen.has(x)) return { path: `[${g}][${j}]`, detail: `respondent ${x} is in two households` }
      seen.add(x)
    }
    if (g > 0 && group[0]! <= groups[g - 1]![0]!) return { path: `[${g}]`, detail: 'households must be ordered by their first index' }
  }
  return undefined
}

/** Each committed index's household number (its group), or -1 for a respondent alone. */
export function householdIndex(groups: readonly (readonly number[])[], n: number): Int32Array {
  const of = new Int32Array(n).fill(-1)
  groups.forEach((g, h) => {
    for (const i of g) of[i] = h
  })
  return of
}

/**
 * The first pair of members sharing a household, or undefined.
 * @category Sortition
 */
export function sharedHousehold(of: Int32Array, members: readonly number[]): [number, number] | undefined {
  const first = new Map<number, number>()
  for (const m of members) {
    const h = of[m] ?? -1
    if (h < 0) continue
    const other = first.get(h)
    if (other !== undefined) return [other, m]
    first.set(h, m)
  }
  return undefined
}

/**
 * The household test of a round (docs/spec.md, Households, Cost): each member's household looked up and
 * marked with the test's number, so a member whose household is already marked shares it. `O(k)` with
 * a table of one entry per household, built once; no reset between rounds.
 */
export class HouseholdTest {
  private readonly mark: Int32Array
  private stamp = 0

  constructor(private readonly of: Int32Array) {
    let groups = 0
    for (const h of of) if (h >= groups) groups = h + 1
    this.mark = new Int32Array(groups)
  }

  /** True when no two of `members` share a household. */
  ok(members: ArrayLike<number>): boolean {
    if (this.stamp === 0x7fffffff) {
      this.mark.fill(0)
      this.stamp = 0
    }
    const s = ++this.stamp
    const { of, mark } = this
    for (let x = 0; x < members.length; x++) {
      const h = of[members[x]!]!
      if (h < 0) continue
      if (mark[h] === s) return false
      mark[h] = s
    }
    return true
  }
}

/**
 * Draws a panel with the household rule: rounds of {@link relaxedPanel} on `stream` until one meets every
 * quota and has at most one member per household, at most the plan method's round cap ({@link roundCap}:
 * 100,000 for method 1, 400,000 for method 2, `maxRounds` for method 3).
 *
 * @param of - {@link householdIndex} of the committed households.
 * @throws {@link LimitExceededError} `SORTITION_REJECTION_LIMIT` when no round is kept within the limit.
 * @category Sortition
 */
export function drawHouseholdPanel(plan: PanelPlan, of: Int32Array, stream: RandomStream): PanelDraw {
  const quotas = new OtherQuotas(plan)
  const households = new HouseholdTest(of)
  const cap = roundCap(plan)
  const counts = new Int32Array(plan.counter.cells.length)
  const members = new Int32Array(plan.k)
  for (let round = 1; round <= cap; round++) {
    relaxedInto(plan.counter, stream, counts, members)
    if (quotas.meets(members) && households.ok(members)) return { members: Array.from(members).sort((a, b) => a - b), rounds: round, cellCounts: Array.from(counts) }
  }
  throw new LimitExceededError('SORTITION_REJECTION_LIMIT', `no panel met every quota and the household rule in ${cap} rounds`, 'the quotas and households are too tight for this plan; relax the quotas')
}

/** The trials of a gate with households: the 1-based trial numbers kept by both rules, and those that broke only the household rule. */
interface HouseholdTrials {
  readonly keptAt: number[]
  readonly householdOnly: number
  readonly trials: number
}

/** Draws trials of `plan` on `stream` while `more(trials so far, kept so far)`, keeping a trial when it keeps both rules. */
function householdTrials(plan: PanelPlan, of: Int32Array, stream: RandomStream, more: (t: number, kept: number) => boolean): HouseholdTrials {
  const quotas = new OtherQuotas(plan)
  const households = new HouseholdTest(of)
  const counts = new Int32Array(plan.counter.cells.length)
  const members = new Int32Array(plan.k)
  const keptAt: number[] = []
  let householdOnly = 0
  let t = 0
  while (more(t, keptAt.length)) {
    t++
    relaxedInto(plan.counter, stream, counts, members)
    if (!quotas.meets(members)) continue
    if (households.ok(members)) keptAt.push(t)
    else householdOnly++
  }
  return { keptAt, householdOnly, trials: t }
}

/**
 * Method 3's trial cap for a plan (docs/spec.md, Plan methods): 250,000 trials, and fewer when `16 · t`
 * rounds would pass the draw cost.
 */
function method3Cap(plan: PanelPlan): number {
  const round = planCost(plan.pool, plan.quotas, plan.k, plan.counter.exact, 1, Infinity, true).round
  return Math.min(PLAN_METHODS[3].trials, Math.floor(SORTITION_LIMITS.maxDrawCost / (SORTITION_LIMITS.roundsPerTrialV3 * round)))
}

/**
 * The rounds a plan with households charges in its draw cost (docs/spec.md, Households, Cost): the plan
 * method's round cap (100,000 for method 1, 400,000 for method 2, the committed `maxRounds` for method 3)
 * even when the exact features are every feature, since the household rule can refuse every round.
 */
export function householdRoundsCharged(plan: Pick<PanelPlan, 'method' | 'maxRounds'>): number {
  const method = plan.method ?? 1
  return method === 3 ? (plan.maxRounds ?? 1) : PLAN_METHODS[method].rounds
}

/** The draw cost of a plan with households under `method` (its round cap charged, {@link householdRoundsCharged}). */
function householdDrawCost(plan: PanelPlan, method: PlanMethod, maxRounds?: number): { draw: number; rounds: number; round: number } {
  return planCost(plan.pool, plan.quotas, plan.k, plan.counter.exact, householdRoundsCharged({ method, ...(maxRounds === undefined ? {} : { maxRounds }) }), Infinity, true)
}

/**
 * The work bound of a plan with households (docs/spec.md, Households, Cost): its round cap is charged
 * (`householdRoundsCharged` times the round cost) under every plan method, even when the exact features
 * are every feature, since the household rule can refuse every round.
 * @throws {@link LimitExceededError} `SORTITION_COST_LIMIT` over the draw cost.
 */
export function checkHouseholdRounds(plan: PanelPlan): void {
  const c = householdDrawCost(plan, plan.method ?? 1, plan.maxRounds)
  if (c.draw > SORTITION_LIMITS.maxDrawCost) {
    throw new LimitExceededError('SORTITION_COST_LIMIT', `the rejection rounds of this plan with households may take ${c.draw} work units, more than ${SORTITION_LIMITS.maxDrawCost} (${c.rounds} rounds of at most ${c.round}; docs/spec.md, Households)`, 'commit the round cap the gate gave, or relax the quotas or the households')
  }
}

/** The refusal of a gate with households: how many trials kept both rules, and how many broke only the household rule. */
function householdRefusal(kept: number, trials: number, householdOnly: number, need: number, methods: string): LimitExceededError {
  return new LimitExceededError(
    'SORTITION_ACCEPTANCE_TOO_LOW',
    `only ${kept} of ${trials} trial panels met every quota and had at most one member per household (at least ${need} needed; ${methods}); ${householdOnly} more met every quota but had two members of one household`,
    householdOnly > 0 ? 'large households make most panels break the household rule: check the household values (docs/sortition.md, Households), or draw a smaller panel' : 'relax the quotas (the household rule is not what refuses this plan)',
  )
}

/**
 * The commit-time gate with households of one plan method: the method's gate, counting a trial as
 * kept only when it meets every quota and the household rule (docs/spec.md, Households). Method 1:
 * 2,000 (`SORTITION_LIMITS.acceptanceTrials`) rounds on method 1's gate stream (from its start), at least
 * 7 (`minAcceptedTrials`) kept. Method 2: rounds on method 2's gate stream (from its start) until the
 * 12th kept (`minAcceptedTrialsV2`), admitted when that is within 40,000 rounds (`acceptanceTrialsV2`).
 * Method 3: rounds on method 2's gate stream (from its start) until the 10th kept, admitted when that
 * trial `t` is within method 3's cap and the plan's committed `maxRounds` is at least `16 · t`. The
 * method's quota gate's failure bound holds unchanged. Returns the trials kept. `stopAtKept` (a
 * verifier): method 1's gate stops at its 7th kept trial, the verdict being settled.
 *
 * @throws {@link LimitExceededError} `SORTITION_ACCEPTANCE_TOO_LOW`, with how many trials broke only the
 *   household rule.
 * @category Sortition
 */
export function checkHouseholdAcceptance(plan: PanelPlan, of: Int32Array, stopAtKept = false): number {
  const method = plan.method ?? 1
  const gate = PLAN_METHODS[method]
  const cap = method === 3 ? Math.min(method3Cap(plan), Math.floor((plan.maxRounds ?? 0) / SORTITION_LIMITS.roundsPerTrialV3)) : gate.trials
  const r = householdTrials(plan, of, acceptanceStream(method), (t, kept) => t < cap && !((gate.sequential || stopAtKept) && kept >= gate.kept))
  if (r.keptAt.length < gate.kept) throw householdRefusal(r.keptAt.length, r.trials, r.householdOnly, gate.kept, `plan method ${method}`)
  return r.keptAt.length
}

/**
 * The commit side of the household rule (docs/spec.md, Households, Commit-time gate with households):
 * the plan whose gate admits both rules, trying the next plan method when a method's gate with
 * households refuses, exactly as the quota gates do. From the plan's method `m` (the one the quota
 * gates chose): method 1's gate with households; if it refuses, method 2's (within method 2's work
 * bound), then method 3's on the **same** trials of method 2's stream (10th kept trial `t` within
 * method 3's cap, `maxRounds = 16 · t`). A method whose gate with households admits also has its quota
 * gate admit (its kept trials are among the quota gate's, on the same stream), so the plan returned is
 * one the quota gates would choose with that method.
 *
 * @throws {@link LimitExceededError} `SORTITION_ACCEPTANCE_TOO_LOW` when every method refuses, naming the
 *   trials that broke only the household rule.
 * @category Sortition
 */
export function planWithHouseholds(plan: PanelPlan, of: Int32Array): PanelPlan {
  let method = plan.method ?? 1
  let refused: LimitExceededError | undefined
  let tried1 = ''
  if (method === 1) {
    // Method 1 only when its 100,000 rounds fit the draw cost with households (else on to method 2, then 3).
    const c1 = householdDrawCost(plan, 1)
    if (c1.draw <= SORTITION_LIMITS.maxDrawCost) {
      const r = householdTrials(plan, of, acceptanceStream(1), (t) => t < PLAN_METHODS[1].trials)
      if (r.keptAt.length >= PLAN_METHODS[1].kept) return plan
      refused = householdRefusal(r.keptAt.length, r.trials, r.householdOnly, PLAN_METHODS[1].kept, 'plan method 1')
      tried1 = `plan method 1 kept ${r.keptAt.length} of ${PLAN_METHODS[1].trials}; `
    } else {
      refused = new LimitExceededError('SORTITION_COST_LIMIT', `the rejection rounds of this plan with households may take ${c1.draw} work units under plan method 1, more than ${SORTITION_LIMITS.maxDrawCost} (docs/spec.md, Households)`, 'count more features exactly, merge values, or relax the quotas')
      tried1 = `plan method 1's ${PLAN_METHODS[1].rounds} rounds over the draw cost; `
    }
    method = 2
  }
  const { method: _m, maxRounds: _r, gate: _g, ...base } = plan
  const v2 = PLAN_METHODS[2]
  const v3 = PLAN_METHODS[3]
  const fits2 = method === 2 && costWithin(plan, 2) && householdDrawCost(plan, 2).draw <= SORTITION_LIMITS.maxDrawCost
  const cap3 = method3Cap(plan)
  if (!fits2 && cap3 < 1) throw refused ?? new LimitExceededError('SORTITION_COST_LIMIT', `the rejection rounds of this plan do not fit the draw cost (${SORTITION_LIMITS.maxDrawCost}) of plan methods 2 and 3`, 'count more features exactly, merge values, or relax the quotas')
  const r = householdTrials(plan, of, acceptanceStream(2), (t, kept) => (fits2 && t < v2.trials && kept < v2.kept) || (kept < v3.kept && t < cap3))
  if (fits2 && r.keptAt.length >= v2.kept && r.keptAt[v2.kept - 1]! <= v2.trials) return { ...base, method: 2, gate: { trials: r.keptAt[v2.kept - 1]!, kept: v2.kept } }
  if (cap3 >= 1 && r.keptAt.length >= v3.kept && r.keptAt[v3.kept - 1]! <= cap3) {
    const t = r.keptAt[v3.kept - 1]!
    return { ...base, method: 3, maxRounds: SORTITION_LIMITS.roundsPerTrialV3 * t, gate: { trials: t, kept: v3.kept } }
  }
  const tried = `${tried1}plan method${fits2 ? 's 2 and 3' : ' 3'} on ${r.trials} trials (method 2 needs 12 within ${v2.trials}, method 3 10 within ${cap3})`
  throw householdRefusal(r.keptAt.length, r.trials, r.householdOnly, fits2 ? v2.kept : v3.kept, tried)
}

/** True when the plan's work bound holds under `method`. */
function costWithin(plan: PanelPlan, method: PlanMethod): boolean {
  try {
    checkPlanCost(plan.pool, plan.quotas, plan.k, plan.counter.exact, method)
    return true
  } catch {
    return false
  }
}

/**
 * The alternates' eligibility with households: alternate `a` can replace member `p` only when no
 * member other than `p` shares `a`'s household.
 */
export function householdSwapAllowed(of: Int32Array, panel: readonly number[]): (p: number, a: number) => boolean {
  const members = new Map<number, number[]>()
  for (const m of panel) {
    const h = of[m] ?? -1
    if (h >= 0) members.set(h, [...(members.get(h) ?? []), m])
  }
  return (p, a) => {
    const h = of[a] ?? -1
    if (h < 0) return true
    const there = members.get(h) ?? []
    return there.every((m) => m === p)
  }
}

/** Committed households given a pool (respondent `i` = committed index `i`), for tests and planning. */
export function householdsOfPool(pool: SortitionPool, households: ReadonlyMap<string, string>): number[][] {
  return householdGroups(pool.respondents.map((r) => r.id), households)
}
