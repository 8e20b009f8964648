import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { hmac } from '@noble/hashes/hmac.js'
import { sha256, sha512 } from '@noble/hashes/sha2.js'
import { createBase58check } from '@scure/base'
import { bytesToHex, hexToBytes, utf8Encode } from '../../src/core/bytes.js'
import { InvalidInputError, LimitExceededError } from '../../src/core/errors.js'
import { DERIVED_MAX_INDEX, DerivedSource, derivedPublicKey, derivedValue, derivedValues } from '../../src/rest/derived.js'
import { assertNoSecrets, record, startHarness, thrown, type Harness } from './helpers.js'

interface Vectors {
  vectors: { name: string; seed: string; values: { index: number; publicKey: string; value: string }[] }[]
}
const vectors = JSON.parse(readFileSync(new URL('../vectors/derived.json', import.meta.url), 'utf8')) as Vectors

// ---- an independent BIP32 (hardened children only), written from the BIP32 text ----------------
const N = secp256k1.Point.CURVE().n

function toBig(b: Uint8Array): bigint {
  return BigInt(`0x${bytesToHex(b) || '0'}`)
}
function ser256(x: bigint): Uint8Array {
  return hexToBytes(x.toString(16).padStart(64, '0'))
}
function ser32(i: number): Uint8Array {
  return Uint8Array.from([(i >>> 24) & 255, (i >>> 16) & 255, (i >>> 8) & 255, i & 255])
}
function independentMaster(seed: Uint8Array): { k: bigint; c: Uint8Array } {
  const I = hmac(sha512, utf8Encode('Bitcoin seed'), seed)
  return { k: toBig(I.slice(0, 32)), c: I.slice(32) }
}
function independentHardenedChild(parent: { k: bigint; c: Uint8Array }, i: number): { k: bigint; c: Uint8Array } {
  const data = new Uint8Array(37)
  data.set(ser256(parent.k), 1) // 0x00 || ser256(k_par) || ser32(i + 2^31)
  data.set(ser32((0x8000_0000 + i) >>> 0), 33)
  const I = hmac(sha512, parent.c, data)
  return { k: (toBig(I.slice(0, 32)) + parent.k) % N, c: I.slice(32) }
}
function independentValue(seed: Uint8Array, i: number): { pub: Uint8Array; value: Uint8Array; k: bigint } {
  const child = independentHardenedChild(independentMaster(seed), i)
  const pub = secp256k1.getPublicKey(ser256(child.k), true)
  return { pub, value: sha256(pub), k: child.k }
}

