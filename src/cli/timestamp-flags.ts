/**
 * The time-stamping flags shared by `commit` (and, later, `verify`): which authorities to ask and
 * which time-stamping roots to trust, from flags and environment.
 *
 * @module
 */
// From the core's list, not the time-stamping client: `draw` reads these flags, and a version 1 draw
// never loads the client (its request writer and reply reader).
import { DEFAULT_TSA_URLS } from '../core/timestamp/defaults.js'
import type { CliContext, Flags } from './command.js'
import { listFlag } from './common.js'
import { UsageError } from './exit-codes.js'

// `--trust-tsa` lives in its own module: `verify` reads it without loading the time-stamping client.
export { tsaAnchorsFrom } from './trust-tsa.js'

/** The flags (`--tsa URL`, `--no-timestamp`, `--trust-tsa FILE`). */
export const TIMESTAMP_OPTIONS = {
  tsa: { type: 'string', multiple: true },
  'no-timestamp': { type: 'boolean' },
  'trust-tsa': { type: 'string', multiple: true },
} as const

export const TIMESTAMP_HELP = `Time-stamping (proves the commitment existed before the target block):
  --tsa URL                an RFC 3161 authority (repeatable; default: ${DEFAULT_TSA_URLS.join(' and ')})
  --trust-tsa FILE         also trust this time-stamping root (PEM or DER; repeatable)
  --no-timestamp           commit without a time-stamp, knowingly: the proof will not show when the
                           draw was committed, and verifiers may refuse it
Environment: ORBITDRAW_TSA (comma-separated URLs) and ORBITDRAW_TRUST_TSA (comma-separated base64 DER
roots) set the same defaults; 'orbitdraw emulator' prints them for its own authority.`

/** Authority URLs from `--tsa`, else ORBITDRAW_TSA, else the public defaults. */
export function tsaUrlsFrom(flags: Flags, ctx: CliContext, command: string): readonly string[] {
  const fromFlags = listFlag(flags, 'tsa')
  const fromEnv = ctx.env.ORBITDRAW_TSA?.split(',').map((s) => s.trim()).filter((s) => s !== '')
  const urls = fromFlags ?? (fromEnv !== undefined && fromEnv.length > 0 ? fromEnv : undefined) ?? DEFAULT_TSA_URLS
  for (const u of urls) {
    if (!isHttpUrl(u)) throw new UsageError(`time-stamping authority ${JSON.stringify(u)} is not an http(s) URL${fromFlags ? '' : ' (from ORBITDRAW_TSA)'}; use e.g. http://timestamp.digicert.com`, command)
  }
  return urls
}

function isHttpUrl(u: string): boolean {
  try {
    const p = new URL(u).protocol
    return p === 'http:' || p === 'https:'
  } catch {
    return false
  }
}
