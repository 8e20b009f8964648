/**
 * src/node/native-sha1.ts (what the CLI's verify bundle uses in the place of `@noble/hashes/legacy.js`):
 * SHA-1 of a byte array equals noble's byte for byte (every length across the block boundaries, Buffer
 * and subarray inputs, random inputs), returns a plain `Uint8Array` of its own, and keeps noble's members
 * (incremental hashing) and its errors for anything else.
 */
import fc from 'fast-check'
import * as noble from '@noble/hashes/legacy.js'
import { describe, expect, it } from 'vitest'
import * as native from '../../src/node/native-sha1.js'
import { thrownShape } from '../helpers/thrown.js'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')


describe('native-sha1 (node:crypto behind noble\'s sha1)', () => {
  it('gives noble\'s digests for every length from 0 to 200 bytes, on random inputs, Buffers and subarrays, and a known answer', () => {
    for (let n = 0; n <= 200; n++) {
      const msg = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff)
      expect(hex(native.sha1(msg)), `${n}`).toBe(hex(noble.sha1(msg)))
    }
    expect(hex(native.sha1(new TextEncoder().encode('abc')))).toBe('a9993e364706816aba3e25717850c26c9cd0d89d')
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.nat(16), (bytes, cut) => {
        const view = bytes.subarray(Math.min(cut, bytes.length))
        expect(hex(native.sha1(bytes))).toBe(hex(noble.sha1(bytes)))
        expect(hex(native.sha1(view))).toBe(hex(noble.sha1(view)))
        expect(hex(native.sha1(Buffer.from(bytes)))).toBe(hex(noble.sha1(bytes)))
      }),
    )
  })

  it('returns a plain Uint8Array of 20 bytes, not a Buffer sharing memory', () => {
    const a = native.sha1(new Uint8Array([1, 2, 3]))
    expect(Object.getPrototypeOf(a)).toBe(Uint8Array.prototype)
    expect(a.length).toBe(20)
    expect(a.buffer.byteLength).toBe(20)
  })

  it('keeps noble\'s members and incremental hashing (noble\'s own hash object), and exports sha1 alone', () => {
    expect(Object.keys(native.sha1)).toEqual(Object.keys(noble.sha1))
    for (const m of ['outputLen', 'blockLen', 'canXOF', 'oid'] as const) expect(native.sha1[m]).toEqual(noble.sha1[m])
    expect(Object.isFrozen(native.sha1)).toBe(Object.isFrozen(noble.sha1))
    const msg = new Uint8Array(150).fill(7)
    const incremental = native.sha1.create()
    expect(incremental).toBeInstanceOf(noble.sha1.create().constructor)
    expect(hex(incremental.update(msg.subarray(0, 70)).update(msg.subarray(70)).digest())).toBe(hex(noble.sha1(msg)))
    // Only sha1: a bundled module importing another name of legacy.js fails the bundle's build.
    expect(Object.keys(native)).toEqual(['sha1'])
  })

  it('leaves anything but one byte array to noble, with noble\'s errors', () => {
    for (const bad of ['abc', [1, 2, 3], undefined, null, 42, new Uint16Array(4)]) {
      const got = thrownShape(() => (native.sha1 as (m: unknown) => Uint8Array)(bad))
      expect(got, String(bad)).toEqual(thrownShape(() => (noble.sha1 as (m: unknown) => Uint8Array)(bad)))
      expect(got).not.toBeUndefined()
    }
  })
})
