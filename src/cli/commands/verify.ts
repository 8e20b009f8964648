/**
 * `orbitdraw verify proof.json [--online]`
 *
 * @module
 */
import type { VerifyOnlineResult } from '../../beacon/draw.js'
// Narrow imports, not the core's index: `orbitdraw verify FILE` loads the verifier and what it needs,
// not the draw side, the beacon client (only with --online) or the error reporter (see docs/performance.md).
import type { Check } from '../../core/check.js'
import type { DrawKinds } from '../../core/kinds/kind.js'
import { LIMITS } from '../../core/limits.js'
import { readProofJson } from '../../core/proof.js'
import { describeVerdict } from '../../core/verdict.js'
import { COMMITMENT_FILE_TYPE, RECEIPT_TYPE } from '../../core/version.js'
import { verify, type VerifyOptions, type VerifyResult } from '../../core/verify.js'
import type { CliContext, Command, Flags } from '../command.js'
import { stringFlag } from '../flags.js'
import { trustFrom } from '../trust-material.js'
import { printJson } from '../print-json.js'
import { readBytesInput } from '../read-bytes.js'
import { EXIT, UsageError } from '../exit-codes.js'
import { safeText } from '../safe-text.js'
import { describeOutcome } from './describe.js'
import { verifyUsage } from './verify-usage.js'

export const verifyCommand: Command = {
  ...verifyUsage,
  async run(flags, positionals, ctx) {
    if (positionals.length !== 1) throw new UsageError('verify takes exactly one proof file', 'verify')
    const path = positionals[0]!
    // The file's bytes, undecoded: the core applies the spec's rules (strict UTF-8, size in bytes...).
    const bytes = await readBytesInput(path, 'proof', LIMITS.maxProofBytes)
    if (flags.online !== true && (flags.gateway !== undefined || flags['timeout-ms'] !== undefined)) throw new UsageError('--gateway and --timeout-ms are for --online', 'verify')
    if (flags.beacon !== undefined) throw new UsageError('verify takes the beacon from the proof; to trust another beacon, use --trust-beacon NAME', 'verify')
    const options = await verifyOptionsFrom(flags, ctx)
    // Trust a shell's exports added (the emulator prints them): named in every verdict, text and --json.
    const fromEnv = await environmentTrust(ctx, flags)
    // The beacon client only for --online: an offline verification loads no network code.
    const clientOptions = flags.online === true ? (await import('../common.js')).clientOptionsFrom(flags, ctx, 'verify') : undefined
    // A large proof (a full disclosure of 100,000 entries is over 2 MiB) hashes its list on two threads;
    // a smaller one with node:crypto (the core's SHA-256 runs cold in a fresh process: docs/performance.md, Start-up).
    const participantsDigest = bytes.length >= 2 * 1024 * 1024 ? (await import('../../node/parallel-hash.js')).participantsRootParallel : (await import('../../node/native-digest.js')).participantsRootNative
    const result = await verify(bytes, { ...options, participantsDigest })
    let online: VerifyOnlineResult | undefined
    if (clientOptions !== undefined) {
      const { gateways, ...rest } = clientOptions
      const { verifyOnline } = await import('../../beacon/draw.js')
      // A proof that fails offline asks no gateway (verifyOnline reads `offline`): its online checks say so.
      online = await verifyOnline(parsedOrBytes(bytes), { ...(gateways ? { gateways } : {}), clientOptions: rest, signal: ctx.signal, offline: result })
    }
    const ok = result.ok && (online === undefined || online.ok)
    // A file that is not a readable proof (truncated, not JSON, a commitment or receipt, another version)
    // says nothing about the draw: exit 4 (could not read), not 1 (the draw does not check out).
    const unreadable = notAProof(result, bytes)
    if (flags.json === true) printJson(ctx, { ...result, ...(online === undefined ? {} : { ok, offlineOk: result.ok, online }), ...(unreadable === undefined ? {} : { unreadable }), ...(fromEnv.length === 0 ? {} : { trustFromEnvironment: fromEnv }) })
    else ctx.out(unreadable === undefined ? formatResult(result, online, undefined, fromEnv) : formatUnreadable(result, unreadable, fromEnv))
    return ok ? EXIT.ok : unreadable !== undefined ? EXIT.input : EXIT.verificationFailed
  },
}

