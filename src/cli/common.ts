/**
 * Helpers shared by the commands: flag parsing, the beacon client from flags and environment,
 * reading and writing files, durations.
 *
 * @module
 */
import { chmod, writeFile } from 'node:fs/promises'
import { BeaconClient, type BeaconClientOptions } from '../beacon/client.js'
import { DEFAULT_GATEWAYS, ORBITPORT_BEACON_NAME } from '../beacon/gateway.js'
import { type BeaconBlock } from '../core/block.js'
import { InvalidInputError, OrbitdrawError } from '../core/errors.js'
import { LIMITS } from '../core/limits.js'
import { parseCommitmentFile, type CommitmentFile } from '../core/commitment-file.js'
import { PROOF_TYPE } from '../core/version.js'
import { RECEIPT_TYPE } from '../core/schema/receipt.js'
import { validateBeaconName } from '../core/commitment.js'
import { readProofJson } from '../core/proof.js'
import type { CliContext, Flags } from './command.js'
import { listFlag, stringFlag } from './flags.js'
import { UsageError } from './exit-codes.js'
import { readBytesInput } from './read-bytes.js'
import { safeText } from './safe-text.js'
import { nodeFetch } from '../net/node-fetch.js'

export { listFlag, stringFlag } from './flags.js'

/** Parses a whole-number flag in [min, max]. */
export function intFlag(flags: Flags, name: string, command: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const v = stringFlag(flags, name)
  if (v === undefined) return undefined
  return parseIntValue(v, `--${name}`, command, min, max)
}

/** Parses a whole number for a flag or argument, as a usage error when it is not one. */
export function parseIntValue(v: string, what: string, command: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (/^-[0-9]+$/.test(v)) throw new UsageError(`${what} must be a whole number of at least ${min}, got ${v}`, command)
  if (!/^(?:0|[1-9][0-9]*)$/.test(v) || !Number.isSafeInteger(Number(v))) throw new UsageError(`${what} must be a whole number, got ${JSON.stringify(v)}`, command)
  const n = Number(v)
  if (n < min || n > max) throw new UsageError(`${what} must be between ${min} and ${max}, got ${n}`, command)
  return n
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/**
 * Parses a duration with its unit: `90s`, `5m`, `1h`, `1h30m`, `250ms`, `2d`. Returns ms. A bare
 * number is refused: `--delay 10` could mean seconds or minutes, so the message asks for the unit.
 * @throws {@link UsageError} when it is not one.
 */
export function parseDuration(text: string, what: string, command: string): number {
  if (/^[0-9]+(?:\.[0-9]+)?$/.test(text)) throw new UsageError(`${what} needs a unit: ${text}s, ${text}m or ${text}h (got ${JSON.stringify(text)})`, command)
  const re = /([0-9]+(?:\.[0-9]+)?)(ms|s|m|h|d)/gy
  let total = 0
  let end = 0
  let m: RegExpExecArray | null
  while ((m = re.exec(text)) !== null) {
    total += Number(m[1]) * UNIT_MS[m[2]!]!
    end = re.lastIndex
  }
  if (text === '' || end !== text.length || !Number.isFinite(total)) {
    throw new UsageError(`${what} must be a duration like 90s, 5m, 1h or 1h30m, got ${JSON.stringify(text)}`, command)
  }
  // 2^53 ms is 285,616 years: past it, the planned target is no longer an exact integer (`--delay 99999999999999999999d`).
  if (!Number.isSafeInteger(Math.round(total))) throw new UsageError(`${what} ${text} is too long (at most 285,616 years)`, command)
  return Math.round(total)
}

/** Formats ms as a short human duration: `4s`, `2m05s`, `1h02m`, `3d04h` (days from 24 hours on). */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  if (s < 86_400) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
  return `${Math.floor(s / 86_400).toLocaleString('en-US')}d${String(Math.floor((s % 86_400) / 3600)).padStart(2, '0')}h`
}

