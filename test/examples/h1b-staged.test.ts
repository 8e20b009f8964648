/**
 * examples/h1b-style/staged.ts: the exact probabilities of the two-stage (H-1B-shaped) draw, by the
 * exponential race conditioned on the regular stage's threshold time, against every outcome enumerated
 * with rational arithmetic on small cases (a handful of entries, two stages), and against the sampler
 * (`drawStages`) over many fixed seeds, with a negative control the same test rejects (stage 2 drawn
 * without excluding stage 1's winners).
 */
import { describe, expect, it } from 'vitest'
import { drawStages, type StageRule } from '../../src/core/allocation/stages.js'
import { streamFromSeed } from '../../src/core/random/index.js'
import { stagedProbabilities, type StagedGroup } from '../../examples/h1b-style/staged.js'
import { add, exactStages, toNumber, ZERO, type Rational } from '../core/allocation/exact.js'
import { seedOf } from '../core/random/util.js'

/** The sampler's rules of the two stages over groups (one type per group). */
function rules(groups: readonly StagedGroup[], k1: number, k2: number): StageRule[] {
  return [
    { method: 'weighted', count: { count: k1 }, eligible: groups.map(() => true), weights: groups.map((g) => g.weight) },
    { method: 'weighted', count: { count: k2 }, eligible: groups.map((g) => g.advanced), weights: groups.map((g) => g.weight) },
  ]
}

function typesOf(groups: readonly StagedGroup[]): number[] {
  return groups.flatMap((g, t) => Array.from({ length: g.count }, () => t))
}

/** Per group, the exact probability that one of its entries is selected in stage 1 and in stage 2 (enumeration). */
function enumerated(groups: readonly StagedGroup[], k1: number, k2: number, exclude = true): [number, number][] {
  const types = typesOf(groups)
  const per = groups.map((): [Rational, Rational] => [ZERO, ZERO])
  for (const [key, p] of exactStages(types, rules(groups, k1, k2), exclude)) {
    key.split('|').forEach((part, s) => {
      for (const i of part.split(',').filter((x) => x !== '')) {
        const row = per[types[Number(i)]!]!
        row[s] = add(row[s]!, p)
      }
    })
  }
  return per.map(([a, b], t) => [toNumber(a) / groups[t]!.count, toNumber(b) / groups[t]!.count])
}

const CASES: { name: string; groups: StagedGroup[]; k1: number; k2: number }[] = [
  {
    name: 'six entries, weights 1 to 3, 2 then 1',
    groups: [{ count: 2, weight: 1, advanced: false }, { count: 1, weight: 3, advanced: false }, { count: 2, weight: 1, advanced: true }, { count: 1, weight: 2, advanced: true }],
    k1: 2,
    k2: 1,
  },
  {
    name: 'seven entries, weights 1 to 4, 3 then 2',
    groups: [{ count: 1, weight: 1, advanced: false }, { count: 2, weight: 4, advanced: false }, { count: 2, weight: 1, advanced: true }, { count: 2, weight: 3, advanced: true }],
    k1: 3,
    k2: 2,
  },
  {
    name: 'stage 2 asks for more than remain (every remaining advanced entry is selected)',
    groups: [{ count: 2, weight: 2, advanced: false }, { count: 1, weight: 1, advanced: true }, { count: 2, weight: 3, advanced: true }],
    k1: 2,
    k2: 3,
  },
]

describe('H-1B example: exact two-stage probabilities (staged.ts)', () => {
  for (const c of CASES) {
    it(`equal the enumeration of every outcome with rational arithmetic: ${c.name}`, () => {
      const exact = enumerated(c.groups, c.k1, c.k2)
      const got = stagedProbabilities(c.groups, c.k1, c.k2, 8)
      got.forEach((g, t) => {
        expect(g.regular, `group ${t}, regular`).toBeCloseTo(exact[t]![0], 9)
        expect(g.advanced, `group ${t}, advanced`).toBeCloseTo(exact[t]![1], 9)
        expect(g.overall).toBeCloseTo(exact[t]![0] + exact[t]![1], 9)
        if (!c.groups[t]!.advanced) expect(g.advanced).toBe(0)
      })
    }, 60_000)
  }

  it('match the sampler over 20,000 seeds (every group within 5 sigma); stage 2 without exclusion is rejected', () => {
    const groups: StagedGroup[] = [{ count: 3, weight: 1, advanced: false }, { count: 2, weight: 3, advanced: false }, { count: 3, weight: 1, advanced: true }, { count: 2, weight: 2, advanced: true }, { count: 1, weight: 4, advanced: true }]
    const k1 = 4
    const k2 = 3
    const types = typesOf(groups)
    const exact = stagedProbabilities(groups, k1, k2, 6)
    const trials = 20_000
    const seen = groups.map(() => [0, 0])
    const control = groups.map(() => [0, 0])
    for (let t = 0; t < trials; t++) {
      const r = drawStages(streamFromSeed(seedOf(7_000_000 + t)), types, rules(groups, k1, k2))
      r.forEach((s, i) => s.winners.forEach((e) => seen[types[e]!]![i]!++))
      // The control: stage 2 from the same stream, by a call that does not know stage 1's winners.
      const stream = streamFromSeed(seedOf(7_000_000 + t))
      const [first] = drawStages(stream, types, [rules(groups, k1, k2)[0]!])
      const [second] = drawStages(stream, types, [rules(groups, k1, k2)[1]!])
      ;[first!, second!].forEach((s, i) => s.winners.forEach((e) => control[types[e]!]![i]!++))
    }
    const within = (counts: number[][]): boolean =>
      groups.every((g, t) =>
        [exact[t]!.regular, exact[t]!.advanced].every((p, s) => {
          const n = trials * g.count
          return Math.abs(counts[t]![s]! / n - p) <= 5 * Math.sqrt((p * (1 - p)) / n) + 1e-12
        }),
      )
    expect(within(seen)).toBe(true)
    expect(within(control)).toBe(false)
  }, 120_000)
})