/** The verifier's policy: its trust material built once from the trust flags and environment ({@link trustFrom}), and its rules. */
export async function verifyOptionsFrom(flags: Flags, ctx: CliContext): Promise<VerifyOptions> {
  const commitment = stringFlag(flags, 'commitment')
  return {
    now: new Date(),
    trust: await trustFrom(flags, ctx, 'verify'),
    ...(flags['allow-unsigned'] === true ? { allowUnsigned: true } : {}),
    ...(flags['allow-untimestamped'] === true ? { allowUntimestamped: true } : {}),
    ...(commitment === undefined ? {} : { commitment }),
  }
}

/**
 * One trust anchor that an environment variable added, not a flag: `orbitdraw emulator` prints
 * `ORBITDRAW_TRUST_BEACONS` and `ORBITDRAW_TRUST_TSA` for its own beacon and authority, and once exported
 * they make every later command of that shell trust them, so every verdict names them.
 */
export interface EnvironmentTrust {
  readonly variable: 'ORBITDRAW_TRUST_BEACONS' | 'ORBITDRAW_TRUST_TSA' | 'ORBITDRAW_TRUST_DRAND'
  readonly kind: 'beacon' | 'time-stamping root' | 'drand chain'
  /** The beacon's name, the root's subject name, or the drand chain's hash. */
  readonly value: string
}

/**
 * The trust anchors ORBITDRAW_TRUST_BEACONS, ORBITDRAW_TRUST_TSA and ORBITDRAW_TRUST_DRAND add (already
 * validated by {@link verifyOptionsFrom}); ORBITDRAW_TRUST_DRAND only when no `--trust-drand` file replaces it.
 */
export async function environmentTrust(ctx: CliContext, flags: Flags = {}): Promise<EnvironmentTrust[]> {
  const list = (v: string | undefined): string[] => (v ?? '').split(',').map((x) => x.trim()).filter((x) => x.length > 0)
  const out = list(ctx.env.ORBITDRAW_TRUST_BEACONS).map((value): EnvironmentTrust => ({ variable: 'ORBITDRAW_TRUST_BEACONS', kind: 'beacon', value }))
  const roots = list(ctx.env.ORBITDRAW_TRUST_TSA)
  if (roots.length > 0) {
    const [{ parseTrustAnchor }, { base64ToBytes }] = await Promise.all([import('../../core/timestamp/anchor.js'), import('../../core/bytes.js')])
    out.push(...roots.map((b64): EnvironmentTrust => ({ variable: 'ORBITDRAW_TRUST_TSA', kind: 'time-stamping root', value: parseTrustAnchor(base64ToBytes(b64)).name })))
  }
  if (flags['trust-drand'] === undefined && (ctx.env.ORBITDRAW_TRUST_DRAND ?? '').trim() !== '') {
    const { extraDrandChains } = await import('../trust-material.js')
    out.push(...(await extraDrandChains({}, ctx, 'verify')).map((c): EnvironmentTrust => ({ variable: 'ORBITDRAW_TRUST_DRAND', kind: 'drand chain', value: c.hash })))
  }
  return out
}

/** The verdict's line naming the trust the environment added (none when it added none). */
export function environmentTrustLines(fromEnv: readonly EnvironmentTrust[]): string[] {
  if (fromEnv.length === 0) return []
  const items = fromEnv.map((t) => `${t.kind} ${t.kind === 'beacon' ? t.value : JSON.stringify(t.value)} (${t.variable})`)
  return [`Trust from the environment, not from flags: ${items.join('; ')}. Unset ${[...new Set(fromEnv.map((t) => t.variable))].join(' and ')} to verify with your own trust only.`]
}

/**
 * When the file could not be read as a proof at all (the only failed check is `format` or `version`),
 * a plain sentence saying what it is instead; otherwise undefined.
 */
export function notAProof(r: VerifyResult, bytes: Uint8Array): string | undefined {
  const failed = r.checks.filter((c) => !c.ok)
  if (failed.length !== 1 || (failed[0]!.name !== 'format' && failed[0]!.name !== 'version')) return undefined
  let value: unknown
  try {
    value = readProofJson(bytes)
  } catch {
    const detail = failed[0]!.detail
    return /not valid JSON/.test(detail) ? `this file is not a readable proof (a truncated or partial download?): ${detail}` : `this file is not a readable proof: ${detail}`
  }
  const o = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  if (o.type === COMMITMENT_FILE_TYPE || (o.type === undefined && 'beacon' in o && 'target' in o && 'draw' in o)) {
    return "this is a commitment, not a proof: after the target block, 'orbitdraw draw FILE -p PARTICIPANTS' makes the proof; 'orbitdraw inspect FILE' shows its CID"
  }
  if (o.type === RECEIPT_TYPE) return "this is a participant receipt, not a proof: check it with 'orbitdraw check-receipt FILE'"
  if (failed[0]!.name === 'version') return `this proof is of a protocol version this orbitdraw does not read: ${failed[0]!.detail}`
  return `this file is not a readable proof: ${failed[0]!.detail}`
}

