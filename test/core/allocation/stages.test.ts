/**
 * `drawStages`: exact outcome probabilities (enumeration, rationals) against the sampler's frequencies
 * over fixed seeds (chi-square at alpha = 0.001 and every marginal within 5 sigma), a negative control
 * the same test rejects (stage 2 drawn without excluding stage 1's winners), the count rule, and
 * fast-check properties.
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { drawStages, stageTarget, type StageRule } from '../../../src/core/allocation/stages.js'
import { streamFromSeed } from '../../../src/core/random/index.js'
import { chiSquareTest } from '../../helpers/stats.js'
import { seedOf } from '../random/util.js'
import { exactStages, marginal, toNumber, type Rational } from './exact.js'

const keyOf = (r: readonly { winners: readonly number[] }[]): string => r.map((s) => s.winners.join(',')).join('|')

/** Frequencies of the outcomes over `trials` fixed seeds (one fresh stream per seed). */
function frequencies(trials: number, label: number, draw: (seed: Uint8Array) => string): Map<string, number> {
  const counts = new Map<string, number>()
  for (let t = 0; t < trials; t++) {
    const key = draw(seedOf(label * 1_000_000 + t))
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return counts
}

/** Chi-square of observed outcome counts against an exact distribution; an outcome outside its support fails. */
function fits(observed: ReadonlyMap<string, number>, exact: ReadonlyMap<string, Rational>, trials: number): { pass: boolean; why: string } {
  const outside = [...observed.keys()].filter((k) => !exact.has(k))
  if (outside.length > 0) return { pass: false, why: `outcomes of probability 0: ${outside.slice(0, 3).join(' ; ')}` }
  const keys = [...exact.keys()]
  const r = chiSquareTest(keys.map((k) => observed.get(k) ?? 0), keys.map((k) => toNumber(exact.get(k)!) * trials))
  return { pass: r.pass, why: JSON.stringify(r) }
}

// Five registrations, each its own type. Stage 1: weighted 2 of all (weights 4, 3, 2, 1, 1).
// Stage 2: pick half (rounded up) of the eligible among types 1..4, earlier winners excluded.
const TYPES = [0, 1, 2, 3, 4]
const H1B: StageRule[] = [
  { method: 'weighted', count: { count: 2 }, eligible: [true, true, true, true, true], weights: [4, 3, 2, 1, 1] },
  { method: 'pick', count: { num: 1, den: 2, rounding: 'up' }, eligible: [false, true, true, true, true] },
]
const TRIALS = 20_000

describe('stages: exact probabilities by enumeration', () => {
  const exact = exactStages(TYPES, H1B)

  it('the enumeration is a distribution, and its marginals are the closed forms', () => {
    let total = 0
    for (const p of exact.values()) total += toNumber(p)
    expect(total).toBeCloseTo(1, 12)
    // Stage 1's first winner alone is entry 0 with probability 4/11; entry 0 in stage 1 at all:
    // 4/11 + sum over first winners j != 0 of w_j/11 * 4/(11 - w_j).
    const w = [4, 3, 2, 1, 1]
    const p0 = 4 / 11 + [1, 2, 3, 4].reduce((s, j) => s + (w[j]! / 11) * (4 / (11 - w[j]!)), 0)
    expect(toNumber(marginal(exact, 0, 0))).toBeCloseTo(p0, 12)
    // Entry 0 is never in stage 2 (not eligible).
    expect(toNumber(marginal(exact, 1, 0))).toBe(0)
  })

  it('the sampler over fixed seeds matches the exact joint distribution (chi-square) and every marginal', () => {
    const observed = frequencies(TRIALS, 1, (seed) => keyOf(drawStages(streamFromSeed(seed), TYPES, H1B)))
    const r = fits(observed, exact, TRIALS)
    expect(r.pass, r.why).toBe(true)
    for (const s of [0, 1]) {
      for (const i of TYPES) {
        const p = toNumber(marginal(exact, s, i))
        let seen = 0
        for (const [k, c] of observed) if (k.split('|')[s]!.split(',').includes(String(i))) seen += c
        const sigma = Math.sqrt((p * (1 - p)) / TRIALS)
        expect(Math.abs(seen / TRIALS - p), `stage ${s + 1}, entry ${i}: ${seen / TRIALS} vs ${p}`).toBeLessThanOrEqual(5 * sigma + 1e-12)
      }
    }
  })

  it('negative control: stage 2 drawn without excluding stage 1 is rejected by the same test', () => {
    // Same seeds; stage 2 from the same stream, but a separate call that does not know stage 1's winners.
    const control = frequencies(TRIALS, 1, (seed) => {
      const stream = streamFromSeed(seed)
      const [first] = drawStages(stream, TYPES, [H1B[0]!])
      const [second] = drawStages(stream, TYPES, [H1B[1]!])
      return keyOf([first!, second!])
    })
    expect(fits(control, exact, TRIALS).pass).toBe(false)
    // Even against its own exact law's support it differs: the control's exact distribution (no exclusion)
    // is what it follows, so the test is not merely rejecting everything.
    expect(fits(control, exactStages(TYPES, H1B, false), TRIALS).pass).toBe(true)
  })

  it('a three-stage weighted case with a filter on a shared type matches too', () => {
    // Six entries of three types (0, 0, 1, 1, 2, 2): weights by type 3, 2, 1.
    const typeOf = [0, 0, 1, 1, 2, 2]
    const rules: StageRule[] = [
      { method: 'weighted', count: { count: 1 }, eligible: [true, true, true], weights: [3, 2, 1] },
      { method: 'weighted', count: { num: 1, den: 3, rounding: 'nearest' }, eligible: [false, true, true], weights: [1, 1, 5] },
      { method: 'pick', count: { count: 9 }, eligible: [true, false, false] },
    ]
    const exact3 = exactStages(typeOf, rules)
    const observed = frequencies(TRIALS, 2, (seed) => keyOf(drawStages(streamFromSeed(seed), typeOf, rules)))
    const r = fits(observed, exact3, TRIALS)
    expect(r.pass, r.why).toBe(true)
  })
})

describe('stages: the count rule', () => {
  it('absolute counts, and fractions rounded down, up and to nearest (halves up), exactly', () => {
    expect(stageTarget({ count: 7 }, 3)).toBe(7)
    expect(stageTarget({ num: 1, den: 3, rounding: 'down' }, 10)).toBe(3)
    expect(stageTarget({ num: 1, den: 3, rounding: 'up' }, 10)).toBe(4)
    expect(stageTarget({ num: 1, den: 3, rounding: 'nearest' }, 10)).toBe(3)
    expect(stageTarget({ num: 1, den: 2, rounding: 'nearest' }, 5)).toBe(3)
    expect(stageTarget({ num: 1, den: 2, rounding: 'down' }, 5)).toBe(2)
    expect(stageTarget({ num: 0, den: 1, rounding: 'up' }, 5)).toBe(0)
    expect(stageTarget({ num: 999_999, den: 1_000_000, rounding: 'up' }, 1_000_000)).toBe(999_999)
  })

  it('a stage with more count than eligible draws every eligible entry; none eligible draws none', () => {
    const r = drawStages(streamFromSeed(seedOf(9)), [0, 0, 1], [
      { method: 'pick', count: { count: 5 }, eligible: [true, false] },
      { method: 'weighted', count: { count: 1 }, eligible: [true, false], weights: [1, 1] },
    ])
    expect(r[0]!.winners.slice().sort()).toEqual([0, 1])
    expect(r[0]!.target).toBe(5)
    expect(r[1]).toEqual({ eligible: 0, target: 1, winners: [] })
  })
})

describe('stages: properties', () => {
  const caseArb = fc.integer({ min: 1, max: 30 }).chain((n) =>
    fc.integer({ min: 1, max: 4 }).chain((m) =>
      fc.record({
        typeOf: fc.array(fc.integer({ min: 0, max: m - 1 }), { minLength: n, maxLength: n }),
        stages: fc.array(
          fc.record({
            method: fc.constantFrom<'pick' | 'weighted'>('pick', 'weighted'),
            count: fc.oneof(
              fc.integer({ min: 0, max: n + 2 }).map((count) => ({ count })),
              fc.record({ num: fc.integer({ min: 0, max: 5 }), den: fc.integer({ min: 5, max: 9 }), rounding: fc.constantFrom<'down' | 'up' | 'nearest'>('down', 'up', 'nearest') }),
            ),
            eligible: fc.array(fc.boolean(), { minLength: m, maxLength: m }),
            weights: fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: m, maxLength: m }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        seed: fc.uint8Array({ minLength: 32, maxLength: 32 }),
      }),
    ),
  )

  it('no entry twice, every winner eligible, counts as committed, eligible counted after exclusion', () => {
    fc.assert(
      fc.property(caseArb, ({ typeOf, stages, seed }) => {
        const results = drawStages(streamFromSeed(seed), typeOf, stages)
        const seen = new Set<number>()
        results.forEach((r, s) => {
          const st = stages[s]!
          const eligible = typeOf.filter((t, i) => st.eligible[t] === true && !seen.has(i)).length
          expect(r.eligible).toBe(eligible)
          expect(r.target).toBe(stageTarget(st.count, eligible))
          expect(r.winners.length).toBe(Math.min(r.target, eligible))
          for (const i of r.winners) {
            expect(seen.has(i)).toBe(false)
            expect(st.eligible[typeOf[i]!]).toBe(true)
            seen.add(i)
          }
        })
      }),
      { numRuns: 300 },
    )
  })
})
