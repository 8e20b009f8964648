/**
 * Households: at most one panel member per household (docs/spec.md, Sortition, Households).
 *
 * The rule is committed as the households of two or more respondents, each a list of committed
 * indices; a respondent in no listed household is a household of one. A draw is the plan's rounds
 * ({@link relaxedPanel}) on the draw's stream, each round kept when its panel meets every quota of the
 * features outside the exact features **and** has no two members in one household: every round is an
 * independent uniform draw from the relaxed set, so the kept panel is uniform among the panels that
 * meet every quota and the household rule. The rounds share the plan method's round cap
 * ({@link roundCap}: 100,000 for method 1, 400,000 for method 2; method 3 has no household rule); the
 * commit-time gate ({@link checkHouseholdAcceptance}) is the plan method's gate (its stream, trials and
 * kept count) counting a trial as kept only when it keeps both rules, which gives the same failure
 * bound as the method's quota gate.
 *
 * Matching (commit time only; the commitment carries the groups, never the values): two respondents
 * share a household when their household values are equal after {@link normalizeHousehold}.
 *
 * @module
 */
import { InvalidInputError, LimitExceededError } from '../errors.js'
import type { RandomStream } from '../random/stream.js'
import { PLAN_METHODS } from './gate.js'
import { acceptanceStream } from './plan.js'
import type { SortitionPool } from './pool.js'
import { meetsQuotas, otherFeatures, relaxedPanel, roundCap, type PanelDraw, type PanelPlan } from './round.js'

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

/** Is one round's panel kept: every quota of the other features and the household rule. */
function kept(plan: PanelPlan, others: readonly number[], of: Int32Array, members: readonly number[]): boolean {
  return (others.length === 0 || meetsQuotas(plan.pool, plan.quotas, members, others)) && sharedHousehold(of, members) === undefined
}

/**
 * Draws a panel with the household rule: rounds of {@link relaxedPanel} on `stream` until one meets every
 * quota and has at most one member per household, at most the plan method's round cap ({@link roundCap}:
 * 100,000 for method 1, 400,000 for method 2).
 *
 * @param of - {@link householdIndex} of the committed households.
 * @throws {@link LimitExceededError} `SORTITION_REJECTION_LIMIT` when no round is kept within the limit.
 * @category Sortition
 */
export function drawHouseholdPanel(plan: PanelPlan, of: Int32Array, stream: RandomStream): PanelDraw {
  const others = otherFeatures(plan)
  const cap = roundCap(plan)
  for (let round = 1; round <= cap; round++) {
    const r = relaxedPanel(plan.counter, stream)
    if (kept(plan, others, of, r.members)) return { members: r.members, rounds: round, cellCounts: r.cellCounts }
  }
  throw new LimitExceededError('SORTITION_REJECTION_LIMIT', `no panel met every quota and the household rule in ${cap} rounds`, 'the quotas and households are too tight for this plan; relax the quotas')
}

/**
 * The commit-time gate with households: the plan method's gate, counting a trial as kept only when it
 * meets every quota and the household rule (docs/spec.md, Households). Method 1:
 * 2,000 (`SORTITION_LIMITS.acceptanceTrials`) rounds on method 1's gate stream (from its start), at least
 * 7 (`minAcceptedTrials`) kept. Method 2: rounds on method 2's gate stream (from its
 * start) until the 12th kept (`minAcceptedTrialsV2`), admitted when that is within
 * 40,000 rounds (`acceptanceTrialsV2`). The method's quota gate's failure bound holds
 * unchanged. Returns the trials kept. `stopAtKept` (a verifier): method 1's gate stops at its 7th kept
 * trial, the verdict being settled.
 *
 * @throws {@link LimitExceededError} `SORTITION_ACCEPTANCE_TOO_LOW`, with how many trials broke only the
 *   household rule; `INVALID_ARGUMENT` for a method-3 plan (no household rule).
 * @category Sortition
 */
export function checkHouseholdAcceptance(plan: PanelPlan, of: Int32Array, stopAtKept = false): number {
  const method = plan.method ?? 1
  if (method === 3) throw new InvalidInputError('INVALID_ARGUMENT', 'plan method 3 has no household rule', 'use plan method 1 or 2 with households')
  const gate = PLAN_METHODS[method]
  const stream = acceptanceStream(method)
  const others = otherFeatures(plan)
  let accepted = 0
  let householdOnly = 0
  let t = 0
  while (t < gate.trials && !((gate.sequential || stopAtKept) && accepted >= gate.kept)) {
    t++
    const { members } = relaxedPanel(plan.counter, stream)
    const quotas = others.length === 0 || meetsQuotas(plan.pool, plan.quotas, members, others)
    const alone = sharedHousehold(of, members) === undefined
    if (quotas && alone) accepted++
    else if (quotas) householdOnly++
  }
  if (accepted < gate.kept) {
    throw new LimitExceededError(
      'SORTITION_ACCEPTANCE_TOO_LOW',
      `only ${accepted} of ${t} trial panels met every quota and had at most one member per household (at least ${gate.kept} needed${method === 1 ? '' : `; plan method ${method}`}); ${householdOnly} more met every quota but had two members of one household`,
      householdOnly > 0 ? 'large households make most panels break the household rule: check the household values (docs/sortition.md, Households), or draw a smaller panel' : 'relax the quotas (the household rule is not what refuses this plan)',
    )
  }
  return accepted
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
