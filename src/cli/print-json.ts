/**
 * JSON output of the commands. Its own module so that printing a result does not load the error
 * reporter (`output.ts`, which knows every error family of every edge).
 *
 * @module
 */
import type { CliContext } from './command.js'

/** Writes a value as pretty JSON (bigints as decimal strings). */
export function printJson(ctx: CliContext, value: unknown): void {
  ctx.out(`${JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`)
}
