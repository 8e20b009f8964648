/**
 * The alternates' ranking in its worst case (docs/spec.md, Work bound: the alternates cost), for the
 * calibration of `ALT_RANK_UNITS`, `ALT_MEMBER_UNITS`, `ALT_FEATURE_UNITS` and `ALT_HOUSEHOLD_UNITS`
 * (src/core/sortition/cost.ts) and the hostile bench: a panel of `k` and `N − k` non-members of which none can replace any member, so the ranking
 * ranks every non-member and tests each against every member on every feature.
 *
 * The members all have value `a` on the features `f00 … f(F−2)` and the non-members `b`, with quotas
 * `[0, k]`, so a swap passes both quota tests on each of them; the last feature `z` then breaks it.
 * Without households: the members are `x` (quota `[k, k]`), the non-members `y` (`[0, 0]`). With
 * households: `k − 1` members are `p` and one `s` (quota `[1, 1]`), the non-members `q` (`[0, k]`),
 * and the non-members share one household with the `s` member: every swap of a `p` member passes the
 * quotas and is refused by the household rule, every swap of the `s` member breaks its quota.
 */
import { drawAlternates } from '../src/core/sortition/alternates.js'
import { alternatesCost } from '../src/core/sortition/cost.js'
import { householdIndex, householdSwapAllowed } from '../src/core/sortition/household.js'
import type { QuotaTable, SortitionPool } from '../src/core/sortition/pool.js'
import { streamFromSeed } from '../src/core/random/stream.js'

/** A worst-case shape of the alternates' ranking. */
export interface AlternatesShape {
  /** Pool size. */
  readonly N: number
  /** Panel size. */
  readonly k: number
  /** Features (1 … 16). */
  readonly F: number
  /** With a household rule (every swap the quotas allow is refused by it). */
  readonly households?: boolean
  /**
   * One type array per respondent, as a pool read from a file has them at commit (default: one per type,
   * as a verifier builds the pool from the commitment's per-type counts).
   */
  readonly perRespondent?: boolean
}

/** The pool, quotas, panel and household rule of a worst-case shape (members first: indices `0 … k − 1`). */
export function worstAlternates(shape: AlternatesShape): { pool: SortitionPool; table: QuotaTable; panel: number[]; allowed?: (p: number, a: number) => boolean } {
  const { N, k, F } = shape
  const h = shape.households === true
  const names = Array.from({ length: F - 1 }, (_, i) => `f${String(i).padStart(2, '0')}`)
  const features = [...names.map((name) => ({ name, values: ['a', 'b'] })), { name: 'z', values: h ? ['p', 'q', 's'] : ['x', 'y'] }]
  const typeOf = (i: number): number[] => {
    const member = i < k
    const z = h ? (i === k - 1 ? 2 : member ? 0 : 1) : member ? 0 : 1
    return [...names.map(() => (member ? 0 : 1)), z]
  }
  const shared = [typeOf(0), typeOf(k - 1), typeOf(k)]
  const respondents = Array.from({ length: N }, (_, i) => ({ id: String(i), type: shape.perRespondent === true ? typeOf(i) : i < k - 1 ? shared[0]! : i === k - 1 ? shared[1]! : shared[2]! }))
  const table: QuotaTable = {
    min: [...names.map(() => [0, 0]), h ? [0, 0, 1] : [k, 0]],
    max: [...names.map(() => [k, k]), h ? [k, k, 1] : [k, 0]],
  }
  const panel = Array.from({ length: k }, (_, i) => i)
  if (!h) return { pool: { features, respondents }, table, panel }
  // One household: the `s` member and every non-member.
  const of = householdIndex([[k - 1, ...Array.from({ length: N - k }, (_, i) => k + i)]], N)
  return { pool: { features, respondents }, table, panel, allowed: householdSwapAllowed(of, panel) }
}

/** One timed worst-case ranking: the units the alternates cost charges, the CPU time, and ns per unit. */
export interface AlternatesTiming {
  readonly shape: AlternatesShape
  readonly units: number
  readonly ms: number
  readonly nsPerUnit: number
  /** Non-members ranked (all of them: `N − k`). */
  readonly ranked: number
}

/** Times `drawAlternates` on a worst-case shape (median of `runs` after one untimed run), asking for every non-member. */
export function timeAlternates(shape: AlternatesShape, runs = 3): AlternatesTiming {
  const { pool, table, panel, allowed } = worstAlternates(shape)
  const units = alternatesCost(shape.N, shape.k, shape.F, shape.N - shape.k, shape.households === true)
  let ranked = 0
  const once = (): number => {
    const stream = streamFromSeed(new Uint8Array(32).fill(7))
    const c0 = process.cpuUsage()
    const r = drawAlternates(stream, pool, table, panel, shape.N - shape.k, allowed)
    const c = process.cpuUsage(c0)
    if (r.alternates.length !== 0) throw new Error(`the worst case found ${r.alternates.length} alternate(s)`)
    ranked = r.ranked
    return (c.user + c.system) / 1000
  }
  once()
  const times = Array.from({ length: runs }, once).sort((a, b) => a - b)
  const ms = times[Math.floor(runs / 2)]!
  return { shape, units, ms, nsPerUnit: (ms * 1e6) / units, ranked }
}
