/**
 * The verify bundle's RSA arithmetic by `node:crypto` (src/node/native-rsa.ts, in the place of
 * src/core/rsa-vp1.ts): `s^e mod n` equal to the core's BigInt answer byte for byte; degenerate keys and
 * signatures never reach OpenSSL; and `verifyRsa` with it in `rsa-vp1.ts`'s place (as the bundle builds
 * it) gives the pure-JS answers on valid, tampered, wrong-key, wrong-hash, PSS salt variants and
 * malformed inputs.
 */
import fc from 'fast-check'
import { constants, createPublicKey, generateKeyPairSync, privateEncrypt, sign, type KeyObject } from 'node:crypto'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { readRsaSpki, verifyRsa, type RsaHash, type RsaPublicKey, type RsaScheme } from '../../src/core/rsa.js'
import { openSignature as openSignatureJs } from '../../src/core/rsa-vp1.js'
import * as nativeRsa from '../../src/node/native-rsa.js'

const { openSignature, rsaNative } = nativeRsa

interface Pair {
  readonly priv: KeyObject
  readonly key: RsaPublicKey
  readonly k: number
}

function pair(bits: number, publicExponent = 65537): Pair {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: bits, publicExponent })
  const key = readRsaSpki(new Uint8Array(publicKey.export({ type: 'spki', format: 'der' })))
  return { priv: privateKey, key, k: Math.ceil(key.bits / 8) }
}

const HASHES: readonly RsaHash[] = ['SHA-256', 'SHA-384', 'SHA-512']
const nodeHash = (h: RsaHash): string => h.replace('-', '').toLowerCase()
const hex = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : Buffer.from(b).toString('hex'))
const toBytes = (x: bigint, len: number): Uint8Array => new Uint8Array(Buffer.from(x.toString(16).padStart(2 * len, '0'), 'hex'))
const rawSign = (p: Pair, em: Uint8Array): Uint8Array => new Uint8Array(privateEncrypt({ key: p.priv, padding: constants.RSA_NO_PADDING }, em))