describe('local derived source', () => {
  it('matches the committed vectors byte-exactly', () => {
    expect(vectors.vectors.length).toBeGreaterThanOrEqual(5)
    for (const v of vectors.vectors) {
      const indices = v.values.map((x) => x.index)
      for (const x of v.values) {
        expect(bytesToHex(derivedValue(v.seed, x.index)), `${v.name} #${x.index}`).toBe(x.value)
        expect(bytesToHex(derivedPublicKey(hexToBytes(v.seed), x.index))).toBe(x.publicKey)
      }
      // batch form agrees with single values
      const batch = derivedValues(v.seed, 0, 4).map(bytesToHex)
      expect(batch).toEqual(v.values.filter((x) => x.index < 4).map((x) => x.value))
      expect(indices).toContain(DERIVED_MAX_INDEX)
    }
  })

  it('the vectors agree with an independent BIP32 implementation (noble HMAC-SHA512 + secp256k1)', () => {
    for (const v of vectors.vectors) {
      for (const x of v.values) {
        const ind = independentValue(hexToBytes(v.seed), x.index)
        expect(bytesToHex(ind.pub), `${v.name} #${x.index} public key`).toBe(x.publicKey)
        expect(bytesToHex(ind.value), `${v.name} #${x.index} value`).toBe(x.value)
        expect(bytesToHex(sha256(hexToBytes(x.publicKey)))).toBe(x.value)
      }
    }
  })

  it("reproduces the published BIP32 test vector 4 (32-byte seed), chain m/0H", () => {
    // https://github.com/bitcoin/bips/blob/master/bip-0032.mediawiki, test vector 4
    const seed = '3ddd5602285899a946114506157c7997e5444528f3003f6134712147db19b678'
    const xpub = 'xpub69AUMk3qDBi3uW1sXgjCmVjJ2G6WQoYSnNHyzkmdCHEhSZ4tBok37xfFEqHd2AddP56Tqp4o56AePAgCjYdvpW2PU2jbUPFKsav5ut6Ch1m'
    const raw = createBase58check(sha256).decode(xpub) // 78 bytes: version..chain code, then 33-byte key
    expect(raw.length).toBe(78)
    const pub = raw.slice(45)
    expect(bytesToHex(derivedPublicKey(seed, 0))).toBe(bytesToHex(pub))
    expect(bytesToHex(derivedValue(seed, 0))).toBe(bytesToHex(sha256(pub)))
    // The private key of m/0H has a leading zero byte (the point of this vector).
    expect(independentValue(hexToBytes(seed), 0).k.toString(16).padStart(64, '0')).toBe('00d948e9261e41362a688b916f297121ba6bfb2274a3575ac0e456551dfd7f7e')
  })

  it('agrees with the independent implementation on random seeds and indices', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 0, max: DERIVED_MAX_INDEX }), (seed, i) => {
        expect(bytesToHex(derivedValue(seed, i))).toBe(bytesToHex(independentValue(seed, i).value))
      }),
      { numRuns: 40, seed: 424242 },
    )
  })

  it('DerivedSource yields indices 0, 1, 2, … like derivedValues', () => {
    const seed = vectors.vectors[1]!.seed
    const src = new DerivedSource(seed)
    const got = [src.next(), src.next(), src.next()]
    expect(got.map((g) => g.index)).toEqual([0, 1, 2])
    expect(got.map((g) => bytesToHex(g.value))).toEqual(derivedValues(seed, 0, 3).map(bytesToHex))
    expect(src.nextIndex).toBe(3)
    expect(JSON.stringify(src)).toBe('{"nextIndex":3}')
    expect(bytesToHex(new DerivedSource(seed, 2).next().value)).toBe(bytesToHex(derivedValue(seed, 2)))
  })

  it('rejects bad seeds, indices and counts with typed errors', () => {
    const seed = new Uint8Array(32)
    expect(thrown(() => derivedValue(new Uint8Array(31), 0))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => derivedValue(new Uint8Array(33), 0))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => derivedValue('ab'.repeat(31), 0))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => derivedValue('zz'.repeat(32), 0))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => derivedValue(42 as unknown as Uint8Array, 0))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => derivedValue(seed, -1))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => derivedValue(seed, 1.5))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => derivedValue(seed, DERIVED_MAX_INDEX + 1))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => derivedValues(seed, DERIVED_MAX_INDEX, 2))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => derivedValues(seed, 0, -1))).toBeInstanceOf(InvalidInputError)
    expect(thrown(() => derivedValues(seed, 0, 2_000_000))).toBeInstanceOf(LimitExceededError)
    expect(derivedValues(seed, 5, 0)).toEqual([])
    const e = thrown(() => derivedValue(new Uint8Array(31), 0)) as InvalidInputError
    expect(e.code).toBe('INVALID_DERIVED_SEED')
    expect(e.path).toBe('$.seed')
  })
})

describe('the emulator derived fallback uses the same derivation', () => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness({ satelliteSeed: sha256(utf8Encode('emulator seed')) })
  })
  afterAll(async () => {
    await h.close()
    assertNoSecrets()
  })

  it('serves derivedValue(seed, 0), (seed, 1), … for src=derived', async () => {
    const c = h.client()
    const a = await c.random({ src: 'derived' })
    const b = await c.random({ src: 'derived' })
    record(a)
    expect(a.source).toBe('derived')
    expect(a.hex).toBe(bytesToHex(derivedValue(h.service.derivedSeed, 0)))
    expect(b.hex).toBe(bytesToHex(derivedValue(h.service.derivedSeed, 1)))
    // The default seed is the emulator's first satellite value: SHA-256(seed || 0 as 8 bytes).
    expect(bytesToHex(h.service.derivedSeed)).toBe(bytesToHex(sha256(new Uint8Array([...sha256(utf8Encode('emulator seed')), 0, 0, 0, 0, 0, 0, 0, 0]))))
  })
})
