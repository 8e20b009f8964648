import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { InvalidInputError, LimitExceededError } from '../../../src/core/errors.js'
import { LIMITS } from '../../../src/core/limits.js'
import { verifyInclusion } from '../../../src/core/merkle.js'
import {
  MAX_WEIGHT,
  encodeLeaf,
  encodeWeightedLeaf,
  findDuplicate,
  participantsRoot,
  participantsTree,
  validateEntries,
  validateEntry,
  validateWeightedEntries,
  type WeightedEntry,
} from '../../../src/core/participants.js'
import { refLeaf, refMth, refWeightedLeaf, toHex } from './reference.js'

function thrown(fn: () => unknown): { error: unknown } {
  try {
    fn()
  } catch (error) {
    return { error }
  }
  throw new Error('expected a throw')
}

function expectError(fn: () => unknown, code: string, path: string, cls: typeof InvalidInputError | typeof LimitExceededError = InvalidInputError): void {
  const { error } = thrown(fn)
  expect(error).toBeInstanceOf(cls)
  expect(error).toMatchObject({ code, path })
  expect((error as InvalidInputError).hint.length).toBeGreaterThan(10)
}

describe('entry rules', () => {
  const ok = ['alice', 'Bob Martin', 'zoë', '李雷', '🎲 dice', 'a b', '👍🏽 thumbs', 'Ελένη', 'Ямщик', 'محمد']
  it('accepts ordinary entries, inner spaces, non-ASCII and astral characters', () => {
    expect(() => validateEntries(ok)).not.toThrow()
  })

  it('list must be a non-empty array', () => {
    expectError(() => validateEntries([]), 'PARTICIPANTS_EMPTY', '$')
    expectError(() => validateEntries('alice' as never), 'PARTICIPANTS_NOT_ARRAY', '$')
    expectError(() => validateEntries(null as never), 'PARTICIPANTS_NOT_ARRAY', '$')
  })

  it('count is checked against LIMITS.maxParticipants before reading any entry', () => {
    // A sparse array: no entry exists, so reading one would fail differently (ENTRY_NOT_STRING).
    const arr = new Array<string>(LIMITS.maxParticipants + 1)
    expectError(() => validateEntries(arr), 'LIMIT_EXCEEDED', '$', LimitExceededError)
  })

  it('entries must be strings', () => {
    expectError(() => validateEntries(['a', 3 as never]), 'ENTRY_NOT_STRING', '$[1]')
    expectError(() => validateEntries(['a', 'b', null as never]), 'ENTRY_NOT_STRING', '$[2]')
  })

  it('no empty entry', () => {
    expectError(() => validateEntries(['a', '']), 'ENTRY_EMPTY', '$[1]')
  })

  it('at most LIMITS.maxEntryBytes UTF-8 bytes (counted in UTF-8, not UTF-16)', () => {
    const max = LIMITS.maxEntryBytes
    expect(() => validateEntries(['a'.repeat(max)])).not.toThrow()
    expectError(() => validateEntries(['ok', 'a'.repeat(max + 1)]), 'LIMIT_EXCEEDED', '$[1]', LimitExceededError)
    // 'é' is 2 bytes: max/2 fit, one more does not.
    expect(() => validateEntries(['é'.repeat(max / 2)])).not.toThrow()
    expectError(() => validateEntries(['é'.repeat(max / 2 + 1)]), 'LIMIT_EXCEEDED', '$[0]', LimitExceededError)
    // '🎲' is 2 UTF-16 units and 4 bytes.
    expect(() => validateEntries(['🎲'.repeat(max / 4)])).not.toThrow()
    expectError(() => validateEntries(['🎲'.repeat(max / 4) + 'a']), 'LIMIT_EXCEEDED', '$[0]', LimitExceededError)
    // Over-long strings are rejected without scanning them (a lone surrogate deep inside is not reported).
    expectError(() => validateEntries(['a'.repeat(10 * max) + '\ud800']), 'LIMIT_EXCEEDED', '$[0]', LimitExceededError)
  })

  it('no lone surrogates', () => {
    expectError(() => validateEntries(['a\ud800']), 'ENTRY_LONE_SURROGATE', '$[0]')
    expectError(() => validateEntries(['ok', '\udc00b']), 'ENTRY_LONE_SURROGATE', '$[1]')
    expectError(() => validateEntries(['\ud83c\ud83c\udfb2']), 'ENTRY_LONE_SURROGATE', '$[0]')
    expect(() => validateEntries(['\ud83c\udfb2'])).not.toThrow()
  })

  it('no C0 controls, DEL or C1 controls anywhere', () => {
    for (let c = 0; c <= 0x9f; c++) {
      const forbidden = c <= 0x1f || (c >= 0x7f && c <= 0x9f)
      const s = `a${String.fromCharCode(c)}b`
      if (forbidden) expectError(() => validateEntries(['x', s]), 'ENTRY_CONTROL_CHARACTER', '$[1]')
      else expect(() => validateEntries([s])).not.toThrow()
    }
    expect(() => validateEntries(['a\u00a0b'])).not.toThrow()
  })

  it('no leading or trailing whitespace, never trimmed silently', () => {
    for (const ws of [' ', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff']) {
      expectError(() => validateEntries(['x', `${ws}alice`]), 'ENTRY_SURROUNDING_WHITESPACE', '$[1]')
      expectError(() => validateEntries(['x', 'y', `alice${ws}`]), 'ENTRY_SURROUNDING_WHITESPACE', '$[2]')
      // U+2000 EN QUAD is canonically equivalent to U+2002 EN SPACE: not NFC.
      if (ws === '\u2000') expectError(() => validateEntries([`al${ws}ice`]), 'ENTRY_NOT_NFC', '$[0]')
      else if (ws === '\ufeff') expectError(() => validateEntries([`al${ws}ice`]), 'ENTRY_INVISIBLE_CHARACTER', '$[0]')
      else expect(() => validateEntries([`al${ws}ice`])).not.toThrow()
    }
    // Tabs and line breaks are control characters first.
    expectError(() => validateEntries(['\talice']), 'ENTRY_CONTROL_CHARACTER', '$[0]')
    // Zero-width space is not White_Space, but it is invisible: refused anywhere (rule 9).
    expectError(() => validateEntries(['\u200balice']), 'ENTRY_INVISIBLE_CHARACTER', '$[0]')
  })

  it('no duplicates; the error names both indices and suggests an id', () => {
    const { error } = thrown(() => validateEntries(['alice', 'bob', 'carol', 'bob']))
    expect(error).toMatchObject({ code: 'ENTRY_DUPLICATE', path: '$[3]' })
    expect((error as Error).message).toContain('entry 3 is identical to entry 1')
    expect((error as InvalidInputError).hint).toMatch(/id/)
  })

  it('entries must be NFC (never normalized silently): the decomposed é is refused, naming the character and the NFC form', () => {
    const nfc = 'Jos\u00e9'
    const nfd = 'Jose\u0301'
    expect(nfc.normalize('NFC')).toBe(nfd.normalize('NFC'))
    expect(toHex(encodeLeaf(nfc))).toBe('4a6f73c3a9')
    const { error } = thrown(() => validateEntries([nfc, 'x', nfd]))
    expect(error).toMatchObject({ code: 'ENTRY_NOT_NFC', path: '$[2]' })
    expect((error as InvalidInputError).detail).toContain('character 4 (U+0065)')
    expect((error as InvalidInputError).hint).toContain(JSON.stringify(nfc))
    expectError(() => encodeLeaf(nfd), 'ENTRY_NOT_NFC', '$')
    // Case is significant too.
    expect(() => validateEntries(['alice', 'Alice'])).not.toThrow()
  })

  it('validateEntry checks one entry with path $', () => {
    expectError(() => validateEntry(' a'), 'ENTRY_SURROUNDING_WHITESPACE', '$')
    expectError(() => validateEntry('', '$.x'), 'ENTRY_EMPTY', '$.x')
  })

  it('per-entry rules are checked first (first bad entry in order), then duplicates (smallest later index)', () => {
    expectError(() => validateEntries(['a', 'a', '']), 'ENTRY_EMPTY', '$[2]')
    expectError(() => validateEntries(['a', '', 'a']), 'ENTRY_EMPTY', '$[1]')
    expectError(() => validateEntries(['a', 'b', 'c', 'b', 'a']), 'ENTRY_DUPLICATE', '$[3]')
    expectError(() => validateEntries(['x', 'a', 'b', 'a', 'b', 'a']), 'ENTRY_DUPLICATE', '$[3]')
  })

  it('duplicate detection agrees with a plain Map on random lists (small alphabet forces collisions)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'ab', 'ba', 'é', 'ê'), { minLength: 1, maxLength: 12 }), (list) => {
        const seen = new Map<string, number>()
        let want: [number, number] | null = null
        for (let j = 0; j < list.length && want === null; j++) {
          const i = seen.get(list[j]!)
          if (i !== undefined) want = [i, j]
          else seen.set(list[j]!, j)
        }
        if (want === null) expect(() => validateEntries(list)).not.toThrow()
        else {
          const { error } = thrown(() => validateEntries(list))
          expect(error).toMatchObject({ code: 'ENTRY_DUPLICATE', path: `$[${want[1]}]` })
          expect((error as Error).message).toContain(`identical to entry ${want[0]}`)
        }
      }),
    )
  })

  it('the sort fallback (used when hash probing degenerates) finds the same pair', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'ab', 'é'), { minLength: 1, maxLength: 30 }), (list) => {
        expect(findDuplicate(list, 0)).toEqual(findDuplicate(list))
      }),
    )
    const big = Array.from({ length: 5000 }, (_, i) => `e${i}`)
    expect(findDuplicate(big, 0)).toBeNull()
    big.push('e4000', 'e17')
    expect(findDuplicate(big, 0)).toEqual([4000, 5000])
    expect(findDuplicate(big)).toEqual([4000, 5000])
  })

  it('many distinct entries: no false duplicates; a duplicate far apart is found', () => {
    const many = Array.from({ length: 200_000 }, (_, i) => `p${i}`)
    expect(() => validateEntries(many)).not.toThrow()
    many.push('p12345')
    expectError(() => validateEntries(many), 'ENTRY_DUPLICATE', '$[200000]')
  })
})

