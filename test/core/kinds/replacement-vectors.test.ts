/** Replacement plan-method vectors (test/vectors/replacements.json): every case recomputed byte for byte, and its method's premises. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { subPool } from '../../../src/core/kinds/panel-replacement.js'
import { planPanel, SORTITION_LIMITS } from '../../../src/core/sortition/index.js'
import { refused, runReplacementVector, type ReplacementVector } from './replacement-vector-cases.js'

const doc = JSON.parse(readFileSync(new URL('../../vectors/replacements.json', import.meta.url), 'utf8')) as { cases: ReplacementVector[] }

describe('replacement vectors (test/vectors/replacements.json)', () => {
  it('hold a method-2 and a method-3 replacement', () => {
    expect(doc.cases.map((c) => c.spec.plan)).toEqual([2, 3])
  })
  for (const c of doc.cases) {
    it(c.name, () => {
      const { name, original, originalCid, dropped, exactFeatures, seed } = c
      expect(JSON.stringify(runReplacementVector({ name, original, originalCid, dropped, exactFeatures, seed }))).toBe(JSON.stringify(c))
      // The premises: method 1 refuses (fewer than 7 kept); method 2 admits at its 12th kept trial, or refuses and method 3 commits 16 x its 10th.
      expect(c.method1Kept).toBeLessThan(7)
      const { sub, reduced } = subPool(c.spec)
      const r = c.spec.k - c.spec.keep.length
      expect(refused(() => planPanel(sub, reduced, r, { exactFeatures: [], explain: false }))).toBe(true)
      if (c.spec.plan === 2) {
        expect(c.method2StreamKeptAt).toHaveLength(12)
        expect(c.method2StreamKeptAt[11]).toBeLessThanOrEqual(40_000)
        expect(c.cost.rounds).toBe(400_000)
      } else {
        expect(refused(() => planPanel(sub, reduced, r, { exactFeatures: [], explain: false, method: 2 }))).toBe(true)
        expect(c.method2StreamKeptAt).toHaveLength(10)
        expect(c.spec.maxRounds).toBe(16 * c.method2StreamKeptAt[9]!)
        expect(c.cost.rounds).toBe(c.spec.maxRounds)
        expect(c.rounds).toBeLessThanOrEqual(c.spec.maxRounds!)
      }
      expect(c.cost.draw).toBe(c.cost.round * c.cost.rounds)
      expect(c.cost.draw).toBeLessThanOrEqual(SORTITION_LIMITS.maxDrawCost)
    })
  }
})
