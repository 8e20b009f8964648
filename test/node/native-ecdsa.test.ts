/**
 * The verify bundle's ECDSA fast path by `node:crypto` (src/node/native-ecdsa.ts) gives Web Crypto's
 * answer (src/core/timestamp/ecdsa-fast.ts) on every case: valid, tampered, high-S, wrong key, wrong
 * curve, compressed, hybrid and refused points, every hash; and `verifyEcdsa` with it in the fast path's
 * place gives noble's answer.
 */
import { createPublicKey } from 'node:crypto'
import { p256, p384 } from '@noble/curves/nist.js'
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { OID, type HashName } from '../../src/core/timestamp/oids.js'
import { digest } from '../../src/core/timestamp/hash.js'
import { ecdsaCurve, ecdsaRawSignature, verifyEcdsaNoble, type EcdsaCurve } from '../../src/core/timestamp/signature.js'
import { ecdsaWebCrypto } from '../../src/core/timestamp/ecdsa-fast.js'
import { ecdsaFastPath, ecdsaNative, ecSpki } from '../../src/node/native-ecdsa.js'

const subtle = globalThis.crypto.subtle
const P256 = ecdsaCurve(OID.p256)!
const P384 = ecdsaCurve(OID.p384)!
const nobleOf = (c: EcdsaCurve): typeof p256 | typeof p384 => (c === P256 ? p256 : p384)
const HASHES: readonly HashName[] = ['SHA-256', 'SHA-384', 'SHA-512']
const DATA = new TextEncoder().encode('signed attributes of a time-stamp token')
const seeded = (n: number, len: number): Uint8Array => Uint8Array.from({ length: len }, (_, i) => (i * 31 + n * 7 + 1) & 0xff)
const flip = (bytes: Uint8Array, at: number): Uint8Array => {
  const out = bytes.slice()
  out[at] = out[at]! ^ 0x01
  return out
}

/** Web Crypto's and node:crypto's answers on one raw signature; they must be equal. */
async function compare(curve: EcdsaCurve, hash: HashName, pub: Uint8Array, data: Uint8Array, raw: Uint8Array): Promise<boolean | undefined> {
  const web = await ecdsaWebCrypto(subtle, curve, hash, pub, data, raw)
  const native = ecdsaNative(curve.name, hash, pub, data, raw)
  expect(native, `${curve.name} ${hash}: node:crypto ${native}, Web Crypto ${web}`).toBe(web)
  expect(await ecdsaFastPath(curve, hash, pub, data, raw)).toBe(native)
  return native
}

function signRaw(curve: EcdsaCurve, secret: Uint8Array, hash: HashName, data: Uint8Array): Uint8Array {
  return nobleOf(curve).sign(digest(hash, data), secret, { prehash: false, format: 'compact', lowS: false })
}

