/** Household vectors (test/vectors/households.json): every case recomputed byte for byte. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { householdVectorInputs, runHouseholdVector, type HouseholdVector } from './household-vector-cases.js'

const doc = JSON.parse(readFileSync(new URL('../../vectors/households.json', import.meta.url), 'utf8')) as { cases: HouseholdVector[] }

describe('household vectors (test/vectors/households.json)', () => {
  it('cover every input, a round refused for a household and one refused for a quota', () => {
    expect(doc.cases.length).toBe(householdVectorInputs().length)
    const verdicts = doc.cases.flatMap((c) => c.rounds.map((r) => r.verdict))
    expect(verdicts).toContain('household')
    expect(verdicts).toContain('quota')
    expect(doc.cases.every((c) => c.households.length > 0)).toBe(true)
  })
  for (const c of doc.cases) {
    it(c.name, () => {
      const { name, pool, quotas, k, alternateCount, seed } = c
      const input = { name, pool, quotas, k, alternateCount, ...(c.exactFeatures === undefined ? {} : { exactFeatures: c.exactFeatures }), seed }
      expect(JSON.stringify(runHouseholdVector(input))).toBe(JSON.stringify(c))
    })
  }
})
