/**
 * Households (issue 22 item 4): the matching rule, the committed groups, exact inclusion probabilities
 * by enumeration, uniformity by chi-square (alpha = 0.001, fixed seeds) with a negative control the test
 * rejects, and properties of the draw and the alternates.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { streamFromSeed, uniformIndex, type RandomStream } from '../../../src/core/random/index.js'
import { checkQuotas, drawAlternates, drawPanel, makePool, panelDraw, planPanel, replacementFor, SORTITION_LIMITS, type PanelPlan } from '../../../src/core/sortition/index.js'
import {
  checkHouseholdAcceptance,
  drawHouseholdPanel,
  householdGroups,
  householdIndex,
  householdsProblem,
  householdSwapAllowed,
  normalizeHousehold,
  sharedHousehold,
} from '../../../src/core/sortition/household.js'
import { chiSquareTest } from '../../helpers/stats.js'
import { seedOf } from '../random/util.js'
import { enumeratePanels, lcg, proportionalQuotas, smallPool, valid } from './fixtures.js'
import { panelFrequencies } from './panel-frequencies.js'
import { plan2Inputs } from './plan2-cases.js'

describe('normalizeHousehold: the matching rule', () => {
  it.each([
    ['12 Rue de la Paix', '  12  rue de LA paix\t'],
    ['Flat 2\n1 High St', 'flat 2 1 high st'],
    ['Straße 5', 'STRAßE 5'], // ß has no single-letter uppercase: both lowercase to "straße 5"
    ['Ｎｏ 1', 'ｎｏ 1'], // fullwidth letters are case-mapped, not folded to ASCII
    ['Cafe\u0301 1', 'Café 1'], // NFC: e + combining acute = é
    ['a\u00a0b\u3000c', 'a b c'], // no-break and ideographic spaces are White_Space
  ])('%j matches %j', (a, b) => {
    expect(normalizeHousehold(a)).toBe(normalizeHousehold(b))
  })

  it.each([
    ['1 High St', '1 High Street'],
    ['1 High St', '1 HighSt'],
    ['Ｎｏ 1', 'No 1'],
    ['a\u200bb', 'ab'], // a zero-width space is not White_Space: kept
  ])('%j does not match %j', (a, b) => {
    expect(normalizeHousehold(a)).not.toBe(normalizeHousehold(b))
  })

  it('gives the stated key', () => {
    expect(normalizeHousehold('  12\u2003Rue  DE\tla Paix ')).toBe('12 rue de la paix')
    expect(normalizeHousehold('ΟΔΟΣ')).toBe('οδος') // Unicode's default lowercase mapping, Final_Sigma included
  })

  it('groups the committed indices of matching values, two or more, by first index', () => {
    const ids = ['a', 'b', 'c', 'd', 'e']
    const values = new Map([['a', 'X St'], ['b', 'y st'], ['c', 'x  st'], ['d', 'Z'], ['e', 'Y ST']])
    expect(householdGroups(ids, values)).toEqual([[0, 2], [1, 4]])
    expect(() => householdGroups(ids, new Map([['a', 'x']]))).toThrow(expect.objectContaining({ code: 'SORTITION_HOUSEHOLD_INVALID', detail: 'respondent "b" has no household value' }))
    expect(() => householdGroups(['a'], new Map([['a', ' \t ']]))).toThrow(expect.objectContaining({ code: 'SORTITION_HOUSEHOLD_INVALID', detail: 'respondent "a" has an empty household value' }))
  })

  it('refuses malformed committed households, naming the place', () => {
    expect(householdsProblem([[0, 2], [1, 4]], 5)).toBeUndefined()
    expect(householdsProblem([[0]], 5)?.path).toBe('[0]')
    expect(householdsProblem([[0, 5]], 5)?.detail).toMatch(/not one of the 5/)
    expect(householdsProblem([[2, 1]], 5)?.detail).toMatch(/ascending/)
    expect(householdsProblem([[0, 1], [1, 2]], 5)?.detail).toMatch(/two households/)
    expect(householdsProblem([[1, 2], [0, 3]], 5)?.detail).toMatch(/ordered by their first index/)
  })
})

// A small pool: 12 respondents on two features, households {0,1,2}, {3,4}, {7,8}, {9,10}.
const pool = smallPool(12, [2, 3], 31)
const k = 4
const table = checkQuotas(pool, proportionalQuotas(pool, k, 1), k)
const groups = [[0, 1, 2], [3, 4], [7, 8], [9, 10]]
const of = householdIndex(groups, pool.respondents.length)
const quotaPanels = enumeratePanels(pool, table, k)
const panels = quotaPanels.filter((p) => sharedHousehold(of, p) === undefined)

describe('household rejection: exact by enumeration', () => {
  it('the rule removes panels, and the counter counts the quota-valid ones', () => {
    const plan = planPanel(pool, table, k)
    expect(plan.exact).toBe(true)
    expect(plan.counter.count).toBe(BigInt(quotaPanels.length))
    expect(panels.length).toBeGreaterThanOrEqual(20)
    expect(panels.length).toBeLessThan(quotaPanels.length)
  })

  it('each respondent\'s inclusion probability is #(valid panels with them) / #(valid panels), exactly', () => {
    // A round is uniform over the quota-valid panels; kept iff it keeps the rule. So P(panel = S) =
    // (1/Q) / (V/Q) = 1/V for each of the V valid panels: the inclusion probabilities below, as fractions.
    const V = panels.length
    const inclusion = pool.respondents.map((_, i) => panels.filter((p) => p.includes(i)).length)
    expect(inclusion.reduce((a, b) => a + b, 0)).toBe(k * V)
    // Someone in a 3-person household is selected less often than with no household rule.
    const without = pool.respondents.map((_, i) => quotaPanels.filter((p) => p.includes(i)).length)
    expect(inclusion[0]! / V).toBeLessThan(without[0]! / quotaPanels.length)
    // The sampler's frequencies over fixed seeds sit within 4.5 standard deviations of the exact values.
    const N = 20_000
    const seen = new Array<number>(pool.respondents.length).fill(0)
    const s = streamFromSeed(seedOf(7001))
    const plan = planPanel(pool, table, k)
    for (let t = 0; t < N; t++) for (const m of drawHouseholdPanel(plan, of, s).members) seen[m]!++
    inclusion.forEach((c, i) => {
      const p = c / V
      expect(Math.abs(seen[i]! / N - p), `respondent ${i}: exact ${c}/${V}`).toBeLessThanOrEqual(4.5 * Math.sqrt((p * (1 - p)) / N) + 1e-12)
    })
  })
})

describe('household rejection: uniform over the valid panels (chi-square, alpha = 0.001, fixed seeds)', () => {
  const N = 100 * panels.length

  const frequencies = (draw: (s: RandomStream) => number[], seed: number): number[] => panelFrequencies(panels, N, draw, seed, 'drawn panel keeps quotas and households')

  it('every feature counted exactly, households by rejection: accepted', () => {
    const plan = planPanel(pool, table, k)
    const r = chiSquareTest(frequencies((s) => drawHouseholdPanel(plan, of, s).members, 7101))
    expect(r.pass, JSON.stringify(r)).toBe(true)
  })

  it('one feature counted, the other and households by rejection: accepted', () => {
    const plan = planPanel(pool, table, k, { exactFeatures: [pool.features[1]!.name] })
    expect(plan.exact).toBe(false)
    const r = chiSquareTest(frequencies((s) => drawHouseholdPanel(plan, of, s).members, 7102))
    expect(r.pass, JSON.stringify(r)).toBe(true)
  })

  it('negative control: repairing a panel that breaks the rule (swap the later housemate) is rejected', () => {
    const plan = planPanel(pool, table, k)
    const r = chiSquareTest(frequencies((s) => repairPanel(plan, s), 7103))
    expect(r.pass, JSON.stringify(r)).toBe(false)
  })
})

/** The negative control: a uniform quota panel whose later housemates are swapped for a random fitting outsider. */
function repairPanel(plan: PanelPlan, s: RandomStream): number[] {
  for (;;) {
    let members = drawPanel(plan, s).members
    for (let pair = sharedHousehold(of, members); pair !== undefined; pair = sharedHousehold(of, members)) {
      const out = pair[1]
      const rest = members.filter((m) => m !== out)
      const fits = pool.respondents.map((_, i) => i).filter((i) => !members.includes(i) && sharedHousehold(of, [...rest, i]) === undefined && valid(pool, table, [...rest, i]))
      if (fits.length === 0) break
      members = [...rest, fits[uniformIndex(s, fits.length)]!].sort((a, b) => a - b)
    }
    if (sharedHousehold(of, members) === undefined) return members
  }
}

