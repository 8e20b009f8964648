/**
 * `--trust-tsa FILE` and ORBITDRAW_TRUST_TSA: the time-stamping roots a command trusts, shared by
 * `commit` and `verify`. Apart from `timestamp-flags.ts` so that `verify` loads the certificate parser
 * only, not the time-stamping client and its ASN.1 library (see docs/performance.md, Start-up).
 *
 * @module
 */
import { base64ToBytes, utf8Decode } from '../core/bytes.js'
import { OrbitdrawError } from '../core/errors.js'
import { LIMITS } from '../core/limits.js'
import { parseTrustAnchor, parseTrustAnchors, type TimestampTrustAnchor } from '../core/timestamp/anchor.js'
import { PUBLIC_TIMESTAMP_AUTHORITIES } from '../core/timestamp/defaults.js'
import { createTrust, timestampRoots } from '../core/trust.js'
import type { CliContext, Flags } from './command.js'
import { fileListFlag } from './flags.js'
import { UsageError } from './exit-codes.js'
import { readBytesInput } from './read-bytes.js'

/** The most bytes of a `--trust-tsa` file: the core's bound on PEM text of roots (`parseTrustAnchors`). */
const MAX_TRUST_TSA_BYTES = LIMITS.maxTimestampTokenBytes * 64

/** The first byte of a DER certificate (an ASN.1 SEQUENCE); PEM text starts otherwise. */
const DER_SEQUENCE = 0x30

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
  for (const path of fileListFlag(flags, 'trust-tsa') ?? []) {
    // Bytes, at most the PEM text limit + 1 (`/dev/zero` is refused by its size, not read to the end of
    // memory); PEM as strict UTF-8 (a bad byte is named, not turned into U+FFFD), or one DER certificate.
    let bytes: Uint8Array
    try {
      bytes = await readBytesInput(path, 'time-stamping root', MAX_TRUST_TSA_BYTES)
    } catch (e) {
      throw new UsageError(`--trust-tsa ${path}: ${e instanceof OrbitdrawError ? e.detail : String(e)}`, command)
    }
    if (bytes.length > MAX_TRUST_TSA_BYTES) throw new UsageError(`--trust-tsa ${path}: the file is over ${MAX_TRUST_TSA_BYTES} bytes, too long for a set of root certificates (pass the authority's root certificate, PEM or DER)`, command)
    try {
      extra.push(...parseTrustAnchors(bytes[0] === DER_SEQUENCE ? bytes : utf8Decode(bytes)))
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
