/**
 * Pure-JS RSA (src/core/rsa.ts) against node:crypto (OpenSSL): the same answer on signatures node made,
 * on tampered ones, and on raw blocks `EM^d mod n` that are anything but the exact PKCS#1 v1.5
 * encoding (a forged EM is refused even when the private key made it), including a Bleichenbacher
 * cube-root forgery for e = 3 that a parsing verifier would accept. Keys are bounded before any
 * arithmetic.
 */
import fc from 'fast-check'
import { constants, createHash, createPublicKey, generateKeyPairSync, privateEncrypt, sign, verify as nodeVerify, type KeyObject } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { readRsaPublicKey, readRsaSpki, RSA_MAX_BITS, RSA_MIN_BITS, RsaKeyError, rsaKeyProblem, verifyRsa, type RsaHash, type RsaPublicKey } from '../../src/core/rsa.js'

interface Pair {
  readonly bits: number
  readonly priv: KeyObject
  readonly pub: KeyObject
  readonly key: RsaPublicKey
}

const HASHES: readonly RsaHash[] = ['SHA-256', 'SHA-384', 'SHA-512']
const nodeHash = (h: RsaHash): string => h.replace('-', '').toLowerCase()
/** DER DigestInfo prefixes (RFC 8017 §9.2 note 1). */
const DIGEST_INFO: Record<RsaHash, string> = {
  'SHA-256': '3031300d060960864801650304020105000420',
  'SHA-384': '3041300d060960864801650304020205000430',
  'SHA-512': '3051300d060960864801650304020305000440',
}

function pair(bits: number, publicExponent = 65537): Pair {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: bits, publicExponent })
  const spki = new Uint8Array(publicKey.export({ type: 'spki', format: 'der' }))
  return { bits, priv: privateKey, pub: publicKey, key: readRsaSpki(spki) }
}

/** The exact EMSA-PKCS1-v1_5 encoding of `msg`, `k` bytes. */
function encode(hash: RsaHash, msg: Uint8Array, k: number): Uint8Array {
  const t = Buffer.concat([Buffer.from(DIGEST_INFO[hash], 'hex'), createHash(nodeHash(hash)).update(msg).digest()])
  return new Uint8Array(Buffer.concat([Buffer.from([0, 1]), Buffer.alloc(k - t.length - 3, 0xff), Buffer.from([0]), t]))
}

/** `em^d mod n` with the private key: a "signature" of any block, well-formed or not. */
const rawSign = (p: Pair, em: Uint8Array): Uint8Array => new Uint8Array(privateEncrypt({ key: p.priv, padding: constants.RSA_NO_PADDING }, em))

const toBig = (b: Uint8Array): bigint => (b.length === 0 ? 0n : BigInt(`0x${Buffer.from(b).toString('hex')}`))
const toBytes = (x: bigint, len: number): Uint8Array => new Uint8Array(Buffer.from(x.toString(16).padStart(2 * len, '0'), 'hex'))
const spkiOf = (n: bigint, e: bigint): Uint8Array => {
  const b64 = (x: bigint): string => {
    const hex = x.toString(16)
    return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex').toString('base64url')
  }
  return new Uint8Array(createPublicKey({ key: { kty: 'RSA', n: b64(n), e: b64(e) }, format: 'jwk' }).export({ type: 'spki', format: 'der' }))
}

