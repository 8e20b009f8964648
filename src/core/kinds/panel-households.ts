/**
 * The household rule of the `panel` kind (docs/spec.md, Sortition, Households): the optional
 * `households` key of a `panel` spec, its shape, parsing and validation, and what the kind does with it
 * (the draw's rounds, the alternates' swaps, the `panel-households` check). The engine is
 * `src/core/sortition/household.ts`.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import * as v from 'valibot'
import type { RandomStream } from '../random/stream.js'
import { checkHouseholdAcceptance, checkHouseholdRounds, drawHouseholdPanel, householdGroups, householdIndex, householdsProblem, householdSwapAllowed, planWithHouseholds, sharedHousehold } from '../sortition/household.js'
import type { PanelDraw, PanelPlan } from '../sortition/panel.js'
import { SORTITION_LIMITS, type SortitionPool } from '../sortition/pool.js'
import { declaredAs, described, integer, list } from '../schema/kit.js'
import { badDraw, type NamedCheck } from './kind.js'

/**
 * A pool read with its household column (`parseHouseholdPoolCsv`): the pool without that column and
 * each respondent's raw household value by id.
 * @category Sortition
 */
export interface PoolWithHouseholds {
  readonly pool: SortitionPool
  readonly households: ReadonlyMap<string, string>
}

/** The declared shape of `households`. */
export const householdsShape = described(
  list(list(integer(0, SORTITION_LIMITS.maxPoolSize - 1), SORTITION_LIMITS.maxPoolSize), SORTITION_LIMITS.maxPoolSize / 2),
  'One person per household: the households of two or more respondents, each a list of committed indices (ascending, each index in one household at most), the households ordered by their first index. At most one panel member per household; a respondent not listed lives alone.',
)

/**
 * The optional `households` field of a sortition spec: parsed as lists of whole numbers (an index out
 * of range is the rule's `INVALID_DRAW`, {@link validateHouseholds}), published as `householdsShape`.
 */
export const householdsField = v.optional(declaredAs(list(list(integer(0), SORTITION_LIMITS.maxPoolSize), SORTITION_LIMITS.maxPoolSize / 2), householdsShape))

/**
 * Validates committed households against `n` participants.
 * @throws {@link InvalidInputError} `INVALID_DRAW` at the bad index.
 */
export function validateHouseholds(groups: readonly (readonly number[])[] | undefined, n: number, path: string): void {
  if (groups === undefined) return
  if (!Array.isArray(groups)) badDraw(`${path}.households`, 'households must be a list of lists of committed indices', 'list the households of two or more respondents')
  let total = 0
  for (const g of groups) total += Array.isArray(g) ? g.length : 0
  if (total > n) badDraw(`${path}.households`, `the households list ${total} respondents, more than the ${n} committed`, 'list each respondent in one household at most')
  const problem = householdsProblem(groups, n)
  if (problem !== undefined) badDraw(`${path}.households${problem.path}`, problem.detail, 'list each household of two or more respondents once, indices ascending, households by first index')
}

/**
 * The committed households of a pool in committed order (`ordered`: the pool in committed order), from
 * the raw values by id; undefined without the option.
 * @throws {@link InvalidInputError} `SORTITION_HOUSEHOLD_INVALID` for a missing or empty value, or a
 *   value given for an id that is not in the pool.
 */
export function householdsOption(households: ReadonlyMap<string, string> | undefined, ordered: SortitionPool): number[][] | undefined {
  if (households === undefined) return undefined
  if (!(households instanceof Map)) throw new InvalidInputError('INVALID_ARGUMENT', 'households must be a Map from respondent id to household value', 'pass new Map([[id, address], …])')
  const ids = ordered.respondents.map((r) => r.id)
  const known = new Set(ids)
  for (const id of households.keys()) if (!known.has(id)) throw new InvalidInputError('SORTITION_HOUSEHOLD_INVALID', `a household value is given for ${JSON.stringify(id)}, who is not in the pool`, 'give household values for the pool\'s respondents only')
  return householdGroups(ids, households)
}

/**
 * The household index of a committed plan's households as a verifier reads it, or undefined without
 * households: the method's round cap charged in the work bound under every method (docs/spec.md,
 * Households, Cost), then for plan method 1 the gate with households (stopping at its 7th kept trial,
 * the verdict being settled); method 2's and 3's gates are commit-side only (docs/spec.md, Plan methods).
 * @throws `SORTITION_ACCEPTANCE_TOO_LOW` when too few trials keep both rules; `SORTITION_COST_LIMIT`.
 */
export function householdsPlan(groups: readonly (readonly number[])[] | undefined, plan: PanelPlan): Int32Array | undefined {
  if (groups === undefined) return undefined
  const of = householdIndex(groups, plan.pool.respondents.length)
  // The round cap with households is charged under every method, before any round (docs/spec.md, Households, Cost).
  checkHouseholdRounds(plan)
  if ((plan.method ?? 1) === 1) checkHouseholdAcceptance(plan, of, true)
  return of
}

/**
 * The commit side: the plan the quota gates chose, moved to the next plan method while a method's gate
 * with households refuses ({@link planWithHouseholds}), and its household index; the plan unchanged
 * without households.
 * @throws `SORTITION_ACCEPTANCE_TOO_LOW` when every method's gate with households refuses.
 */
export function commitHouseholds(groups: readonly (readonly number[])[] | undefined, plan: PanelPlan): { plan: PanelPlan; households?: Int32Array } {
  if (groups === undefined) return { plan }
  const of = householdIndex(groups, plan.pool.respondents.length)
  const chosen = planWithHouseholds(plan, of)
  checkHouseholdRounds(chosen)
  return { plan: chosen, households: of }
}

/** What the `panel` kind does differently with households: its draw, the alternates' swaps, the check. */
export interface HouseholdRules {
  draw(plan: PanelPlan, stream: RandomStream): PanelDraw
  allowed(members: readonly number[]): (p: number, a: number) => boolean
  check(members: readonly number[], groups: number): NamedCheck
}

/** The household rules of a plan's household index, or undefined without households. */
export function householdRules(of: Int32Array | undefined): HouseholdRules | undefined {
  if (of === undefined) return undefined
  return {
    draw: (plan, stream) => drawHouseholdPanel(plan, of, stream),
    allowed: (members) => householdSwapAllowed(of, members),
    check(members, groups) {
      const pair = sharedHousehold(of, members)
      return pair === undefined
        ? { name: 'panel-households', ok: true, detail: `no two of the ${members.length} members share one of the ${groups} committed household(s)` }
        : { name: 'panel-households', ok: false, detail: `members ${pair[0]} and ${pair[1]} share a committed household` }
    },
  }
}
