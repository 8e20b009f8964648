/**
 * ECDSA in time-stamp tokens and certificates: the Web Crypto fast path and the `@noble/curves` path
 * give the same answer on valid, tampered, high-S, wrong-curve and malformed signatures, and
 * `verifySignature` gives the same outcome with and without Web Crypto on the host.
 */
import { p256, p384 } from '@noble/curves/nist.js'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { hexToBytes } from '../../../src/core/bytes.js'
import { OID, type HashName } from '../../../src/core/timestamp/oids.js'
import { ecdsaCurve, ecdsaRawSignature, verifyEcdsa, verifyEcdsaNoble, verifyEcdsaWebCrypto, verifySignature, type EcdsaCurve } from '../../../src/core/timestamp/signature.js'
import { digest } from '../../../src/core/timestamp/hash.js'

const subtle = globalThis.crypto.subtle
const P256 = ecdsaCurve(OID.p256)!
const P384 = ecdsaCurve(OID.p384)!
/** noble's curve for one of ours (the module imports it lazily; the tests use it directly). */
const nobleOf = (c: EcdsaCurve): typeof p256 | typeof p384 => (c === P256 ? p256 : p384)
const seeded = (n: number, len: number): Uint8Array => Uint8Array.from({ length: len }, (_, i) => (i * 31 + n * 7 + 1) & 0xff)
const DATA = new TextEncoder().encode('signed attributes of a time-stamp token')

interface Key {
  curve: EcdsaCurve
  secret: Uint8Array
  pub: Uint8Array
}
function key(curve: EcdsaCurve, n: number): Key {
  const secret = seeded(n, curve.name === 'P-256' ? 32 : 48)
  return { curve, secret, pub: nobleOf(curve).getPublicKey(secret, false) }
}
/** DER signature over `data` hashed with `hash` (as a CMS signer does: the digest is signed as is). */
function sign(k: Key, hash: HashName, data: Uint8Array): Uint8Array {
  return nobleOf(k.curve).sign(digest(hash, data), k.secret, { prehash: false, format: 'der', lowS: true })
}
/** The same signature with s replaced by n - s (the high-S twin, equally valid under plain ECDSA). */
function highS(k: Key, der: Uint8Array): Uint8Array {
  const noble = nobleOf(k.curve)
  const sig = noble.Signature.fromBytes(der, 'der')
  return new noble.Signature(sig.r, noble.Point.CURVE().n - sig.s).toBytes('der')
}
function flip(bytes: Uint8Array, at: number): Uint8Array {
  const out = bytes.slice()
  out[at] = out[at]! ^ 0x01
  return out
}

/** Both paths on one case; Web Crypto may decline (undefined), but when it answers it agrees with noble. */
async function both(curve: EcdsaCurve, hash: HashName, pub: Uint8Array, data: Uint8Array, der: Uint8Array): Promise<{ noble: boolean; web: boolean | undefined }> {
  const noble = await verifyEcdsaNoble(curve, hash, pub, data, der)
  const web = await verifyEcdsaWebCrypto(subtle, curve, hash, pub, data, der)
  if (web !== undefined) expect(web, 'Web Crypto and noble disagree').toBe(noble)
  return { noble, web }
}

const A256 = key(P256, 1)
const B256 = key(P256, 2)
const A384 = key(P384, 3)

