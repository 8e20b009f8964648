import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { hexToBytes } from '../../../src/core/bytes.js'
import { streamFromSeed } from '../../../src/core/random/index.js'
import { opaque } from '../random/util.js'
import { referencePanel } from './reference.js'
import { runSortitionVector, sortitionVectorInputs, type SortitionVector } from './vector-cases.js'

const doc = JSON.parse(readFileSync(new URL('../../vectors/sortition.json', import.meta.url), 'utf8')) as { cases: SortitionVector[] }

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
    })
  }
})
