/**
 * Look-alike entries: the Unicode rules an entry must follow beyond well-formedness, so that two
 * entries that print the same are the same entry. An entry must be in Normalization Form C, and may
 * not contain invisible or bidirectional-control characters (the exact list is {@link INVISIBLE_RANGES};
 * docs/spec.md, Participants, rules 8 and 9). Called from `validateEntry`.
 *
 * Pure and allocation-free for the common case: an entry whose code units are all below U+0300
 * (except U+00AD) is NFC and has no invisible character, and is accepted after one regex test.
 *
 * @module
 */
import { InvalidInputError } from './errors.js'

/**
 * The refused invisible characters, as inclusive code point ranges with their Unicode names: every
 * `Default_Ignorable_Code_Point` of Unicode 15.1 (DerivedCoreProperties.txt; assigned or reserved)
 * plus the interlinear annotation controls U+FFF9–U+FFFB. The list is fixed here so that the rule does
 * not change with the JavaScript engine's Unicode version.
 */
export const INVISIBLE_RANGES: readonly (readonly [number, number, string])[] = [
  [0x00ad, 0x00ad, 'SOFT HYPHEN'],
  [0x034f, 0x034f, 'COMBINING GRAPHEME JOINER'],
  [0x061c, 0x061c, 'ARABIC LETTER MARK'],
  [0x115f, 0x115f, 'HANGUL CHOSEONG FILLER'],
  [0x1160, 0x1160, 'HANGUL JUNGSEONG FILLER'],
  [0x17b4, 0x17b4, 'KHMER VOWEL INHERENT AQ'],
  [0x17b5, 0x17b5, 'KHMER VOWEL INHERENT AA'],
  [0x180b, 0x180d, 'MONGOLIAN FREE VARIATION SELECTOR'],
  [0x180e, 0x180e, 'MONGOLIAN VOWEL SEPARATOR'],
  [0x180f, 0x180f, 'MONGOLIAN FREE VARIATION SELECTOR FOUR'],
  [0x200b, 0x200b, 'ZERO WIDTH SPACE'],
  [0x200c, 0x200c, 'ZERO WIDTH NON-JOINER'],
  [0x200d, 0x200d, 'ZERO WIDTH JOINER'],
  [0x200e, 0x200e, 'LEFT-TO-RIGHT MARK'],
  [0x200f, 0x200f, 'RIGHT-TO-LEFT MARK'],
  [0x202a, 0x202a, 'LEFT-TO-RIGHT EMBEDDING'],
  [0x202b, 0x202b, 'RIGHT-TO-LEFT EMBEDDING'],
  [0x202c, 0x202c, 'POP DIRECTIONAL FORMATTING'],
  [0x202d, 0x202d, 'LEFT-TO-RIGHT OVERRIDE'],
  [0x202e, 0x202e, 'RIGHT-TO-LEFT OVERRIDE'],
  [0x2060, 0x2060, 'WORD JOINER'],
  [0x2061, 0x2061, 'FUNCTION APPLICATION'],
  [0x2062, 0x2062, 'INVISIBLE TIMES'],
  [0x2063, 0x2063, 'INVISIBLE SEPARATOR'],
  [0x2064, 0x2064, 'INVISIBLE PLUS'],
  [0x2065, 0x2065, 'reserved default-ignorable code point'],
  [0x2066, 0x2066, 'LEFT-TO-RIGHT ISOLATE'],
  [0x2067, 0x2067, 'RIGHT-TO-LEFT ISOLATE'],
  [0x2068, 0x2068, 'FIRST STRONG ISOLATE'],
  [0x2069, 0x2069, 'POP DIRECTIONAL ISOLATE'],
  [0x206a, 0x206f, 'deprecated format character'],
  [0x3164, 0x3164, 'HANGUL FILLER'],
  [0xfe00, 0xfe0f, 'VARIATION SELECTOR'],
  [0xfeff, 0xfeff, 'ZERO WIDTH NO-BREAK SPACE (byte order mark)'],
  [0xffa0, 0xffa0, 'HALFWIDTH HANGUL FILLER'],
  [0xfff0, 0xfff8, 'reserved default-ignorable code point'],
  [0xfff9, 0xfff9, 'INTERLINEAR ANNOTATION ANCHOR'],
  [0xfffa, 0xfffa, 'INTERLINEAR ANNOTATION SEPARATOR'],
  [0xfffb, 0xfffb, 'INTERLINEAR ANNOTATION TERMINATOR'],
  [0x1bca0, 0x1bca3, 'SHORTHAND FORMAT CONTROL'],
  [0x1d173, 0x1d17a, 'MUSICAL SYMBOL FORMAT CONTROL'],
  [0xe0000, 0xe0000, 'reserved default-ignorable code point'],
  [0xe0001, 0xe0001, 'LANGUAGE TAG'],
  [0xe0002, 0xe001f, 'reserved default-ignorable code point'],
  [0xe0020, 0xe007f, 'TAG CHARACTER'],
  [0xe0080, 0xe00ff, 'reserved default-ignorable code point'],
  [0xe0100, 0xe01ef, 'VARIATION SELECTOR'],
  [0xe01f0, 0xe0fff, 'reserved default-ignorable code point'],
]

