/**
 * `NO_VALID_PANEL` explained: the smallest quota change that makes a zero count positive (docs/spec.md,
 * Feasibility).
 *
 * @module
 */
import { buildCounter } from './count.js'
import { InfeasibleQuotasError } from './pool.js'
import { checkPlanCost } from './cost.js'
import type { PanelPlan } from './round.js'

/**
 * NO_VALID_PANEL with the smallest single-quota relaxation among the exactly counted features (every
 * feature for an exact plan), each candidate recounted within the work bound.
 */
export function noValidPanel(plan: PanelPlan, budget: number, explain: boolean): InfeasibleQuotasError {
  const { pool, quotas, k } = plan
  let best: { delta: number; text: string } | undefined
  // The search changes quotas of the exactly counted features only (for an exact plan: every feature):
  // with the others left to rejection, a zero count is a conflict among these.
  const counted = [...plan.counter.exact].sort((x, y) => x - y)
  const recount = (min: number[][], max: number[][]): bigint => {
    checkPlanCost(pool, { min, max }, k, plan.counter.exact, plan.method ?? 1)
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
