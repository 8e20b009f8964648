/**
 * `--trust-tsa FILE` and ORBITDRAW_TRUST_TSA: the time-stamping roots a command trusts, shared by
 * `commit` and `verify`. Apart from `timestamp-flags.ts` so that `verify` loads the certificate parser
 * only, not the time-stamping client and its ASN.1 library (see docs/performance.md, Start-up).
 *
 * @module
 */
import { readFile as readFileCallback } from 'node:fs'
import { promisify } from 'node:util'
import { base64ToBytes } from '../core/bytes.js'
import { OrbitdrawError } from '../core/errors.js'
import { parseTrustAnchor, parseTrustAnchors, type TimestampTrustAnchor } from '../core/timestamp/anchor.js'
import { PUBLIC_TIMESTAMP_AUTHORITIES } from '../core/timestamp/defaults.js'
import { createTrust, timestampRoots } from '../core/trust.js'
import type { CliContext, Flags } from './command.js'
import { listFlag } from './flags.js'
import { UsageError } from './exit-codes.js'

/** node:fs's callback API: node:fs/promises would load Node's streams and readline for one small file (see `./read-bytes.ts`). */
const readFile = promisify(readFileCallback)

/**
 * The roots of the trust material's authorities (`createTrust`): the public authorities' roots plus
 * `--trust-tsa` files plus ORBITDRAW_TRUST_TSA, what `commit` and `draw` check fresh tokens against.
 */
export async function tsaAnchorsFrom(flags: Flags, ctx: CliContext, command: string): Promise<readonly TimestampTrustAnchor[]> {
  return timestampRoots(await createTrust({ timestampAuthorities: [...PUBLIC_TIMESTAMP_AUTHORITIES, ...(await extraTsaRoots(flags, ctx, command))] }))
}

/** The roots `--trust-tsa` files and ORBITDRAW_TRUST_TSA add, in order. */
export async function extraTsaRoots(flags: Flags, ctx: CliContext, command: string): Promise<TimestampTrustAnchor[]> {
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
  return extra
}
