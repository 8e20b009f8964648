/**
 * JSON output of the commands. Its own module so that printing a result does not load the error
 * reporter (`output.ts`, which knows every error family of every edge).
 *
 * @module
 */
import { markedInJson } from '../core/display-text.js'
import type { CliContext } from './command.js'

/**
 * What `JSON.stringify` leaves raw but a terminal must never receive raw: the characters the command's
 * text output escapes and the verifier page marks (`markedCharacters`), less what JSON already escapes
 * (C0 controls and lone surrogates). Built on first use.
 */
let unsafeInJson: RegExp | undefined

/**
 * `JSON.stringify` output with every character of `markedInJson` written as a `\uXXXX`
 * escape (each UTF-16 unit). JSON's structure is ASCII, so such a character can only be inside a
 * string, where the escape reads back as the same character: `JSON.parse` gives the same value.
 */
export function escapeJsonText(json: string): string {
  return json.replace((unsafeInJson ??= markedInJson()), (c) => Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''))
}

/** Writes a value as pretty JSON (bigints as decimal strings), with terminal-unsafe characters escaped. */
export function printJson(ctx: CliContext, value: unknown): void {
  ctx.out(`${escapeJsonText(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2))}\n`)
}
