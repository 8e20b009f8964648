/**
 * The work bound of a plan (docs/spec.md, Sortition, Work bound): it bounds the reference counter's
 * states and transitions on every plan tried (every ordered set of exact features of random pools), it
 * is refused before any counting, and honest plans chosen by the planner are within it.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildCounter } from '../../../src/core/sortition/count.js'
import { checkQuotas, SORTITION_LIMITS } from '../../../src/core/sortition/pool.js'
import { LimitExceededError } from '../../../src/core/errors.js'
import { dpOrder, planPanel } from '../../../src/core/sortition/panel.js'
import { ALT_FEATURE_UNITS, ALT_HOUSEHOLD_UNITS, ALT_MEMBER_UNITS, ALT_RANK_UNITS, alternatesCost, checkAlternatesCost, COST_SATURATION, planCost } from '../../../src/core/sortition/cost.js'
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

describe('alternatesCost (docs/spec.md, Work bound: the alternates cost)', () => {
  it('is (N − k) · (3072 + k · (8 + 8 · F + 32 with a household rule)) with any alternates asked, whatever their number, and 0 with none', () => {
    expect([ALT_RANK_UNITS, ALT_MEMBER_UNITS, ALT_FEATURE_UNITS, ALT_HOUSEHOLD_UNITS]).toEqual([3072, 8, 8, 32])
    // 1,900 · (3,072 + 100 · (8 + 48)) and, with households, 1,900 · (3,072 + 100 · (8 + 48 + 32)).
    expect(alternatesCost(2000, 100, 6, 10)).toBe(16_476_800)
    expect(alternatesCost(2000, 100, 6, 1)).toBe(16_476_800)
    expect(alternatesCost(2000, 100, 6, 1900, true)).toBe(22_556_800)
    expect(alternatesCost(2000, 100, 6, 0)).toBe(0)
    expect(alternatesCost(2000, 100, 6, 0, true)).toBe(0)
    expect(alternatesCost(10, 10, 3, 1)).toBe(0)
    // The forged proof of the hostile bench: 999,000 · (3,072 + 1,000 · (8 + 128)).
    expect(alternatesCost(1_000_000, 1000, 16, 999_000)).toBe(138_932_928_000)
    // The largest within the protocol's limits stays below 2^40: 999,000 · (3,072 + 1,000 · 168).
    expect(alternatesCost(1_000_000, 1000, 16, 1, true)).toBe(170_900_928_000)
    expect(alternatesCost(1_000_000, 1000, 16, 1, true)).toBeLessThan(COST_SATURATION)
  })

  it('saturates at 2^40 like the plan\'s costs', () => {
    expect(alternatesCost(2 ** 40, 1, 1, 1)).toBe(COST_SATURATION)
    expect(alternatesCost(2 ** 30, 2 ** 12, 16, 1)).toBe(COST_SATURATION)
    // 2^29 · (3,072 + 2^10 · 16) = 2^29 · 19,456 > 2^40: saturated; 2^20 · 19,456 is not.
    expect(alternatesCost(2 ** 29 + 1024, 1024, 1, 1)).toBe(COST_SATURATION)
    expect(alternatesCost(2 ** 20 + 1024, 1024, 1, 1)).toBe(2 ** 20 * 19_456)
  })

  it('is refused above 2^32 = maxAlternatesCost, by SORTITION_COST_LIMIT naming the alternates and the honest way out', () => {
    expect(SORTITION_LIMITS.maxAlternatesCost).toBe(2 ** 32)
    // k = 1,000 and 16 features: 139,072 units a rank, so at most 30,883 non-members (4,294,967,296 / 139,072 = 30,883.05).
    expect(alternatesCost(31_883, 1000, 16, 1)).toBe(4_294_960_576)
    expect(() => checkAlternatesCost(31_883, 1000, 16, 1)).not.toThrow()
    expect(alternatesCost(31_884, 1000, 16, 1)).toBe(4_295_099_648)
    expect(() => checkAlternatesCost(31_884, 1000, 16, 1)).toThrow(expect.objectContaining({ code: 'SORTITION_COST_LIMIT' }))
    expect(() => checkAlternatesCost(31_884, 1000, 16, 1)).toThrow(LimitExceededError)
    expect(() => checkAlternatesCost(31_884, 1000, 16, 1)).toThrow(/^the ranking of 1 alternate\(s\) may take 4295099648 work units, more than 2\^32 = 4294967296 \(whatever the number asked, it may rank all 30884 respondents left after the panel/)
    expect(() => checkAlternatesCost(31_884, 1000, 16, 0)).not.toThrow()
    try {
      checkAlternatesCost(1_000_000, 1000, 16, 999_000, true)
      expect.unreachable()
    } catch (err) {
      expect((err as LimitExceededError).detail).toMatch(/may take 170900928000 work units, .* on 16 feature\(s\) and the household rule; docs\/spec\.md, Work bound\)$/)
      expect((err as LimitExceededError).hint).toMatch(/^ask for no alternates, or use a smaller pool or panel/)
    }
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
