/**
 * The plan method of a sortition spec (docs/spec.md, Plan methods): the optional draw keys `plan` (2 or
 * 3; absent = method 1) and `maxRounds` (method 3's committed round cap), their validation, and how a
 * plan's method is written into a spec and read back into plan options. Shared by `panel` and
 * `panel-replacement` (whose replacement plan has the same methods).
 *
 * @module
 */
import * as v from 'valibot'
import type { PanelPlan } from '../sortition/panel.js'
import { SORTITION_LIMITS } from '../sortition/pool.js'
import { declaredAs, described, integer, message, publishedAs, type ShapeMessage } from '../schema/kit.js'
import { badDraw } from './kind.js'

/** The optional `plan` key. Absent = method 1: one plan has one commitment, so `"plan": 1` is refused (as the rule words it). */
export const planField = v.optional(
  publishedAs(
    v.custom<2 | 3, ShapeMessage>((x) => x === 2 || x === 3, message('INVALID_DRAW', (x) => `plan must be 2 or 3 when present (absent = method 1), got ${JSON.stringify(x)}`, 'omit plan for method 1')),
    described(v.union([v.literal(2), v.literal(3)]), 'The plan method: absent = method 1 (gate: 7 of 2,000 trials, 100,000 rounds); 2 = a sequential gate (12 kept within 40,000 trials) and 400,000 rounds; 3 = a sequential gate (10 kept) and the committed round cap maxRounds (docs/spec.md, Plan methods).'),
  ),
)

/** The optional `maxRounds` key: its range and its method are the rule's ({@link checkMethod}), worded as the protocol words them. */
export const maxRoundsField = v.optional(declaredAs(integer(1), described(integer(1, SORTITION_LIMITS.maxRejectionRoundsV3), 'Plan method 3 only: the most rejection rounds of a draw, 16 times the trials of the commit-time gate; within the draw cost (docs/spec.md, Plan methods).')))

/** The plan method keys of a spec. */
export interface MethodKeys {
  readonly plan?: 2 | 3
  readonly maxRounds?: number
}

/** The plan options of a committed plan method (methods 2 and 3: no gate at replay; docs/spec.md, Plan methods). */
export function methodOptions(spec: MethodKeys): { method?: 2 | 3; maxRounds?: number; skipAcceptanceCheck?: true } {
  if (spec.plan === 2) return { method: 2, skipAcceptanceCheck: true }
  if (spec.plan === 3) return { method: 3, skipAcceptanceCheck: true, ...(spec.maxRounds === undefined ? {} : { maxRounds: spec.maxRounds }) }
  return {}
}

/** The draw keys of a plan's method: `plan` (2 or 3) and, for method 3, `maxRounds`; none for method 1. */
export function methodKeys(plan: PanelPlan): { plan?: 2 | 3; maxRounds?: number } {
  if (plan.method === 2) return { plan: 2 }
  if (plan.method === 3) return { plan: 3, maxRounds: plan.maxRounds! }
  return {}
}

/** The encoded plan method keys of a valid spec (none for method 1). */
export function encodeMethod(spec: MethodKeys): { plan?: 2 | 3; maxRounds?: number } {
  return spec.plan === 2 ? { plan: 2 } : spec.plan === 3 ? { plan: 3, maxRounds: spec.maxRounds! } : {}
}

/**
 * Refuses a `plan` other than absent, 2 or 3, and a `maxRounds` that is not method 3's (1 … 4,000,000).
 * @throws `INVALID_DRAW` at `path.plan` or `path.maxRounds`.
 */
export function checkMethod(plan: unknown, maxRounds: unknown, path: string): void {
  if (plan !== undefined && plan !== 2 && plan !== 3) badDraw(`${path}.plan`, `plan must be 2 or 3 when present (absent = method 1), got ${JSON.stringify(plan)}`, 'omit plan for method 1')
  if (plan === 3) {
    if (typeof maxRounds !== 'number' || !Number.isSafeInteger(maxRounds) || maxRounds < 1 || maxRounds > SORTITION_LIMITS.maxRejectionRoundsV3) badDraw(`${path}.maxRounds`, `plan method 3 needs maxRounds, a whole number from 1 to ${SORTITION_LIMITS.maxRejectionRoundsV3}, got ${JSON.stringify(maxRounds)}`, 'commit the round cap the gate gave')
  } else if (maxRounds !== undefined) badDraw(`${path}.maxRounds`, 'maxRounds is only for plan method 3', 'omit maxRounds')
}
