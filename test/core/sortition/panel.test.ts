/**
 * The `panel` engine: exact counts against enumeration, uniformity by chi-square (alpha = 0.001, fixed
 * seeds) with a negative control, selection probabilities against enumeration, and properties.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { streamFromSeed, type RandomStream } from '../../../src/core/random/stream.js'
import { shuffleIndices } from '../../../src/core/random/shuffle.js'
import { buildCounter } from '../../../src/core/sortition/count.js'
import { checkQuotas, type QuotaTable, type SortitionPool } from '../../../src/core/sortition/pool.js'
import { drawPanel, planPanel, selectionProbabilities, checkPanelClaim } from '../../../src/core/sortition/panel.js'
import { chiSquareTest } from '../../helpers/stats.js'
import { seedOf } from '../random/util.js'
import { enumeratePanels, proportionalQuotas, smallPool, valid } from './fixtures.js'
import { drawCountingRounds, panelFrequencies, uniformityCase } from './panel-frequencies.js'

/** Every ordered subset of the features (as index lists), for exhaustive counter checks. */
function orderedSubsets(m: number): number[][] {
  const out: number[][] = [[]]
  const rec = (cur: number[]): void => {
    for (let f = 0; f < m; f++) {
      if (cur.includes(f)) continue
      const next = [...cur, f]
      out.push(next)
      rec(next)
    }
  }
  rec([])
  return out
}

const cases: { n: number; sizes: number[]; k: number; slack: number; seed: number }[] = [
  { n: 12, sizes: [2, 3, 4], k: 5, slack: 0, seed: 1 },
  { n: 14, sizes: [2, 2, 3], k: 6, slack: 1, seed: 2 },
  { n: 10, sizes: [3, 3], k: 4, slack: 0, seed: 3 },
  { n: 13, sizes: [2, 4, 2], k: 7, slack: 0, seed: 4 },
  { n: 9, sizes: [5], k: 4, slack: 0, seed: 5 },
]

describe('panel counter: counts equal enumeration', () => {
  for (const c of cases) {
    it(`n=${c.n} sizes=${c.sizes.join('/')} k=${c.k} slack=${c.slack}: every ordered set of exact features`, () => {
      const pool = smallPool(c.n, c.sizes, c.seed)
      const table = checkQuotas(pool, proportionalQuotas(pool, c.k, c.slack), c.k)
      for (const exact of orderedSubsets(pool.features.length)) {
        const expected = enumeratePanels(pool, table, c.k, exact).length
        expect(buildCounter(pool, table, c.k, exact).count, `exact=${exact.join(',')}`).toBe(BigInt(expected))
      }
    })
  }

  it('a pool without quotas that bind counts C(n, k)', () => {
    const pool = smallPool(30, [2, 3], 9)
    const rows = pool.features.flatMap((f) => f.values.map((v) => ({ feature: f.name, value: v, min: 0, max: 12 })))
    const table = checkQuotas(pool, rows, 12)
    expect(buildCounter(pool, table, 12, [0, 1]).count).toBe(86493225n) // C(30, 12)
  })
})

/** A greedy quota-filling sampler (the negative control): scan a random order, add whoever fits the maxes; retry when a min fails. */
function greedyPanel(pool: SortitionPool, table: QuotaTable, k: number, stream: RandomStream): number[] {
  for (;;) {
    const order = shuffleIndices(stream, pool.respondents.length)
    const cnt = pool.features.map((f) => new Array<number>(f.values.length).fill(0))
    const panel: number[] = []
    for (const i of order) {
      if (panel.length === k) break
      const t = pool.respondents[i]!.type
      if (t.every((v, f) => cnt[f]![v]! < table.max[f]![v]!)) {
        panel.push(i)
        t.forEach((v, f) => cnt[f]![v]!++)
      }
    }
    panel.sort((a, b) => a - b)
    if (panel.length === k && valid(pool, table, panel)) return panel
  }
}

