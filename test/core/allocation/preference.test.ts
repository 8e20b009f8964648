/**
 * `drawPreferences`: the exact distribution of the allocation (every rank order, 1/n! each) against the
 * sampler over fixed seeds, a negative control, and fast-check properties (buckets filled in priority
 * order, no application allocated twice, the general pool by rank).
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { drawPreferences, type PreferenceRule } from '../../../src/core/allocation/preference.js'
import { streamFromSeed } from '../../../src/core/random/index.js'
import { chiSquareTest } from '../../helpers/stats.js'
import { seedOf } from '../random/util.js'
import { exactPreferences, toNumber } from './exact.js'

const keyOf = (r: ReturnType<typeof drawPreferences>): string => [...r.categories.map((c) => c.winners), r.general.winners].map((w) => w.join(',')).join('|')

// Five applications of three types: type 0 claims "local", type 1 claims "local" and "disability",
// type 2 claims nothing. One local unit, one disability unit (priority first), three units in all.
const TYPES = [0, 1, 2, 0, 1]
const CATS: PreferenceRule[] = [
  { claims: [false, true, false], units: 1 },
  { claims: [true, true, false], units: 1 },
]
const TRIALS = 24_000

describe('preference lottery: exact distribution', () => {
  const exact = exactPreferences(TYPES, CATS, 3)

  it('the sampler over fixed seeds matches the enumeration of all 120 rank orders (chi-square)', () => {
    const observed = new Map<string, number>()
    for (let t = 0; t < TRIALS; t++) {
      const key = keyOf(drawPreferences(streamFromSeed(seedOf(3_000_000 + t)), TYPES, CATS, 3))
      observed.set(key, (observed.get(key) ?? 0) + 1)
    }
    expect([...observed.keys()].filter((k) => !exact.has(k))).toEqual([])
    const keys = [...exact.keys()]
    const r = chiSquareTest(keys.map((k) => observed.get(k) ?? 0), keys.map((k) => toNumber(exact.get(k)!) * TRIALS))
    expect(r.pass, JSON.stringify(r)).toBe(true)
  })

  it('negative control: filling the categories in the wrong priority order is rejected', () => {
    const observed = new Map<string, number>()
    for (let t = 0; t < TRIALS; t++) {
      const r = drawPreferences(streamFromSeed(seedOf(3_000_000 + t)), TYPES, [CATS[1]!, CATS[0]!], 3)
      const key = [r.categories[1]!.winners, r.categories[0]!.winners, r.general.winners].map((w) => w.join(',')).join('|')
      observed.set(key, (observed.get(key) ?? 0) + 1)
    }
    const keys = [...new Set([...exact.keys(), ...observed.keys()])]
    const outside = keys.filter((k) => !exact.has(k) && (observed.get(k) ?? 0) > 0)
    const inside = [...exact.keys()]
    const r = chiSquareTest(inside.map((k) => observed.get(k) ?? 0), inside.map((k) => toNumber(exact.get(k)!) * TRIALS))
    expect(outside.length > 0 || !r.pass).toBe(true)
  })
})

describe('preference lottery: properties', () => {
  const caseArb = fc.integer({ min: 1, max: 40 }).chain((n) =>
    fc.integer({ min: 1, max: 4 }).chain((m) =>
      fc.record({
        typeOf: fc.array(fc.integer({ min: 0, max: m - 1 }), { minLength: n, maxLength: n }),
        categories: fc.array(fc.record({ claims: fc.array(fc.boolean(), { minLength: m, maxLength: m }), units: fc.integer({ min: 0, max: 8 }) }), { minLength: 0, maxLength: 4 }),
        extra: fc.integer({ min: 0, max: 10 }),
        seed: fc.uint8Array({ minLength: 32, maxLength: 32 }),
      }),
    ),
  )

  it('a permutation rank; buckets filled in priority order; no application twice; general pool by rank', () => {
    fc.assert(
      fc.property(caseArb, ({ typeOf, categories, extra, seed }) => {
        const units = categories.reduce((a, c) => a + c.units, 0) + extra
        const r = drawPreferences(streamFromSeed(seed), typeOf, categories, units)
        const n = typeOf.length
        expect([...r.order].sort((a, b) => a - b)).toEqual(typeOf.map((_, i) => i))
        const rankOf = new Map([...r.order].map((i, k) => [i, k]))
        const taken = new Set<number>()
        let filled = 0
        r.categories.forEach((c, ci) => {
          const claims = categories[ci]!.claims
          // Its ranked list: exactly its claimants, by rank.
          expect(c.ranked).toEqual([...r.order].filter((i) => claims[typeOf[i]!] === true))
          // Its winners: the best-ranked claimants not taken by an earlier category, up to its units.
          const free = c.ranked.filter((i) => !taken.has(i))
          expect(c.winners).toEqual(free.slice(0, categories[ci]!.units))
          for (const i of c.winners) {
            expect(taken.has(i)).toBe(false)
            taken.add(i)
          }
          filled += c.winners.length
        })
        expect(r.general.units).toBe(units - filled)
        const rest = [...r.order].filter((i) => !taken.has(i))
        expect(r.general.winners).toEqual(rest.slice(0, r.general.units))
        for (let k = 1; k < r.general.winners.length; k++) expect(rankOf.get(r.general.winners[k]!)! > rankOf.get(r.general.winners[k - 1]!)!).toBe(true)
        expect(taken.size + r.general.winners.length).toBeLessThanOrEqual(Math.min(n, units))
      }),
      { numRuns: 300 },
    )
  })

  it('refuses set-asides over the total', () => {
    expect(() => drawPreferences(streamFromSeed(seedOf(1)), [0], [{ claims: [true], units: 2 }], 1)).toThrow(/set aside 2 units of 1/)
  })
})
