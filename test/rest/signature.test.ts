import { describe, expect, it } from 'vitest'
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToBase64, bytesToHex, concatBytes, hexToBytes, utf8Encode } from '../../src/core/bytes.js'
import { InvalidInputError } from '../../src/core/errors.js'
import { createSignatureVerifier, verifyValueSignature } from '../../src/rest/signature.js'
import { SignatureError } from '../../src/rest/errors.js'
import { parsePublicKey, signedMessage } from '../../src/rest/signature.js'
import { rejection, startHarness, thrown, useHarness, type Harness } from './helpers.js'

const data = sha256(utf8Encode('a cTRNG value'))
const msg = sha256(data) // the default construction

function flip(hex: string, at = 20): string {
  const b = hexToBytes(hex)
  b[at]! ^= 1
  return bytesToHex(b)
}

describe('signature verification (unit)', () => {
  const p256Key = p256.utils.randomSecretKey()
  const k1Key = secp256k1.utils.randomSecretKey()
  const edKey = ed25519.utils.randomSecretKey()
  const ecdsaCases = [
    { curve: 'p256' as const, impl: p256, sk: p256Key },
    { curve: 'secp256k1' as const, impl: secp256k1, sk: k1Key },
  ]

  for (const { curve, impl, sk } of ecdsaCases) {
    for (const format of ['der', 'compact'] as const) {
      it(`${curve} ${format}: good verifies, bad and wrong key do not`, () => {
        const sig = bytesToHex(impl.sign(data, sk, { format })) // ECDSA over SHA-256(data)
        const pub = impl.getPublicKey(sk, true)
        const other = impl.getPublicKey(impl.utils.randomSecretKey(), true)
        for (const encoding of [format, 'auto'] as const) {
          const v = createSignatureVerifier({ publicKey: pub, curve, encoding })
          expect(v.check(data, sig)).toEqual({ valid: true, publicKey: bytesToHex(pub) })
          expect(v.check(data, flip(sig)).valid).toBe(false)
          expect(v.check(sha256(data), sig).valid).toBe(false) // other data
          expect(createSignatureVerifier({ publicKey: other, curve, encoding }).check(data, sig).valid).toBe(false)
        }
        // the wrong declared encoding fails
        expect(createSignatureVerifier({ publicKey: pub, curve, encoding: format === 'der' ? 'compact' : 'der' }).check(data, sig).valid).toBe(false)
        // uncompressed key works too; several keys: any one may match
        expect(verifyValueSignature(data, sig, { publicKey: impl.getPublicKey(sk, false), curve }).valid).toBe(true)
        const multi = createSignatureVerifier({ publicKey: [other, pub], curve })
        expect(multi.check(data, sig).publicKey).toBe(bytesToHex(pub))
        expect(() => multi.assert(data, flip(sig))).toThrow(SignatureError)
      })
    }
  }

  it('ed25519: good verifies, bad and wrong key do not', () => {
    const sig = bytesToHex(ed25519.sign(msg, edKey))
    const pub = ed25519.getPublicKey(edKey)
    expect(verifyValueSignature(data, sig, { publicKey: pub, curve: 'ed25519' }).valid).toBe(true)
    expect(verifyValueSignature(data, flip(sig), { publicKey: pub, curve: 'ed25519' }).valid).toBe(false)
    expect(verifyValueSignature(data, sig, { publicKey: ed25519.getPublicKey(ed25519.utils.randomSecretKey()), curve: 'ed25519' }).valid).toBe(false)
    expect(verifyValueSignature(data, sig.slice(2), { publicKey: pub, curve: 'ed25519' }).valid).toBe(false)
  })

  it('message construction is configurable', () => {
    expect(bytesToHex(signedMessage('sha256', data))).toBe(bytesToHex(sha256(data)))
    expect(bytesToHex(signedMessage('sha256-hex', data))).toBe(bytesToHex(sha256(utf8Encode(bytesToHex(data)))))
    const pub = p256.getPublicKey(p256Key)
    // signed with the raw 32 bytes as the digest: no construction accepts it ('raw' is refused)
    const rawSig = bytesToHex(p256.sign(data, p256Key, { prehash: false, format: 'der' }))
    expect(verifyValueSignature(data, rawSig, { publicKey: pub }).valid).toBe(false)
    expect(verifyValueSignature(data, rawSig, { publicKey: pub, message: (d) => d }).valid).toBe(false)
    // signed over SHA-256 of the hex text
    const hexSig = bytesToHex(p256.sign(utf8Encode(bytesToHex(data)), p256Key, { format: 'der' }))
    expect(verifyValueSignature(data, hexSig, { publicKey: pub, message: 'sha256-hex' }).valid).toBe(true)
    // a custom construction: ECDSA with SHA-256 over prefix || data (the function returns the message)
    const prefix = utf8Encode('ctrng:')
    const customSig = bytesToHex(p256.sign(concatBytes(prefix, data), p256Key, { format: 'der' }))
    expect(verifyValueSignature(data, customSig, { publicKey: pub, message: (d) => concatBytes(prefix, d) }).valid).toBe(true)
    // returning a digest instead of the message does not verify (it is hashed again)
    expect(verifyValueSignature(data, customSig, { publicKey: pub, message: (d) => sha256(concatBytes(prefix, d)) }).valid).toBe(false)
    // Ed25519: the function's output is the message itself
    const edPub = ed25519.getPublicKey(edKey)
    expect(verifyValueSignature(data, bytesToHex(ed25519.sign(data, edKey)), { publicKey: edPub, curve: 'ed25519', message: (d) => d }).valid).toBe(true)
    // a throwing construction is a failed check, not a crash
    expect(verifyValueSignature(data, customSig, { publicKey: pub, message: () => { throw new Error('boom') } }).reason).toContain('boom')
  })

  it('high-S signatures are accepted by default and rejected with lowS', () => {
    const pub = p256.getPublicKey(p256Key)
    const sig = p256.Signature.fromBytes(p256.sign(data, p256Key, { format: 'compact' }), 'compact')
    const high = new p256.Signature(sig.r, p256.Point.CURVE().n - sig.s)
    const highHex = bytesToHex(high.toBytes('der'))
    expect(verifyValueSignature(data, highHex, { publicKey: pub }).valid).toBe(true)
    expect(verifyValueSignature(data, highHex, { publicKey: pub, lowS: true }).valid).toBe(false)
  })

  it('accepts keys as hex, 0x-hex, SPKI DER and PEM; rejects bad keys', () => {
    const pub = p256.getPublicKey(p256Key, false)
    const spki = concatBytes(hexToBytes('3059301306072a8648ce3d020106082a8648ce3d030107034200'), pub)
    const pem = `-----BEGIN PUBLIC KEY-----\n${bytesToBase64(spki).replace(/(.{64})/g, '$1\n')}\n-----END PUBLIC KEY-----\n`
    for (const k of [bytesToHex(pub), `0x${bytesToHex(pub)}`, spki, pem]) expect(bytesToHex(parsePublicKey(k, 'p256'))).toBe(bytesToHex(pub))
    const edPub = ed25519.getPublicKey(edKey)
    expect(bytesToHex(parsePublicKey(concatBytes(hexToBytes('302a300506032b6570032100'), edPub), 'ed25519'))).toBe(bytesToHex(edPub))
    for (const bad of ['zz', '04' + '00'.repeat(64), new Uint8Array(20), bytesToHex(pub).slice(2)]) {
      expect(thrown(() => parsePublicKey(bad, 'p256'))).toBeInstanceOf(InvalidInputError)
    }
    expect(thrown(() => createSignatureVerifier({ publicKey: [] }))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => createSignatureVerifier({ publicKey: pub, curve: 'p384' as 'p256' }))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => createSignatureVerifier({ publicKey: pub, encoding: 'pem' as 'der' }))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => createSignatureVerifier({ publicKey: pub, message: 'sha512' as 'sha256' }))).toBeInstanceOf(InvalidInputError)
  })

  it('malformed signature strings fail the check', () => {
    const v = createSignatureVerifier({ publicKey: p256.getPublicKey(p256Key) })
    for (const s of ['', 'xyz', '3', '30440220']) expect(v.check(data, s).valid).toBe(false)
  })
})

