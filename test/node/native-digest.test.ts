/**
 * participantsRootNative (node:crypto) equals participantsRoot byte for byte on every kind of list
 * (public, weighted, salted with given salts, salted with the organizer's secret), every tree shape up
 * to 70 leaves, and fails the same way on a bad list.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { participantsRoot, type WeightedEntry } from '../../src/core/participants.js'
import { leafSalt } from '../../src/core/secret.js'
import { participantsRootNative } from '../../src/node/native-digest.js'
import { toHex } from '../core/merkle/reference.js'

const names = (n: number, tag = 'p'): string[] => Array.from({ length: n }, (_, i) => `${tag}-${i}-é抽🎉`)
const secret = new Uint8Array(32).fill(7)

/** The error participantsRoot throws for `list` (its class, code, path and detail), or undefined. */
function failure(f: () => unknown): unknown {
  try {
    f()
    return undefined
  } catch (e) {
    const err = e as { name: string; code?: string; path?: string; detail?: string }
    return { name: err.name, code: err.code, path: err.path, detail: err.detail }
  }
}

describe('participantsRootNative', () => {
  it('equals participantsRoot for every tree shape of 1 to 70 leaves, public, weighted and salted', () => {
    for (let n = 1; n <= 70; n++) {
      const list = names(n)
      const weighted: WeightedEntry[] = list.map((entry, i) => ({ entry, weight: (i % 97) + 1 + (i === 3 ? 2 ** 52 : 0) }))
      const salts = list.map((_, i) => leafSalt(secret, i))
      expect(toHex(participantsRootNative(list)), `public ${n}`).toBe(toHex(participantsRoot(list)))
      expect(toHex(participantsRootNative(weighted)), `weighted ${n}`).toBe(toHex(participantsRoot(weighted)))
      expect(toHex(participantsRootNative(list, { salts })), `salts ${n}`).toBe(toHex(participantsRoot(list, { salts })))
      expect(toHex(participantsRootNative(weighted, { salts })), `weighted salts ${n}`).toBe(toHex(participantsRoot(weighted, { salts })))
      expect(toHex(participantsRootNative(list, { secret })), `secret ${n}`).toBe(toHex(participantsRoot(list, { secret })))
    }
  })

  it('equals participantsRoot on random lists (property)', () => {
    const entry = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
    fc.assert(
      fc.property(fc.uniqueArray(entry, { minLength: 1, maxLength: 40 }), fc.array(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { minLength: 40, maxLength: 40 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (list, weights, key) => {
        const plain = failure(() => participantsRoot(list))
        expect(failure(() => participantsRootNative(list))).toEqual(plain)
        if (plain !== undefined) return
        expect(toHex(participantsRootNative(list))).toBe(toHex(participantsRoot(list)))
        const weighted = list.map((e, i) => ({ entry: e, weight: weights[i]! }))
        expect(toHex(participantsRootNative(weighted))).toBe(toHex(participantsRoot(weighted)))
        const salts = list.map((_, i) => leafSalt(key, i))
        expect(toHex(participantsRootNative(weighted, { salts }))).toBe(toHex(participantsRoot(weighted, { salts })))
      }),
      { numRuns: 200, seed: 25 },
    )
  })

  it('fails as participantsRoot does: bad entries, duplicates, weights, salts, an empty list', () => {
    const bad: [unknown, object?][] = [
      [[]],
      [['a', 'b', 'a']],
      [['a', '']],
      [['a', 'b\nc']],
      [['a', 7]],
      [[{ entry: 'a', weight: 0 }]],
      [[{ entry: 'a', weight: 1.5 }, { entry: 'b', weight: 1 }]],
      [['a', 'b'], { salts: [new Uint8Array(32)] }],
      [['a'], { salts: [new Uint8Array(31)] }],
      [['a'], { salts: [new Uint8Array(32)], secret }],
    ]
    for (const [list, options] of bad) {
      const expected = failure(() => participantsRoot(list as string[], options))
      expect(expected, JSON.stringify(list)).not.toBeUndefined()
      expect(failure(() => participantsRootNative(list as string[], options)), JSON.stringify(list)).toEqual(expected)
    }
  })
})