describe('weighted entries', () => {
  it('accepts weights 1..2^53-1', () => {
    expect(() => validateWeightedEntries([{ entry: 'a', weight: 1 }, { entry: 'b', weight: MAX_WEIGHT }])).not.toThrow()
    expect(MAX_WEIGHT).toBe(2 ** 53 - 1)
  })

  it('rejects bad weights at $[i].weight', () => {
    for (const w of [0, -1, 1.5, Number.NaN, Infinity, 2 ** 53, '3', null, undefined, 3n]) {
      expectError(() => validateWeightedEntries([{ entry: 'a', weight: 1 }, { entry: 'b', weight: w as never }]), 'WEIGHT_INVALID', '$[1].weight')
    }
  })

  it('rejects non-objects, bad entries and duplicates with paths', () => {
    expectError(() => validateWeightedEntries([{ entry: 'a', weight: 1 }, 'b' as never]), 'WEIGHTED_ENTRY_NOT_OBJECT', '$[1]')
    expectError(() => validateWeightedEntries([null as never]), 'WEIGHTED_ENTRY_NOT_OBJECT', '$[0]')
    expectError(() => validateWeightedEntries([{ entry: ' a', weight: 1 }]), 'ENTRY_SURROUNDING_WHITESPACE', '$[0].entry')
    expectError(() => validateWeightedEntries([{ weight: 1 } as never]), 'ENTRY_NOT_STRING', '$[0].entry')
    expectError(() => validateWeightedEntries([{ entry: 'a', weight: 1 }, { entry: 'a', weight: 2 }]), 'ENTRY_DUPLICATE', '$[1].entry')
    expectError(() => validateWeightedEntries([]), 'PARTICIPANTS_EMPTY', '$')
  })

  it('mixed lists are rejected', () => {
    expectError(() => participantsRoot(['a', { entry: 'b', weight: 1 }] as never), 'ENTRY_NOT_STRING', '$[1]')
    expectError(() => participantsRoot([{ entry: 'b', weight: 1 }, 'a'] as never), 'WEIGHTED_ENTRY_NOT_OBJECT', '$[1]')
  })
})