/** Gateways from `--gateway` (repeatable, comma lists), else ORBITDRAW_GATEWAYS, else the defaults. */
export function gatewaysFrom(flags: Flags, ctx: CliContext, command: string): readonly string[] {
  const fromFlags = listFlag(flags, 'gateway')
  const fromEnv = ctx.env.ORBITDRAW_GATEWAYS?.split(',').map((s) => s.trim()).filter((s) => s !== '')
  const list = fromFlags !== undefined && fromFlags.length > 0 ? fromFlags : fromEnv !== undefined && fromEnv.length > 0 ? fromEnv : DEFAULT_GATEWAYS
  for (const g of list) {
    let u: URL
    try {
      u = new URL(g)
    } catch {
      throw new UsageError(`gateway ${JSON.stringify(g)} is not a URL${fromFlags ? '' : ' (from ORBITDRAW_GATEWAYS)'}; use e.g. https://ipfs.io or http://127.0.0.1:8080`, command)
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`gateway ${JSON.stringify(g)} must be an http:// or https:// URL`, command)
  }
  return list
}

/** Beacon name from `--beacon`, else ORBITDRAW_BEACON, else the Orbitport beacon. */
export function beaconNameFrom(flags: Flags, ctx: CliContext, command: string): string {
  const name = stringFlag(flags, 'beacon') ?? (ctx.env.ORBITDRAW_BEACON?.trim() || undefined) ?? ORBITPORT_BEACON_NAME
  try {
    validateBeaconName(name, '--beacon')
  } catch (err) {
    throw new UsageError(`--beacon ${JSON.stringify(name)} is not a beacon IPNS name (k2k4r8… or k51…): ${err instanceof OrbitdrawError ? err.detail : String(err)}`, command)
  }
  return name
}

/** Client options from the shared beacon flags (gateways, timeout, unsigned head). */
export function clientOptionsFrom(flags: Flags, ctx: CliContext, command: string): Omit<BeaconClientOptions, 'name'> {
  const timeoutMs = intFlag(flags, 'timeout-ms', command, 1)
  return {
    gateways: gatewaysFrom(flags, ctx, command),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    allowUnsignedHead: flags['allow-unsigned-head'] === true,
    // node:http, not the global fetch: a chain walk is one request per block (src/net/node-fetch.ts).
    fetch: nodeFetch,
  }
}

/** A beacon client for `name` (default: from flags/env) configured from the shared beacon flags. */
export function beaconClientFrom(flags: Flags, ctx: CliContext, command: string, name?: string): BeaconClient {
  return new BeaconClient({ ...clientOptionsFrom(flags, ctx, command), name: name ?? beaconNameFrom(flags, ctx, command) })
}

export { readBytesInput }


/** Fails early (before any waiting) when `path` exists and `force` is not set. */
export async function assertWritable(path: string, force: boolean, command: string): Promise<void> {
  if (path === '-' || force) return
  const { access } = await import('node:fs/promises')
  const exists = await access(path).then(
    () => true,
    () => false,
  )
  if (exists) throw new UsageError(`${path} already exists; pass --force to overwrite it, or choose another -o file`, command)
}

/**
 * Writes `text` to `path` (standard output for `-`); refuses to overwrite unless `force`. `mode` (a
 * private list's file: 0o600) is set on a new file and on an overwritten one alike.
 */
export async function writeOutput(ctx: CliContext, path: string, text: string, force: boolean, command: string, mode?: number): Promise<void> {
  if (path === '-') {
    ctx.out(text)
    return
  }
  try {
    await writeFile(path, text, { flag: force ? 'w' : 'wx', ...(mode === undefined ? {} : { mode }) })
    if (mode !== undefined) await chmod(path, mode) // an overwritten file keeps its old mode otherwise
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code
    if (code === 'EEXIST') throw new UsageError(`${path} already exists; pass --force to overwrite it, or choose another -o file`, command)
    throw new InvalidInputError('FILE_UNWRITABLE', `cannot write ${path}: ${code ?? (cause as Error).message}`, 'check the directory exists and is writable', { cause })
  }
}

