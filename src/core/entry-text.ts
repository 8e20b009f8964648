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
import { INVISIBLE_RANGES } from './invisible-ranges.js'

export { INVISIBLE_RANGES } from './invisible-ranges.js'

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
