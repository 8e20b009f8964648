/**
 * `orbitdraw verify proof.json [--online]`
 *
 * @module
 */
import { verifyOnline, type VerifyOnlineResult } from '../../beacon/index.js'
import { COMMITMENT_FILE_TYPE, DEFAULT_TIMESTAMP_AUTHORITIES, describeVerdict, RECEIPT_TYPE, LIMITS, normalizeTrustedBeacons, OrbitdrawError, ORBITPORT_BEACONS, verify, type Check, type DrawKinds, type TrustedBeacon, type VerifyOptions, type VerifyResult } from '../../core/index.js'
import { readProofJson } from '../../core/proof.js'
import { BEACON_OPTIONS, GLOBAL_OPTIONS, type CliContext, type Command, type Flags } from '../command.js'
import { clientOptionsFrom, listFlag, readBytesInput, stringFlag } from '../common.js'
import { tsaAnchorsFrom } from '../timestamp-flags.js'
import { EXIT, UsageError } from '../exit-codes.js'
import { printJson } from '../output.js'
import { safeText } from '../safe-text.js'
import { describeOutcome } from './describe.js'

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'check a proof offline under your trust policy; exit 0 only when every check passes',
  help: `Usage: orbitdraw verify PROOF [--commitment CID] [--trust-beacon NAME]... [--trust-tsa FILE]...
                        [--allow-unsigned] [--allow-untimestamped]
                        [--online [--gateway URL]... [--timeout-ms N] [--allow-unsigned-head]] [--json]

Re-checks a proof bundle with no network, under a strict policy by default: the commitment's CID,
that the beacon is one you trust (default: Orbitport's beacons), the participants (all entries, or
each revealed winner's inclusion proof), every carried block against its CID, the chain links, the
beacon's signed IPNS record (required), the commitment's RFC 3161 time-stamp (required: a trusted
authority dated it before the target block), the seed and the outcome. Prints every check.

The verdict starts with the commitment CID: compare it with the CID the organizer announced before
the target block, or pin it with --commitment so a proof of any other commitment fails.

With --online it then asks the beacon's gateways whether every carried block is still served with
the same bytes and whether today's signed head descends from the proof's head (checks
online-blocks and online-chain). An unreachable beacon makes those checks fail (exit 1).

Trust (your anchors, never the proof's):
  --commitment CID       the commitment CID the organizer announced; any other fails commitment-pinned
  --trust-beacon NAME    also trust this beacon IPNS name (repeatable), e.g. the emulator's;
                         ORBITDRAW_TRUST_BEACONS (comma-separated) does the same
  --trust-tsa FILE       also trust this time-stamping root (PEM; repeatable); ORBITDRAW_TRUST_TSA
                         (comma-separated base64 DER) does the same
  --allow-unsigned       accept blocks that no signed beacon record vouches for (integrity only)
  --allow-untimestamped  accept a commitment that no trusted time-stamp dates before the target block
                         (check by other means that its CID was published before then)
  With --allow-*, the verdict says NOT FULLY VERIFIED and what to check instead.

Flags:
  --online           also re-check against the live beacon (uses --gateway / ORBITDRAW_GATEWAYS;
                     the beacon is the one named in the proof)
  --gateway URL      a gateway for --online (repeatable); --timeout-ms N per request
  --json             print the full result as JSON
  PROOF              a proof file, or - for standard input

Exit codes: 0 every check passed, 1 the proof was read and a check failed (the draw does not check
out), 2 usage error, 4 could not read a proof (missing or unreadable file, truncated or not JSON,
a commitment or receipt instead of a proof, an unsupported version): nothing about the draw is known.
A verdict that relied on --allow-unsigned or --allow-untimestamped also exits 0, and says so on its
first line. NOT VERIFIED HERE (a check this host cannot do) exits 1.

Examples:
  orbitdraw verify proof.json --commitment bagu…
  orbitdraw verify proof.json --online --gateway https://ipfs.io
  orbitdraw verify proof.json --trust-beacon k51qzi5uqu5… --json | jq '.checks[] | select(.ok == false)'
  curl -s https://example.org/raffle/proof.json | orbitdraw verify -`,
  options: {
    ...GLOBAL_OPTIONS,
    ...BEACON_OPTIONS,
    online: { type: 'boolean' },
    commitment: { type: 'string' },
    'trust-beacon': { type: 'string', multiple: true },
    'allow-unsigned': { type: 'boolean' },
    'allow-untimestamped': { type: 'boolean' },
    'trust-tsa': { type: 'string', multiple: true },
  },
  async run(flags, positionals, ctx) {
    if (positionals.length !== 1) throw new UsageError('verify takes exactly one proof file', 'verify')
    const path = positionals[0]!
    // The file's bytes, undecoded: the core applies the spec's rules (strict UTF-8, size in bytes...).
    const bytes = await readBytesInput(path, 'proof', LIMITS.maxProofBytes)
    if (flags.online !== true && (flags.gateway !== undefined || flags['timeout-ms'] !== undefined)) throw new UsageError('--gateway and --timeout-ms are for --online', 'verify')
    if (flags.beacon !== undefined) throw new UsageError('verify takes the beacon from the proof; to trust another beacon, use --trust-beacon NAME', 'verify')
    const options = await verifyOptionsFrom(flags, ctx)
    const clientOptions = flags.online === true ? clientOptionsFrom(flags, ctx, 'verify') : undefined
    const result = await verify(bytes, options)
    let online: VerifyOnlineResult | undefined
    if (clientOptions !== undefined) {
      const { gateways, ...rest } = clientOptions
      online = await verifyOnline(parsedOrBytes(bytes), { ...(gateways ? { gateways } : {}), clientOptions: rest, signal: ctx.signal })
    }
    const ok = result.ok && (online === undefined || online.ok)
    // A file that is not a readable proof (truncated, not JSON, a commitment or receipt, another version)
    // says nothing about the draw: exit 4 (could not read), not 1 (the draw does not check out).
    const unreadable = notAProof(result, bytes)
    if (flags.json === true) printJson(ctx, { ...result, ...(online === undefined ? {} : { ok, offlineOk: result.ok, online }), ...(unreadable === undefined ? {} : { unreadable }) })
    else ctx.out(unreadable === undefined ? formatResult(result, online) : formatUnreadable(result, unreadable))
    return ok ? EXIT.ok : unreadable !== undefined ? EXIT.input : EXIT.verificationFailed
  },
}