describe('ECDSA: Web Crypto and @noble/curves agree', () => {
  it('valid signatures: both say valid (P-256/SHA-256, P-384/SHA-384, P-256 with SHA-384 and SHA-512 truncated)', async () => {
    for (const [k, hash] of [[A256, 'SHA-256'], [A384, 'SHA-384'], [A256, 'SHA-384'], [A256, 'SHA-512'], [A384, 'SHA-256']] as const) {
      expect(await both(k.curve, hash, k.pub, DATA, sign(k, hash, DATA)), `${k.curve.name} ${hash}`).toEqual({ noble: true, web: true })
    }
  })

  it('a compressed public point is read alike (or declined by Web Crypto and left to noble)', async () => {
    const r = await both(P256, 'SHA-256', p256.getPublicKey(A256.secret, true), DATA, sign(A256, 'SHA-256', DATA))
    expect(r.noble).toBe(true)
  })

  it('tampered data, a flipped bit in r or s, another key: both say invalid', async () => {
    const der = sign(A256, 'SHA-256', DATA)
    expect(await both(P256, 'SHA-256', A256.pub, flip(DATA, 3), der)).toEqual({ noble: false, web: false })
    expect(await both(P256, 'SHA-256', A256.pub, DATA, flip(der, 10))).toEqual({ noble: false, web: false })
    expect(await both(P256, 'SHA-256', A256.pub, DATA, flip(der, der.length - 2))).toEqual({ noble: false, web: false })
    expect(await both(P256, 'SHA-256', B256.pub, DATA, der)).toEqual({ noble: false, web: false })
    // the right signature under the wrong hash
    expect(await both(P256, 'SHA-384', A256.pub, DATA, der)).toEqual({ noble: false, web: false })
  })

  it('high S is accepted by both (RFC 3161 tokens are plain ECDSA; no low-S rule)', async () => {
    for (const [k, hash] of [[A256, 'SHA-256'], [A384, 'SHA-384']] as const) {
      const der = sign(k, hash, DATA)
      const high = highS(k, der)
      expect(high).not.toEqual(der)
      expect(await both(k.curve, hash, k.pub, DATA, high)).toEqual({ noble: true, web: true })
      expect(await both(k.curve, hash, k.pub, flip(DATA, 0), high)).toEqual({ noble: false, web: false })
    }
  })

  it('wrong curve: a P-384 signature on a P-256 key, a P-256 point read as P-384, and the reverse: invalid on both', async () => {
    const sig384 = sign(A384, 'SHA-256', DATA)
    const sig256 = sign(A256, 'SHA-256', DATA)
    // r and s of a P-384 signature are (almost surely) >= n of P-256: noble's parser refuses them and so Web Crypto is not asked
    expect(await both(P256, 'SHA-256', A256.pub, DATA, sig384)).toEqual({ noble: false, web: undefined })
    // a P-256 point is no P-384 point: Web Crypto refuses to import it (undefined), noble says invalid
    expect((await both(P384, 'SHA-256', A256.pub, DATA, sig256)).noble).toBe(false)
    expect(await verifyEcdsaWebCrypto(subtle, P384, 'SHA-256', A256.pub, DATA, sig256)).toBeUndefined()
    expect((await both(P256, 'SHA-256', A384.pub, DATA, sig384)).noble).toBe(false)
  })

  it('malformed DER (trailing byte, non-minimal integer, r = 0, s = n, empty): invalid for noble, not passed to Web Crypto', async () => {
    const der = sign(A256, 'SHA-256', DATA)
    const sig = p256.Signature.fromBytes(der, 'der')
    const n = p256.Point.CURVE().n
    const int = (x: bigint): number[] => {
      let hex = x.toString(16)
      if (hex.length % 2 === 1) hex = `0${hex}`
      const bytes = [...hexToBytes(hex)]
      return bytes[0]! >= 0x80 ? [0, ...bytes] : bytes
    }
    const seq = (...ints: number[][]): Uint8Array => {
      const body = ints.flatMap((i) => [0x02, i.length, ...i])
      return Uint8Array.from([0x30, body.length, ...body])
    }
    const cases: [string, Uint8Array][] = [
      ['trailing byte', Uint8Array.from([...der, 0])],
      ['non-minimal r', seq([0, 0, ...int(sig.r).filter((_, i, a) => !(i === 0 && a[0] === 0))], int(sig.s))],
      ['r = 0', seq([0], int(sig.s))],
      ['s = n', seq(int(sig.r), int(n))],
      ['empty', new Uint8Array(0)],
    ]
    for (const [name, bad] of cases) {
      expect(await both(P256, 'SHA-256', A256.pub, DATA, bad), name).toEqual({ noble: false, web: undefined })
      expect(await verifyEcdsa(P256, 'SHA-256', A256.pub, DATA, bad), name).toBe(false)
    }
  })

  it("the curves' orders and sizes are noble's", () => {
    expect(P256.order).toBe(p256.Point.CURVE().n)
    expect(P384.order).toBe(p384.Point.CURVE().n)
    expect([P256.size, P384.size]).toEqual([p256.lengths.signature! / 2, p384.lengths.signature! / 2])
  })

  it("ecdsaRawSignature reads a signature only when noble's DER parser reads it, and to the same r || s (fast-check, seed 8)", () => {
    const nobleRaw = (c: EcdsaCurve, der: Uint8Array): Uint8Array | undefined => {
      try {
        return nobleOf(c).Signature.fromBytes(der, 'der').toBytes('compact')
      } catch {
        return undefined
      }
    }
    let read = 0
    let mutated = 0
    fc.assert(
      fc.property(fc.boolean(), fc.uint8Array({ maxLength: 64 }), fc.boolean(), fc.array(fc.tuple(fc.nat(), fc.nat(255), fc.constantFrom('set', 'insert', 'delete')), { maxLength: 3 }), (p384Key, data, high, edits) => {
        const k = p384Key ? A384 : A256
        const der0 = sign(k, 'SHA-256', data)
        const b = Array.from(high ? highS(k, der0) : der0)
        for (const [at0, byte, op] of edits) {
          const at = at0 % (b.length + 1)
          if (op === 'set' && at < b.length) b[at] = byte
          else if (op === 'insert') b.splice(at, 0, byte)
          else b.splice(at, 1)
        }
        const der = Uint8Array.from(b)
        const mine = ecdsaRawSignature(k.curve, der)
        const theirs = nobleRaw(k.curve, der)
        if (edits.length === 0) expect(mine).toBeDefined()
        if (mine === undefined) return
        read++
        if (edits.length > 0) mutated++
        expect(theirs, 'read here but refused by noble').toBeDefined()
        expect([...mine]).toEqual([...theirs!])
      }),
      { seed: 8, numRuns: 400 },
    )
    expect(read).toBeGreaterThan(100)
    expect(mutated).toBeGreaterThan(20)
  })

  it('random keys, messages and one flipped bit anywhere (fast-check, seed 7): the paths agree', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 48, maxLength: 48 }), fc.uint8Array({ maxLength: 200 }), fc.nat(), fc.boolean(), async (secretSeed, data, where, tamperSig) => {
        const secret = p256.utils.randomSecretKey(secretSeed)
        const k = { curve: P256, secret, pub: p256.getPublicKey(secret, false) }
        const der = sign(k, 'SHA-256', data)
        expect((await both(P256, 'SHA-256', k.pub, data, der)).noble).toBe(true)
        if (tamperSig) await both(P256, 'SHA-256', k.pub, data, flip(der, where % der.length))
        else if (data.length > 0) expect((await both(P256, 'SHA-256', k.pub, flip(data, where % data.length), der)).noble).toBe(false)
      }),
      { seed: 7, numRuns: 60 },
    )
  })
})

