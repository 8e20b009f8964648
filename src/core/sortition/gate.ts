/**
 * What the commit-time acceptance gate reports when it refuses a plan (docs/spec.md, Commit-time gate):
 * which quota to relax and by how much. Relaxing a quota of a feature outside the exact features leaves
 * the relaxed set, hence the gate's trials, unchanged, so the figure it gives is exact for the same
 * exact features.
 *
 * @module
 */
import { SORTITION_LIMITS, type QuotaTable, type SortitionPool } from './pool.js'

/**
 * The quotas of `features` that `members` break, as `[key, seats]`: key `f:v:min` or `f:v:max`, seats
 * = how far the count is outside the bound.
 */
export function brokenQuotas(pool: SortitionPool, table: QuotaTable, members: readonly number[], features: readonly number[]): [string, number][] {
  const out: [string, number][] = []
  for (const f of features) {
    const cnt = new Array<number>(pool.features[f]!.values.length).fill(0)
    for (const m of members) cnt[pool.respondents[m]!.type[f]!]!++
    cnt.forEach((c, v) => {
      if (c < table.min[f]![v]!) out.push([`${f}:${v}:min`, table.min[f]![v]! - c])
      else if (c > table.max[f]![v]!) out.push([`${f}:${v}:max`, c - table.max[f]![v]!])
    })
  }
  return out
}

/**
 * The smallest single quota change (fewest seats, then canonical order) that would make the gate keep
 * enough of the same trials: relaxing a quota of a feature outside `E` leaves the relaxed set, hence
 * the gate's trials, unchanged, so the figure is exact for the same plan.
 */
export function smallestGateRelaxation(pool: SortitionPool, quotas: QuotaTable, single: ReadonlyMap<string, number[]>, kept: number, gate: PlanMethodSettings = PLAN_METHODS[1]): string | undefined {
  const need = gate.kept - kept
  let best: { seats: number; key: string; gained: number } | undefined
  const keys = [...single.keys()].sort((a, b) => {
    const [fa, va, sa] = a.split(':')
    const [fb, vb, sb] = b.split(':')
    return Number(fa) - Number(fb) || Number(va) - Number(vb) || (sa === sb ? 0 : sa === 'min' ? -1 : 1)
  })
  for (const key of keys) {
    const by = [...single.get(key)!].sort((x, y) => x - y)
    if (by.length < need) continue
    const seats = by[need - 1]!
    if (best === undefined || seats < best.seats) best = { seats, key, gained: by.filter((x) => x <= seats).length }
  }
  if (best === undefined) return undefined
  const [f, v, side] = best.key.split(':')
  const feature = pool.features[Number(f)]!
  const name = `${JSON.stringify(feature.name)}=${JSON.stringify(feature.values[Number(v)])}`
  const from = side === 'min' ? quotas.min[Number(f)]![Number(v)]! : quotas.max[Number(f)]![Number(v)]!
  const to = side === 'min' ? from - best.seats : from + best.seats
  return `${side === 'min' ? 'lower the min' : 'raise the max'} of ${name} from ${from} to ${to} (${best.seats} seat(s)): with the same exact features, the same trials would then keep ${kept + best.gained} of ${gate.trials}`
}

/**
 * A plan method's rejection settings (docs/spec.md, Plan methods): method 1 (no `plan` key in the
 * commitment) is the original gate, 2,000 trials needing 7 kept, 100,000 rounds; method 2 a sequential
 * gate of at most 40,000 trials needing 12 kept (it stops at the 12th), 400,000 rounds; method 3 a
 * sequential gate needing 10 kept, and the round cap the plan commits (`maxRounds`, 16 times the gate's
 * trials, at most 4,000,000).
 * @category Sortition
 */
export interface PlanMethodSettings {
  /** The method number (1, 2 or 3). */
  readonly method: PlanMethod
  /** Most rejection rounds of one draw (method 3: the largest cap a plan may commit). */
  readonly rounds: number
  /** Most gate trials. */
  readonly trials: number
  /** Kept trials the gate needs. */
  readonly kept: number
  /** True when the gate stops at the `kept`-th kept trial (method 2). */
  readonly sequential: boolean
  /** The gate stream's seed text (SHA-256 of its UTF-8). */
  readonly seed: string
}

/**
 * A `panel` plan method: 1 (the original, no `plan` key), 2 (a sequential gate and more rounds) or 3
 * (a sequential gate on method 2's stream and a committed round cap of 16 times its trials).
 * @category Sortition
 */
export type PlanMethod = 1 | 2 | 3

/**
 * The settings of each plan method.
 * @category Sortition
 */
export const PLAN_METHODS: Readonly<Record<PlanMethod, PlanMethodSettings>> = {
  1: { method: 1, rounds: SORTITION_LIMITS.maxRejectionRounds, trials: SORTITION_LIMITS.acceptanceTrials, kept: SORTITION_LIMITS.minAcceptedTrials, sequential: false, seed: 'orbitdraw sortition acceptance v1' },
  2: { method: 2, rounds: SORTITION_LIMITS.maxRejectionRoundsV2, trials: SORTITION_LIMITS.acceptanceTrialsV2, kept: SORTITION_LIMITS.minAcceptedTrialsV2, sequential: true, seed: 'orbitdraw sortition acceptance v2' },
  // Method 3: `rounds` is the largest cap a plan may commit (its own cap is `maxRounds`); the gate reads method 2's stream.
  3: { method: 3, rounds: SORTITION_LIMITS.maxRejectionRoundsV3, trials: SORTITION_LIMITS.acceptanceTrialsV3, kept: SORTITION_LIMITS.minAcceptedTrialsV3, sequential: true, seed: 'orbitdraw sortition acceptance v2' },
}