describe('pure-JS RSA against node:crypto', () => {
  let keys: Pair[]
  let small: Pair // e = 3
  beforeAll(() => {
    keys = [pair(2048), pair(3072), pair(4096), pair(2049)] // 2049 bits: the PSS block is one byte shorter than the signature
    small = pair(2048, 3)
  }, 120_000)

  it('PKCS#1 v1.5: accepts what node signs and refuses every tampered message or signature, as node does', () => {
    fc.assert(
      fc.property(fc.nat(keys.length - 1), fc.constantFrom(...HASHES), fc.uint8Array({ maxLength: 300 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (ki, hash, msg, at, x) => {
        const p = keys[ki]!
        const sig = new Uint8Array(sign(nodeHash(hash), msg, p.priv))
        expect(verifyRsa(p.key, { family: 'rsa-pkcs1', hash }, msg, sig)).toBe(true)
        const badSig = sig.slice()
        badSig[at % sig.length]! ^= x
        const badMsg = Buffer.concat([Buffer.from(msg), Buffer.from([x])])
        for (const [m, s] of [[msg, badSig], [badMsg, sig]] as const) {
          const ours = verifyRsa(p.key, { family: 'rsa-pkcs1', hash }, m, s)
          expect(ours).toBe(nodeVerify(nodeHash(hash), m, p.pub, s))
          expect(ours).toBe(false)
        }
        // another hash's signature of the same message
        const other = HASHES[(HASHES.indexOf(hash) + 1) % HASHES.length]!
        expect(verifyRsa(p.key, { family: 'rsa-pkcs1', hash: other }, msg, sig)).toBe(false)
      }),
      { numRuns: 60, seed: 23_4 },
    )
  })

  it('PSS: accepts what node signs with the stated salt length, refuses another salt length and tampering', () => {
    fc.assert(
      fc.property(fc.nat(keys.length - 1), fc.constantFrom(...HASHES), fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 0, max: 64 }), fc.nat(), (ki, hash, msg, saltLength, at) => {
        const p = keys[ki]!
        const sig = new Uint8Array(sign(nodeHash(hash), msg, { key: p.priv, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength }))
        expect(verifyRsa(p.key, { family: 'rsa-pss', hash, saltLength }, msg, sig)).toBe(true)
        expect(verifyRsa(p.key, { family: 'rsa-pss', hash, saltLength: saltLength + 1 }, msg, sig)).toBe(false)
        expect(verifyRsa(p.key, { family: 'rsa-pkcs1', hash }, msg, sig)).toBe(false)
        const bad = sig.slice()
        bad[at % sig.length]! ^= 0x10
        const ours = verifyRsa(p.key, { family: 'rsa-pss', hash, saltLength }, msg, bad)
        expect(ours).toBe(nodeVerify(nodeHash(hash), msg, { key: p.pub, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength }, bad))
        expect(ours).toBe(false)
      }),
      { numRuns: 30, seed: 23_5 },
    )
  })

  it('compares the whole encoded block: any other block made with the private key is refused (and node refuses it too)', () => {
    const p = keys[0]!
    const k = p.bits / 8
    const msg = new TextEncoder().encode('ipns-signature:record')
    const good = encode('SHA-256', msg, k)
    // the raw path itself is sound: the exact encoding passes
    expect(verifyRsa(p.key, { family: 'rsa-pkcs1', hash: 'SHA-256' }, msg, rawSign(p, good))).toBe(true)
    fc.assert(
      fc.property(fc.nat(k - 1), fc.integer({ min: 1, max: 255 }), (at, x) => {
        const em = good.slice()
        em[at]! ^= x
        if (toBig(em) >= p.key.n) return // not a block below n: not signable as such
        const s = rawSign(p, em)
        expect(verifyRsa(p.key, { family: 'rsa-pkcs1', hash: 'SHA-256' }, msg, s)).toBe(false)
        expect(nodeVerify('sha256', msg, p.pub, s)).toBe(false)
      }),
      { numRuns: 200, seed: 23_6 },
    )
    const h = createHash('sha256').update(msg).digest()
    const t = Buffer.concat([Buffer.from(DIGEST_INFO['SHA-256'], 'hex'), h])
    const block = (...parts: Buffer[]): Uint8Array => {
      const b = Buffer.concat(parts)
      return new Uint8Array(Buffer.concat([b, Buffer.alloc(k - b.length)]))
    }
    const forms: Record<string, Uint8Array> = {
      // the digest early, garbage after it (a parsing verifier that skips the padding accepts this)
      'garbage after the digest': block(Buffer.from([0, 1]), Buffer.alloc(8, 0xff), Buffer.from([0]), t, Buffer.from('garbage')),
      // DigestInfo without the NULL parameters (an encoding some verifiers also accept)
      'DigestInfo without NULL': (() => {
        const noNull = Buffer.concat([Buffer.from('302f300b0609608648016503040201', 'hex'), Buffer.from('0420', 'hex'), h])
        return new Uint8Array(Buffer.concat([Buffer.from([0, 1]), Buffer.alloc(k - noNull.length - 3, 0xff), Buffer.from([0]), noNull]))
      })(),
      'block type 2': (() => {
        const b = good.slice()
        b[1] = 2
        return b
      })(),
    }
    for (const [what, em] of Object.entries(forms)) {
      expect(verifyRsa(p.key, { family: 'rsa-pkcs1', hash: 'SHA-256' }, msg, rawSign(p, em)), what).toBe(false)
    }
  })

  it('refuses a Bleichenbacher cube-root forgery for e = 3 (the block starts right, the rest is garbage)', () => {
    const p = small
    expect(p.key.e).toBe(3n)
    const k = p.bits / 8
    const msg = new TextEncoder().encode('forged')
    const t = Buffer.concat([Buffer.from(DIGEST_INFO['SHA-256'], 'hex'), createHash('sha256').update(msg).digest()])
    const prefix = Buffer.concat([Buffer.from([0, 1]), Buffer.alloc(8, 0xff), Buffer.from([0]), t])
    const rest = BigInt(8 * (k - prefix.length))
    const low = toBig(prefix) << rest
    const high = low + (1n << rest) - 1n
    // s = the cube root of the top of the range, rounded down: s^3 falls inside [low, high]
    let s = 1n << BigInt(Math.ceil((p.bits - 8) / 3))
    for (;;) {
      const next = (2n * s + high / (s * s)) / 3n
      if (next >= s) break
      s = next
    }
    while ((s + 1n) ** 3n <= high) s++
    expect(s ** 3n >= low && s ** 3n <= high).toBe(true) // s^3 < n: no reduction, the block reads as "00 01 FF… 00 DigestInfo H …"
    expect(s ** 3n < p.key.n).toBe(true)
    const forged = toBytes(s, k)
    expect(verifyRsa(p.key, { family: 'rsa-pkcs1', hash: 'SHA-256' }, msg, forged)).toBe(false)
    expect(nodeVerify('sha256', msg, p.pub, forged)).toBe(false)
    // the same key verifies a genuine signature
    expect(verifyRsa(p.key, { family: 'rsa-pkcs1', hash: 'SHA-256' }, msg, new Uint8Array(sign('sha256', msg, p.priv)))).toBe(true)
  })

  it('refuses a signature of the wrong length (a leading zero byte dropped or added) or not below the modulus', () => {
    const p = keys[0]!
    const msg = new Uint8Array([1, 2, 3])
    const sig = new Uint8Array(sign('sha256', msg, p.priv))
    const k = sig.length
    expect(verifyRsa(p.key, { family: 'rsa-pkcs1', hash: 'SHA-256' }, msg, Uint8Array.of(0, ...sig))).toBe(false)
    expect(verifyRsa(p.key, { family: 'rsa-pkcs1', hash: 'SHA-256' }, msg, sig.subarray(1))).toBe(false)
    const plusN = toBig(sig) + p.key.n
    if (plusN < 1n << BigInt(8 * k)) expect(verifyRsa(p.key, { family: 'rsa-pkcs1', hash: 'SHA-256' }, msg, toBytes(plusN, k))).toBe(false)
    expect(verifyRsa(p.key, { family: 'rsa-pkcs1', hash: 'SHA-256' }, msg, new Uint8Array(k).fill(0xff))).toBe(false)
    expect(verifyRsa(p.key, { family: 'rsa-pss', hash: 'SHA-256', saltLength: -1 }, msg, sig)).toBe(false)
  })
})

