/**
 * The `derived` source's two labelled methods: `chacha20` (Orbitport's gateway code: IETF ChaCha20,
 * key = seed, zero nonce, counter 0) checked byte-exactly against test/vectors/derived-chacha20.json,
 * RFC 8439's own test vector and node:crypto; `bip32` stays the default, unchanged.
 */
import { createCipheriv } from 'node:crypto'
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DERIVED_METHODS, derivedValue, derivedValues, DerivedSource } from '../../src/rest/derived.js'

const vectors = JSON.parse(readFileSync(new URL('../vectors/derived-chacha20.json', import.meta.url), 'utf8')) as { vectors: { name: string; seed: string; values: { index: number; value: string }[] }[] }
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

/** Value i by node:crypto: block floor(i/2) of the keystream, its half i mod 2. */
function nodeValue(seed: Uint8Array, i: number): string {
  const iv = Buffer.alloc(16)
  iv.writeUInt32LE(Math.floor(i / 2), 0)
  const ks = createCipheriv('chacha20', seed, iv).update(Buffer.alloc(64))
  return ks.subarray((i % 2) * 32, (i % 2) * 32 + 32).toString('hex')
}

describe('derived source, method chacha20', () => {
  it('is labelled beside bip32', () => {
    expect(Object.keys(DERIVED_METHODS)).toEqual(['bip32', 'chacha20'])
    expect(DERIVED_METHODS.chacha20).toMatch(/ChaCha20.*zero nonce, counter 0/)
    expect(DERIVED_METHODS.bip32).toMatch(/BIP32/)
  })

  it('matches RFC 8439 appendix A.1 test vector #1 (all-zero key and nonce, counter 0)', () => {
    const ks = '76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586'
    expect(derivedValues('00'.repeat(32), 0, 2, 'chacha20').map(hex).join('')).toBe(ks)
  })

  for (const v of vectors.vectors) {
    it(`matches the vectors byte for byte: ${v.name}`, () => {
      for (const { index, value } of v.values) {
        expect(hex(derivedValue(v.seed, index, 'chacha20')), `index ${index}`).toBe(value)
        expect(nodeValue(Buffer.from(v.seed, 'hex'), index)).toBe(value)
      }
      expect(hex(derivedValue(v.seed, 0, 'chacha20'))).not.toBe(hex(derivedValue(v.seed, 0))) // bip32 (default) differs
    })
  }

  it('batches, single values and the stateful source agree (any start, odd or even)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 0, max: 2 ** 31 - 20 }), fc.integer({ min: 0, max: 9 }), (seed, start, count) => {
        const batch = derivedValues(seed, start, count, 'chacha20').map(hex)
        expect(batch).toEqual(Array.from({ length: count }, (_, k) => nodeValue(seed, start + k)))
        const src = new DerivedSource(seed, start, 'chacha20')
        for (let k = 0; k < count; k++) expect(hex(src.next().value)).toBe(batch[k])
      }),
      { numRuns: 60, seed: 24 },
    )
  })

  it('refuses an unknown method and keeps its limits', () => {
    expect(() => derivedValue('00'.repeat(32), 0, 'hkdf' as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }))
    expect(() => derivedValue('00'.repeat(32), 2 ** 31, 'chacha20')).toThrow(expect.objectContaining({ code: 'INVALID_DERIVED_INDEX' }))
    expect(() => derivedValue('00'.repeat(31), 0, 'chacha20')).toThrow(expect.objectContaining({ code: 'INVALID_DERIVED_SEED' }))
    expect(JSON.stringify(new DerivedSource('00'.repeat(32), 3, 'chacha20'))).toBe('{"nextIndex":3,"method":"chacha20"}')
  })
})
