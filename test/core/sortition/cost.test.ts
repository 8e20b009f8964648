/**
 * The work bound of a plan (docs/spec.md, Sortition, Work bound): it bounds the reference counter's
 * states and transitions on every plan tried (every ordered set of exact features of random pools), it
 * is refused before any counting, and honest plans chosen by the planner are within it.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildCounter } from '../../../src/core/sortition/count.js'
import { checkQuotas, SORTITION_LIMITS } from '../../../src/core/sortition/pool.js'
import { dpOrder, planPanel } from '../../../src/core/sortition/panel.js'
import { planCost } from '../../../src/core/sortition/cost.js'
import { checkPlanCost } from '../../../src/core/sortition/panel.js'
import { proportionalQuotas, smallPool } from './fixtures.js'

describe('planCost', () => {
  it('property: the bound is at least the counter\'s states and transitions, for every subset of exact features', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 12, max: 40 }), fc.integer({ min: 2, max: 10 }), fc.integer({ min: 0, max: 3 }), (seed, n, k0, slack) => {
        const pool = smallPool(n, [2, 3, 4], seed)
        const k = Math.min(k0, n)
        let table
        try {
          table = checkQuotas(pool, proportionalQuotas(pool, k, slack), k)
        } catch {
          return
        }
        for (const subset of [[], [0], [1], [2], [0, 1], [1, 2], [0, 2], [0, 1, 2]]) {
          const exact = dpOrder(pool, subset)
          const bound = planCost(pool, table, k, exact, 1)
          const c = buildCounter(pool, table, k, exact)
          const states = c.layers.slice(0, -1).reduce((a, l) => a + l.size, 0)
          const transitions = c.layers.reduce((a, l) => a + l.trans.length / 2, 0)
          expect(states).toBeLessThanOrEqual(bound.states)
          expect(transitions).toBeLessThanOrEqual(bound.transitions)
          expect(bound.cells).toBe(c.cells.length)
        }
      }),
      { numRuns: 25 },
    )
  })

  it('stops early once past the limit, and a plan over either limit is refused before counting', () => {
    const pool = smallPool(400, [4, 4, 4], 3)
    const table = checkQuotas(pool, proportionalQuotas(pool, 60, 20), 60)
    const full = planCost(pool, table, 60, [0, 1, 2], 1)
    const early = planCost(pool, table, 60, [0, 1, 2], 1, 1000)
    expect(early.stopped).toBe(true)
    expect(early.count).toBeGreaterThan(1000)
    expect(early.count).toBeLessThan(full.count)
    expect(full.stopped).toBe(false)
    expect(() => checkPlanCost(pool, table, 60, [0, 1, 2])).toThrow(expect.objectContaining({ code: 'SORTITION_COST_LIMIT' }))
    expect(() => planPanel(pool, table, 60, { exactFeatures: ['f0', 'f1', 'f2'] })).toThrow(expect.objectContaining({ code: 'SORTITION_COST_LIMIT' }))
  })

  it('the planner\'s plans are within the bound', () => {
    const pool = smallPool(200, [2, 3, 4], 8)
    const table = checkQuotas(pool, proportionalQuotas(pool, 20, 2), 20)
    const plan = planPanel(pool, table, 20)
    const c = planCost(pool, table, 20, plan.counter.exact, plan.exact ? 1 : SORTITION_LIMITS.maxRejectionRounds)
    expect(c.count).toBeLessThanOrEqual(SORTITION_LIMITS.maxCountCost)
    expect(c.draw).toBeLessThanOrEqual(SORTITION_LIMITS.maxDrawCost)
    expect(plan.counter.exact.length).toBeGreaterThan(0)
  })
})

describe('the acceptance gate\'s stated failure bound (docs/spec.md, Commit-time gate)', () => {
  it('max over p of P(Bin(2000, p) >= 7) * (1 - p)^100000 is below 2^-42, and 6 would not be below 2^-36', () => {
    const { acceptanceTrials: t, minAcceptedTrials: K, maxRejectionRounds: R } = SORTITION_LIMITS
    const logFact = [0]
    for (let i = 1; i <= t; i++) logFact.push(logFact[i - 1]! + Math.log(i))
    const lgamma = (n: number): number => logFact[n]!
    const worst = (k: number): number => {
      let best = -Infinity
      for (let e = 0; e < 1200; e++) {
        const p = 10 ** (-8 + e / 200)
        if (p > 0.02) break
        let tail = 0
        for (let i = k; i <= k + 150; i++) tail += Math.exp(lgamma(t) - lgamma(i) - lgamma(t - i) + i * Math.log(p) + (t - i) * Math.log1p(-p))
        best = Math.max(best, Math.log2(tail) + R * Math.log1p(-p) / Math.LN2)
      }
      return best
    }
    expect(K).toBe(7)
    expect(worst(K)).toBeLessThan(-42)
    expect(worst(K - 1)).toBeGreaterThan(-37)
  })
})
