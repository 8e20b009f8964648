/**
 * Escaping for untrusted text printed to a terminal. Proof entries, labels, field names and error
 * details come from files anyone can write: an ESC sequence in an entry could clear the screen and
 * paint a fake "VERIFIED", a bidi override could reorder a line, a line separator could forge one.
 *
 * @module
 */

import { markedCharacters } from '../core/display-text.js'

/**
 * Code points never printed raw: the characters the verifier page marks (`markedCharacters`: C0 and C1
 * controls, the spaces other than U+0020, the line and paragraph separators, the noncharacters U+FFFE
 * and U+FFFF, every invisible character the core refuses in an entry — bidi controls, zero-width
 * characters, tags, variation selectors… — and lone surrogates). Built on first use.
 */
let unsafe: RegExp | undefined

/**
 * Returns `s` with every unsafe code point (see above) written visibly as `\u{hex}` (lowercase hex),
 * and every backslash already in `s` doubled only where it would otherwise read as such an escape,
 * so the output is one line of plain, left-to-right text. Safe text is returned unchanged.
 *
 * @example
 * ```ts
 * safeText('\u001b[2J\u001b[HVERIFIED') // '\\u{1b}[2J\\u{1b}[HVERIFIED'
 * ```
 */
export function safeText(s: string): string {
  const text = String(s)
  const marked = (unsafe ??= markedCharacters())
  marked.lastIndex = 0
  if (!marked.test(text) && !text.includes('\\u{')) return text
  marked.lastIndex = 0
  return text.replace(/\\u\{/g, '\\\\u{').replace(marked, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`)
}
