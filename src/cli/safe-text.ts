/**
 * Escaping for untrusted text printed to a terminal. Proof entries, labels, field names and error
 * details come from files anyone can write: an ESC sequence in an entry could clear the screen and
 * paint a fake "VERIFIED", a bidi override could reorder a line, a line separator could forge one.
 *
 * @module
 */

/**
 * Code points never printed raw: C0 (U+0000–U+001F), DEL and C1 (U+007F–U+009F), the line and
 * paragraph separators U+2028/U+2029, bidi embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069), the bidi marks U+200E/U+200F/U+061C, zero-width and invisible characters
 * (U+200B–U+200D, U+2060–U+2064, U+FEFF, U+00AD), interlinear annotation controls (U+FFF9–U+FFFB),
 * tag characters (U+E0000–U+E007F), lone surrogates and noncharacters U+FFFE/U+FFFF.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb\ufffe\uffff]|\udb40[\udc00-\udc7f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

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
  UNSAFE.lastIndex = 0
  if (!UNSAFE.test(text) && !text.includes('\\u{')) return text
  UNSAFE.lastIndex = 0
  return text.replace(/\\u\{/g, '\\\\u{').replace(UNSAFE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`)
}
