// Ed25519 record signatures: the answer is @noble/curves' RFC 8032 strict answer on every host,
// whether the host's Web Crypto Ed25519 (the fast path) is there or not; crafted edge cases included.
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha512 } from '@noble/hashes/sha2.js'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { concatBytes, hexToBytes } from '../../../src/core/bytes.js'
import { verifyKeySignature } from '../../../src/core/ipns/key-format.js'

const L = 2n ** 252n + 27742317777372353535851937790883648493n
const le = (b: Uint8Array): bigint => b.reduceRight((acc, x) => (acc << 8n) | BigInt(x), 0n)
const toLe = (n: bigint): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn))
const mod = (a: bigint, m: bigint): bigint => ((a % m) + m) % m
const seed = new Uint8Array(32).fill(11)
const pub = ed25519.getPublicKey(seed)
const key = { type: 'Ed25519' as const, raw: pub }
const noble = (sig: Uint8Array, msg: Uint8Array, pk = pub): boolean => {
  try {
    return ed25519.verify(sig, msg, pk, { zip215: false })
  } catch {
    return false
  }
}
/** A point of order 2: (0, -1). */
const ORDER_2 = hexToBytes('ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f')

/** A signature whose R carries a small-order component: valid cofactored (noble), invalid cofactorless (OpenSSL). */
function torsionSignature(msg: Uint8Array): Uint8Array {
  const { scalar } = ed25519.utils.getExtendedPublicKey(seed)
  const r = 123456789n
  const R = ed25519.Point.BASE.multiply(r).add(ed25519.Point.fromBytes(ORDER_2, false)).toBytes()
  const k = mod(le(sha512(concatBytes(R, pub, msg))), L)
  return concatBytes(R, toLe(mod(r + k * scalar, L)))
}

// crypto.getRandomValues stays (browsers offer it on plain http too, where subtle is missing).
const getRandomValues = globalThis.crypto.getRandomValues.bind(globalThis.crypto)
const hosts = [
  ['with Web Crypto Ed25519', () => undefined],
  ['without Web Crypto Ed25519 (noble only)', () => vi.stubGlobal('crypto', { getRandomValues, subtle: { importKey: () => Promise.reject(new Error('no Ed25519')), verify: () => Promise.reject(new Error('no Ed25519')) } })],
  ['without crypto.subtle (a browser page on plain http)', () => vi.stubGlobal('crypto', { getRandomValues })],
] as const

afterEach(() => {
  vi.unstubAllGlobals()
})

describe.each(hosts)('Ed25519 signatures %s', (_, setUp) => {
  it('crafted cases give noble strict answers: valid, torsion in R, S >= L, small-order key, non-canonical R', async () => {
    setUp()
    const msg = new Uint8Array([1, 2, 3])
    const good = ed25519.sign(msg, seed)
    const torsion = torsionSignature(msg)
    const bigS = concatBytes(good.subarray(0, 32), toLe(le(good.subarray(32)) + L))
    const nonCanonicalR = concatBytes(hexToBytes('edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'), good.subarray(32))
    expect(noble(torsion, msg)).toBe(true) // cofactored: the small-order part of R vanishes
    for (const [sig, expected] of [[good, true], [torsion, true], [bigS, false], [nonCanonicalR, false]] as const) {
      expect(await verifyKeySignature(key, msg, sig)).toBe(expected)
      expect(noble(sig, msg)).toBe(expected)
    }
    expect(await verifyKeySignature({ type: 'Ed25519', raw: ORDER_2 }, msg, good)).toBe(false)
  })

  it('agrees with noble on random messages and signatures with bytes changed (fast-check, fixed seed)', async () => {
    setUp()
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), fc.array(fc.tuple(fc.nat({ max: 63 }), fc.integer({ min: 0, max: 255 })), { maxLength: 2 }), async (msg, edits) => {
        const sig = ed25519.sign(msg, seed)
        for (const [at, x] of edits) sig[at] = sig[at]! ^ x
        expect(await verifyKeySignature(key, msg, sig)).toBe(noble(sig, msg))
      }),
      { seed: 77, numRuns: 60 },
    )
  })
})
