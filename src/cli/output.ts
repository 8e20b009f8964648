/**
 * Output helpers: human text or `--json`, and errors turned into messages and exit codes.
 *
 * @module
 */
import { InvalidInputError, MismatchError, OrbitdrawError, ParseError, IntegrityError, LimitExceededError, UnsupportedVersionError } from '../core/errors.js'
import { AbortedError } from '../net/errors.js'
import { BeaconError, NotYetPublishedError, WaitTimeoutError } from '../beacon/errors.js'
import { AuthError, BrowserSecretError, OrbitportError, SignatureError, TokenError, UnknownSourceError } from '../rest/errors.js'
import type { CliContext } from './command.js'
import { EXIT, UsageError } from './exit-codes.js'
import { formatDuration } from './common.js'
import { printJson } from './print-json.js'
import { safeText } from './safe-text.js'

export { printJson }

const INPUT_ERRORS = [InvalidInputError, ParseError, IntegrityError, MismatchError, LimitExceededError, UnsupportedVersionError]

/** Input-class error codes that are really about the beacon or gateways misbehaving (exit 3). */
const NETWORK_CODES = new Set(['UNAUTHENTICATED_HEAD', 'PROOF_CHAIN_INVALID', 'TIMESTAMP_UNAVAILABLE'])

/**
 * Maps an error to its exit code.
 *
 * - 2 usage: {@link UsageError}; an unknown cTRNG source name (`--src`).
 * - 130 interrupted: the beacon's {@link AbortedError} (every edge's, Ctrl-C).
 * - 1 verification failed: a REST value whose signature does not verify under `--public-key`.
 * - 4 bad input: the core's input classes (invalid, parse, integrity, mismatch, limit, version), a
 *   sequence not published yet, and credentials the identity provider or the API refused.
 * - 3 network: every other beacon error (gateways unreachable, timing out, rate limiting, bad or stale
 *   answers, forks, broken chains, wait timeouts), every other REST error (network, timeout, 5xx, invalid
 *   response, rate limit, failed fallback), and the two input-class codes that actually mean the beacon
 *   misbehaved (`UNAUTHENTICATED_HEAD`, `PROOF_CHAIN_INVALID`).
 * - 70 internal: anything else (a bug).
 */
export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError) return EXIT.usage
  // The standard abort (a signal's default reason): a file read stopped on Ctrl-C or SIGTERM.
  if (err instanceof Error && err.name === 'AbortError') return EXIT.interrupted
  if (!(err instanceof OrbitdrawError)) return EXIT.internal
  if (err instanceof AbortedError) return EXIT.interrupted
  if (err instanceof UnknownSourceError) return EXIT.usage
  if (err instanceof SignatureError) return EXIT.verificationFailed
  if (err instanceof TokenError || err instanceof AuthError) return EXIT.input
  if (err instanceof BrowserSecretError) return EXIT.internal
  if (err instanceof NotYetPublishedError) return EXIT.input
  if (NETWORK_CODES.has(err.code)) return EXIT.network
  if (INPUT_ERRORS.some((C) => err instanceof C)) return EXIT.input
  if (err instanceof BeaconError || err instanceof OrbitportError) return EXIT.network
  return EXIT.internal
}

/** Commands whose network failure leaves nothing written and can simply be run again. */
const RERUNNABLE: Record<string, string> = {
  draw: 'nothing was written; run the same command again: the outcome is fixed by the commitment, so a later run draws the same winners',
  commit: 'nothing was written; run the same command again (it picks a new target block)',
}

/**
 * What the user of the CLI should do, in the CLI's terms: the library's hints name its options
 * (`timeoutMs`, `waitFor()`, `failures`); the command line has flags and commands instead.
 */