describe('verifySignature: the same outcome with and without Web Crypto', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })
  const SPKI_P256_PREFIX = hexToBytes('3059301306072a8648ce3d020106082a8648ce3d030107034200')
  const spki = Uint8Array.from([...SPKI_P256_PREFIX, ...A256.pub])
  const alg = { oid: OID.ecdsaWithSha256, params: undefined }
  const good = sign(A256, 'SHA-256', DATA)
  const cases: [string, Uint8Array, Uint8Array, string][] = [
    ['valid', DATA, good, 'valid'],
    ['high S', DATA, highS(A256, good), 'valid'],
    ['tampered data', flip(DATA, 1), good, 'invalid'],
    ['tampered signature', DATA, flip(good, 12), 'invalid'],
    ['P-384 signature', DATA, sign(A384, 'SHA-256', DATA), 'invalid'],
  ]

  it('with Web Crypto: valid signatures are decided natively (one native verify), invalid ones by noble too', async () => {
    let calls = 0
    const counting = new Proxy(subtle, {
      get(target, prop) {
        if (prop === 'verify') return (...args: Parameters<SubtleCrypto['verify']>) => ((calls += 1), target.verify(...args))
        const v = Reflect.get(target, prop) as unknown
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
      },
    })
    vi.stubGlobal('crypto', { subtle: counting })
    for (const [name, data, sig, want] of cases) {
      calls = 0
      expect((await verifySignature(alg, spki, data, sig)).kind, name).toBe(want)
      if (name === 'valid' || name === 'high S') expect(calls, name).toBe(1)
    }
  })

  it('without Web Crypto (a plain-http page): the same outcomes from noble alone', async () => {
    vi.stubGlobal('crypto', undefined)
    expect((globalThis as { crypto?: unknown }).crypto).toBeUndefined()
    for (const [name, data, sig, want] of cases) expect((await verifySignature(alg, spki, data, sig)).kind, name).toBe(want)
  })
})
