// One list of the characters a display marks, for the verifier page (marks) and the command's terminal
// output (escapes): before it, the command printed U+00A0 as a space and kept a narrower list of its own
// than the core's (U+115F, U+180E, U+3164, the variation selectors and U+1D173–U+1D17A printed raw).
import { describe, expect, it } from 'vitest'
import { escapeJsonText } from '../../src/cli/print-json.js'
import { safeText } from '../../src/cli/safe-text.js'
import { LOOKALIKE_SPACES, markedCharacters } from '../../src/core/display-text.js'
import { invisibleCharacterName } from '../../src/core/entry-text.js'
import { markedText } from '../../src/verifier/text.js'

describe('characters a display marks', () => {
  it('the command escapes exactly the code points the page marks, and every invisible character the core refuses', () => {
    const differ: string[] = []
    for (let c = 0; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue
      const ch = String.fromCodePoint(c)
      const cli = safeText(ch) !== ch
      const page = markedText(ch) !== ch
      if (cli !== page || (invisibleCharacterName(c) !== undefined && !cli)) differ.push(c.toString(16))
    }
    expect(differ).toEqual([])
    // lone surrogates too
    expect(safeText('a\ud800b')).toBe('a\\u{d800}b')
    expect(markedText('a\udc00b')).toBe('a⟨U+DC00⟩b')
  })

  it('two entries that differ by a look-alike space print differently in the terminal', () => {
    expect(safeText('Ann\u00a0Lee')).toBe('Ann\\u{a0}Lee')
    expect(safeText('Ann\u00a0Lee')).not.toBe(safeText('Ann Lee'))
    for (const c of Object.keys(LOOKALIKE_SPACES).map(Number)) expect(safeText(`a${String.fromCodePoint(c)}b`)).toBe(`a\\u{${c.toString(16)}}b`)
    for (const c of [0x115f, 0x180e, 0x3164, 0xfe0f, 0x1d173, 0xe0100]) expect(safeText(String.fromCodePoint(c))).toBe(`\\u{${c.toString(16)}}`)
  })

  it('each call gives its own regular expression (a g flag carries lastIndex)', () => {
    const a = markedCharacters()
    expect(a).not.toBe(markedCharacters())
    expect(a.flags).toBe('gu')
  })

  it('JSON output escapes the same characters, except what JSON.stringify already escapes, and reads back the same', () => {
    const value = { entry: 'Ann\u00a0Lee', label: 'a\u{1d173}b\u2028c\u202ed', plain: 'José 李雷 👍🏽' }
    const text = escapeJsonText(JSON.stringify(value, null, 2))
    expect(text).toContain('"Ann\\u00a0Lee"')
    expect(text).toContain('"a\\ud834\\udd73b\\u2028c\\u202ed"')
    expect(text).toContain('José 李雷 👍🏽')
    expect(text).toContain('\n  "entry"')
    expect(JSON.parse(text)).toEqual(value)
  })
})