describe('RSA key bounds (docs/spec.md, RSA keys)', () => {
  const n2048 = (1n << 2047n) + 12345n * 2n + 1n // any odd 2048-bit number
  it('accepts 2048..8192-bit odd moduli and odd exponents 3..2^32-1; refuses the rest before any arithmetic', () => {
    expect(rsaKeyProblem(n2048, 65537n)).toBeUndefined()
    expect(rsaKeyProblem(n2048, 3n)).toBeUndefined()
    expect(rsaKeyProblem(n2048, (1n << 32n) - 1n)).toBeUndefined()
    expect(rsaKeyProblem(n2048, (1n << 32n) + 1n)).toMatch(/exponent is over 32 bits/)
    expect(rsaKeyProblem(n2048, 65536n)).toMatch(/odd integer >= 3/)
    expect(rsaKeyProblem(n2048, 1n)).toMatch(/odd integer >= 3/)
    expect(rsaKeyProblem(n2048 + 1n, 65537n)).toMatch(/even/)
    expect(rsaKeyProblem((1n << BigInt(RSA_MIN_BITS - 1)) - 1n, 65537n)).toMatch(/2047 bits, outside 2048..8192/)
    expect(rsaKeyProblem((1n << BigInt(RSA_MAX_BITS)) + 1n, 65537n)).toMatch(/8193 bits/)
    expect(rsaKeyProblem((1n << BigInt(RSA_MAX_BITS)) - 1n, 65537n)).toBeUndefined()
    // through the DER readers, with a typed error
    expect(() => readRsaSpki(spkiOf(n2048, (1n << 40n) + 1n))).toThrow(RsaKeyError)
    expect(() => readRsaSpki(spkiOf((1n << 1023n) + 1n, 65537n))).toThrow(/1024 bits/)
    expect(readRsaSpki(spkiOf(n2048, 65537n))).toEqual({ n: n2048, e: 65537n, bits: 2048 })
    expect(() => readRsaPublicKey(Uint8Array.of(0x30, 0x03, 0x02, 0x01, 0x05))).toThrow(/exactly 2 fields/)
    expect(() => readRsaSpki(Uint8Array.of(0x30, 0x00, 0x00))).toThrow(/not valid DER/)
  })
  it('verifyRsa refuses an out-of-bounds key even when handed one directly', () => {
    expect(verifyRsa({ n: 187n, e: 3n, bits: 8 }, { family: 'rsa-pkcs1', hash: 'SHA-256' }, new Uint8Array(1), new Uint8Array(1))).toBe(false)
  })
})
