/**
 * The core's hex and base64 decoders (`src/core/bytes.ts`) against Node's `Buffer`, the reference here:
 * every byte string round-trips, every accepted text is exactly `Buffer`'s canonical encoding, and every
 * text `Buffer` would encode differently (padding bits set, whitespace, URL-safe letters, a missing
 * "=") is refused with `INVALID_BASE64`.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { base64ToBytes, bytesToBase64, bytesToHex, hexToBytes } from '../../src/core/bytes.js'
import { ParseError } from '../../src/core/errors.js'

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

function codeOf(f: () => unknown): string | undefined {
  try {
    f()
    return undefined
  } catch (e) {
    expect(e).toBeInstanceOf(ParseError)
    return (e as ParseError).code
  }
}

describe('base64', () => {
  it('round-trips every byte string and encodes exactly as Buffer does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const text = bytesToBase64(bytes)
        expect(text).toBe(Buffer.from(bytes).toString('base64'))
        expect(base64ToBytes(text)).toEqual(bytes)
      }),
      { numRuns: 500, seed: 15 },
    )
  })

  it('accepts a text of base64 letters and padding exactly when it is the canonical encoding of its bytes', () => {
    const text = fc
      .tuple(fc.string({ unit: fc.constantFrom(...B64), maxLength: 40 }), fc.constantFrom('', '=', '=='))
      .map(([body, pad]) => body + pad)
    fc.assert(
      fc.property(text, (s) => {
        const canonical = s.length % 4 === 0 && Buffer.from(s, 'base64').toString('base64') === s
        const code = codeOf(() => base64ToBytes(s))
        if (canonical) {
          expect(code).toBeUndefined()
          expect(base64ToBytes(s)).toEqual(new Uint8Array(Buffer.from(s, 'base64')))
        } else {
          expect(code).toBe('INVALID_BASE64')
        }
      }),
      { numRuns: 2000, seed: 16 },
    )
  })

  it.each([
    ['padding bits set, one "="', 'YWJ=', 'non-zero padding bits'],
    ['padding bits set, two "="', 'YR==', 'non-zero padding bits'],
    ['padding bits set in the lowest bit', 'YWK=', 'non-zero padding bits'],
    ['missing padding', 'YWI', 'standard padded base64'],
    ['whitespace', 'YW Jj', 'standard padded base64'],
    ['URL-safe letter', 'YW-j', 'standard padded base64'],
    ['padding in the middle', 'YQ==YWJj', 'standard padded base64'],
    ['three "="', 'Y===', 'standard padded base64'],
  ])('refuses %s with INVALID_BASE64 at the path given', (_, s, detail) => {
    expect(() => base64ToBytes(s, '$.x')).toThrowError(expect.objectContaining({ code: 'INVALID_BASE64', path: '$.x', detail: expect.stringContaining(detail) }) as Error)
  })

  it('decodes the empty text to no bytes', () => {
    expect(base64ToBytes('')).toEqual(new Uint8Array(0))
  })
})

describe('hex', () => {
  it('round-trips every byte string, reads either case, and matches Buffer', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.boolean(), (bytes, upper) => {
        const hex = bytesToHex(bytes)
        expect(hex).toBe(Buffer.from(bytes).toString('hex'))
        expect(hexToBytes(upper ? hex.toUpperCase() : hex)).toEqual(bytes)
      }),
      { numRuns: 500, seed: 17 },
    )
  })

  it.each([['odd length', 'abc'], ['a non-hex digit', 'zz'], ['a sign', '+1'], ['whitespace', 'ab cd'], ['a 0x prefix', '0xab']])('refuses %s with INVALID_HEX', (_, s) => {
    expect(codeOf(() => hexToBytes(s))).toBe('INVALID_HEX')
  })
})
