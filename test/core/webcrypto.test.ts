/**
 * The core's Web Crypto helper: keys imported once per (bytes, Web Crypto object), the last few kept,
 * a failed import not remembered; copies that own their buffer.
 */
import { p256 } from '@noble/curves/nist.js'
import { describe, expect, it } from 'vitest'
import { keyImporter, ownBuffer, webCrypto } from '../../src/core/webcrypto.js'

/** A Web Crypto stand-in that counts imports and fails those of keys starting with 0xff. */
function countingSubtle(): { subtle: SubtleCrypto; imports: () => number } {
  let imports = 0
  const subtle = {
    importKey: (_format: string, data: Uint8Array) => {
      imports += 1
      return data[0] === 0xff ? Promise.reject(new Error('refused')) : Promise.resolve({ type: 'public', id: imports } as unknown as CryptoKey)
    },
  } as unknown as SubtleCrypto
  return { subtle, imports: () => imports }
}

describe('keyImporter', () => {
  it('imports a key once, again for another key, and keeps the last `size` keys', async () => {
    const { subtle, imports } = countingSubtle()
    const get = keyImporter('raw', { name: 'Ed25519' }, 2)
    const a = Uint8Array.of(1, 2, 3)
    const b = Uint8Array.of(4, 5, 6)
    const c = Uint8Array.of(7, 8, 9)
    const ka = await get(subtle, a)
    expect(await get(subtle, Uint8Array.of(1, 2, 3))).toBe(ka) // equal bytes, another array: the same key
    expect(imports()).toBe(1)
    await get(subtle, b)
    expect(await get(subtle, a)).toBe(ka)
    expect(imports()).toBe(2)
    await get(subtle, c) // the two used last (a, c) are kept: b was dropped
    expect(imports()).toBe(3)
    await get(subtle, b)
    expect(imports()).toBe(4)
  })

  it('a changed key array after import does not change what is remembered', async () => {
    const { subtle, imports } = countingSubtle()
    const get = keyImporter('raw', { name: 'Ed25519' })
    const a = Uint8Array.of(1, 2, 3)
    await get(subtle, a)
    a[0] = 9
    await get(subtle, Uint8Array.of(1, 2, 3))
    expect(imports()).toBe(1)
  })

  it('another Web Crypto object imports again; a failed import is not remembered', async () => {
    const one = countingSubtle()
    const two = countingSubtle()
    const get = keyImporter('spki', { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' })
    const k = Uint8Array.of(1)
    await get(one.subtle, k)
    await get(two.subtle, k)
    expect([one.imports(), two.imports()]).toEqual([1, 1])
    const bad = Uint8Array.of(0xff)
    await expect(get(one.subtle, bad)).rejects.toThrow('refused')
    await expect(get(one.subtle, bad)).rejects.toThrow('refused')
    expect(one.imports()).toBe(3)
  })

  it('imports through the host Web Crypto: a usable public key, remembered', async () => {
    const subtle = webCrypto()!
    const get = keyImporter('raw', { name: 'ECDSA', namedCurve: 'P-256' })
    const point = p256.getPublicKey(p256.utils.randomSecretKey(new Uint8Array(48).fill(5)), false)
    const key = await get(subtle, point)
    expect(key.type).toBe('public')
    expect(key.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' })
    expect(await get(subtle, point.slice())).toBe(key)
    await expect(get(subtle, point.subarray(0, 40))).rejects.toThrow()
  })
})

describe('ownBuffer', () => {
  it('copies a view into a buffer of its own', () => {
    const big = Uint8Array.of(0, 1, 2, 3, 4)
    const view = big.subarray(1, 3)
    const own = ownBuffer(view)
    expect([...own]).toEqual([1, 2])
    expect(own.buffer.byteLength).toBe(2)
    big[1] = 7
    expect(own[0]).toBe(1)
  })
})
