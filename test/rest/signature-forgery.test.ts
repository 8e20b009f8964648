/**
 * A signature made without the private key must never verify. The attack this guards against: a
 * verifier that takes the (server-chosen) 32 data bytes as the ECDSA digest lets anyone forge a
 * "valid" signature under any public key. Pick u1, u2; R = u1·G + u2·Q; r = R.x mod n; s = r/u2;
 * digest e = u1·s. Then verification computes e/s·G + r/s·Q = u1·G + u2·Q = R, whose x is r.
 */
import { describe, expect, it } from 'vitest'
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, hexToBytes } from '../../src/core/bytes.js'
import { InvalidInputError } from '../../src/core/errors.js'
import { createSignatureVerifier, type MessageConstruction } from '../../src/rest/signature.js'
import { OrbitportClient } from '../../src/rest/client.js'
import { SignatureError } from '../../src/rest/errors.js'
import { rejection, startHarness, thrown } from './helpers.js'

type Curve = typeof p256 | typeof secp256k1

function mod(a: bigint, n: bigint): bigint {
  const r = a % n
  return r < 0n ? r + n : r
}

function inv(a: bigint, n: bigint): bigint {
  let [r0, r1, s0, s1] = [mod(a, n), n, 1n, 0n]
  while (r1 !== 0n) {
    const q = r0 / r1
    ;[r0, r1] = [r1, r0 - q * r1]
    ;[s0, s1] = [s1, s0 - q * s1]
  }
  return mod(s0, n)
}

/** The attacker's forgery: a (digest, DER signature) pair valid under `victim` for a no-hash verifier. */
function forge(curve: Curve, victim: Uint8Array, u1: bigint, u2: bigint): { digest: Uint8Array; signature: string } {
  const { n } = curve.Point.CURVE()
  const Q = curve.Point.fromBytes(victim)
  const R = curve.Point.BASE.multiply(u1).add(Q.multiply(u2))
  const r = mod(R.toAffine().x, n)
  const s = mod(r * inv(u2, n), n)
  const e = mod(u1 * s, n)
  const digest = hexToBytes(e.toString(16).padStart(64, '0'))
  return { digest, signature: bytesToHex(new curve.Signature(r, s).toBytes('der')) }
}

describe('ECDSA forgery without the key', () => {
  for (const [name, curve] of [
    ['p256', p256],
    ['secp256k1', secp256k1],
  ] as const) {
    it(`${name}: the forgery is real (it passes a verifier that uses the data as the digest) and orbitdraw rejects it`, () => {
      const victim = curve.getPublicKey(curve.utils.randomSecretKey(), true)
      const { digest, signature } = forge(curve, victim, 0x1234567890abcdefn, 0xfedcba0987654321n)
      // The construction works: a raw-digest ECDSA check accepts it (this is what 'raw' used to do).
      expect(curve.verify(hexToBytes(signature), digest, victim, { prehash: false, format: 'der', lowS: false })).toBe(true)
      // The server presents the forged digest as the value's 32 data bytes: every construction refuses it.
      const constructions: MessageConstruction[] = ['sha256', 'sha256-hex', (d) => d, (d, hex) => new TextEncoder().encode(hex)]
      for (const message of constructions) {
        for (const encoding of ['auto', 'der'] as const) {
          expect(createSignatureVerifier({ publicKey: victim, curve: name, message, encoding }).check(digest, signature).valid).toBe(false)
        }
      }
    })
  }

  it("'raw' is refused with a typed error that says why and what to use", () => {
    const victim = p256.getPublicKey(p256.utils.randomSecretKey(), true)
    const err = thrown(() => createSignatureVerifier({ publicKey: victim, message: 'raw' as MessageConstruction })) as InvalidInputError
    expect(err).toBeInstanceOf(InvalidInputError)
    expect(err.code).toBe('INVALID_SIGNATURE_OPTIONS')
    expect(err.path).toBe('$.message')
    expect(err.hint).toContain('forge')
    expect(err.hint).toContain("'sha256'")
    expect(thrown(() => new OrbitportClient({ clientId: 'a', clientSecret: 'b', verify: { publicKey: victim, message: 'raw' as MessageConstruction } }))).toBeInstanceOf(InvalidInputError)
  })

  it('end to end: a forged value served by the endpoint is rejected with SignatureError', async () => {
    const h = await startHarness()
    try {
      const victim = p256.getPublicKey(p256.utils.randomSecretKey(), true)
      const { digest, signature } = forge(p256, victim, 987654321n, 123456789n)
      h.service.injectFault('trng', { status: 200, body: { service: 'trng', src: 'vendororbital', data: bytesToHex(digest), signature: { value: signature, pk: '' } } })
      const err = (await rejection(h.client({ verify: { publicKey: victim, message: (d) => d } }).random())) as SignatureError
      expect(err).toBeInstanceOf(SignatureError)
      expect(err.code).toBe('ORBITPORT_BAD_SIGNATURE')
    } finally {
      await h.close()
    }
  })
})