describe('ECDSA by node:crypto in the verify bundle', () => {
  it('the SPKI of a point is what node:crypto exports for that key', () => {
    for (const [c, name] of [[p256, 'P-256'], [p384, 'P-384']] as const) {
      const secret = seeded(1, name === 'P-256' ? 32 : 48)
      const pub = c.getPublicKey(secret, false)
      const exported = new Uint8Array(createPublicKey({ key: ecSpki(name, pub), format: 'der', type: 'spki' }).export({ format: 'der', type: 'spki' }))
      expect(exported).toEqual(new Uint8Array(ecSpki(name, pub)))
    }
  })

  it('valid, tampered data, flipped r or s, high S, another key: the same answer as Web Crypto, every curve and hash', async () => {
    for (const curve of [P256, P384]) {
      const secret = seeded(3, curve.size)
      const other = seeded(4, curve.size)
      const pub = nobleOf(curve).getPublicKey(secret, false)
      for (const hash of HASHES) {
        const raw = signRaw(curve, secret, hash, DATA)
        expect(await compare(curve, hash, pub, DATA, raw)).toBe(true)
        expect(await compare(curve, hash, pub, flip(DATA, 2), raw)).toBe(false)
        expect(await compare(curve, hash, pub, DATA, flip(raw, 5))).toBe(false)
        expect(await compare(curve, hash, pub, DATA, flip(raw, raw.length - 1))).toBe(false)
        expect(await compare(curve, hash, nobleOf(curve).getPublicKey(other, false), DATA, raw)).toBe(false)
        // high S: s -> n - s, valid under plain ECDSA for both
        const sig = nobleOf(curve).Signature.fromBytes(raw, 'compact')
        const high = new (nobleOf(curve).Signature)(sig.r, curve.order - sig.s).toBytes('compact')
        expect(await compare(curve, hash, pub, DATA, high)).toBe(true)
        // the right signature under another hash
        expect(await compare(curve, hash === 'SHA-256' ? 'SHA-384' : 'SHA-256', pub, DATA, raw)).toBe(false)
      }
    }
  })

  it('compressed, hybrid, off-curve, other-curve, infinity and empty points: the same answer (or the same refusal) as Web Crypto', async () => {
    const secret = seeded(5, 32)
    const raw = signRaw(P256, secret, 'SHA-256', DATA)
    const full = p256.getPublicKey(secret, false)
    const compressed = p256.getPublicKey(secret, true)
    const hybrid = Uint8Array.from([full[full.length - 1]! & 1 ? 0x07 : 0x06, ...full.subarray(1)])
    const offCurve = flip(full, full.length - 1)
    const points: [string, Uint8Array][] = [
      ['compressed', compressed],
      ['hybrid', hybrid],
      ['off the curve', offCurve],
      ['a P-384 point', p384.getPublicKey(seeded(6, 48), false)],
      ['infinity', Uint8Array.from([0])],
      ['empty', new Uint8Array(0)],
      ['a wrong prefix', Uint8Array.from([0x05, ...full.subarray(1)])],
    ]
    for (const [name, pub] of points) {
      const web = await ecdsaWebCrypto(subtle, P256, 'SHA-256', pub, DATA, raw)
      expect(ecdsaNative('P-256', 'SHA-256', pub, DATA, raw), name).toBe(web)
    }
    expect(ecdsaNative('P-256', 'SHA-256', compressed, DATA, raw)).toBe(true)
    expect(ecdsaNative('P-256', 'SHA-256', offCurve, DATA, raw)).toBeUndefined()
    // a raw signature of the wrong length (Web Crypto and node:crypto both refuse it to a false or an error alike)
    expect(ecdsaNative('P-256', 'SHA-256', full, DATA, raw.subarray(1))).toBe(await ecdsaWebCrypto(subtle, P256, 'SHA-256', full, DATA, raw.subarray(1)))
  })

  it('random keys, data and signatures (valid and corrupted): node:crypto and Web Crypto agree, and a true is noble\'s true (fast-check, seed 25)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(P256, P384), fc.constantFrom(...HASHES), fc.uint8Array({ minLength: 0, maxLength: 64 }), fc.integer({ min: 1, max: 1000 }), fc.option(fc.nat(), { nil: undefined }), async (curve, hash, data, n, corrupt) => {
        const secret = seeded(n, curve.size)
        const pub = nobleOf(curve).getPublicKey(secret, n % 2 === 0)
        let raw = signRaw(curve, secret, hash, data)
        if (corrupt !== undefined) raw = flip(raw, corrupt % raw.length)
        const native = await compare(curve, hash, pub, data, raw)
        const der = nobleOf(curve).Signature.fromBytes(raw, 'compact')
        const derBytes = der.toBytes('der')
        // the core reads the DER to the same raw form, and noble decides alike
        if (ecdsaRawSignature(curve, derBytes) !== undefined) expect(native).toBe(await verifyEcdsaNoble(curve, hash, pub, data, derBytes))
      }),
      { seed: 25, numRuns: 60 },
    )
  })

  it('verifyEcdsa with node:crypto as its fast path (as the verify bundle builds it) gives noble\'s answers', async () => {
    vi.resetModules()
    vi.doMock('../../src/core/timestamp/ecdsa-fast.js', () => ({ ecdsaFastPath, ecdsaWebCrypto }))
    try {
      const sig = await import('../../src/core/timestamp/signature.js')
      const curve = sig.ecdsaCurve(OID.p256)!
      const secret = seeded(9, 32)
      const pub = p256.getPublicKey(secret, false)
      const der = p256.sign(digest('SHA-256', DATA), secret, { prehash: false, format: 'der' })
      // Web Crypto is not asked
      const spy = vi.spyOn(globalThis.crypto.subtle, 'verify')
      expect(await sig.verifyEcdsa(curve, 'SHA-256', pub, DATA, der)).toBe(true)
      expect(await sig.verifyEcdsa(curve, 'SHA-256', pub, flip(DATA, 0), der)).toBe(false)
      expect(await sig.verifyEcdsa(curve, 'SHA-256', flip(pub, 40), DATA, der)).toBe(false)
      expect(spy).not.toHaveBeenCalled()
      spy.mockRestore()
    } finally {
      vi.doUnmock('../../src/core/timestamp/ecdsa-fast.js')
      vi.resetModules()
    }
  })
})