/** The report for a file that is not a readable proof: what it is, and that nothing about the draw was checked. */
function formatUnreadable(r: VerifyResult, why: string, fromEnv: readonly EnvironmentTrust[] = []): string {
  const lines = [`NOT CHECKED: ${why}.`, 'Nothing about the draw was checked (exit 4: could not read; exit 1 means a proof was read and a check failed).', ...environmentTrustLines(fromEnv).map((l) => `  ${l}`), '']
  for (const c of r.checks) lines.push(`${marker(c)} ${c.name.padEnd(22)} ${c.detail}`)
  return `${lines.map(safeText).join('\n')}\n`
}

/** The proof's JSON value by the core's rules, or the bytes themselves (verifyOnline then reports the error). */
function parsedOrBytes(bytes: Uint8Array): unknown {
  try {
    return readProofJson(bytes)
  } catch {
    return bytes
  }
}

/**
 * Human-readable verification report: the verdict and its facts first, then every check. Untrusted
 * text is escaped. `kinds` is the registry the proof was verified with (default: the built-in kinds);
 * `fromEnv` the trust the environment added ({@link environmentTrust}), named under the verdict.
 */
export function formatResult(r: VerifyResult, online?: VerifyOnlineResult, kinds?: DrawKinds, fromEnv: readonly EnvironmentTrust[] = []): string {
  const verdict = describeVerdict(r)
  const head: string[] = []
  const onlineFailed = r.ok && online !== undefined && !online.ok
  head.push(onlineFailed ? `FAILED online: ${online.checks.filter((c) => !c.ok).map((c) => c.name).join(', ')} (the proof is internally valid offline)` : verdict.headline)
  head.push(...verdict.lines.map((l) => `  ${l}`))
  head.push(...environmentTrustLines(fromEnv).map((l) => `  ${l}`))
  if (r.ok && online !== undefined && online.ok) head.push("  Online: every carried block is still served, and today's head descends from the proof's head.")
  if (online !== undefined && !online.asked && !r.ok) head.push('  Online: not checked: the proof fails offline, so no gateway was asked.')
  if (r.commitment) head.push(`  Draw: ${r.commitment.label === '' ? '(no label)' : JSON.stringify(r.commitment.label)} (${r.commitment.draw.kind})`)
  const lines = head.map(safeText)
  // describeOutcome's lines are already escaped (its tables are aligned on the escaped text).
  if (r.outcome) lines.push(...describeOutcome(r.outcome, r.ok ? '' : ' (claimed, not verified)', kinds).map((l) => `  ${l}`))
  const tail: string[] = ['']
  const all = [...r.checks, ...(online?.checks ?? [])]
  for (const c of all) tail.push(`${marker(c)} ${c.name.padEnd(22)} ${c.detail}`)
  tail.push(countLine(all))
  for (const n of [...r.notes, ...(online?.notes ?? [])]) tail.push(`  note: ${n}`)
  return `${[...lines, ...tail.map(safeText)].join('\n')}\n`
}

/**
 * ✓ passed on its evidence, ~ passed only through a relaxed rule, ○ not checked (nothing to look
 * at: neither passed nor failed), ✗ failed.
 */
export function marker(c: Check): string {
  return !c.ok ? '✗' : c.notChecked === true ? '○' : c.relaxedBy !== undefined ? '~' : '✓'
}

/** The tally under the checks: a check that did not run, or passed only relaxed, is never counted as passed. */
export function countLine(checks: readonly Check[]): string {
  const n = (m: string): number => checks.filter((c) => marker(c) === m).length
  const parts = [`${n('✓')} passed`, ...(n('~') > 0 ? [`${n('~')} relaxed (~)`] : []), ...(n('○') > 0 ? [`${n('○')} not checked (○)`] : []), `${n('✗')} failed`]
  return `${parts.join(', ')} of ${checks.length} check${checks.length === 1 ? '' : 's'}`
}