describe('panel draw: uniform over valid panels (chi-square, alpha = 0.001, fixed seeds)', () => {
  const { pool, k, table, panels, N } = uniformityCase()

  const frequencies = (draw: (s: RandomStream) => number[], seed: number): number[] => panelFrequencies(panels, N, draw, seed)

  it('has enough valid panels for a meaningful test', () => {
    expect(panels.length).toBeGreaterThanOrEqual(20)
  })

  it('exact plan (every feature counted): accepted', () => {
    const plan = planPanel(pool, table, k)
    expect(plan.exact).toBe(true)
    expect(plan.counter.count).toBe(BigInt(panels.length))
    const r = chiSquareTest(frequencies((s) => drawPanel(plan, s).members, 101))
    expect(r.pass, JSON.stringify(r)).toBe(true)
  })

  it('one feature counted, the others by rejection: accepted', () => {
    const plan = planPanel(pool, table, k, { exactFeatures: [pool.features[1]!.name] })
    expect(plan.exact).toBe(false)
    const counted = drawCountingRounds(plan)
    const r = chiSquareTest(frequencies(counted.draw, 102))
    expect(r.pass, JSON.stringify(r)).toBe(true)
    expect(counted.rounds).toBeGreaterThan(N) // the rejection path was exercised
  })

  it('no feature counted (pure rejection from all k-subsets): accepted', () => {
    const plan = planPanel(pool, table, k, { exactFeatures: [] })
    const r = chiSquareTest(frequencies((s) => drawPanel(plan, s).members, 103))
    expect(r.pass, JSON.stringify(r)).toBe(true)
  })

  it('negative control: a greedy quota-filling sampler is rejected by the same test', () => {
    const r = chiSquareTest(frequencies((s) => greedyPanel(pool, table, k, s), 104))
    expect(r.pass, JSON.stringify(r)).toBe(false)
  })
})

describe('selection probabilities', () => {
  it('equal the share of valid panels containing a respondent of each type (exact rationals)', () => {
    const pool = smallPool(12, [2, 3, 2], 31)
    const k = 5
    const table = checkQuotas(pool, proportionalQuotas(pool, k, 0), k)
    const panels = enumeratePanels(pool, table, k)
    const plan = planPanel(pool, table, k)
    const probs = selectionProbabilities(plan)
    let covered = 0
    for (const p of probs) {
      const members = pool.respondents.map((r, i) => (r.type.join() === p.type.join() ? i : -1)).filter((i) => i >= 0)
      expect(members.length).toBe(p.respondents)
      covered += members.length
      for (const m of members) {
        const inPanels = panels.filter((x) => x.includes(m)).length
        // inPanels / panels.length === numerator / denominator
        expect(BigInt(inPanels) * p.denominator).toBe(p.numerator * BigInt(panels.length))
      }
      expect(p.decimal).toMatch(/^0\.[0-9]{12}$|^1\.0{12}$/)
    }
    expect(covered).toBe(pool.respondents.length)
    // Sum over respondents of their probability = k.
    const total = probs.reduce((s, p) => s + (Number(p.numerator) / Number(p.denominator)) * p.respondents, 0)
    expect(Math.abs(total - k)).toBeLessThan(1e-9)
  })

  it('are refused for a plan with features left to rejection', () => {
    const pool = smallPool(12, [2, 3, 2], 31)
    const table = checkQuotas(pool, proportionalQuotas(pool, 5, 1), 5)
    const plan = planPanel(pool, table, 5, { exactFeatures: ['f0'] })
    expect(() => selectionProbabilities(plan)).toThrow(expect.objectContaining({ code: 'SORTITION_NOT_EXACT' }))
  })
})

describe('panel draw properties (fast-check)', () => {
  const arb = fc.record({
    n: fc.integer({ min: 6, max: 40 }),
    sizes: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
    k: fc.integer({ min: 1, max: 8 }),
    slack: fc.integer({ min: 0, max: 2 }),
    seed: fc.integer({ min: 1, max: 1_000_000 }),
    draw: fc.uint8Array({ minLength: 32, maxLength: 32 }),
    exactMask: fc.integer({ min: 0, max: 7 }),
  })

  it('every drawn panel meets every quota, has k distinct members, and is the same for the same seed', () => {
    fc.assert(
      fc.property(arb, ({ n, sizes, k, slack, seed, draw, exactMask }) => {
        fc.pre(k <= n)
        const pool = smallPool(n, sizes, seed)
        let table: QuotaTable
        let plan
        try {
          table = checkQuotas(pool, proportionalQuotas(pool, k, slack), k)
          const exactFeatures = pool.features.filter((_, f) => ((exactMask >> f) & 1) === 1).map((f) => f.name)
          plan = planPanel(pool, table, k, { exactFeatures })
        } catch (err) {
          // Infeasible or too tight to plan: a typed, named refusal, never anything else.
          expect((err as { code?: string }).code).toMatch(/^(QUOTA_|NO_VALID_PANEL|PANEL_LARGER|SORTITION_ACCEPTANCE_TOO_LOW)/)
          return
        }
        const a = drawPanel(plan, streamFromSeed(draw))
        const b = drawPanel(plan, streamFromSeed(draw))
        expect(a).toEqual(b)
        expect(a.members.length).toBe(k)
        expect(new Set(a.members).size).toBe(k)
        expect(a.members.every((m) => Number.isInteger(m) && m >= 0 && m < n)).toBe(true)
        expect(valid(pool, table, a.members)).toBe(true)
      }),
      { numRuns: 150, seed: 20261123 },
    )
  })
})

