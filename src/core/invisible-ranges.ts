/**
 * The invisible characters the core refuses in an entry, as data with no imports: the entry rule
 * (`entry-text.ts`) and the displays (`display-text.ts`: the verifier page and the command's terminal
 * output, whose `--help` loads nothing else of the core) read the same list.
 *
 * @module
 */

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