describe('the commit-time gate with households', () => {
  it('admits a plan whose trials keep both rules often enough', () => {
    expect(checkHouseholdAcceptance(planPanel(pool, table, k), of)).toBeGreaterThan(1000)
  })

  it('refuses, naming the household rule, when almost every panel breaks it', () => {
    const big = smallPool(12, [2], 5)
    const t = checkQuotas(big, [{ feature: 'f0', value: 'v0', min: 0, max: 6 }, { feature: 'f0', value: 'v1', min: 0, max: 6 }], 6)
    // Everybody but two lives in one household: a panel of 6 almost always has two housemates.
    const one = householdIndex([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]], 12)
    expect(() => checkHouseholdAcceptance(planPanel(big, t, 6), one)).toThrow(expect.objectContaining({ code: 'SORTITION_ACCEPTANCE_TOO_LOW', detail: expect.stringContaining('had two members of one household') }))
  })
})

describe('properties', () => {
  const arb = fc.record({ seed: fc.integer({ min: 1, max: 1_000_000 }), draw: fc.integer({ min: 1, max: 1_000_000 }), size: fc.integer({ min: 2, max: 4 }) })

  it('a drawn panel has k members, meets every quota and has at most one member per household; alternates keep the rule', () => {
    fc.assert(
      fc.property(arb, ({ seed, draw, size }) => {
        const p = smallPool(14, [2, 3], seed)
        const kk = 4
        const t = checkQuotas(p, proportionalQuotas(p, kk, 1), kk)
        const rnd = lcg(seed + 1)
        // Random households of `size` consecutive-by-chance respondents.
        const ids = p.respondents.map((r) => r.id)
        const values = new Map(ids.map((id) => [id, `h${rnd(Math.ceil(ids.length / size))}`]))
        const o = householdIndex(householdGroups(ids, values), ids.length)
        const plan = planPanel(p, t, kk)
        const s = streamFromSeed(seedOf(draw))
        let members: number[]
        try {
          members = drawHouseholdPanel(plan, o, s).members
        } catch (err) {
          // No valid panel with households at all: the rounds run out (a named limit, never a bad panel).
          expect((err as { code?: string }).code).toBe('SORTITION_REJECTION_LIMIT')
          return
        }
        expect(members.length).toBe(kk)
        expect(new Set(members).size).toBe(kk)
        expect(valid(p, t, members)).toBe(true)
        expect(sharedHousehold(o, members)).toBeUndefined()
        const allowed = householdSwapAllowed(o, members)
        const { alternates } = drawAlternates(s, p, t, members, 3, allowed)
        for (const a of alternates) expect(members.some((m) => allowed(m, a))).toBe(true)
        for (const m of members) {
          const a = replacementFor(p, t, members, alternates, m, new Set(), allowed)
          if (a !== undefined) {
            const next = [...members.filter((x) => x !== m), a]
            expect(sharedHousehold(o, next)).toBeUndefined()
            expect(valid(p, t, next)).toBe(true)
          }
        }
      }),
      { numRuns: 30, seed: 22 },
    )
  })
})