describe('leaf encoding and digest', () => {
  it('encodeLeaf is the UTF-8 bytes; encodeWeightedLeaf prefixes the 8-byte big-endian weight', () => {
    expect(toHex(encodeLeaf('zoë'))).toBe('7a6fc3ab')
    expect(toHex(encodeWeightedLeaf('a', 1))).toBe('000000000000000161')
    expect(toHex(encodeWeightedLeaf('a', 0x0102030405))).toBe('000000010203040561')
    expect(toHex(encodeWeightedLeaf('a', MAX_WEIGHT))).toBe('001fffffffffffff61')
    expectError(() => encodeLeaf('a\n'), 'ENTRY_CONTROL_CHARACTER', '$')
    expectError(() => encodeWeightedLeaf('a', 0), 'WEIGHT_INVALID', '$.weight')
    expectError(() => encodeWeightedLeaf('', 1), 'ENTRY_EMPTY', '$.entry')
  })

  const entryArb = fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
    .filter((s) => {
      try {
        validateEntry(s)
        return true
      } catch {
        return false
      }
    })

  it('participantsRoot = MTH over encoded leaves in order (unweighted and weighted)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(entryArb, { minLength: 1, maxLength: 40 }), fc.array(fc.integer({ min: 1, max: MAX_WEIGHT }), { minLength: 40, maxLength: 40 }), (entries, weights) => {
        expect(toHex(participantsRoot(entries))).toBe(toHex(refMth(entries.map(refLeaf))))
        const weighted: WeightedEntry[] = entries.map((entry, i) => ({ entry, weight: weights[i]! }))
        expect(toHex(participantsRoot(weighted))).toBe(toHex(refMth(weighted.map((w) => refWeightedLeaf(w.entry, w.weight)))))
      }),
      { numRuns: 100 },
    )
  })

  it('participantsTree gives the same root and verifiable proofs for chosen indices', () => {
    const entries = Array.from({ length: 1000 }, (_, i) => `participant-${String(i).padStart(6, '0')}`)
    const tree = participantsTree(entries)
    const root = tree.root()
    expect(toHex(root)).toBe(toHex(participantsRoot(entries)))
    expect(tree.size).toBe(1000)
    expect(tree.weighted).toBe(false)
    const winners = [999, 0, 512, 37]
    const proofs = tree.inclusionProofs(winners)
    winners.forEach((index, k) => {
      expect(toHex(tree.leafData(index))).toBe(toHex(encodeLeaf(entries[index]!)))
      expect(verifyInclusion({ root, size: 1000, index, leafData: tree.leafData(index), path: proofs[k]! })).toBe(true)
      expect(proofs[k]).toEqual(tree.inclusionProof(index))
    })
    // Mutating the caller's array afterwards does not change the tree.
    entries[0] = 'changed'
    expect(toHex(tree.leafData(0))).toBe(toHex(encodeLeaf('participant-000000')))
    expect(() => tree.leafData(1000)).toThrow(expect.objectContaining({ code: 'INDEX_OUT_OF_RANGE' }))

    const w = participantsTree([{ entry: 'a', weight: 5 }, { entry: 'b', weight: 1 }, { entry: 'c', weight: 2 ** 40 }])
    expect(w.weighted).toBe(true)
    expect(toHex(w.leafData(2))).toBe(toHex(encodeWeightedLeaf('c', 2 ** 40)))
    expect(verifyInclusion({ root: w.root(), size: 3, index: 2, leafData: w.leafData(2), path: w.inclusionProof(2) })).toBe(true)
  })

  it('participantsTree validates like participantsRoot', () => {
    expectError(() => participantsTree(['a', 'a']), 'ENTRY_DUPLICATE', '$[1]')
  })
})

describe('docs/spec.md (Participants) worked example', () => {
  it('matches the numbers printed in the spec', () => {
    const entries = ['alice', 'bob', 'carol']
    expect(entries.map((e) => toHex(encodeLeaf(e)))).toEqual(['616c696365', '626f62', '6361726f6c'])
    const tree = participantsTree(entries)
    expect(toHex(tree.root())).toBe('3b0efa5ec3137f759846df4335e292955ae68c96297c3e47080ebbf683ed5cd0')
    expect(tree.inclusionProof(2).map(toHex)).toEqual(['3bc1199d175a1cfc2c3fe16b1920a93ca6397484cbda581a4b7c6b920f93ba83'])
    const weights = [1, 3, 1000000]
    expect(entries.map((e, i) => toHex(encodeWeightedLeaf(e, weights[i]!)))).toEqual(['0000000000000001616c696365', '0000000000000003626f62', '00000000000f42406361726f6c'])
  })
})
