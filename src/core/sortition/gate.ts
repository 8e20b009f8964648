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
export function smallestGateRelaxation(pool: SortitionPool, quotas: QuotaTable, single: ReadonlyMap<string, number[]>, kept: number): string | undefined {
  const need = SORTITION_LIMITS.minAcceptedTrials - kept
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
  return `${side === 'min' ? 'lower the min' : 'raise the max'} of ${name} from ${from} to ${to} (${best.seats} seat(s)): with the same exact features, the same trials would then keep ${kept + best.gained} of ${SORTITION_LIMITS.acceptanceTrials}`
}
