import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidInputError, LimitExceededError } from '../../../src/core/errors.js'
import { LIMITS } from '../../../src/core/limits.js'
import { pickIndices } from '../../../src/core/random/shuffle.js'
import { rangeValues } from '../../../src/core/random/range.js'
import { streamFromSeed } from '../../../src/core/random/stream.js'
import { uniformBigInt } from '../../../src/core/random/uniform.js'
import { opaque } from './util.js'

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 })
const bound = fc.oneof(fc.bigInt({ min: -1000n, max: 1000n }), fc.bigInt({ min: -(1n << 200n), max: 1n << 200n }))
const bounds = fc.tuple(bound, fc.oneof(fc.bigInt({ min: 0n, max: 50n }), fc.bigInt({ min: 0n, max: (1n << 255n) - 1n }))).map(([min, d]) => [min, min + d] as const)

describe('range: values in [min, max]', () => {
  it('with repetition: in range, each value = min + uniformBigInt(width), deterministic', () => {
    fc.assert(
      fc.property(seedArb, bounds, fc.integer({ min: 0, max: 50 }), (seed, [min, max], count) => {
        const s = streamFromSeed(seed)
        const v = rangeValues(s, min, max, count, false)
        expect(v.length).toBe(count)
        for (const x of v) expect(x >= min && x <= max).toBe(true)
        const r = streamFromSeed(seed)
        expect(v).toEqual(Array.from({ length: count }, () => min + uniformBigInt(r, max - min + 1n)))
        expect(r.consumed).toBe(s.consumed)
        expect(rangeValues(opaque(streamFromSeed(seed)), min, max, count, false)).toEqual(v)
      }),
      { numRuns: 200 },
    )
  })

  it('distinct: in range, distinct, deterministic, = pickIndices + min when the width is safe', () => {
    fc.assert(
      fc.property(seedArb, bounds, fc.integer({ min: 0, max: 50 }), (seed, [min, max], c) => {
        const width = max - min + 1n
        const count = BigInt(c) > width ? Number(width) : c
        const s = streamFromSeed(seed)
        const v = rangeValues(s, min, max, count, true)
        expect(v.length).toBe(count)
        expect(new Set(v).size).toBe(count)
        for (const x of v) expect(x >= min && x <= max).toBe(true)
        expect(rangeValues(streamFromSeed(seed), min, max, count, true)).toEqual(v)
        if (width <= BigInt(Number.MAX_SAFE_INTEGER)) {
          const t = streamFromSeed(seed)
          expect(v).toEqual(pickIndices(t, Number(width), count).map((i) => BigInt(i) + min))
          expect(t.consumed).toBe(s.consumed)
        }
      }),
      { numRuns: 200 },
    )
  })

  it('distinct over the whole range is a permutation of it', () => {
    const v = rangeValues(streamFromSeed(new Uint8Array(32)), -3n, 9n, 13, true)
    expect([...v].sort((a, b) => (a < b ? -1 : 1))).toEqual(Array.from({ length: 13 }, (_, i) => BigInt(i) - 3n))
  })

  it('edge cases: width 1, count 0, width exactly 2^256', () => {
    const s = streamFromSeed(new Uint8Array(32))
    expect(rangeValues(s, 7n, 7n, 3, false)).toEqual([7n, 7n, 7n])
    expect(rangeValues(s, 7n, 7n, 1, true)).toEqual([7n])
    expect(rangeValues(s, 0n, 10n, 0, true)).toEqual([])
    expect(s.consumed).toBe(0)
    const w = rangeValues(s, 0n, (1n << 256n) - 1n, 4, true)
    expect(w.every((x) => x >= 0n && x < 1n << 256n)).toBe(true)
  })

  it('rejects bad arguments', () => {
    const s = streamFromSeed(new Uint8Array(32))
    expect(() => rangeValues(s, 5n, 4n, 1, false)).toThrow(InvalidInputError)
    expect(() => rangeValues(s, 1n, 6n, 7, true)).toThrow(InvalidInputError)
    expect(() => rangeValues(s, 1n, 6n, -1, false)).toThrow(InvalidInputError)
    expect(() => rangeValues(s, 1 as unknown as bigint, 6n, 1, false)).toThrow(InvalidInputError)
    expect(() => rangeValues(s, 0n, 1n << 256n, 1, false)).toThrow(LimitExceededError)
    expect(() => rangeValues(s, 0n, 10n, LIMITS.maxDrawCount + 1, false)).toThrow(LimitExceededError)
  })
})
