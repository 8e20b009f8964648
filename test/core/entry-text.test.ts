/** Look-alike entry rules (src/core/entry-text.ts) and confusable skeletons (src/confusables.ts). */
import { describe, expect, it } from 'vitest'
import { findConfusableEntries, skeleton } from '../../src/confusables.js'
import { INVISIBLE_RANGES, entryTextError, invisibleCharacterName } from '../../src/core/entry-text.js'
import { validateEntry } from '../../src/core/participants.js'
import { safeText } from '../../src/cli/safe-text.js'

const at = (): { path: string } => ({ path: '$' })

describe('entry text rules', () => {
  it('the refused list is exactly Default_Ignorable_Code_Point (this engine) plus U+FFF9-U+FFFB', () => {
    const di = /\p{Default_Ignorable_Code_Point}/u
    const mismatches: string[] = []
    for (let c = 0; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue
      const expected = di.test(String.fromCodePoint(c)) || (c >= 0xfff9 && c <= 0xfffb)
      if (expected !== (invisibleCharacterName(c) !== undefined)) mismatches.push(c.toString(16))
    }
    expect(mismatches).toEqual([])
    // Ranges are sorted and disjoint (the lookup relies on it).
    for (let i = 1; i < INVISIBLE_RANGES.length; i++) expect(INVISIBLE_RANGES[i]![0]).toBeGreaterThan(INVISIBLE_RANGES[i - 1]![1])
  })
  it.each([
    ['bob\u200b', 'U+200B ZERO WIDTH SPACE at character 4'],
    ['a\u202eb', 'U+202E RIGHT-TO-LEFT OVERRIDE at character 2'],
    ['a\u2066b', 'U+2066 LEFT-TO-RIGHT ISOLATE'],
    ['x\u00ady', 'U+00AD SOFT HYPHEN'],
    ['❤\ufe0f', 'U+FE0F VARIATION SELECTOR-16'],
    ['a\u{e0041}', 'U+E0041 TAG "A"'],
    ['a\u200dz', 'U+200D ZERO WIDTH JOINER'],
  ])('%j is refused: %s', (entry, message) => {
    const err = entryTextError(entry, at)
    expect(err?.code).toBe('ENTRY_INVISIBLE_CHARACTER')
    expect(err?.detail).toContain(message)
    expect(() => validateEntry(entry)).toThrow(message)
  })
  it('NFC is required; ordinary scripts, emoji with skin tones and NFC text pass', () => {
    for (const ok of ['alice', 'José', 'Zoë', '李雷', 'Ελένη', 'محمد', '👍🏽', 'Straße', 'ﬁ (a ligature is NFC)']) expect(entryTextError(ok, at)).toBeNull()
    const err = entryTextError('Zoe\u0308', at)
    expect(err?.code).toBe('ENTRY_NOT_NFC')
    expect(err?.hint).toContain('"Zoë"')
    // Singleton decompositions change under NFC too (U+212B ANGSTROM SIGN is U+00C5).
    expect(entryTextError('\u212b', at)?.detail).toContain('character 1 (U+212B)')
  })
})

describe('confusable skeletons (UTS #39)', () => {
  it('Latin and Cyrillic look-alikes share a skeleton; different-looking names do not', () => {
    expect(skeleton('p\u0430ypal')).toBe(skeleton('paypal'))
    expect(skeleton('rn')).toBe(skeleton('m'))
    expect(skeleton('alice')).not.toBe(skeleton('bob'))
  })
  it('findConfusableEntries groups look-alike entries by index, weighted entries too', () => {
    expect(findConfusableEntries(['paypal', 'bob', 'p\u0430ypal', 'AIice', 'Alice', 'carol'])).toEqual([
      { skeleton: skeleton('paypal'), indices: [0, 2] },
      { skeleton: skeleton('Alice'), indices: [3, 4] },
    ])
    expect(findConfusableEntries([{ entry: "corn", weight: 1 }, { entry: "com", weight: 2 }] as { entry: string; weight: number }[])).toHaveLength(1)
    expect(findConfusableEntries(['alice', 'bob'])).toEqual([])
  })
})

describe('safeText', () => {
  it('escapes C0, C1, DEL, bidi, line separators and tags visibly; leaves other text alone', () => {
    expect(safeText('\u001b[2J\u001b[HVERIFIED')).toBe('\\u{1b}[2J\\u{1b}[HVERIFIED')
    expect(safeText('a\u0085b\u007fc\u202ed\u2066e\u2028f\u2029g\u200bh\u{e0041}')).toBe('a\\u{85}b\\u{7f}c\\u{202e}d\\u{2066}e\\u{2028}f\\u{2029}g\\u{200b}h\\u{e0041}')
    expect(safeText('José 李雷 👍🏽 — ok')).toBe('José 李雷 👍🏽 — ok')
    // A literal "\u{1b}" in the input cannot pass for an escaped ESC.
    expect(safeText('\\u{1b}')).toBe('\\\\u{1b}')
  })
})
