/** The draw counts behind the sortition tests' chi-square checks of uniformity over the valid panels. */
import { expect } from 'vitest'
import { streamFromSeed, type RandomStream } from '../../../src/core/random/stream.js'
import { checkQuotas, type QuotaTable, type SortitionPool } from '../../../src/core/sortition/pool.js'
import { drawPanel, type PanelPlan } from '../../../src/core/sortition/index.js'
import { seedOf } from '../random/util.js'
import { enumeratePanels, proportionalQuotas, smallPool } from './fixtures.js'

/**
 * The case the panel and plan-3 uniformity tests draw on: 11 respondents with features of 2, 3 and 3
 * values (fixture seed 21), k = 5, quotas at the proportional share, every valid panel enumerated, and
 * 100 draws a valid panel.
 */
export function uniformityCase(): { pool: SortitionPool; k: number; table: QuotaTable; panels: number[][]; N: number } {
  const pool = smallPool(11, [2, 3, 3], 21)
  const k = 5
  const table = checkQuotas(pool, proportionalQuotas(pool, k, 0), k)
  const panels = enumeratePanels(pool, table, k)
  return { pool, k, table, panels, N: 100 * panels.length }
}

/** `drawPanel(plan, s).members`, adding up the rounds it took (to show that a rejection path ran). */
export function drawCountingRounds(plan: PanelPlan): { draw: (s: RandomStream) => number[]; readonly rounds: number } {
  let rounds = 0
  return {
    draw: (s) => {
      const d = drawPanel(plan, s)
      rounds += d.rounds
      return d.members
    },
    get rounds() {
      return rounds
    },
  }
}

/**
 * How often each of `panels` (ascending index lists) comes out of `trials` calls of `draw` on one stream
 * from `seedOf(seed)`, in the order of `panels`. A drawn panel that is not among them fails the test with
 * the message `notAmong`.
 */
export function panelFrequencies(panels: readonly (readonly number[])[], trials: number, draw: (s: RandomStream) => number[], seed: number, notAmong = 'drawn panel is valid'): number[] {
  const index = new Map(panels.map((p, i) => [p.join(','), i]))
  const counts = new Array<number>(panels.length).fill(0)
  const s = streamFromSeed(seedOf(seed))
  for (let t = 0; t < trials; t++) {
    const i = index.get(draw(s).join(','))
    expect(i, notAmong).toBeDefined()
    counts[i!]!++
  }
  return counts
}