/** True for code units that can start neither a non-NFC sequence nor an invisible character. */
// eslint-disable-next-line no-control-regex
const SIMPLE = /^[\u0000-\u00ac\u00ae-\u02ff]*$/

function hex(c: number): string {
  return 'U+' + c.toString(16).toUpperCase().padStart(4, '0')
}

/** The name of `c` if it is a refused invisible character, else undefined. */
export function invisibleCharacterName(c: number): string | undefined {
  for (const [lo, hi, name] of INVISIBLE_RANGES) {
    if (c < lo) return undefined
    if (c <= hi) {
      if (name === 'VARIATION SELECTOR') return `VARIATION SELECTOR-${c >= 0xe0100 ? c - 0xe0100 + 17 : c - 0xfe00 + 1}`
      if (name === 'TAG CHARACTER') return c === 0xe007f ? 'CANCEL TAG' : `TAG ${JSON.stringify(String.fromCharCode(c - 0xe0000))} (an invisible copy of that ASCII character)`
      return name
    }
  }
  return undefined
}

/**
 * The look-alike problem of an entry, or null: a refused invisible character (`ENTRY_INVISIBLE_CHARACTER`,
 * naming the character's position, code point and name), else a form other than NFC (`ENTRY_NOT_NFC`,
 * naming the first character that changes and giving the NFC form). `at` builds the error's path only
 * on error. The entry must already be a well-formed string.
 */
export function entryTextError(entry: string, at: () => { path: string }): InvalidInputError | null {
  if (SIMPLE.test(entry)) return null
  let position = 0
  for (const ch of entry) {
    position++
    const c = ch.codePointAt(0)!
    const name = c < 0xad ? undefined : invisibleCharacterName(c)
    if (name !== undefined) {
      return new InvalidInputError('ENTRY_INVISIBLE_CHARACTER', `entry has the invisible character ${hex(c)} ${name} at character ${position}`, 'remove it: invisible and bidirectional-control characters make different entries look the same (see docs/spec.md, Participants)', at())
    }
  }
  const nfc = entry.normalize('NFC')
  if (nfc === entry) return null
  const a = [...entry]
  const b = [...nfc]
  let i = 0
  while (i < a.length && a[i] === b[i]) i++
  return new InvalidInputError('ENTRY_NOT_NFC', `entry is not in Unicode Normalization Form C: character ${i + 1} (${hex(a[i]!.codePointAt(0)!)}) changes under NFC`, `write it in NFC, as ${JSON.stringify(nfc)} (for a file: uconv -x any-nfc, or Python unicodedata.normalize("NFC", s)); equal-looking entries must have equal bytes`, at())
}