describe('plan method 2 with households: the method\'s gate stream and round cap (docs/spec.md, Households)', () => {
  // Plan method 2's vector pool (method 1's gate keeps 5 of 2,000) with three households of two.
  const input = plan2Inputs()[0]!
  const p2 = makePool(input.header.slice(1), input.rows.map((r) => ({ id: r[0]!, values: r.slice(1) })))
  const t2 = checkQuotas(p2, input.quotas.map(([feature, value, min, max]) => ({ feature, value, min, max })), input.k)
  const homes = householdIndex([[1, 2], [5, 30], [10, 20]], p2.respondents.length)

  it('the gate runs on method 2\'s stream and needs 12 kept: a plan method 1\'s gate refuses is admitted', () => {
    // Method 1's gate with households (stream v1, 7 of 2,000) refuses: it keeps at most what the quota gate keeps.
    const plan1 = planPanel(p2, t2, input.k, { exactFeatures: [], explain: false, skipAcceptanceCheck: true })
    expect(() => checkHouseholdAcceptance(plan1, homes)).toThrow(expect.objectContaining({ code: 'SORTITION_ACCEPTANCE_TOO_LOW', detail: expect.stringMatching(/^only [0-5] of 2000 /) }))
    const plan2 = planPanel(p2, t2, input.k, { exactFeatures: [], explain: false, method: 2 })
    expect(plan2.method).toBe(2)
    expect(checkHouseholdAcceptance(plan2, homes)).toBe(SORTITION_LIMITS.minAcceptedTrialsV2)
  })

  it('panelDraw commits such a plan as "plan": 2 with its households', () => {
    const ids = p2.respondents.map((r) => r.id)
    const values = new Map(ids.map((id) => [id, id]))
    for (const [a, b] of [['r01', 'r02'], ['r05', 'r30'], ['r10', 'r20']] as const) values.set(b, values.get(a)!.toUpperCase())
    const { draw } = panelDraw(p2, input.quotas.map(([feature, value, min, max]) => ({ feature, value, min, max })), input.k, { exactFeatures: [], households: values })
    expect(draw.plan).toBe(2)
    expect(draw.households?.length).toBe(3)
  })

  it('a draw may use 400,000 rounds under method 2 (100,000 under method 1), as drawPanel', () => {
    // Two features that are the same split, with quotas no panel meets together: no round is ever kept.
    const p = makePool(['g', 'h'], ['x', 'x', 'y', 'y'].map((v, i) => ({ id: `q${i}`, values: [v, v] })))
    const t = checkQuotas(p, [{ feature: 'g', value: 'x', min: 1, max: 1 }, { feature: 'g', value: 'y', min: 1, max: 1 }, { feature: 'h', value: 'x', min: 0, max: 0 }, { feature: 'h', value: 'y', min: 2, max: 2 }], 2)
    const none = householdIndex([], 4)
    for (const [method, cap] of [[1, SORTITION_LIMITS.maxRejectionRounds], [2, SORTITION_LIMITS.maxRejectionRoundsV2]] as const) {
      const plan = planPanel(p, t, 2, { exactFeatures: [], explain: false, method, skipAcceptanceCheck: true })
      const s = streamFromSeed(seedOf(9))
      const plain = streamFromSeed(seedOf(9))
      expect(() => drawHouseholdPanel(plan, none, s)).toThrow(expect.objectContaining({ code: 'SORTITION_REJECTION_LIMIT', detail: expect.stringContaining(`in ${cap} rounds`) }))
      expect(() => drawPanel(plan, plain)).toThrow(expect.objectContaining({ code: 'SORTITION_REJECTION_LIMIT' }))
      expect(s.consumed).toBe(plain.consumed)
    }
  })
})