describe('checkPanelClaim: a claimed panel fails by name', () => {
  const pool = smallPool(30, [2, 3, 3], 41)
  const k = 8
  const table = checkQuotas(pool, proportionalQuotas(pool, k, 1), k)
  const plan = planPanel(pool, table, k)
  const seed = seedOf(900)
  const good = drawPanel(plan, streamFromSeed(seed)).members
  const check = (claim: number[]): string[] => checkPanelClaim(plan, streamFromSeed(seed), claim).failed.map((f) => f.check)

  it('accepts the replayed panel, in any order', () => {
    expect(checkPanelClaim(plan, streamFromSeed(seed), [...good].reverse())).toMatchObject({ ok: true, failed: [], replayed: good })
  })

  it('names a repeated member, a wrong size, an unknown member, a broken quota, and a differing panel', () => {
    expect(check([...good.slice(0, -1), good[0]!])).toEqual(expect.arrayContaining(['panel-distinct', 'panel-replay']))
    expect(check(good.slice(1))).toEqual(expect.arrayContaining(['panel-size', 'panel-replay']))
    // A member outside the pool has no committed type: its quotas are not counted, and that fails too.
    expect(check([...good.slice(1), 999])).toEqual(['panel-members-known', 'panel-quotas', 'panel-replay'])
    // Another valid panel: only the replay fails.
    const other = drawPanel(plan, streamFromSeed(seedOf(901))).members
    expect(other).not.toEqual(good)
    expect(check(other)).toEqual(['panel-replay'])
    // A panel breaking a quota: swap one member for a non-member until a quota breaks.
    const outside = pool.respondents.map((_, i) => i).filter((i) => !good.includes(i))
    let broken: number[] | undefined
    for (const o of outside) {
      for (let p = 0; p < k && broken === undefined; p++) {
        const cand = good.map((m, i) => (i === p ? o : m))
        if (!valid(pool, table, cand)) broken = cand
      }
      if (broken !== undefined) break
    }
    expect(check(broken!)).toEqual(['panel-quotas', 'panel-replay'])
  })
})

describe('a verifier\'s method-1 gate stops at its 7th kept trial (stopAtKept)', () => {
  it('admits exactly the plans the full gate admits, after fewer trials', () => {
    let admittedEarly = 0
    for (let seed = 1; seed <= 12; seed++) {
      const pool = smallPool(30, [2, 3, 2], seed)
      const k = 8
      const table = checkQuotas(pool, proportionalQuotas(pool, k, seed % 3 === 0 ? 0 : 1), k)
      const verdict = (stopAtKept: boolean): { kept: number; trials: number } | string => {
        try {
          const plan = planPanel(pool, table, k, { exactFeatures: [pool.features[1]!.name], explain: false, stopAtKept })
          return plan.gate!
        } catch (err) {
          return (err as { code: string; detail: string }).code + ' ' + (err as { detail: string }).detail
        }
      }
      const full = verdict(false)
      const early = verdict(true)
      if (typeof full === 'string') expect(early).toBe(full)
      else {
        expect(typeof early).toBe('object')
        const e = early as { kept: number; trials: number }
        expect(e.kept).toBe(7)
        expect(e.trials).toBeLessThanOrEqual(full.trials)
        if (e.trials < full.trials) admittedEarly++
      }
    }
    expect(admittedEarly).toBeGreaterThan(0)
  })
})
