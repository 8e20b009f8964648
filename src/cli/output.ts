/**
 * Output helpers: human text or `--json`, and errors turned into messages and exit codes.
 *
 * @module
 */
import { InvalidInputError, MismatchError, OrbitdrawError, ParseError, IntegrityError, LimitExceededError, UnsupportedVersionError } from '../core/index.js'
import type { CliContext } from './command.js'
import { EXIT, UsageError } from './exit-codes.js'

/** Writes a value as pretty JSON (bigints as decimal strings). */
export function printJson(ctx: CliContext, value: unknown): void {
  ctx.out(`${JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`)
}

const INPUT_ERRORS = [InvalidInputError, ParseError, IntegrityError, MismatchError, LimitExceededError, UnsupportedVersionError]

/** Maps an error to its exit code: usage 2, input 4, network 3, otherwise internal. */
export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError) return EXIT.usage
  if (err instanceof OrbitdrawError) {
    if (INPUT_ERRORS.some((C) => err instanceof C)) return EXIT.input
    return EXIT.network
  }
  return EXIT.internal
}

/** Reports an error on stderr (or as JSON on stdout with --json) and returns its exit code. */
export function reportError(ctx: CliContext, err: unknown, json: boolean): number {
  const code = exitCodeFor(err)
  if (json) {
    const body = err instanceof OrbitdrawError ? err.toJSON() : { name: (err as Error)?.name ?? 'Error', message: (err as Error)?.message ?? String(err) }
    printJson(ctx, { ok: false, exitCode: code, error: body })
    return code
  }
  if (err instanceof UsageError) {
    ctx.err(`orbitdraw: ${err.message}\nRun 'orbitdraw ${err.command ?? ''}${err.command ? ' ' : ''}--help' for usage.\n`)
  } else if (err instanceof OrbitdrawError) {
    ctx.err(`orbitdraw: ${err.detail}${err.path ? ` (at ${err.path})` : ''}\n  what to do: ${err.hint}\n  [${err.code}]\n`)
  } else {
    ctx.err(`orbitdraw: unexpected error: ${(err as Error)?.stack ?? String(err)}\nThis is a bug; please report it.\n`)
  }
  return code
}
