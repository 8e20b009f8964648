/**
 * `plainDagJson` writes `@ipld/dag-json`'s bytes, or leaves the value to it: compared with
 * `dagJson.encode` on every committed commitment of the vectors and on random values (keys and
 * strings with any UTF-16 code units, unsafe and fractional numbers, `-0`, CIDs, bytes, `undefined`,
 * `Map`s, typed arrays, objects `@ipld/dag-json` may read as links).
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as dagJson from '@ipld/dag-json'
import fc from 'fast-check'
import { CID } from 'multiformats/cid'
import { describe, expect, it } from 'vitest'
import { plainDagJson } from '../../src/core/dag-json-encode.js'

const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'vectors')
const CID_TEXT = 'bafkreiekkwdzejzwoiqlmifallkrx6yhatcu6zd77sehmu4zcolkmp6aei'

/** `@ipld/dag-json`'s bytes of `x`, or `'throws'`. */
function library(x: unknown): Uint8Array | 'throws' {
  try {
    return dagJson.encode(x)
  } catch {
    return 'throws'
  }
}

/** `plainDagJson` agrees with the library: the same bytes, or it leaves the value to the library. */
function agrees(x: unknown): boolean {
  const mine = plainDagJson(x)
  if (mine === undefined) return true
  const theirs = library(x)
  return theirs !== 'throws' && Buffer.from(mine).equals(Buffer.from(theirs))
}

describe('plainDagJson', () => {
  it('writes every committed commitment of the vectors byte for byte', () => {
    let n = 0
    const texts: string[] = []
    const draws = JSON.parse(readFileSync(join(DIR, 'draws.json'), 'utf8')) as { cases: { commitmentText: string }[] }
    for (const c of draws.cases) texts.push(c.commitmentText)
    const reroll = JSON.parse(readFileSync(join(DIR, 'reroll.json'), 'utf8')) as { cases: { commitment: unknown }[] }
    for (const c of reroll.cases) texts.push(typeof c.commitment === 'string' ? c.commitment : JSON.stringify(c.commitment))
    for (const text of texts) {
      const bytes = new TextEncoder().encode(text)
      const value = dagJson.decode(bytes)
      if (!Buffer.from(dagJson.encode(value)).equals(Buffer.from(bytes))) continue // not canonical as stored: not a case
      const mine = plainDagJson(value)
      expect(mine).toBeDefined()
      expect(Buffer.from(mine!).toString('utf8')).toBe(text)
      n++
    }
    expect(n).toBeGreaterThan(20)
  })

  it('writes links, bytes, nested values, -0, escapes and keys in UTF-16 order as the library does', () => {
    const cases: unknown[] = [
      { b: 1, a: [1, -2, 0, -0, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER], c: { z: null, y: true, x: false } },
      { after: { block: CID.parse(CID_TEXT), sequence: 7 }, root: new Uint8Array([0, 1, 2, 250, 255]), empty: new Uint8Array(0), e: {}, f: [] },
      { '\u00e9': 1, z: 2, '\ud83d\ude00': 3, '\uffff': 4, '': 5, '10': 6, '9': 7, 'a"b': 8, 'a\\b': 9 },
      ['\u0000\u001f\u007f\u2028\u2029"\\/\n\t', '\ud800', 'x\udfffy', '\ud83d\ude00', 'Île-de-France'],
      Object.assign(Object.create(null) as object, { b: 2, a: 1 }),
    ]
    for (const x of cases) {
      const mine = plainDagJson(x)
      expect(mine).toBeDefined()
      expect(Buffer.from(mine!).toString('hex')).toBe(Buffer.from(dagJson.encode(x)).toString('hex'))
    }
  })

  it('leaves to the library what is outside its plain values (the library keeps its bytes and errors)', () => {
    class Thing {
      a = 1
    }
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic.self = cyclic
    const sparse: unknown[] = [1]
    sparse[2] = 2
    const cases: unknown[] = [
      1.5, 2 ** 53, -(2 ** 60), 1e21, NaN, Infinity, undefined, 1n, Symbol('s'), () => 1,
      { a: undefined }, sparse, new Map([['a', 1]]), new Int32Array([1, 2]), Buffer.from([1, 2]), new Thing(),
      { '/': CID_TEXT }, { '/': { bytes: 'AQI' } }, { asCID: 1 }, cyclic, [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],
    ]
    for (const x of cases) expect(plainDagJson(x)).toBeUndefined()
    // Each of them the library encodes or refuses itself.
    expect(library({ a: undefined })).toBe('throws')
    expect(library(NaN)).toBe('throws')
    expect(Buffer.from(library(1.5) as Uint8Array).toString()).toBe('1.5')
  })

  it('agrees with the library on random values', () => {
    const key = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('a', 'b', 'kind', '0', '1', '10', 'bytes', '/', 'asCID'))
    const leaf = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
      fc.integer(),
      fc.maxSafeInteger(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.constant(-0),
      fc.uint8Array({ maxLength: 40 }),
      fc.constant(CID.parse(CID_TEXT)),
    )
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('node'), { maxLength: 5 }), fc.dictionary(key, tie('node'), { maxKeys: 6 })),
    })).node
    fc.assert(fc.property(value, agrees), { numRuns: 3000, seed: 22 })
    // Most random values are plain: the comparison is not empty.
    let plain = 0
    fc.assert(
      fc.property(value, (x) => {
        if (plainDagJson(x) !== undefined) plain++
        return true
      }),
      { numRuns: 1000, seed: 23 },
    )
    expect(plain).toBeGreaterThan(300)
  })
})
