/**
 * The `tiebreak` kind: exact probabilities by enumeration (every shuffle of a small list), a
 * chi-square test of the tied orders over many seeds with a negative control the test must reject,
 * properties over random scores, commit -> drawFromBlock -> verify, tampered proofs failing
 * `outcome`, and refusals with their code and path.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, parseCommitment, verify, type DrawSpec, type Proof } from '../../../src/core/index.js'
import type { TiebreakOutcomeJson } from '../../../src/core/kinds/index.js'
import type { RankedJson } from '../../../src/core/kinds/index.js'
import { tiebreakKind } from '../../../src/core/kinds/index.js'
import { streamFromSeed } from '../../../src/core/kinds/index.js'
import { tiebreakOrder } from '../../../src/core/kinds/tiebreak.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { chiSquareTest } from '../../helpers/stats.js'
import { seedOf } from '../random/util.js'

const CHAIN = buildChain(8, 'tiebreak')
const base = { beacon: BEACON_NAME, target: 6, after: { sequence: 4, block: CHAIN[4]!.cid }, label: 'tied places' }
const PEOPLE = ['ana', 'ben', 'cai', 'dee', 'eli', 'fay']
const SCORES = [9, 12, 9, 7, 9, 7]
const draw = (scores: readonly number[]): DrawSpec => ({ kind: 'tiebreak', scores: [...scores] })

function permutations(n: number): number[][] {
  if (n === 0) return [[]]
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]))
}

const compute = (seed: number, scores: readonly number[]): number[] => [...tiebreakKind.compute(streamFromSeed(seedOf(seed)), { kind: 'tiebreak', scores }, { count: scores.length }).indices]

describe('tiebreak kind', () => {
  it('exact: over every shuffle of 6 entries, each order of the tied groups arises equally often, and scores keep their order', () => {
    // Scores 9, 12, 9, 7, 9, 7: ben first; {ana, cai, eli} tied on 9 (3! orders); {dee, fay} tied on 7 (2! orders).
    const counts = new Map<string, number>()
    for (const p of permutations(6)) {
      const order = tiebreakOrder(p, SCORES)
      expect(order.map((i) => SCORES[i])).toEqual([12, 9, 9, 9, 7, 7])
      counts.set(order.join(','), (counts.get(order.join(',')) ?? 0) + 1)
    }
    // 720 shuffles onto 3! * 2! = 12 outcomes, each exactly 720 / 12 = 60 times: probability 1/12 each.
    expect(counts.size).toBe(12)
    expect([...counts.values()].every((c) => c === 60)).toBe(true)
  })

  it('chi-square: the order of a three-way tie is uniform over 6 orders (12,000 seeds); a biased tie-break is rejected', () => {
    const scores = [5, 5, 5, 1]
    const orders = permutations(3).map((p) => p.join(','))
    const observed = new Array<number>(6).fill(0)
    const biased = new Array<number>(6).fill(0)
    for (let s = 0; s < 12_000; s++) {
      const tied = compute(s, scores).slice(0, 3)
      observed[orders.indexOf(tied.join(','))]!++
      // Negative control: a tie-break that looks at only the first two draws of the shuffle (entry 0
      // stays first when the first draw picks it, else the order by index): far from uniform.
      const stream = streamFromSeed(seedOf(s))
      const bad = tiebreakOrder(stream.nextBytes(1)[0]! % 2 === 0 ? [0, 1, 2, 3] : [1, 0, 2, 3], scores).slice(0, 3)
      biased[orders.indexOf(bad.join(','))]!++
    }
    expect(chiSquareTest(observed).pass).toBe(true)
    expect(chiSquareTest(biased).pass).toBe(false)
  })

  it('property: the outcome ranks every entry once, scores never increase, and it is the seed\'s alone', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 1_000_000 }), (scores, seed) => {
        const order = compute(seed, scores)
        expect([...order].sort((a, b) => a - b)).toEqual(scores.map((_, i) => i))
        for (let i = 1; i < order.length; i++) expect(scores[order[i - 1]!]!).toBeGreaterThanOrEqual(scores[order[i]!]!)
        expect(compute(seed, scores)).toEqual(order)
      }),
      { seed: 25, numRuns: 200 },
    )
  })

  it('commits, draws and verifies; the proof names the ranking; a swapped tie or a swapped score fails outcome', async () => {
    const { commitment, json } = commit({ ...base, participants: PEOPLE, draw: draw(SCORES) })
    expect(parseCommitment(json).draw).toEqual({ kind: 'tiebreak', scores: SCORES })
    const proof = drawFromBlock(commitment, PEOPLE, CHAIN[6]!)
    const r = await verify(proof, ENGINE_ONLY)
    expect(r.checks.filter((c) => !c.ok)).toEqual([])
    const ranking = (proof.outcome as TiebreakOutcomeJson).ranking
    expect(ranking.map((w) => SCORES[w.index])).toEqual([12, 9, 9, 9, 7, 7])
    const edited = (swap: [number, number]): Proof => {
      const j = JSON.parse(JSON.stringify(proof)) as { outcome: { ranking: RankedJson[] } }
      const rows = j.outcome.ranking
      const [a, b] = swap
      ;[rows[a], rows[b]] = [{ ...rows[b]!, rank: a + 1 }, { ...rows[a]!, rank: b + 1 }]
      return j as unknown as Proof
    }
    for (const swap of [[1, 2], [0, 1], [4, 5]] as [number, number][]) {
      const t = await verify(edited(swap), ENGINE_ONLY)
      expect(t.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['outcome'])
    }
  })

  it('refuses a score count other than the participants, a negative or fractional score, an unknown field', () => {
    const fails = (d: unknown, participants = PEOPLE): unknown => {
      try {
        commit({ ...base, participants, draw: d as DrawSpec })
        return 'ok'
      } catch (err) {
        const e = err as { code: string; path: string }
        return [e.code, e.path]
      }
    }
    expect(fails(draw([1, 2, 3]))).toEqual(['INVALID_DRAW', '$.draw.scores'])
    expect(fails(draw([1, 2, 3, 4, 5, -1]))).toEqual(['INVALID_DRAW', '$.draw.scores[5]'])
    expect(fails(draw([1, 2, 3, 4, 5, 1.5]))).toEqual(['INVALID_DRAW', '$.draw.scores[5]'])
    expect(fails({ kind: 'tiebreak' })).toEqual(['INVALID_DRAW', '$.draw.scores'])
    const { json } = commit({ ...base, participants: PEOPLE, draw: draw(SCORES) })
    const j = JSON.parse(JSON.stringify(json)) as { draw: Record<string, unknown> }
    j.draw.order = 'high'
    expect(() => parseCommitment(j)).toThrow(expect.objectContaining({ code: 'UNKNOWN_FIELD', path: '$.draw.order' }))
    j.draw = { kind: 'tiebreak', scores: [1, 2] }
    expect(() => parseCommitment(j)).toThrow(expect.objectContaining({ code: 'INVALID_DRAW', path: '$.draw.scores' }))
  })

  it('the CLI facet reads --tiebreak as comma-separated whole numbers', () => {
    expect(tiebreakKind.cli!.fromFlags({ tiebreak: '12,9,9,0' })).toEqual({ kind: 'tiebreak', scores: [12, 9, 9, 0] })
    for (const bad of ['', '1,,2', '1.5', '-1', 'a', '01'])
      expect(() => tiebreakKind.cli!.fromFlags({ tiebreak: bad })).toThrow(expect.objectContaining({ code: 'INVALID_FLAG' }))
    expect(tiebreakKind.describe({ kind: 'tiebreak', scores: SCORES }, 6)).toBe('tie-break: rank 6 by score, 5 entries tied in 2 group(s) ordered by the seed')
    expect(tiebreakKind.display({ kind: 'tiebreak', ranking: [{ rank: 1, index: 0, entry: 'a' }] })).toEqual({ layout: 'ranked', title: 'Ranking (ties broken by the seed)', rows: [{ rank: 1, index: 0, entry: 'a' }] })
  })
})
