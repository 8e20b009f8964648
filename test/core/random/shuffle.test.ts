import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidInputError, LimitExceededError } from '../../../src/core/errors.js'
import { LIMITS } from '../../../src/core/limits.js'
import { pickIndices, shuffle, shuffleIndices } from '../../../src/core/random/shuffle.js'
import { streamFromSeed } from '../../../src/core/random/stream.js'
import { naiveShuffle, opaque } from './util.js'

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 })

describe('shuffle and pick: forward Fisher–Yates', () => {
  it('shuffleIndices is a permutation, deterministic, and equals the naive spec loop (same consumption)', () => {
    fc.assert(
      fc.property(seedArb, fc.integer({ min: 0, max: 3000 }), (seed, n) => {
        const s = streamFromSeed(seed)
        const a = Array.from(shuffleIndices(s, n))
        expect([...a].sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i))
        expect(Array.from(shuffleIndices(streamFromSeed(seed), n))).toEqual(a)
        const r = opaque(streamFromSeed(seed))
        expect(naiveShuffle(r, n)).toEqual(a)
        expect(r.consumed).toBe(s.consumed)
        const g = opaque(streamFromSeed(seed))
        expect(Array.from(shuffleIndices(g, n))).toEqual(a)
        expect(g.consumed).toBe(s.consumed)
      }),
      { numRuns: 100 },
    )
  })

  it('fast path ≡ naive loop over byte-length changes (n around 2^16 + a few)', () => {
    const seed = new Uint8Array(32).fill(3)
    const n = 70_000
    const s = streamFromSeed(seed)
    const r = opaque(streamFromSeed(seed))
    expect(Array.from(shuffleIndices(s, n))).toEqual(naiveShuffle(r, n))
    expect(s.consumed).toBe(r.consumed)
  })

  it('shuffle<T> is the items permuted by shuffleIndices and leaves the input untouched', () => {
    fc.assert(
      fc.property(seedArb, fc.array(fc.string(), { maxLength: 200 }), (seed, items) => {
        const copy = items.slice()
        const out = shuffle(streamFromSeed(seed), items)
        expect(items).toEqual(copy)
        const order = shuffleIndices(streamFromSeed(seed), items.length)
        expect(out).toEqual(Array.from(order, (i) => items[i]))
      }),
    )
  })

  it('pickIndices(n, k) = first k of shuffleIndices(n); distinct and in range; k = n consumes the same', () => {
    fc.assert(
      fc.property(
        seedArb,
        fc.integer({ min: 0, max: 2000 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }))),
        (seed, [n, k]) => {
          const full = Array.from(shuffleIndices(streamFromSeed(seed), n))
          const s = streamFromSeed(seed)
          const p = pickIndices(s, n, k)
          expect(p).toEqual(full.slice(0, k))
          expect(new Set(p).size).toBe(k)
          for (const x of p) expect(x >= 0 && x < n).toBe(true)
          const g = opaque(streamFromSeed(seed))
          expect(pickIndices(g, n, k)).toEqual(p)
          expect(g.consumed).toBe(s.consumed)
          if (k === n) {
            const t = streamFromSeed(seed)
            shuffleIndices(t, n)
            expect(s.consumed).toBe(t.consumed)
          }
        },
      ),
      { numRuns: 200 },
    )
  })

  it('pickIndices works for huge n without memory proportional to n, distinct and in range', () => {
    fc.assert(
      fc.property(seedArb, fc.constantFrom(1e9, 2 ** 32 + 5, 2 ** 53 - 1), fc.integer({ min: 0, max: 500 }), (seed, n, k) => {
        const p = pickIndices(streamFromSeed(seed), n, k)
        expect(p.length).toBe(k)
        expect(new Set(p).size).toBe(k)
        for (const x of p) expect(Number.isSafeInteger(x) && x >= 0 && x < n).toBe(true)
      }),
      { numRuns: 30 },
    )
    expect(pickIndices(streamFromSeed(new Uint8Array(32)), 1e9, 1000).length).toBe(1000)
  })

  it('k = 0 returns [] without reading; small cases', () => {
    const s = streamFromSeed(new Uint8Array(32))
    expect(pickIndices(s, 10, 0)).toEqual([])
    expect(pickIndices(s, 0, 0)).toEqual([])
    expect(Array.from(shuffleIndices(s, 0))).toEqual([])
    expect(Array.from(shuffleIndices(s, 1))).toEqual([0])
    expect(pickIndices(s, 1, 1)).toEqual([0])
    expect(s.consumed).toBe(0)
  })

  it('rejects bad arguments', () => {
    const s = streamFromSeed(new Uint8Array(32))
    expect(() => pickIndices(s, 5, 6)).toThrow(InvalidInputError)
    expect(() => pickIndices(s, -1, 0)).toThrow(InvalidInputError)
    expect(() => pickIndices(s, 2 ** 53, 1)).toThrow(InvalidInputError)
    expect(() => pickIndices(s, 10, 1.5)).toThrow(InvalidInputError)
    expect(() => pickIndices(s, 1e9, LIMITS.maxDrawCount + 1)).toThrow(LimitExceededError)
    expect(() => shuffleIndices(s, -1)).toThrow(InvalidInputError)
    expect(() => shuffleIndices(s, LIMITS.maxParticipants + 1)).toThrow(LimitExceededError)
  })
})
