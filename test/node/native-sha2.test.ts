/**
 * src/node/native-sha2.ts (what the CLI's verify bundle uses in the place of `@noble/hashes/sha2.js`):
 * SHA-256, SHA-384 and SHA-512 of a byte array equal noble's byte for byte (every length across the
 * block boundaries, Buffer and subarray inputs, random inputs), return a plain `Uint8Array` of its own,
 * and keep noble's members (incremental hashing) and its errors for anything else.
 */
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import * as noble from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import * as native from '../../src/node/native-sha2.js'
import { thrownShape } from '../helpers/thrown.js'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const HASHES = ['sha256', 'sha384', 'sha512'] as const

describe('native-sha2 (node:crypto behind noble\'s sha2 API)', () => {
  it('gives noble\'s digests for every length from 0 to 300 bytes, and known answers', () => {
    for (const h of HASHES) {
      for (let n = 0; n <= 300; n++) {
        const msg = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff)
        expect(hex(native[h](msg)), `${h} ${n}`).toBe(hex(noble[h](msg)))
      }
      expect(hex(native[h](new TextEncoder().encode('abc')))).toBe(createHash(h).update('abc').digest('hex'))
    }
    expect(hex(native.sha256(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
  })

  it('gives noble\'s digests on random inputs, Buffers and subarrays', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.nat(16), (bytes, cut) => {
        const view = bytes.subarray(Math.min(cut, bytes.length))
        for (const h of HASHES) {
          expect(hex(native[h](bytes))).toBe(hex(noble[h](bytes)))
          expect(hex(native[h](view))).toBe(hex(noble[h](view)))
          expect(hex(native[h](Buffer.from(bytes)))).toBe(hex(noble[h](bytes)))
        }
      }),
    )
  })

  it('returns a plain Uint8Array of its own length, not a Buffer sharing memory', () => {
    const a = native.sha256(new Uint8Array([1, 2, 3]))
    const b = native.sha256(new Uint8Array([1, 2, 3]))
    expect(Object.getPrototypeOf(a)).toBe(Uint8Array.prototype)
    expect(a.length).toBe(32)
    expect(a.byteOffset).toBe(0)
    expect(a.buffer.byteLength).toBe(32)
    a[0] = a[0]! ^ 0xff
    expect(hex(b)).toBe(hex(noble.sha256(new Uint8Array([1, 2, 3]))))
    expect(native.sha512(new Uint8Array(0)).length).toBe(64)
  })

  it('keeps noble\'s members: outputLen, blockLen, canXOF, oid and incremental hashing (noble\'s own hash object)', () => {
    for (const h of HASHES) {
      expect(Object.keys(native[h]).sort()).toEqual(Object.keys(noble[h]).sort())
      expect(native[h].outputLen).toBe(noble[h].outputLen)
      expect(native[h].blockLen).toBe(noble[h].blockLen)
      expect(native[h].canXOF).toBe(noble[h].canXOF)
      expect(native[h].oid).toEqual(noble[h].oid)
      expect(Object.isFrozen(native[h])).toBe(Object.isFrozen(noble[h]))
      const msg = new Uint8Array(200).fill(9)
      const incremental = native[h].create()
      expect(incremental).toBeInstanceOf(noble[h].create().constructor)
      expect(hex(incremental.update(msg.subarray(0, 70)).update(msg.subarray(70)).digest())).toBe(hex(noble[h](msg)))
    }
    // Only the three hashes: a bundled module importing another name of sha2.js fails the bundle's build.
    expect(Object.keys(native).sort()).toEqual(HASHES.slice().sort())
  })

  it('leaves anything but one byte array to noble, with noble\'s errors', () => {
    for (const h of HASHES) {
      for (const bad of ['abc', [1, 2, 3], undefined, null, 42, new Uint16Array(4)]) {
        const got = thrownShape(() => (native[h] as (m: unknown) => Uint8Array)(bad))
        expect(got, `${h} ${String(bad)}`).toEqual(thrownShape(() => (noble[h] as (m: unknown) => Uint8Array)(bad)))
        expect(got).not.toBeUndefined()
      }
    }
  })
})
