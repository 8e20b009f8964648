import { describe, expect, it } from 'vitest'
import { computeOutcome } from '../../src/core/outcome.js'
import { InvalidInputError } from '../../src/core/errors.js'

describe('computeOutcome', () => {
  const seed = new Uint8Array(32).fill(7)
  it('a weighted outcome without one weight per participant is a typed error', () => {
    for (const weights of [undefined, [1, 2]]) {
      expect(() => computeOutcome(seed, { kind: 'weighted', count: 1 }, 3, weights)).toThrow(InvalidInputError)
      expect(() => computeOutcome(seed, { kind: 'weighted', count: 1 }, 3, weights)).toThrow(expect.objectContaining({ code: 'MISSING_WEIGHTS' }))
    }
    expect(computeOutcome(seed, { kind: 'weighted', count: 2 }, 3, [1, 2, 3])).toMatchObject({ kind: 'weighted' })
  })
})
