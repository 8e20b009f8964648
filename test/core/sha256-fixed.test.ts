/**
 * The specialised SHA-256 of src/core/sha256-fixed.ts against two independent implementations
 * (`@noble/hashes` and OpenSSL through `node:crypto`) on every message shape it is used for, and the
 * optimised participants digest against the literal RFC 9162 reference (test/core/merkle/reference.ts).
 */
import { createHash, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { sha256 } from '@noble/hashes/sha2.js'
import { hmac } from '@noble/hashes/hmac.js'
import { HMAC_SHORT_MAX, HmacSha256Short, hashesToWords, nodeHashWords, sha256Words, wordsToBytes, wordsToHashes } from '../../src/core/sha256-fixed.js'
import { participantsRoot, participantsTree } from '../../src/core/participants.js'
import { leafSalt } from '../../src/core/secret.js'
import { refLeaf, refMth, refPath, refWeightedLeaf, toHex } from './merkle/reference.js'

const words = (msg: Uint8Array, len = msg.length): Uint8Array => {
  const out = new Int32Array(8)
  sha256Words(msg, len, out, 0)
  return wordsToHashes(out, 1)
}
const openssl = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex')
const bytes = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 131 + seed * 7 + 13) & 255)

describe('sha256Words (leaf messages of any length)', () => {
  it('equals @noble/hashes and node:crypto for every length 0..300 (one, two and more blocks, every padding case)', () => {
    for (let n = 0; n <= 300; n++) {
      const m = bytes(n, n)
      const got = toHex(words(m))
      expect(got, `length ${n}`).toBe(toHex(sha256(m)))
      expect(got, `length ${n}`).toBe(openssl(m))
    }
  })

  it('hashes only msg[0..len) of a larger scratch buffer, at any output offset', () => {
    const scratch = bytes(200, 5)
    const out = new Int32Array(40).fill(-1)
    sha256Words(scratch, 77, out, 16)
    expect(toHex(wordsToHashes(out.subarray(16, 24), 1))).toBe(openssl(scratch.subarray(0, 77)))
    expect(Array.from(out.subarray(0, 16)).every((x) => x === -1)).toBe(true)
    expect(Array.from(out.subarray(24)).every((x) => x === -1)).toBe(true)
  })

  it('random messages (fast-check)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 1200 }), (m) => {
        expect(toHex(words(m))).toBe(openssl(m))
      }),
      { numRuns: 300, seed: 15 },
    )
  })
})

describe('nodeHashWords (the 65-byte node message)', () => {
  it('equals SHA-256(0x01 || left || right) by both references, for random and extreme children', () => {
    const cases: [Uint8Array, Uint8Array][] = [
      [new Uint8Array(32), new Uint8Array(32)],
      [new Uint8Array(32).fill(255), new Uint8Array(32).fill(255)],
      [new Uint8Array(32).fill(0x80), new Uint8Array(32).fill(0x7f)],
      ...Array.from({ length: 64 }, (_, k): [Uint8Array, Uint8Array] => [bytes(32, k), bytes(32, k + 1000)]),
    ]
    for (const [l, r] of cases) {
      const src = hashesToWords(new Uint8Array([...l, ...r]), 2)
      const out = new Int32Array(8)
      nodeHashWords(src, 0, 8, out, 0)
      const msg = new Uint8Array([1, ...l, ...r])
      expect(toHex(wordsToHashes(out, 1))).toBe(toHex(sha256(msg)))
      expect(toHex(wordsToHashes(out, 1))).toBe(openssl(msg))
    }
  })

  it('may write over either child (in-place tree levels)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 64, maxLength: 64 }), fc.boolean(), (lr, overLeft) => {
        const src = hashesToWords(lr, 2)
        nodeHashWords(src, 0, 8, src, overLeft ? 0 : 8)
        const got = new Uint8Array(32)
        wordsToBytes(src, overLeft ? 0 : 8, got, 0)
        expect(toHex(got)).toBe(openssl(new Uint8Array([1, ...lr])))
      }),
      { numRuns: 200, seed: 16 },
    )
  })

  it('words <-> bytes round-trips', () => {
    const b = bytes(32 * 5, 9)
    expect(wordsToHashes(hashesToWords(b, 5), 5)).toEqual(b)
  })
})