export function cliHint(err: OrbitdrawError, command: string | undefined): string {
  let hint = err.hint
    .replace(/raise timeoutMs/g, 'raise --timeout-ms')
    .replace(/see `failures` for each gateway; /, '')
    .replace(/use waitFor\(\) to wait for it/, "'orbitdraw draw' waits for it; or try again once it is out")
    .replace(/pass requireAuthenticated: false knowingly/, 'pass --allow-unsigned-head knowingly')
    .replace(/^add the field "([^"]*)"$/, 'the file lacks "$1": pass the file orbitdraw wrote, unedited (orbitdraw inspect FILE shows what a file is)')
  if (err.code === 'WAIT_TIMEOUT') hint = 'check that the beacon is publishing (orbitdraw beacon latest); give a longer --wait-timeout, or none to wait as long as needed'
  const again = command === undefined ? undefined : RERUNNABLE[command]
  if (again !== undefined && exitCodeFor(err) === EXIT.network) hint = `${again}. ${hint}`
  return hint
}

/** The error's detail in the CLI's words (durations as 10m, not 600000 ms). */
function cliDetail(err: OrbitdrawError): string {
  if (err instanceof WaitTimeoutError) return `gave up waiting (--wait-timeout ${formatDuration(err.timeoutMs)}): block ${err.target} did not appear (latest seen: ${err.head ?? 'none'})`
  return err.detail
}

/**
 * The `error` object of a `--json` failure: every error has a stable `code` (usage errors included:
 * `USAGE`, `UNKNOWN_COMMAND`, `UNKNOWN_FLAG`, `MISSING_VALUE`; a bug: `INTERNAL`), a `message` that
 * is only what went wrong (the `hint` and `path` are their own fields, not repeated in it).
 */
export function errorJson(err: unknown, command?: string): { name: string; code: string; message: string; hint: string; path?: string } {
  if (err instanceof OrbitdrawError) return { name: err.name, code: err.code, message: cliDetail(err), hint: cliHint(err, command), ...(err.path === undefined ? {} : { path: err.path }) }
  if (err instanceof UsageError) return { name: err.name, code: err.code, message: err.message, hint: `run 'orbitdraw ${err.command === undefined ? '' : `${err.command} `}--help' for usage` }
  return { name: (err as Error)?.name ?? 'Error', code: 'INTERNAL', message: (err as Error)?.message ?? String(err), hint: 'this is a bug; please report it' }
}

/**
 * Reports an error on stderr (or as JSON on stdout with --json, exact) and returns its exit code. The
 * human form escapes every line with {@link safeText}: details can quote proof or file text.
 */
export function reportError(ctx: CliContext, err: unknown, json: boolean, command?: string): number {
  const code = exitCodeFor(err)
  if (json) {
    printJson(ctx, { ok: false, exitCode: code, error: errorJson(err, command) })
    return code
  }
  const say = (text: string): void => ctx.err(`${text}\n`)
  if (err instanceof UsageError) {
    say(`orbitdraw: ${safeText(err.message)}\nRun 'orbitdraw ${err.command ?? ''}${err.command ? ' ' : ''}--help' for usage.`)
  } else if (code === EXIT.interrupted) {
    ctx.err('orbitdraw: interrupted; nothing was written\n')
  } else if (err instanceof OrbitdrawError) {
    // A beacon error's failures carry typed errors; a time-stamping one's are {authority, code, detail},
    // already named in its message (and shown once).
    const failures = (err as { failures?: readonly { error?: unknown }[] }).failures
    const each = Array.isArray(failures) ? [...new Set(failures.flatMap((f) => (f?.error instanceof OrbitdrawError ? [`\n    - ${safeText(f.error.detail)}`] : [])))].join('') : ''
    const kind = code === EXIT.network && err.code !== 'WAIT_TIMEOUT' ? 'network failure: ' : ''
    const detail = cliDetail(err)
    say(`orbitdraw: ${kind}${safeText(detail)}${err.path && !detail.includes(err.path) ? ` (at ${safeText(err.path)})` : ''}${each}\n  what to do: ${safeText(cliHint(err, command))}\n  [${safeText(err.code)}]`)
  } else {
    say(`orbitdraw: unexpected error: ${((err as Error)?.stack ?? String(err)).split('\n').map(safeText).join('\n')}\nThis is a bug; please report it.`)
  }
  return code
}