describe('signature verification against the emulator', () => {
  let h: Harness
  useHarness((started) => (h = started), 'all')

  it('good: values from the emulator verify under its P-256 key (DER, SHA-256 over the data)', async () => {
    const c = h.client({ verify: { publicKey: h.service.publicKey } })
    for (const src of ['satellite', 'derived'] as const) {
      const v = await c.random({ src })
      expect(v.signatureVerified).toBe(true)
      expect(v.verifiedBy).toBe(h.service.publicKeyHex)
      expect(v.signature!.value.startsWith('30')).toBe(true)
      expect(v.signature!.pk).toBe('')
    }
    // the uncompressed form and a PEM-free hex string are the same key
    expect((await h.client({ verify: { publicKey: bytesToHex(h.service.publicKeyUncompressed) } }).random()).signatureVerified).toBe(true)
  })

  it('bad: a tampered value or signature is an error, not a value, and is not retried', async () => {
    const c = h.client({ verify: { publicKey: h.service.publicKey } })
    const v = await h.client().random()
    const before = h.trngRequests().length
    h.service.injectFault('trng', { status: 200, body: { ...v.response!, data: flip(v.hex, 0) } })
    const e1 = (await rejection(c.random())) as SignatureError
    expect(e1).toBeInstanceOf(SignatureError)
    expect(e1.code).toBe('ORBITPORT_BAD_SIGNATURE')
    h.service.injectFault('trng', { status: 200, body: { ...v.response!, signature: { value: flip(v.signature!.value), pk: '' } } })
    expect(await rejection(c.random())).toBeInstanceOf(SignatureError)
    h.service.injectFault('trng', { status: 200, body: { ...v.response!, signature: { value: '', pk: '' } } })
    expect(await rejection(c.random())).toBeInstanceOf(SignatureError)
    expect(h.trngRequests().length - before).toBe(3)
  })

  it('wrong key: a SignatureError', async () => {
    const c = h.client({ verify: { publicKey: p256.getPublicKey(p256.utils.randomSecretKey()) } })
    const err = (await rejection(c.random())) as SignatureError
    expect(err).toBeInstanceOf(SignatureError)
    expect(err.message).toContain('does not verify')
  })

  it('a pk in the response is never trusted on its own', async () => {
    const sk = p256.utils.randomSecretKey()
    const forged = sha256(utf8Encode('forged'))
    const body = { service: 'trng', src: 'vendororbital', data: bytesToHex(forged), signature: { value: bytesToHex(p256.sign(forged, sk, { format: 'der' })), pk: bytesToHex(p256.getPublicKey(sk)) } }
    h.service.injectFault('trng', { status: 200, body })
    expect(await rejection(h.client({ verify: { publicKey: h.service.publicKey } }).random())).toBeInstanceOf(SignatureError)
  })

  it('an emulator configured for compact signatures and a published pk', async () => {
    const h2 = await startHarness({ signatureFormat: 'compact', includePublicKey: true })
    try {
      const v = await h2.client({ verify: { publicKey: h2.service.publicKeyHex, encoding: 'compact' } }).random()
      expect(v.signatureVerified).toBe(true)
      expect(v.signature!.pk).toBe(h2.service.publicKeyHex)
      expect(hexToBytes(v.signature!.value)).toHaveLength(64)
    } finally {
      await h2.close()
    }
  })
})