describe('HmacSha256Short (leaf salts)', () => {
  it('equals @noble/hashes hmac and node:crypto createHmac for keys of 1..64 bytes and messages of 0..55 bytes', () => {
    for (const keyLen of [1, 16, 31, 32, 33, 55, 63, 64]) {
      const key = bytes(keyLen, keyLen + 3)
      const mac = new HmacSha256Short(key)
      for (let len = 0; len <= HMAC_SHORT_MAX; len++) {
        const msg = bytes(len, len * 5 + keyLen)
        const out = new Uint8Array(40)
        mac.mac(msg, len, out, 4)
        const got = toHex(out.subarray(4, 36))
        expect(got, `key ${keyLen}, msg ${len}`).toBe(toHex(hmac(sha256, key, msg)))
        expect(got, `key ${keyLen}, msg ${len}`).toBe(createHmac('sha256', key).update(msg).digest('hex'))
      }
    }
  })

  it('refuses what it does not implement (long keys, long messages) instead of computing something else', () => {
    expect(() => new HmacSha256Short(new Uint8Array(65))).toThrow(RangeError)
    expect(() => new HmacSha256Short(new Uint8Array(32).fill(1)).mac(new Uint8Array(56), 56, new Uint8Array(32), 0)).toThrow(RangeError)
  })

  it('leaf salts equal the spec formula computed with node:crypto', () => {
    const secret = bytes(32, 77)
    for (const i of [0, 1, 255, 256, 65_535, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 5, Number.MAX_SAFE_INTEGER]) {
      const msg = Buffer.alloc(31)
      msg.write('orbitdraw/v1/leaf-salt', 0, 'latin1')
      msg.writeBigUInt64BE(BigInt(i), 23)
      expect(toHex(leafSalt(secret, i)), `index ${i}`).toBe(createHmac('sha256', secret).update(msg).digest('hex'))
    }
  })
})

// Entries drawn from code points of every UTF-8 length (1-4 bytes), NFC and free of invisibles and controls.
const PIECES = ['a', 'Z', '9', '-', ' ', 'é', 'ß', 'Ж', 'ش', '中', '語', '€', 'ﬀ', '😀', '𝔸', '𠀋']
const entry = fc
  .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 40 })
  .map((xs) => xs.join(''))
  .filter((s) => s.trim() === s && s.normalize('NFC') === s)

describe('participants digest: optimised path = literal reference', () => {
  it('unweighted, weighted and salted roots equal the RFC 9162 reference over TextEncoder leaves and noble HMAC salts', () => {
    fc.assert(
      fc.property(fc.uniqueArray(entry, { minLength: 1, maxLength: 70 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (list, w0) => {
        expect(toHex(participantsRoot(list))).toBe(toHex(refMth(list.map(refLeaf))))
        const weighted = list.map((e, i) => ({ entry: e, weight: i === 0 ? w0 : i + 1 }))
        expect(toHex(participantsRoot(weighted))).toBe(toHex(refMth(weighted.map((x) => refWeightedLeaf(x.entry, x.weight)))))
        const secret = bytes(32, list.length)
        const salt = (i: number): Uint8Array => {
          const m = new Uint8Array(31)
          m.set(new TextEncoder().encode('orbitdraw/v1/leaf-salt'))
          new DataView(m.buffer).setBigUint64(23, BigInt(i))
          return hmac(sha256, secret, m)
        }
        const saltedLeaves = list.map((e, i) => new Uint8Array([...salt(i), ...refLeaf(e)]))
        expect(toHex(participantsRoot(list, { secret }))).toBe(toHex(refMth(saltedLeaves)))
        expect(toHex(participantsRoot(list, { salts: list.map((_, i) => salt(i)) }))).toBe(toHex(refMth(saltedLeaves)))
        const tree = participantsTree(list, { secret })
        const k = list.length - 1
        expect(tree.inclusionProof(k).map(toHex)).toEqual(refPath(k, saltedLeaves).map(toHex))
        expect(toHex(tree.leafData(k))).toBe(toHex(saltedLeaves[k]!))
      }),
      { numRuns: 60, seed: 1515 },
    )
  })

  it('entries at the UTF-8 size limit and around block boundaries hash like the reference', () => {
    const list = [53, 54, 55, 56, 62, 63, 64, 117, 118, 119, 1000, 1024].map((n) => 'x'.repeat(n))
    list.push('😀'.repeat(256), 'é'.repeat(512), '中'.repeat(341))
    expect(toHex(participantsRoot(list))).toBe(toHex(refMth(list.map(refLeaf))))
  })
})
