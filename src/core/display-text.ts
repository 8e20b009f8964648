/**
 * Which characters a display of untrusted text must mark rather than print: one list for the verifier
 * page (which marks them, `src/verifier/text.ts`) and the command's terminal output (which escapes them,
 * `src/cli/safe-text.ts`), so that the two never disagree about what is shown as written.
 *
 * @module
 */
import { INVISIBLE_RANGES } from './invisible-ranges.js'

/**
 * The spaces other than U+0020 (Unicode general category Zs), and U+2800 which shows as one, with their
 * names. The core accepts them in an entry, so `Ann Lee` and `Ann` + U+00A0 + `Lee` are two entries that
 * print the same unless marked.
 */
export const LOOKALIKE_SPACES: Readonly<Record<number, string>> = {
  0x00a0: 'NO-BREAK SPACE',
  0x1680: 'OGHAM SPACE MARK',
  0x2000: 'EN QUAD',
  0x2001: 'EM QUAD',
  0x2002: 'EN SPACE',
  0x2003: 'EM SPACE',
  0x2004: 'THREE-PER-EM SPACE',
  0x2005: 'FOUR-PER-EM SPACE',
  0x2006: 'SIX-PER-EM SPACE',
  0x2007: 'FIGURE SPACE',
  0x2008: 'PUNCTUATION SPACE',
  0x2009: 'THIN SPACE',
  0x200a: 'HAIR SPACE',
  0x202f: 'NARROW NO-BREAK SPACE',
  0x205f: 'MEDIUM MATHEMATICAL SPACE',
  0x3000: 'IDEOGRAPHIC SPACE',
  // Not a space (a braille cell without dots, category So), but drawn as one by every font.
  0x2800: 'BRAILLE PATTERN BLANK',
}

/** The characters that break a line without being a control character, with their names. */
export const LINE_BREAKS: Readonly<Record<number, string>> = { 0x2028: 'LINE SEPARATOR', 0x2029: 'PARAGRAPH SEPARATOR' }

/** The noncharacters U+FFFE and U+FFFF (a byte-order mark read the wrong way round, and "not a character"). */
export const NONCHARACTERS: Readonly<Record<number, string>> = { 0xfffe: 'noncharacter U+FFFE', 0xffff: 'noncharacter U+FFFF' }

const u = (c: number | string): string => `\\u{${Number(c).toString(16)}}`

let listed: string | undefined

/** The character class body of everything marked except C0 controls and lone surrogates. */
function listedCharacters(): string {
  listed ??= `\\u{7f}-\\u{9f}${[...Object.keys(LOOKALIKE_SPACES), ...Object.keys(LINE_BREAKS), ...Object.keys(NONCHARACTERS)].map(u).join('')}${INVISIBLE_RANGES.map(([lo, hi]) => (lo === hi ? u(lo) : `${u(lo)}-${u(hi)}`)).join('')}`
  return listed
}

/**
 * A new regular expression (flags `gu`) matching each character a display must mark: C0 and C1 controls
 * (tab and line feed included: an entry or a label is one line), {@link LOOKALIKE_SPACES},
 * {@link LINE_BREAKS}, {@link NONCHARACTERS}, every character the core refuses in an entry as invisible
 * (`INVISIBLE_RANGES`: bidi controls, zero-width characters, tags, variation selectors…) and lone
 * surrogates (with the `u` flag a well-formed pair is one code point, so U+D800–U+DFFF match only a
 * lone one). A new object each call: a `g` regular expression carries its `lastIndex`.
 */
export function markedCharacters(): RegExp {
  return new RegExp(`[\\u{0}-\\u{1f}${listedCharacters()}\\u{d800}-\\u{dfff}]`, 'gu')
}

/**
 * {@link markedCharacters} less what `JSON.stringify` already escapes (C0 controls and lone surrogates):
 * the characters to write as `\uXXXX` escapes in JSON shown on a terminal.
 */
export function markedInJson(): RegExp {
  return new RegExp(`[${listedCharacters()}]`, 'gu')
}
