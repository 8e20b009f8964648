import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InvalidInputError, LimitExceededError } from '../../../src/core/errors.js'
import { streamFromSeed } from '../../../src/core/random/stream.js'
import { uniformBigInt, uniformIndex } from '../../../src/core/random/uniform.js'
import { bigSampler, drawBig } from '../../../src/core/random/uniform.js'
import { fixedStream, opaque, specUniform } from './util.js'

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 })
/** Bounds across every byte length 1..7 of the number path, with emphasis on powers of two. */
const safeN = fc.oneof(
  fc.integer({ min: 1, max: 300 }),
  fc.integer({ min: 1, max: 52 }).chain((e) => fc.constantFrom(2 ** e - 1, 2 ** e, 2 ** e + 1)),
  fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
)
const bigN = fc.oneof(
  safeN.map(BigInt),
  fc.bigInt({ min: 1n, max: 1n << 256n }),
  fc.integer({ min: 1, max: 256 }).chain((e) => fc.constantFrom((1n << BigInt(e)) - 1n, 1n << BigInt(e), e < 256 ? (1n << BigInt(e)) + 1n : 3n)),
)

describe('uniform: exact rejection sampler', () => {
  it('worked example of the spec: n = 6, b = 3, L = 1', () => {
    // 0xfe & 0b111 = 6 (reject), 0x0f & 7 = 7 (reject), 0x2b & 7 = 3 (accept).
    const s = fixedStream(Uint8Array.of(0xfe, 0x0f, 0x2b, 0x00))
    expect(uniformIndex(s, 6)).toBe(3)
    expect(s.consumed).toBe(3)
  })

  it('worked example of the spec: n = 1000, b = 10, L = 2', () => {
    // 0xfc18 & 0x3ff = 0x018 = 24 (accept).
    const s = fixedStream(Uint8Array.of(0xfc, 0x18))
    expect(uniformBigInt(s, 1000n)).toBe(24n)
    // 0x03e8 & 0x3ff = 1000 (reject), then 0x03e7 = 999 (accept).
    const t = fixedStream(Uint8Array.of(0x03, 0xe8, 0xff, 0xe7))
    expect(uniformIndex(t, 1000)).toBe(999)
    expect(t.consumed).toBe(4)
  })

  it('byte lengths at the boundaries: n = 2^32 - 1 and 2^32 read 4 bytes, 2^32 + 1 reads 5, 2^53 + 1 reads 7', () => {
    const a = fixedStream(Uint8Array.of(0xff, 0xff, 0xff, 0xff))
    expect(uniformIndex(a, 2 ** 32)).toBe(2 ** 32 - 1)
    expect(a.consumed).toBe(4)
    const b = fixedStream(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe))
    expect(uniformIndex(b, 2 ** 32 - 1)).toBe(2 ** 32 - 2)
    expect(b.consumed).toBe(8)
    // b = 33, L = 5, top byte masked to 1 bit: 0xff -> 1, so 2^32 + 7 >= n: reject; then 2^32: accept.
    const c = fixedStream(Uint8Array.of(0xff, 0, 0, 0, 7, 0x01, 0, 0, 0, 0))
    expect(uniformIndex(c, 2 ** 32 + 1)).toBe(2 ** 32)
    expect(c.consumed).toBe(10)
    // n = 2^53 + 1: b = 54, L = 7, top byte masked to 6 bits: 2^54 - 1 rejected, then 2^53 accepted.
    const d = fixedStream(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x20, 0, 0, 0, 0, 0, 0))
    expect(uniformBigInt(d, 2n ** 53n + 1n)).toBe(2n ** 53n)
    expect(d.consumed).toBe(14)
  })

  it('n = 1 returns 0 without reading', () => {
    const s = streamFromSeed(new Uint8Array(32))
    expect(uniformIndex(s, 1)).toBe(0)
    expect(uniformBigInt(s, 1n)).toBe(0n)
    expect(s.consumed).toBe(0)
  })

  it('uniformIndex ≡ uniformBigInt ≡ the spec reference (values and consumed), fast and generic paths', () => {
    fc.assert(
      fc.property(seedArb, safeN, (seed, n) => {
        const a = streamFromSeed(seed)
        const b = streamFromSeed(seed)
        const c = opaque(streamFromSeed(seed))
        const d = opaque(streamFromSeed(seed))
        for (let i = 0; i < 20; i++) {
          const x = uniformIndex(a, n)
          expect(x).toBeGreaterThanOrEqual(0)
          expect(x).toBeLessThan(n)
          expect(BigInt(x)).toBe(uniformBigInt(b, BigInt(n)))
          expect(BigInt(x)).toBe(specUniform(c, BigInt(n)))
          expect(x).toBe(uniformIndex(d, n))
          expect(a.consumed).toBe(b.consumed)
          expect(a.consumed).toBe(c.consumed)
          expect(a.consumed).toBe(d.consumed)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('uniformBigInt ≡ the spec reference for every size up to 2^256, and the bigint path ≡ the number path', () => {
    fc.assert(
      fc.property(seedArb, bigN, (seed, n) => {
        const a = streamFromSeed(seed)
        const c = opaque(streamFromSeed(seed))
        const d = streamFromSeed(seed)
        for (let i = 0; i < 10; i++) {
          const x = uniformBigInt(a, n)
          expect(x >= 0n && x < n).toBe(true)
          expect(x).toBe(specUniform(c, n))
          if (n > 1n) expect(drawBig(d, bigSampler(n))).toBe(x)
          expect(a.consumed).toBe(c.consumed)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('is deterministic', () => {
    fc.assert(
      fc.property(seedArb, bigN, (seed, n) => {
        const a = streamFromSeed(seed)
        const b = streamFromSeed(seed)
        for (let i = 0; i < 5; i++) expect(uniformBigInt(a, n)).toBe(uniformBigInt(b, n))
      }),
    )
  })

  it('rejects bad bounds', () => {
    const s = streamFromSeed(new Uint8Array(32))
    for (const n of [0, -1, 1.5, NaN, Infinity, 2 ** 53]) expect(() => uniformIndex(s, n)).toThrow(InvalidInputError)
    expect(() => uniformBigInt(s, 0n)).toThrow(InvalidInputError)
    expect(() => uniformBigInt(s, -5n)).toThrow(InvalidInputError)
    expect(() => uniformBigInt(s, 5 as unknown as bigint)).toThrow(InvalidInputError)
    expect(() => uniformBigInt(s, (1n << 256n) + 1n)).toThrow(LimitExceededError)
    expect(uniformBigInt(s, 1n << 256n) < 1n << 256n).toBe(true)
    expect(s.consumed).toBe(32)
  })
})
