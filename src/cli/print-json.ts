/**
 * JSON output of the commands. Its own module so that printing a result does not load the error
 * reporter (`output.ts`, which knows every error family of every edge).
 *
 * @module
 */
import type { CliContext } from './command.js'

/**
 * What `JSON.stringify` leaves raw but a terminal must never receive raw (the set of `safe-text.ts`
 * less what JSON already escapes, C0 and lone surrogates): DEL and C1 (U+007F–U+009F; U+009B is CSI,
 * an escape sequence on its own), the line and paragraph separators, bidi controls and marks,
 * zero-width and invisible characters, interlinear annotation controls, noncharacters U+FFFE/U+FFFF
 * and tag characters (U+E0000–U+E007F, as their surrogate pair).
 */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb\ufffe\uffff]|\udb40[\udc00-\udc7f]/g

/**
 * `JSON.stringify` output with every character of {@link UNSAFE_IN_JSON} written as a `\uXXXX`
 * escape (each UTF-16 unit). JSON's structure is ASCII, so such a character can only be inside a
 * string, where the escape reads back as the same character: `JSON.parse` gives the same value.
 */
export function escapeJsonText(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''))
}

/** Writes a value as pretty JSON (bigints as decimal strings), with terminal-unsafe characters escaped. */
export function printJson(ctx: CliContext, value: unknown): void {
  ctx.out(`${escapeJsonText(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2))}\n`)
}
