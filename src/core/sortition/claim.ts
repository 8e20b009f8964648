/**
 * Checking a claimed `panel` outcome the way a verifier does, every failure named (docs/spec.md,
 * Checking a claimed panel).
 *
 * @module
 */
import { OrbitdrawError } from '../errors.js'
import type { RandomStream } from '../random/stream.js'
import { drawPanel, type PanelPlan } from './round.js'

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
