/**
 * Showing text a server chose (error messages, codes) without letting it steer what a reader sees.
 *
 * @module
 */

// C0 and C1 controls, DEL, line/paragraph separators, bidi controls, zero-width characters, BOM.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g

/**
 * Escapes control, bidi and invisible characters as `\uXXXX` and caps the length (`…` plus how many
 * characters were cut). Secrets are the caller's job: scrub them before calling this.
 */
export function escapeServerText(text: string, maxChars: number): string {
  const escaped = text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  if (escaped.length <= maxChars) return escaped
  return `${escaped.slice(0, maxChars)}…(${escaped.length - maxChars} more characters)`
}

const CODE_RE = /^[A-Za-z0-9_.-]{1,64}$/

/** A server's machine-readable error code, or undefined when the value does not look like one. */
export function serverCodeOf(value: unknown): string | undefined {
  return typeof value === 'string' && CODE_RE.test(value) ? value : undefined
}