describe('RSA by node:crypto in the verify bundle', () => {
  let keys: Pair[]
  beforeAll(() => {
    // 2050 bits: a signature one byte longer than a 2048-bit one, its top byte 02 or 03; e = 3 and a large odd e
    keys = [pair(2048), pair(2050), pair(3072), pair(2048, 3), pair(2048, 0xfffffffd)]
  }, 120_000)

  it('s^e mod n: the core\'s bytes for signatures, random blocks, 0, 1 and n - 1, computed by OpenSSL', () => {
    for (const p of keys) {
      const sig = new Uint8Array(sign('sha256', new Uint8Array([1, 2, 3]), p.priv))
      for (const s of [sig, toBytes(0n, p.k), toBytes(1n, p.k), toBytes(p.key.n - 1n, p.k)]) {
        const native = rsaNative(p.key, s, p.k)
        expect(native).toBeDefined()
        expect(hex(native)).toBe(hex(openSignatureJs(p.key, s, p.k)))
        expect(hex(openSignature(p.key, s, p.k))).toBe(hex(native))
      }
    }
    fc.assert(
      fc.property(fc.nat(keys.length - 1), fc.uint8Array({ minLength: 256, maxLength: 384 }), (ki, bytes) => {
        const p = keys[ki]!
        const s = bytes.subarray(0, p.k)
        if (s.length !== p.k) return
        const js = openSignatureJs(p.key, s, p.k)
        expect(hex(openSignature(p.key, s, p.k))).toBe(hex(js))
        // OpenSSL answers exactly when the block is below n; otherwise it refuses and the core says undefined
        expect(rsaNative(p.key, s, p.k) === undefined).toBe(js === undefined)
      }),
      { numRuns: 100, seed: 25 },
    )
  })

  it('a signature not below n, or not k bytes long, is the core\'s answer (undefined) and never OpenSSL\'s', () => {
    const p = keys[0]!
    for (const s of [toBytes(p.key.n, p.k), toBytes(p.key.n + 1n, p.k), new Uint8Array(p.k).fill(0xff)]) {
      expect(rsaNative(p.key, s, p.k)).toBeUndefined()
      expect(openSignature(p.key, s, p.k)).toBeUndefined()
    }
    for (const s of [new Uint8Array(0), new Uint8Array(p.k - 1).fill(1), new Uint8Array(p.k + 1).fill(1)]) expect(rsaNative(p.key, s, p.k)).toBeUndefined()
  })

  it('degenerate keys (modulus 0, 1, even or tiny, exponent 0, 1, even, 2^32 or not below n) are never passed to OpenSSL', () => {
    const n = keys[0]!.key.n
    const sig = new Uint8Array(256).fill(2, 255)
    const cases: [string, bigint, bigint, number, Uint8Array][] = [
      ['modulus 0', 0n, 65537n, 256, sig],
      ['modulus 1', 1n, 65537n, 256, sig],
      ['even modulus', n + 1n, 65537n, 256, sig],
      ['tiny modulus 187, e = 3', 187n, 3n, 1, Uint8Array.of(2)],
      ['tiny modulus 187 as 256 bytes', 187n, 3n, 256, sig],
      ['1024-bit modulus as 256 bytes', (n >> 1024n) | 1n, 65537n, 256, sig],
      ['8200-bit modulus', (1n << 8199n) + 1n, 65537n, 1025, new Uint8Array(1025).fill(2, 1024)],
      ['exponent 0', n, 0n, 256, sig],
      ['exponent 1', n, 1n, 256, sig],
      ['even exponent', n, 65536n, 256, sig],
      ['exponent 2^32 + 1', n, (1n << 32n) + 1n, 256, sig],
      ['exponent above the modulus', 187n, 65537n, 1, Uint8Array.of(2)],
    ]
    for (const [what, mod, e, len, s] of cases) {
      expect(rsaNative({ n: mod, e }, s, len), what).toBeUndefined()
      expect(hex(openSignature({ n: mod, e }, s, len)), what).toBe(hex(openSignatureJs({ n: mod, e }, s, len)))
    }
  })

  it('verifyRsa with the node:crypto step (as the verify bundle builds it) gives the pure-JS answers', async () => {
    vi.resetModules()
    const calls = vi.fn(openSignature)
    vi.doMock('../../src/core/rsa-vp1.js', () => ({ openSignature: calls }))
    try {
      const bundled = (await import('../../src/core/rsa.js')).verifyRsa
      expect(bundled).not.toBe(verifyRsa)
      const same = (what: string, key: RsaPublicKey, scheme: RsaScheme, msg: Uint8Array, sig: Uint8Array): boolean => {
        const answer = verifyRsa(key, scheme, msg, sig)
        expect(bundled(key, scheme, msg, sig), what).toBe(answer)
        return answer
      }
      const msg = new TextEncoder().encode('ipns-signature:record')
      const other = new TextEncoder().encode('ipns-signature:recore')
      for (const [ki, p] of keys.entries()) {
        const wrongKey = keys[(ki + 1) % keys.length]!
        for (const hash of HASHES) {
          const pkcs1: RsaScheme = { family: 'rsa-pkcs1', hash }
          const sig = new Uint8Array(sign(nodeHash(hash), msg, p.priv))
          expect(same('valid', p.key, pkcs1, msg, sig)).toBe(true)
          expect(same('other message', p.key, pkcs1, other, sig)).toBe(false)
          const flipped = sig.slice()
          flipped[100]! ^= 0x04
          expect(same('tampered', p.key, pkcs1, msg, flipped)).toBe(false)
          expect(same('wrong key', wrongKey.key, pkcs1, msg, sig)).toBe(false)
          expect(same('wrong hash', p.key, { family: 'rsa-pkcs1', hash: HASHES[(HASHES.indexOf(hash) + 1) % 3]! }, msg, sig)).toBe(false)
          expect(same('PSS for PKCS#1', p.key, { family: 'rsa-pss', hash, saltLength: 32 }, msg, sig)).toBe(false)
          for (const saltLength of [0, 20, 32, 64]) {
            const pss = new Uint8Array(sign(nodeHash(hash), msg, { key: p.priv, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength }))
            expect(same(`PSS salt ${saltLength}`, p.key, { family: 'rsa-pss', hash, saltLength }, msg, pss)).toBe(true)
            expect(same(`PSS salt ${saltLength} read as ${saltLength + 1}`, p.key, { family: 'rsa-pss', hash, saltLength: saltLength + 1 }, msg, pss)).toBe(false)
            expect(same(`PSS salt ${saltLength}, other message`, p.key, { family: 'rsa-pss', hash, saltLength }, other, pss)).toBe(false)
            expect(same(`PSS salt ${saltLength} as PKCS#1`, p.key, pkcs1, msg, pss)).toBe(false)
          }
        }
        const pkcs1: RsaScheme = { family: 'rsa-pkcs1', hash: 'SHA-256' }
        const sig = new Uint8Array(sign('sha256', msg, p.priv))
        // malformed: lengths, values not below n, a block the private key made that is not the encoding
        expect(same('one byte short', p.key, pkcs1, msg, sig.subarray(1))).toBe(false)
        expect(same('one byte more', p.key, pkcs1, msg, Uint8Array.of(0, ...sig))).toBe(false)
        expect(same('empty', p.key, pkcs1, msg, new Uint8Array(0))).toBe(false)
        expect(same('n itself', p.key, pkcs1, msg, toBytes(p.key.n, p.k))).toBe(false)
        expect(same('all ones', p.key, pkcs1, msg, new Uint8Array(p.k).fill(0xff))).toBe(false)
        expect(same('zero', p.key, pkcs1, msg, new Uint8Array(p.k))).toBe(false)
        expect(same('block type 2', p.key, pkcs1, msg, rawSign(p, Uint8Array.of(0, 2, ...new Uint8Array(p.k - 2).fill(0x55))))).toBe(false)
        expect(same('negative salt length', p.key, { family: 'rsa-pss', hash: 'SHA-256', saltLength: -1 }, msg, sig)).toBe(false)
      }
      // out-of-bounds keys handed directly: refused before any arithmetic, on both paths
      const n = keys[0]!.key.n
      for (const key of [{ n: 187n, e: 3n, bits: 8 }, { n, e: 1n, bits: 2048 }, { n: n + 1n, e: 65537n, bits: 2048 }, { n: 0n, e: 65537n, bits: 0 }]) {
        expect(same(`key n=${key.n} e=${key.e}`, key, { family: 'rsa-pkcs1', hash: 'SHA-256' }, msg, new Uint8Array(Math.max(1, key.bits / 8)))).toBe(false)
      }
      expect(calls).toHaveBeenCalled()
      // every in-bounds exponentiation above was OpenSSL's
      for (const [key, s, len] of calls.mock.calls) if (len === s.length && (key.e & 1n) === 1n && key.e >= 3n && openSignatureJs(key, s, len) !== undefined) expect(rsaNative(key, s, len)).toBeDefined()
    } finally {
      vi.doUnmock('../../src/core/rsa-vp1.js')
      vi.resetModules()
    }
  })

  it('the JWK of a key is the key (node:crypto exports the same modulus and exponent)', () => {
    for (const p of keys) {
      const jwk = createPublicKey(p.priv).export({ format: 'jwk' })
      expect(BigInt(`0x${Buffer.from(jwk.n!, 'base64url').toString('hex')}`)).toBe(p.key.n)
      expect(BigInt(`0x${Buffer.from(jwk.e!, 'base64url').toString('hex')}`)).toBe(p.key.e)
    }
  })
})
