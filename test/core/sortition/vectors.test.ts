import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { hexToBytes } from '../../../src/core/bytes.js'
import { streamFromSeed } from '../../../src/core/random/stream.js'
import { opaque } from '../random/util.js'
import { referenceCost, referencePanel } from './reference.js'
import { compositionRows, costVectorInputs, runCostVector, runSortitionVector, sortitionVectorInputs, type CostVector, type SortitionVector } from './vector-cases.js'

const doc = JSON.parse(readFileSync(new URL('../../vectors/sortition.json', import.meta.url), 'utf8')) as { cases: SortitionVector[]; costs: CostVector[] }

describe('sortition vectors (test/vectors/sortition.json)', () => {
  it('covers every input set, including a rejection path with rounds > 1 and a count above 2^256', () => {
    expect(doc.cases.length).toBe(sortitionVectorInputs().length)
    expect(doc.cases.some((c) => c.rounds > 1)).toBe(true)
    expect(doc.cases.some((c) => BigInt(c.relaxedCount) > 1n << 256n)).toBe(true)
    expect(doc.cases.some((c) => c.probabilities !== undefined)).toBe(true)
  })

  for (const c of doc.cases) {
    it(c.name, () => {
      const input = { name: c.name, header: c.header, rows: c.rows, quotas: c.quotas, k: c.k, exactFeatures: c.exactFeatures, seed: c.seed }
      expect(c.alternates.length).toBe(3)
      expect(JSON.stringify(runSortitionVector(input))).toBe(JSON.stringify(c))
    })
  }

  for (const c of doc.cases) {
    it(`independent spec-literal replay: ${c.name}`, () => {
      const stream = opaque(streamFromSeed(hexToBytes(c.seed)))
      const r = referencePanel(c.header, c.rows, c.quotas, c.k, c.exactFeatures, stream, 3)
      expect(r.relaxedCount.toString()).toBe(c.relaxedCount)
      expect(r.firstRound).toEqual(c.firstRound)
      expect(r.rounds).toBe(c.rounds)
      expect(r.members).toEqual(c.members)
      expect(r.alternates).toEqual(c.alternates)
      expect(stream.consumed).toBe(c.consumedWithAlternates)
      const { rounds, ...bound } = c.cost
      expect(referenceCost(c.header, c.rows, c.quotas, c.k, c.exactFeatures, rounds)).toEqual(bound)
    })
  }
})

describe('work-bound vectors (test/vectors/sortition.json, costs)', () => {
  it('cover a plan within the limits, a rounds-dominated one, the hostile plan refused, the forged plans of the hostile bench and a counter charged its walk over a large counter on both sides of the draw cost', () => {
    expect(doc.costs.length).toBe(costVectorInputs().length)
    expect(doc.costs.map((c) => c.verdict)).toEqual(['ok', 'ok', 'SORTITION_COST_LIMIT', 'SORTITION_COST_LIMIT', 'ok', 'SORTITION_COST_LIMIT', 'SORTITION_COST_LIMIT', 'ok', 'SORTITION_COST_LIMIT', 'SORTITION_COST_LIMIT', 'ok', 'SORTITION_COST_LIMIT'])
    // Both sides of the 4,096 states: a cell walked at 64 + 512 units (one cell per type when `a` alone is counted) or at 64.
    expect(doc.costs.some((c) => c.cost.states > 4096 && c.cost.walk === (64 + 512) * (c.types.length - 1))).toBe(true)
    expect(doc.costs.some((c) => c.cost.states <= 4096 && c.exactFeatures.length === 0 && c.cost.walk === 64)).toBe(true)
  })
  for (const c of doc.costs) {
    it(c.name, () => {
      const { cost, verdict, ...input } = c
      expect(runCostVector(input)).toEqual({ ...input, cost, verdict })
      const { header, rows } = compositionRows(c)
      const quotas = c.features.flatMap((f) => f.values.map((v, j): [string, string, number, number] => [f.name, v, f.min[j]!, f.max[j]!]))
      const { rounds, ...bound } = c.cost
      expect(referenceCost(header, rows, quotas, c.k, c.exactFeatures, rounds, c.households === true)).toEqual(bound)
    })
  }
})