/** The verifier's policy from the trust flags and environment. */
export async function verifyOptionsFrom(flags: Flags, ctx: CliContext): Promise<VerifyOptions> {
  const extra = [
    ...(listFlag(flags, 'trust-beacon') ?? []).map((name) => ({ name, label: 'beacon from --trust-beacon' })),
    ...(ctx.env.ORBITDRAW_TRUST_BEACONS ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0).map((name) => ({ name, label: 'beacon from ORBITDRAW_TRUST_BEACONS' })),
  ]
  let beacons: TrustedBeacon[] | undefined
  if (extra.length > 0) {
    try {
      beacons = [...ORBITPORT_BEACONS, ...normalizeTrustedBeacons(extra)]
    } catch (err) {
      throw new UsageError(`--trust-beacon: ${err instanceof OrbitdrawError ? err.detail : String(err)}`, 'verify')
    }
  }
  const commitment = stringFlag(flags, 'commitment')
  const anchors = await tsaAnchorsFrom(flags, ctx, 'verify')
  const customAnchors = anchors.length > DEFAULT_TIMESTAMP_AUTHORITIES.length
  const trust = { ...(beacons === undefined ? {} : { beacons }), ...(customAnchors ? { timestampAuthorities: anchors } : {}) }
  return {
    now: new Date(),
    ...(Object.keys(trust).length === 0 ? {} : { trust }),
    ...(flags['allow-unsigned'] === true ? { allowUnsigned: true } : {}),
    ...(flags['allow-untimestamped'] === true ? { allowUntimestamped: true } : {}),
    ...(commitment === undefined ? {} : { commitment }),
  }
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
function formatUnreadable(r: VerifyResult, why: string): string {
  const lines = [`NOT CHECKED: ${why}.`, 'Nothing about the draw was checked (exit 4: could not read; exit 1 means a proof was read and a check failed).', '']
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
 * text is escaped. `kinds` is the registry the proof was verified with (default: the built-in kinds).
 */
export function formatResult(r: VerifyResult, online?: VerifyOnlineResult, kinds?: DrawKinds): string {
  const verdict = describeVerdict(r)
  const head: string[] = []
  const onlineFailed = r.ok && online !== undefined && !online.ok
  head.push(onlineFailed ? `FAILED online: ${online.checks.filter((c) => !c.ok).map((c) => c.name).join(', ')} (the proof is internally valid offline)` : verdict.headline)
  head.push(...verdict.lines.map((l) => `  ${l}`))
  if (r.ok && online !== undefined && online.ok) head.push("  Online: every carried block is still served, and today's head descends from the proof's head.")
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
