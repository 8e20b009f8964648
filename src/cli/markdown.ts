/**
 * Escaping for untrusted text put into Markdown (an announcement's label): no character of it can
 * start a heading, a list, a link, an image, emphasis, code, a table cell or raw HTML, and it stays on
 * one line (terminal-unsafe code points are written visibly first, as `safeText` does).
 *
 * @module
 */
import { safeText } from './safe-text.js'

/** Every ASCII punctuation character CommonMark lets a backslash escape. */
const MARKDOWN_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g

/**
 * `s` as literal Markdown text on one line: unsafe code points shown as `\u{hex}`, then every ASCII
 * punctuation character backslash-escaped (CommonMark: any ASCII punctuation may be escaped).
 *
 * @example
 * ```ts
 * escapeMarkdown('[win](https://evil.example) <img src=x>') // '\\[win\\]\\(https\\:\\/\\/evil\\.example\\) \\<img src\\=x\\>'
 * ```
 */
export function escapeMarkdown(s: string): string {
  return safeText(s).replace(MARKDOWN_PUNCTUATION, (c) => `\\${c}`)
}
