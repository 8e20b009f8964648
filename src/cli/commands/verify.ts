/**
 * `orbitdraw verify proof.json [--online]`
 *
 * @module
 */
import { readFile } from 'node:fs/promises'
import { verifyOnline, type VerifyOnlineResult } from '../../beacon/index.js'
import { InvalidInputError, verify, type VerifyResult } from '../../core/index.js'
import { BEACON_OPTIONS, GLOBAL_OPTIONS, type Command } from '../command.js'
import { clientOptionsFrom } from '../common.js'
import { EXIT, UsageError } from '../exit-codes.js'
import { printJson } from '../output.js'
import { describeOutcome } from './describe.js'

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'check a proof offline; exit 0 only when every check passes',
  help: `Usage: orbitdraw verify PROOF [--online] [--require-signed] [--json]

Re-checks a proof bundle with no network: the commitment's CID, the participants (all entries, or
each revealed winner's inclusion proof), every carried block against its CID, the chain links, the
beacon's signed IPNS record, the seed and the outcome. Prints every check with its result.

With --online it then asks the beacon's gateways whether every carried block is still served with
the same bytes and whether today's signed head descends from the proof's head (checks
online-blocks and online-chain). An unreachable beacon makes those checks fail (exit 1).

Flags:
  --online           also re-check against the live beacon (uses --gateway / ORBITDRAW_GATEWAYS;
                     the beacon is the one named in the proof)
  --gateway URL      a gateway for --online (repeatable); --timeout-ms N per request
  --require-signed   also fail when the proof carries no valid signed IPNS record
                     (without it such a proof verifies integrity only, and says so)
  --json             print the full result as JSON
  PROOF              a proof file, or - for standard input

Exit codes: 0 every check passed, 1 a check failed, 2 usage error, 4 unreadable file.

Examples:
  orbitdraw verify proof.json
  orbitdraw verify proof.json --online --gateway https://ipfs.io
  orbitdraw verify proof.json --require-signed --json | jq '.checks[] | select(.ok == false)'
  curl -s https://example.org/raffle/proof.json | orbitdraw verify -`,
  options: { ...GLOBAL_OPTIONS, ...BEACON_OPTIONS, 'require-signed': { type: 'boolean' }, online: { type: 'boolean' } },
  async run(flags, positionals, ctx) {
    if (positionals.length !== 1) throw new UsageError('verify takes exactly one proof file', 'verify')
    const path = positionals[0]!
    let text: string
    try {
      text = path === '-' ? await readAll(process.stdin) : await readFile(path, 'utf8')
    } catch (cause) {
      throw new InvalidInputError('FILE_UNREADABLE', `cannot read proof ${path}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`, 'check the path', { cause })
    }
    if (flags.online !== true && (flags.gateway !== undefined || flags['timeout-ms'] !== undefined)) throw new UsageError('--gateway and --timeout-ms are for --online', 'verify')
    if (flags.beacon !== undefined) throw new UsageError('verify takes the beacon from the proof; drop --beacon', 'verify')
    const clientOptions = flags.online === true ? clientOptionsFrom(flags, ctx, 'verify') : undefined
    const result = await verify(text, { requireAuthenticated: flags['require-signed'] === true, now: new Date() })
    let online: VerifyOnlineResult | undefined
    if (clientOptions !== undefined) {
      const { gateways, ...rest } = clientOptions
      online = await verifyOnline(text.length > 0 ? safeJson(text) : text, { ...(gateways ? { gateways } : {}), clientOptions: rest, signal: ctx.signal })
    }
    const ok = result.ok && (online === undefined || online.ok)
    if (flags.json === true) printJson(ctx, online === undefined ? result : { ...result, ok, offlineOk: result.ok, online })
    else ctx.out(formatResult(result, online))
    return ok ? EXIT.ok : EXIT.verificationFailed
  },
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

async function readAll(stream: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = []
  for await (const c of stream) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** Human-readable verification report. */
export function formatResult(r: VerifyResult, online?: VerifyOnlineResult): string {
  const lines: string[] = []
  for (const c of r.checks) lines.push(`${c.ok ? '✓' : '✗'} ${c.name.padEnd(22)} ${c.detail}`)
  for (const c of online?.checks ?? []) lines.push(`${c.ok ? '✓' : '✗'} ${c.name.padEnd(22)} ${c.detail}`)
  for (const n of [...r.notes, ...(online?.notes ?? [])]) lines.push(`  note: ${n}`)
  lines.push('')
  if (r.ok && online !== undefined && !online.ok) {
    lines.push(`FAILED online: ${online.checks.filter((c) => !c.ok).map((c) => c.name).join(', ')} (the proof is internally valid offline)`)
  } else if (r.ok) {
    lines.push(r.authenticated ? 'VERIFIED: every check passed; the beacon\'s signed record vouches for the block.' : 'VERIFIED (integrity only): every check passed, but no signed beacon record proves the beacon published the block.')
    if (online) lines.push("ONLINE: every carried block is still served, and today's head descends from the proof's head.")
  } else {
    lines.push(`FAILED: ${r.checks.filter((c) => !c.ok).map((c) => c.name).join(', ')}`)
  }
  if (r.commitment) lines.push(`draw: ${r.commitment.label === '' ? '(no label)' : JSON.stringify(r.commitment.label)} — ${r.commitment.draw.kind}, block ${r.commitment.target} of ${r.commitment.beacon}`)
  if (r.outcome) lines.push(...describeOutcome(r.outcome, r.ok ? '' : ' (claimed, not verified)'))
  return `${lines.join('\n')}\n`
}
