/** Pools, quotas and every infeasible shape's named error with its relaxation. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkQuotas, compareCodePoints, InfeasibleQuotasError, makePool, type QuotaRow } from '../../../src/core/sortition/pool.js'
import { planPanel } from '../../../src/core/sortition/panel.js'
import { InvalidInputError, LimitExceededError } from '../../../src/core/errors.js'

// 6 respondents: gender f/m, age y/o.
const pool = makePool(['gender', 'age'], [
  { id: 'p6', values: ['m', 'o'] },
  { id: 'p1', values: ['f', 'y'] },
  { id: 'p2', values: ['f', 'o'] },
  { id: 'p3', values: ['m', 'y'] },
  { id: 'p4', values: ['f', 'y'] },
  { id: 'p5', values: ['m', 'y'] },
])
const base: QuotaRow[] = [
  { feature: 'gender', value: 'f', min: 1, max: 2 },
  { feature: 'gender', value: 'm', min: 1, max: 2 },
  { feature: 'age', value: 'y', min: 1, max: 2 },
  { feature: 'age', value: 'o', min: 1, max: 2 },
]
const edit = (i: number, patch: Partial<QuotaRow>): QuotaRow[] => base.map((r, j) => (j === i ? { ...r, ...patch } : r))

function expectInfeasible(fn: () => unknown, code: string, relaxation: RegExp): void {
  let caught: unknown
  try {
    fn()
  } catch (err) {
    caught = err
  }
  expect(caught).toBeInstanceOf(InfeasibleQuotasError)
  const e = caught as InfeasibleQuotasError
  expect(e.code).toBe(code)
  expect(e.relaxation).toMatch(relaxation)
  expect(e.hint).toBe(e.relaxation)
}

describe('makePool', () => {
  it('sorts features, values and respondents by code point; types are value indices', () => {
    expect(pool.features.map((f) => f.name)).toEqual(['age', 'gender'])
    expect(pool.features[0]!.values).toEqual(['o', 'y'])
    expect(pool.respondents.map((r) => r.id)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6'])
    expect(pool.respondents[0]!.type).toEqual([1, 0]) // p1: age y (1), gender f (0)
  })

  it('code point order differs from UTF-16 order above the BMP', () => {
    expect(compareCodePoints('\u{1F600}', '\uFF01')).toBeGreaterThan(0) // U+1F600 > U+FF01
    expect('\u{1F600}' < '\uFF01').toBe(true) // while UTF-16 order says the opposite
    expect(compareCodePoints('a', 'ab')).toBeLessThan(0)
    expect(compareCodePoints('b', 'a')).toBeGreaterThan(0)
    expect(compareCodePoints('x', 'x')).toBe(0)
  })

  it('sorts respondents by code point whether or not an id holds a surrogate (the engine\u2019s order only without one)', () => {
    // Units from both sides of the surrogates, and surrogate pairs: code point order for any mix.
    const unit = fc.constantFrom('a', 'b', 'Z', '\u00e9', '\ud7ff', '\ue000', '\uff01', '\ufffd', '\u{10000}', '\u{1f600}', '\u{10ffff}')
    fc.assert(
      fc.property(fc.uniqueArray(fc.array(unit, { minLength: 1, maxLength: 4 }).map((u) => u.join('')), { minLength: 1, maxLength: 30 }), (ids) => {
        const sorted = makePool(['f'], ids.map((id) => ({ id, values: ['v'] }))).respondents.map((r) => r.id)
        const byCodePoint = [...ids].sort((x, y) => {
          const a = [...x].map((c) => c.codePointAt(0)!)
          const b = [...y].map((c) => c.codePointAt(0)!)
          for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!
          return a.length - b.length
        })
        expect(sorted).toEqual(byCodePoint)
      }),
      { seed: 22, numRuns: 300 },
    )
  })

  it('refuses duplicate ids and features, ragged rows, empty pools and bad text, by name', () => {
    expect(() => makePool(['a'], [{ id: 'x', values: ['1'] }, { id: 'x', values: ['2'] }])).toThrow(expect.objectContaining({ code: 'SORTITION_POOL_INVALID', detail: expect.stringContaining('"x" appears twice') }))
    // Named where it repeats, and where it first appeared.
    const rows = ['p', 'q', 'x', 'r', 'x'].map((id) => ({ id, values: ['1'] }))
    expect(() => makePool(['a'], rows)).toThrow(expect.objectContaining({ path: '$.respondents[4].id', detail: 'respondent id "x" appears twice: $.respondents[2] and $.respondents[4]' }))
    expect(() => makePool(['a', 'a'], [{ id: 'x', values: ['1', '2'] }])).toThrow(expect.objectContaining({ code: 'SORTITION_POOL_INVALID' }))
    expect(() => makePool(['a', 'b'], [{ id: 'x', values: ['1'] }])).toThrow(expect.objectContaining({ code: 'SORTITION_POOL_INVALID', path: '$.respondents[0]' }))
    expect(() => makePool(['a'], [])).toThrow(expect.objectContaining({ code: 'SORTITION_POOL_INVALID' }))
    expect(() => makePool([], [{ id: 'x', values: [] }])).toThrow(expect.objectContaining({ code: 'SORTITION_POOL_INVALID' }))
    expect(() => makePool(['a'], [{ id: ' x', values: ['1'] }])).toThrow(InvalidInputError)
    expect(() => makePool(['a'], [{ id: 'x', values: ['1\u0007'] }])).toThrow(expect.objectContaining({ path: '$.respondents[0].values[0]' }))
    expect(() => makePool(Array.from({ length: 17 }, (_, i) => `f${i}`), [{ id: 'x', values: Array.from({ length: 17 }, () => 'v') }])).toThrow(LimitExceededError)
  })
})

describe('checkQuotas: every infeasible shape is named, with the smallest relaxation', () => {
  it('accepts a feasible set and aligns it with the pool', () => {
    const t = checkQuotas(pool, base, 3)
    expect(t.min).toEqual([[1, 1], [1, 1]])
    expect(t.max).toEqual([[2, 2], [2, 2]])
  })

  it('QUOTA_MISSING_FOR_VALUE: a pool value without a quota row', () => {
    expectInfeasible(() => checkQuotas(pool, base.slice(0, 3), 3), 'QUOTA_MISSING_FOR_VALUE', /add the row age,o,0,3/)
  })

  it('QUOTA_VALUE_NOT_IN_POOL and QUOTA_FEATURE_NOT_IN_POOL: a quota row without a value', () => {
    expectInfeasible(() => checkQuotas(pool, [...base, { feature: 'age', value: 'mid', min: 0, max: 1 }], 3), 'QUOTA_VALUE_NOT_IN_POOL', /remove the quota row "age"="mid" \(its min is 0/)
    expectInfeasible(() => checkQuotas(pool, [...base, { feature: 'age', value: 'mid', min: 2, max: 3 }], 3), 'QUOTA_VALUE_NOT_IN_POOL', /can never be met/)
    expectInfeasible(() => checkQuotas(pool, [...base, { feature: 'region', value: 'n', min: 0, max: 1 }], 3), 'QUOTA_FEATURE_NOT_IN_POOL', /remove the quota rows of "region"/)
  })

  it('QUOTA_MIN_ABOVE_MAX', () => {
    expectInfeasible(() => checkQuotas(pool, edit(0, { min: 3, max: 2 }), 3), 'QUOTA_MIN_ABOVE_MAX', /raise its max to 3 or lower its min to 2/)
  })

  it('QUOTA_MINS_EXCEED_PANEL: mins of a feature sum to more than k', () => {
    expectInfeasible(() => checkQuotas(pool, edit(0, { min: 2, max: 3 }).map((r, i) => (i === 1 ? { ...r, min: 2 } : r)), 3), 'QUOTA_MINS_EXCEED_PANEL', /lower the mins of "gender" by 1 in total, or draw a panel of 4/)
  })

  it('QUOTA_MAXES_BELOW_PANEL: maxes of a feature sum to less than k (raw, or capped by respondents)', () => {
    expectInfeasible(() => checkQuotas(pool, edit(2, { max: 1 }).map((r, i) => (i === 3 ? { ...r, max: 1 } : r)), 3), 'QUOTA_MAXES_BELOW_PANEL', /raise the maxes of "age" by 1 in total .*or draw a panel of 2/)
    // age o has 2 respondents: a max of 5 counts as 2.
    expectInfeasible(() => checkQuotas(pool, edit(2, { min: 0, max: 0 }).map((r, i) => (i === 3 ? { ...r, max: 5 } : r)), 3), 'QUOTA_MAXES_BELOW_PANEL', /by 1 in total/)
  })

  it('QUOTA_MIN_EXCEEDS_RESPONDENTS: too few respondents for a min', () => {
    expectInfeasible(() => checkQuotas(pool, edit(3, { min: 3, max: 3 }).map((r, i) => (i === 2 ? { ...r, min: 0, max: 3 } : r)), 3), 'QUOTA_MIN_EXCEEDS_RESPONDENTS', /lower its min to 2 or recruit 1 more respondents with "age"="o"/)
  })

  it('PANEL_LARGER_THAN_POOL', () => {
    expectInfeasible(() => checkQuotas(pool, base.map((r) => ({ ...r, max: 7 })), 7), 'PANEL_LARGER_THAN_POOL', /at most 6/)
  })

  it('NO_VALID_PANEL: every simple check passes but no panel fits (found by counting), with the smallest single change', () => {
    // Each feature alone is satisfiable, together they are not: both women are young, both men old;
    // no man may sit, and the panel must have one young and one old member.
    const p = makePool(['gender', 'age'], [
      { id: 'a', values: ['f', 'y'] },
      { id: 'b', values: ['f', 'y'] },
      { id: 'c', values: ['m', 'o'] },
      { id: 'd', values: ['m', 'o'] },
    ])
    const rows: QuotaRow[] = [
      { feature: 'gender', value: 'f', min: 1, max: 2 },
      { feature: 'gender', value: 'm', min: 0, max: 0 },
      { feature: 'age', value: 'y', min: 1, max: 1 },
      { feature: 'age', value: 'o', min: 1, max: 1 },
    ]
    expectInfeasible(() => planPanel(p, checkQuotas(p, rows, 2), 2), 'NO_VALID_PANEL', /^raise the max of "gender"="m" from 0 to 1$/)
    // When no single change is enough, the feature whose quotas block every panel is named.
    const two = rows.map((r, i) => (i === 0 ? { ...r, min: 2 } : r))
    expectInfeasible(() => planPanel(p, checkQuotas(p, two, 2), 2), 'NO_VALID_PANEL', /no single quota change is enough; relax several quotas of "age"/)
  })

  it('QUOTA_INVALID: malformed rows and duplicates; INVALID_ARGUMENT / LIMIT_EXCEEDED on the panel size', () => {
    expect(() => checkQuotas(pool, edit(0, { min: -1 }), 3)).toThrow(expect.objectContaining({ code: 'QUOTA_INVALID', path: '$.quotas[0]' }))
    expect(() => checkQuotas(pool, edit(0, { max: 1.5 }), 3)).toThrow(expect.objectContaining({ code: 'QUOTA_INVALID' }))
    expect(() => checkQuotas(pool, [...base, base[0]!], 3)).toThrow(expect.objectContaining({ code: 'QUOTA_INVALID', detail: expect.stringContaining('twice') }))
    expect(() => checkQuotas(pool, base, 0)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    expect(() => checkQuotas(pool, base, 1001)).toThrow(LimitExceededError)
  })
})

describe('planPanel refusals', () => {
  it('SORTITION_STATE_LIMIT for given exact features over the state budget', () => {
    expect(() => planPanel(pool, checkQuotas(pool, base, 3), 3, { exactFeatures: ['age', 'gender'], maxStates: 3 })).toThrow(expect.objectContaining({ code: 'SORTITION_STATE_LIMIT' }))
  })

  it('SORTITION_ACCEPTANCE_TOO_LOW when the features left to rejection almost never hold', () => {
    // 40 respondents, two features each forced to an exact split that random panels rarely meet
    // while the other feature is counted exactly: restrict the counter to nothing.
    const rows = Array.from({ length: 40 }, (_, i) => ({ id: `r${String(i).padStart(2, '0')}`, values: [`g${i % 2}`, `a${i % 4}`, `b${(i >> 2) % 5}`] }))
    const big = makePool(['g', 'a', 'b'], rows)
    const q: QuotaRow[] = [
      ...['g0', 'g1'].map((value) => ({ feature: 'g', value, min: 5, max: 5 })),
      ...['a0', 'a1', 'a2', 'a3'].map((value, i) => ({ feature: 'a', value, min: i < 2 ? 3 : 2, max: i < 2 ? 3 : 2 })),
      ...['b0', 'b1', 'b2', 'b3', 'b4'].map((value) => ({ feature: 'b', value, min: 2, max: 2 })),
    ]
    const t = checkQuotas(big, q, 10)
    expect(() => planPanel(big, t, 10, { exactFeatures: [] })).toThrow(expect.objectContaining({ code: 'SORTITION_ACCEPTANCE_TOO_LOW' }))
    // Counted exactly, the same quotas plan fine.
    expect(planPanel(big, t, 10).exact).toBe(true)
  })

  it('NO_VALID_PANEL names a relaxation when features are left to rejection too (the search changes the counted features\' quotas)', () => {
    // a and b always agree; a0 needs 3 seats, b0 allows 1: no panel, whatever c does.
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: `r${String(i).padStart(2, '0')}`, values: [`a${i % 2}`, `b${i % 2}`, `c${i % 3}`] }))
    const p = makePool(['a', 'b', 'c'], rows)
    const q: QuotaRow[] = [
      { feature: 'a', value: 'a0', min: 3, max: 6 },
      { feature: 'a', value: 'a1', min: 0, max: 6 },
      { feature: 'b', value: 'b0', min: 0, max: 1 },
      { feature: 'b', value: 'b1', min: 0, max: 6 },
      ...['c0', 'c1', 'c2'].map((value) => ({ feature: 'c', value, min: 0, max: 6 })),
    ]
    let err: unknown
    try {
      planPanel(p, checkQuotas(p, q, 6), 6, { exactFeatures: ['a', 'b'] })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(InfeasibleQuotasError)
    expect((err as InfeasibleQuotasError).code).toBe('NO_VALID_PANEL')
    expect((err as InfeasibleQuotasError).hint).toBe('lower the min of "a"="a0" from 3 to 1')
  })

  it('SORTITION_ACCEPTANCE_TOO_LOW names the smallest single relaxation, and applying it passes the gate with the same exact features', () => {
    // g0 (20 of 60) must fill 10 of 12 seats: about 1 in 10,000 relaxed panels; a is counted exactly.
    const rows = Array.from({ length: 60 }, (_, i) => ({ id: `r${String(i).padStart(2, '0')}`, values: [`g${i % 3}`, `a${i % 2}`] }))
    const p = makePool(['g', 'a'], rows)
    const q: QuotaRow[] = [
      { feature: 'g', value: 'g0', min: 10, max: 10 },
      { feature: 'g', value: 'g1', min: 0, max: 12 },
      { feature: 'g', value: 'g2', min: 0, max: 12 },
      { feature: 'a', value: 'a0', min: 0, max: 12 },
      { feature: 'a', value: 'a1', min: 0, max: 12 },
    ]
    let err: unknown
    try {
      planPanel(p, checkQuotas(p, q, 12), 12, { exactFeatures: ['a'] })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(LimitExceededError)
    const hint = (err as LimitExceededError).hint
    const m = /^(lower the min|raise the max) of "(\w+)"="(\w+)" from (\d+) to (\d+) \(\d+ seat\(s\)\): with the same exact features, the same trials would then keep (\d+) of 2000/.exec(hint ?? '')
    expect(m, hint).not.toBeNull()
    const [, side, feature, value, , to, keep] = m!
    expect([side, feature, value]).toEqual(['lower the min', 'g', 'g0'])
    expect(Number(keep)).toBeGreaterThanOrEqual(7)
    const relaxed = q.map((r) => (r.feature === feature && r.value === value ? { ...r, [side === 'lower the min' ? 'min' : 'max']: Number(to) } : r))
    expect(planPanel(p, checkQuotas(p, relaxed, 12), 12, { exactFeatures: ['a'] }).counter.exact.length).toBe(1)
    // The other answer: widen every quota of the features left to rejection by the same seats.
    const w = /widen every quota of "g" by (\d+) seat\(s\) \(min − \d+, max \+ \d+\): with the same exact features, the same trials would then keep (\d+) of 2000/.exec(hint ?? '')
    expect(w, hint).not.toBeNull()
    expect(Number(w![2])).toBeGreaterThanOrEqual(7)
    const widened = q.map((r) => (r.feature === 'g' ? { ...r, min: Math.max(0, r.min - Number(w![1])), max: Math.min(12, r.max + Number(w![1])) } : r))
    expect(planPanel(p, checkQuotas(p, widened, 12), 12, { exactFeatures: ['a'] }).counter.exact.length).toBe(1)
  })

  it('unknown or repeated exact features are INVALID_ARGUMENT', () => {
    const t = checkQuotas(pool, base, 3)
    expect(() => planPanel(pool, t, 3, { exactFeatures: ['region'] })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    expect(() => planPanel(pool, t, 3, { exactFeatures: ['age', 'age'] })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  })
})

describe('compareCodePoints (property)', () => {
  it('orders like the UTF-8 bytes for any strings, including astral characters', async () => {
    const fc = (await import('fast-check')).default
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))))
      }),
      { numRuns: 2000, seed: 1123 },
    )
  })
})
