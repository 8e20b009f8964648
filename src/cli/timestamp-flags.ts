/**
 * The time-stamping flags shared by `commit` (and, later, `verify`): which authorities to ask and
 * which time-stamping roots to trust, from flags and environment.
 *
 * @module
 */
import { readFile } from 'node:fs/promises'
import { base64ToBytes, DEFAULT_TIMESTAMP_AUTHORITIES, OrbitdrawError, parseTrustAnchor, parseTrustAnchors, type TimestampTrustAnchor } from '../core/index.js'
import { DEFAULT_TSA_URLS } from '../timestamp/index.js'
import type { CliContext, Flags } from './command.js'
import { listFlag } from './common.js'
import { UsageError } from './exit-codes.js'

/** The flags (`--tsa URL`, `--no-timestamp`, `--trust-tsa FILE`). */
export const TIMESTAMP_OPTIONS = {
  tsa: { type: 'string', multiple: true },
  'no-timestamp': { type: 'boolean' },
  'trust-tsa': { type: 'string', multiple: true },
} as const

export const TIMESTAMP_HELP = `Time-stamping (proves the commitment existed before the target block):
  --tsa URL                an RFC 3161 authority (repeatable; default: ${DEFAULT_TSA_URLS.join(' and ')})
  --trust-tsa FILE         also trust this time-stamping root (PEM; repeatable)
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

/** The built-in roots plus `--trust-tsa` files plus ORBITDRAW_TRUST_TSA. */
export async function tsaAnchorsFrom(flags: Flags, ctx: CliContext, command: string): Promise<readonly TimestampTrustAnchor[]> {
  const extra: TimestampTrustAnchor[] = []
  for (const path of listFlag(flags, 'trust-tsa') ?? []) {
    let text: string
    try {
      text = await readFile(path, 'utf8')
    } catch (e) {
      throw new UsageError(`--trust-tsa ${path}: ${(e as Error).message}`, command)
    }
    try {
      extra.push(...parseTrustAnchors(text))
    } catch (e) {
      throw new UsageError(`--trust-tsa ${path}: ${e instanceof OrbitdrawError ? e.detail : String(e)}`, command)
    }
  }
  for (const b64 of ctx.env.ORBITDRAW_TRUST_TSA?.split(',').map((s) => s.trim()).filter((s) => s !== '') ?? []) {
    try {
      extra.push(parseTrustAnchor(base64ToBytes(b64)))
    } catch (e) {
      throw new UsageError(`ORBITDRAW_TRUST_TSA: ${e instanceof OrbitdrawError ? e.detail : String(e)}`, command)
    }
  }
  return [...DEFAULT_TIMESTAMP_AUTHORITIES, ...extra]
}

function isHttpUrl(u: string): boolean {
  try {
    const p = new URL(u).protocol
    return p === 'http:' || p === 'https:'
  } catch {
    return false
  }
}
