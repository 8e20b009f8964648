import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../src/core/errors.js'
import { LIMITS } from '../../../src/core/limits.js'
import { streamFromSeed } from '../../../src/core/random/stream.js'
import { weightedPick } from '../../../src/core/random/weighted.js'
import { fixedStream, naiveWeighted, opaque } from './util.js'

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 })
const weightArb = fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.constant(Number.MAX_SAFE_INTEGER))
const smallWeights = fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 60 })
const anyWeights = fc.oneof(smallWeights, fc.array(weightArb, { minLength: 1, maxLength: 60 }))

describe('weighted: ranked distinct winners ∝ weights', () => {
  it('Fenwick ≡ naive linear scan (winners and consumed), numbers and bigint totals', () => {
    fc.assert(
      fc.property(
        seedArb,
        anyWeights.chain((w) => fc.tuple(fc.constant(w), fc.integer({ min: 0, max: w.length }))),
        (seed, [weights, k]) => {
          const s = streamFromSeed(seed)
          const got = weightedPick(s, weights, k)
          const r = opaque(streamFromSeed(seed))
          expect(got).toEqual(naiveWeighted(r, weights, k))
          expect(s.consumed).toBe(r.consumed)
          expect(new Set(got).size).toBe(k)
          for (const i of got) expect(i >= 0 && i < weights.length).toBe(true)
          expect(weightedPick(streamFromSeed(seed), weights, k)).toEqual(got)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('rule on fixed bytes: weights [3, 1, 4], W = 8 (b = 3, L = 1)', () => {
    // r = 0x05 & 7 = 5: running sums 3, 4, 8 -> first > 5 is entry 2. Then W = 4 (b = 2): r = 0x03 & 3 = 3:
    // running sums 3, 4 -> entry 1. Then W = 3 (b = 2): r = 0x03 & 3 = 3 rejected, 0x02 -> 2 -> entry 0.
    const s = fixedStream(Uint8Array.of(0x05, 0x03, 0x03, 0x02))
    expect(weightedPick(s, [3, 1, 4], 3)).toEqual([2, 1, 0])
    expect(s.consumed).toBe(4)
  })

  it('k = 0 reads nothing; a single weight-1 entry reads nothing', () => {
    const s = streamFromSeed(new Uint8Array(32))
    expect(weightedPick(s, [5, 6], 0)).toEqual([])
    expect(weightedPick(s, [], 0)).toEqual([])
    expect(weightedPick(s, [1], 1)).toEqual([0])
    expect(s.consumed).toBe(0)
  })

  it('rejects bad arguments', () => {
    const s = streamFromSeed(new Uint8Array(32))
    expect(() => weightedPick(s, [1, 2], 3)).toThrow(InvalidInputError)
    expect(() => weightedPick(s, [1, 0], 1)).toThrow(InvalidInputError)
    expect(() => weightedPick(s, [1, -2], 1)).toThrow(InvalidInputError)
    expect(() => weightedPick(s, [1, 2.5], 1)).toThrow(InvalidInputError)
    expect(() => weightedPick(s, [1, 2 ** 53], 1)).toThrow(InvalidInputError)
    expect(() => weightedPick(s, [1, 2], -1)).toThrow(InvalidInputError)
    expect(() => weightedPick(s, [1, 2], LIMITS.maxDrawCount + 1)).toThrow(InvalidInputError)
    expect(() => weightedPick(s, 'ab' as unknown as number[], 1)).toThrow(InvalidInputError)
  })
})
