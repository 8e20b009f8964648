import { createCipheriv } from 'node:crypto'
import { chacha20 } from '@noble/ciphers/chacha.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes } from '../../../src/core/bytes.js'
import { InvalidInputError, LimitExceededError } from '../../../src/core/errors.js'
import { streamFromSeed } from '../../../src/core/random/stream.js'
import { ChaChaStream, STREAM_MAX_BLOCKS } from '../../../src/core/random/stream.js'

/** Reference keystream from OpenSSL (node:crypto): iv = uint32le(counter) || nonce (12 zero bytes). */
function opensslKeystream(seed: Uint8Array, bytes: number, counter = 0): Uint8Array {
  const iv = new Uint8Array(16)
  new DataView(iv.buffer).setUint32(0, counter, true)
  const c = createCipheriv('chacha20', seed, iv)
  return new Uint8Array(c.update(new Uint8Array(bytes)))
}

/** Reads `total` bytes in pieces of the given sizes (cycled). */
function readInPieces(s: { nextBytes(n: number): Uint8Array }, total: number, sizes: number[]): Uint8Array {
  const out = new Uint8Array(total)
  let o = 0
  for (let p = 0; o < total; p++) {
    const n = Math.min(sizes[p % sizes.length]!, total - o)
    out.set(s.nextBytes(n), o)
    o += n
  }
  return out
}

describe('stream: RFC 8439 ChaCha20 keystream, key = seed, nonce = 0, counter from 0', () => {
  // RFC 8439 Appendix A.1, test vectors #1 and #2: key = 0^32, nonce = 0^12, block counter 0 and 1.
  // These are exactly bytes 0..63 and 64..127 of the stream of the all-zero seed.
  const A1_TV1 = '76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586'
  const A1_TV2 = '9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f'
  // Test vector #3: key = 0^31 || 01, nonce = 0^12, block counter 1 = bytes 64..127 of that seed's stream.
  const A1_TV3 = '3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0'

  it('matches RFC 8439 A.1 test vectors #1 and #2 (all-zero seed)', () => {
    const s = streamFromSeed(new Uint8Array(32))
    expect(bytesToHex(s.nextBytes(64))).toBe(A1_TV1)
    expect(bytesToHex(s.nextBytes(64))).toBe(A1_TV2)
    expect(s.consumed).toBe(128)
  })

  it('matches RFC 8439 A.1 test vector #3 (seed 0^31 || 01, second block)', () => {
    const seed = new Uint8Array(32)
    seed[31] = 1
    const s = streamFromSeed(seed)
    s.nextBytes(64)
    expect(bytesToHex(s.nextBytes(64))).toBe(A1_TV3)
  })

  it('equals the OpenSSL and @noble/ciphers keystreams across chunk boundaries, read in odd pieces', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 8 }),
        (seed, pieces) => {
          const sizes: number[] = pieces.every((x) => x === 0) ? [...pieces, 1] : pieces
          const total = 200_000
          const ref = opensslKeystream(seed, total)
          const s = streamFromSeed(seed)
          expect(bytesToHex(readInPieces(s, total, sizes))).toBe(bytesToHex(ref))
          expect(s.consumed).toBe(total)
          // The portable fallback (noble, used on big-endian hosts) gives the same bytes.
          const slow = new ChaChaStream(seed, 0, false)
          expect(bytesToHex(readInPieces(slow, 70_000, sizes))).toBe(bytesToHex(ref.subarray(0, 70_000)))
          expect(bytesToHex(chacha20(seed, new Uint8Array(12), new Uint8Array(1000)))).toBe(bytesToHex(ref.subarray(0, 1000)))
        },
      ),
      { numRuns: 15 },
    )
  })

  it('is deterministic and copies the seed', () => {
    const seed = hexToBytes('00'.repeat(31) + '2a')
    const a = streamFromSeed(seed)
    seed[0] = 99
    const b = streamFromSeed(hexToBytes('00'.repeat(31) + '2a'))
    expect(bytesToHex(a.nextBytes(1000))).toBe(bytesToHex(b.nextBytes(1000)))
  })

  it('nextBytes(0) reads nothing; nextBytes returns fresh arrays', () => {
    const s = streamFromSeed(new Uint8Array(32))
    expect(s.nextBytes(0).length).toBe(0)
    expect(s.consumed).toBe(0)
    const x = s.nextBytes(8)
    x.fill(0)
    const t = streamFromSeed(new Uint8Array(32))
    expect(bytesToHex(t.nextBytes(8))).toBe(A1_TV1.slice(0, 16))
  })

  it('rejects seeds that are not 32 bytes and bad byte counts', () => {
    expect(() => streamFromSeed(new Uint8Array(31))).toThrow(InvalidInputError)
    expect(() => streamFromSeed(new Uint8Array(33))).toThrow(InvalidInputError)
    expect(() => streamFromSeed('00' as unknown as Uint8Array)).toThrow(InvalidInputError)
    const s = streamFromSeed(new Uint8Array(32))
    expect(() => s.nextBytes(-1)).toThrow(InvalidInputError)
    expect(() => s.nextBytes(1.5)).toThrow(InvalidInputError)
  })

  it('ends after 2^32 - 1 blocks with STREAM_EXHAUSTED, and the last blocks are the RFC keystream', () => {
    const seed = Uint8Array.from({ length: 32 }, (_, i) => i)
    const first = STREAM_MAX_BLOCKS - 3
    const s = new ChaChaStream(seed, first)
    expect(s.consumed).toBe(first * 64)
    const tail = s.nextBytes(3 * 64)
    expect(bytesToHex(tail)).toBe(bytesToHex(opensslKeystream(seed, 3 * 64, first)))
    expect(s.consumed).toBe(STREAM_MAX_BLOCKS * 64)
    expect(() => s.nextBytes(1)).toThrow(LimitExceededError)
  })
})
