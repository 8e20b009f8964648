/**
 * `panel-lottery`: the organizer commits to m candidate panels (from a fairness optimizer), uniform or
 * with integer weights; the beacon picks one (docs/spec.md, Sortition, Panel lottery).
 *
 * The pick is the spec's weighted pick of one winner (`weightedPick(stream, weights, 1)`; all weights 1
 * for a uniform lottery). Every panel is checked before the draw and again by the verifier: size k,
 * distinct members, every id in the pool, every quota met.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import type { RandomStream } from '../random/stream.js'
import { weightedPick } from '../random/weighted.js'
import type { QuotaTable, SortitionPool } from './pool.js'

/**
 * Most candidate panels in one lottery.
 * @category Sortition
 */
export const MAX_LOTTERY_PANELS = 100_000

/**
 * The names of the checks `verify` reports for a `panel-lottery` draw: every candidate panel is valid
 * (`lottery-panels`), and the seed picks the claimed panel (`lottery-winner`). The one list of these names.
 * @category Sortition
 */
export const LOTTERY_CHECK_NAMES = ['lottery-panels', 'lottery-winner'] as const

/**
 * A named failure of one candidate panel.
 * @category Sortition
 */
export interface LotteryPanelProblem {
  /** Index of the panel in the committed portfolio. */
  readonly panel: number
  /** `PANEL_SIZE`, `PANEL_REPEATS_MEMBER`, `PANEL_UNKNOWN_MEMBER` or `PANEL_BREAKS_QUOTA`. */
  readonly check: 'PANEL_SIZE' | 'PANEL_REPEATS_MEMBER' | 'PANEL_UNKNOWN_MEMBER' | 'PANEL_BREAKS_QUOTA'
  /** What is wrong, in words. */
  readonly detail: string
}

/**
 * Checks every candidate panel (ids) against the pool and quotas and returns every problem (empty when
 * all pass). Work is linear in the total size of the panels.
 * @category Sortition
 */
export function checkLotteryPanels(pool: SortitionPool, table: QuotaTable, k: number, panels: readonly (readonly string[])[]): LotteryPanelProblem[] {
  const index = new Map(pool.respondents.map((r, i) => [r.id, i]))
  const problems: LotteryPanelProblem[] = []
  panels.forEach((ids, p) => {
    if (ids.length !== k) problems.push({ panel: p, check: 'PANEL_SIZE', detail: `panel ${p} has ${ids.length} members, not ${k}` })
    const seen = new Set<string>()
    const members: number[] = []
    for (const id of ids) {
      if (seen.has(id)) {
        problems.push({ panel: p, check: 'PANEL_REPEATS_MEMBER', detail: `panel ${p} lists ${JSON.stringify(id)} twice` })
        continue
      }
      seen.add(id)
      const m = index.get(id)
      if (m === undefined) problems.push({ panel: p, check: 'PANEL_UNKNOWN_MEMBER', detail: `panel ${p} lists ${JSON.stringify(id)}, who is not in the pool` })
      else members.push(m)
    }
    pool.features.forEach((f, fi) => {
      const cnt = new Array<number>(f.values.length).fill(0)
      for (const m of members) cnt[pool.respondents[m]!.type[fi]!]!++
      cnt.forEach((c, v) => {
        if (c < table.min[fi]![v]! || c > table.max[fi]![v]!) {
          problems.push({ panel: p, check: 'PANEL_BREAKS_QUOTA', detail: `panel ${p} has ${c} with ${JSON.stringify(f.name)}=${JSON.stringify(f.values[v])}, quota ${table.min[fi]![v]}..${table.max[fi]![v]}` })
        }
      })
    })
  })
  return problems
}

/**
 * Draws the winning panel of a lottery: its index in the portfolio.
 *
 * @param weights - one positive integer weight per panel (all 1 for a uniform lottery).
 * @throws {@link InvalidInputError} on an empty portfolio, more than {@link MAX_LOTTERY_PANELS} panels,
 *   or a weight that is not a positive safe integer.
 * @example
 * ```ts
 * const winner = drawLottery(streamFromSeed(seed), [1, 1, 2]) // panel 2 is twice as likely
 * ```
 * @category Sortition
 */
export function drawLottery(stream: RandomStream, weights: readonly number[]): number {
  if (weights.length === 0) throw new InvalidInputError('INVALID_ARGUMENT', 'the portfolio has no panel', 'commit at least one candidate panel')
  if (weights.length > MAX_LOTTERY_PANELS) throw new InvalidInputError('INVALID_ARGUMENT', `the portfolio has ${weights.length} panels, over ${MAX_LOTTERY_PANELS}`, 'commit fewer candidate panels')
  return weightedPick(stream, weights, 1)[0]!
}