/** A block as plain JSON for `--json` output. */
export function blockJson(b: BeaconBlock): Record<string, unknown> {
  return {
    sequence: b.sequence,
    cid: b.cid,
    previous: b.previous,
    timestamp: b.timestamp,
    time: blockTimeIso(b.timestamp),
    ctrng: b.ctrng,
    ...(b.metadata === undefined ? {} : { metadata: b.metadata }),
  }
}

/**
 * A block's timestamp (Unix seconds, as the publisher wrote it) in ISO 8601, or `null` when it is past
 * what a JavaScript `Date` holds (year 275760): a block may say any whole number up to 2^53 − 1.
 */
export function blockTimeIso(seconds: number): string | null {
  const d = new Date(seconds * 1000)
  return Number.isNaN(d.getTime()) ? null : d.toISOString()
}

/** A block's time for a line of text: ISO 8601, or the raw seconds when no date can show them. */
export function blockTimeText(seconds: number): string {
  return blockTimeIso(seconds) ?? `${seconds} s after 1970 (past any date)`
}

/** A block as human-readable lines. */
export function blockLines(b: BeaconBlock): string[] {
  return [
    `block ${b.sequence}  ${b.cid}`,
    `  time      ${blockTimeText(b.timestamp)}`,
    `  previous  ${b.previous ?? '(none: genesis)'}`,
    ...(b.ctrng.length === 0 ? ['  ctrng     (none)'] : b.ctrng.map((v, i) => `  ctrng[${i}]  ${v}`)),
  ].map(safeText)
}

/** Largest commitment file read: the commitment, its time-stamp tokens in base64, and some room. */
export const MAX_COMMITMENT_FILE_BYTES = LIMITS.maxCommitmentBytes + LIMITS.maxTimestampTokens * Math.ceil(LIMITS.maxTimestampTokenBytes / 3) * 4 + 4096

/**
 * Reads the commitment file `commit` wrote (or a bare commitment) for `draw` and `receipts`. A proof
 * or a receipt given instead is named as such, with the command that takes it.
 * @throws {@link InvalidInputError} `FILE_UNREADABLE`, `NOT_A_COMMITMENT`; the core's parse errors.
 */
/** The `"type"` a JSON document's first 4 KiB state, when it is a proof's or a receipt's. */
function sniffType(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder().decode(bytes.subarray(0, 4096))
  const m = /^\s*\{[^]*?"type"\s*:\s*"([^"]{1,40})"/.exec(head)
  return m?.[1] === PROOF_TYPE || m?.[1] === RECEIPT_TYPE ? m[1] : undefined
}

export async function readCommitmentFile(path: string): Promise<CommitmentFile> {
  const bytes = await readBytesInput(path, 'commitment', MAX_COMMITMENT_FILE_BYTES)
  try {
    return parseCommitmentFile(bytes)
  } catch (err) {
    let type: unknown
    try {
      const v = readProofJson(bytes)
      type = typeof v === 'object' && v !== null ? (v as { type?: unknown }).type : undefined
    } catch {
      // Too large to be a commitment (read only up to its limit), or not JSON: a proof or a receipt
      // still names its type near its start, so say what it is rather than how many bytes it has.
      type = sniffType(bytes)
      if (type === undefined) throw err
    }
    if (type === PROOF_TYPE) throw new InvalidInputError('NOT_A_COMMITMENT', `${path} is a proof, not a commitment`, `check it with 'orbitdraw verify ${path}'; this command takes the commitment file written by 'orbitdraw commit'`, { cause: err })
    if (type === RECEIPT_TYPE) throw new InvalidInputError('NOT_A_COMMITMENT', `${path} is a participant receipt, not a commitment`, `check it with 'orbitdraw check-receipt ${path}'; this command takes the commitment file written by 'orbitdraw commit'`, { cause: err })
    throw err
  }
}
