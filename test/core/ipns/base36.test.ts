/**
 * src/core/ipns/base36.ts against multiformats' `base36` (base-x): the same text for the same bytes
 * (leading zero bytes included), and for any text the same bytes or the same error (case-insensitive
 * digits, leading zeros, characters outside the alphabet, Latin-1 and beyond, a leading space, the
 * prefix); and IPNS names keep their decoding.
 */
import fc from 'fast-check'
import { base36 as reference } from 'multiformats/bases/base36'
import { describe, expect, it } from 'vitest'
import { base36 } from '../../../src/core/ipns/base36.js'
import { parseIpnsName } from '../../../src/core/ipns/name.js'

/** What `f()` returns (hex or text) or throws (class and message). */
function outcome(f: () => Uint8Array | string): unknown {
  try {
    const r = f()
    return typeof r === 'string' ? r : Buffer.from(r).toString('hex')
  } catch (e) {
    return { name: (e as Error).constructor.name, message: (e as Error).message }
  }
}

describe('base36 by BigInt (IPNS names)', () => {
  it('encodes bytes as multiformats does, leading zero bytes included', () => {
    expect(base36.name).toBe(reference.name)
    expect(base36.prefix).toBe(reference.prefix)
    for (const bytes of [new Uint8Array(0), Uint8Array.of(0), Uint8Array.of(0, 0), Uint8Array.of(0, 1), Uint8Array.of(255), new Uint8Array(40).fill(255), Uint8Array.of(0, 0, 0, 36, 0)]) {
      expect(base36.encode(bytes)).toBe(reference.encode(bytes))
    }
    fc.assert(
      fc.property(fc.nat(4), fc.uint8Array({ maxLength: 80 }), (zeroes, rest) => {
        const bytes = Uint8Array.of(...new Uint8Array(zeroes), ...rest)
        expect(base36.encode(bytes)).toBe(reference.encode(bytes))
        expect(outcome(() => base36.decode(base36.encode(bytes)))).toBe(Buffer.from(bytes).toString('hex'))
      }),
      { numRuns: 1000, seed: 2515 },
    )
  })

  it('decodes any text as multiformats does: the same bytes or the same error', () => {
    const texts = ['k', 'k0', 'k00', 'k000z', 'kz', 'kZ', 'kzZzZ', 'k ', 'k 1', 'k1 ', 'k-1', 'k+1', 'k1.5', 'k\u00e9', 'k1\u00ff', 'k1\u0100', 'k\u{1F600}', 'k0\u4e00', 'kk', 'K1', 'b1', '', 'k1\n', 'k1\u0000']
    for (const text of texts) expect(outcome(() => base36.decode(text)), JSON.stringify(text)).toEqual(outcome(() => reference.decode(text)))
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'00009azAZ5 -_.\u00e9\u0100\n'), maxLength: 90 }), (body) => {
        expect(outcome(() => base36.decode(`k${body}`))).toEqual(outcome(() => reference.decode(`k${body}`)))
      }),
      { numRuns: 2000, seed: 2516 },
    )
    expect(outcome(() => base36.decode(42 as unknown as string))).toEqual(outcome(() => reference.decode(42 as unknown as string)))
  })

  it('IPNS names: the canonical name and multihash of RSA, Ed25519 and upper-case names', () => {
    const rsa = 'k2k4r8ng7e3vkdi98gqynvxi6v2gnabfh3su85utmtv4b56d9dnlnjgz'
    const ed = 'k51qzi5uqu5dj7skeind43o1an76ns1q5g2bupqw6o1hmcccenbkvalzo2olt0'
    for (const name of [rsa, ed, `/ipns/${ed}`, `k${ed.slice(1).toUpperCase()}`]) {
      const got = parseIpnsName(name)
      const text = name.replace('/ipns/', '')
      expect(got.name).toBe(rsa === text ? rsa : ed)
      expect(Buffer.from(got.multihash).toString('hex')).toBe(Buffer.from(reference.decode(text.toLowerCase())).toString('hex').slice(-got.multihash.length * 2))
    }
  })
})
