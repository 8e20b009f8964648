/**
 * Exact selection probabilities under a household rule (src/core/sortition/household-probabilities.ts):
 * per group (type × household size), equal to brute-force enumeration of every valid panel (every
 * quota, at most one member per household) as reduced fractions, on random small pools with random
 * households; the budget refuses (undefined) rather than grow.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkQuotas } from '../../../src/core/sortition/index.js'
import { householdGroups, householdIndex, sharedHousehold } from '../../../src/core/sortition/household.js'
import { householdGroupsOf, householdProbabilities } from '../../../src/core/sortition/household-probabilities.js'
import { enumeratePanels, lcg, proportionalQuotas, smallPool } from './fixtures.js'

describe('householdProbabilities', () => {
  it('equals brute-force enumeration per group on random pools and households (reduced fractions)', () => {
    let checked = 0
    fc.assert(
      fc.property(fc.record({ seed: fc.integer({ min: 1, max: 100_000 }), n: fc.integer({ min: 6, max: 13 }), k: fc.integer({ min: 2, max: 5 }), homes: fc.integer({ min: 2, max: 8 }), slack: fc.integer({ min: 0, max: 2 }) }), ({ seed, n, k, homes, slack }) => {
        const pool = smallPool(n, [2, 3], seed)
        if (k > n) return
        let table
        try {
          table = checkQuotas(pool, proportionalQuotas(pool, k, slack), k)
        } catch {
          return
        }
        const rnd = lcg(seed + 7)
        const ids = pool.respondents.map((r) => r.id)
        const of = householdIndex(householdGroups(ids, new Map(ids.map((id) => [id, `h${rnd(homes)}`]))), n)
        const valid = enumeratePanels(pool, table, k).filter((p) => sharedHousehold(of, p) === undefined)
        const { of: groupOf, groups } = householdGroupsOf(pool, of)
        const hits = new Array<bigint>(groups.length).fill(0n)
        for (const p of valid) for (const m of p) hits[groupOf[m]!]!++
        const got = householdProbabilities(pool, table, k, of)!
        if (valid.length > 0 && groups.some((g) => g.household > 1)) checked++
        expect(got.map((g) => [g.type, g.household, g.respondents])).toEqual(groups.map((g) => [g.type, g.household, g.respondents]))
        got.forEach((g, i) => {
          // numerator / denominator = hits / (V · n_g), reduced (0/1 when no panel is valid).
          if (valid.length === 0) expect([g.numerator, g.denominator]).toEqual([0n, 1n])
          else expect(g.numerator * BigInt(valid.length) * BigInt(g.respondents)).toBe(hits[i]! * g.denominator)
        })
      }),
      { numRuns: 60, seed: 2201 },
    )
    // Most runs had valid panels and shared households (not vacuous).
    expect(checked).toBeGreaterThanOrEqual(30)
  })

  it('gives nothing (the caller estimates) when a layer passes the budget', () => {
    const pool = smallPool(12, [2, 3], 3)
    const table = checkQuotas(pool, proportionalQuotas(pool, 4, 1), 4)
    const of = householdIndex([[0, 1, 2], [5, 6]], 12)
    expect(householdProbabilities(pool, table, 4, of)).toBeDefined()
    expect(householdProbabilities(pool, table, 4, of, 3)).toBeUndefined()
    expect(() => householdProbabilities(pool, table, 4, of, 0)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  })
})
