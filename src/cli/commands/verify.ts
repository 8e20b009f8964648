/**
 * `orbitdraw verify proof.json [--online]`
 *
 * @module
 */
import { readFile } from 'node:fs/promises'
import { InvalidInputError, verify, type VerifyResult } from '../../core/index.js'
import { GLOBAL_OPTIONS, type Command } from '../command.js'
import { EXIT, UsageError } from '../exit-codes.js'
import { printJson } from '../output.js'
import { describeOutcome } from './describe.js'

export const verifyCommand: Command = {
  name: 'verify',
  summary: 'check a proof offline; exit 0 only when every check passes',
  help: `Usage: orbitdraw verify PROOF [--require-signed] [--json]

Re-checks a proof bundle with no network: the commitment's CID, the participants (all entries, or
each revealed winner's inclusion proof), every carried block against its CID, the chain links, the
beacon's signed IPNS record, the seed and the outcome. Prints every check with its result.

Flags:
  --require-signed   also fail when the proof carries no valid signed IPNS record
                     (without it such a proof verifies integrity only, and says so)
  --json             print the full result as JSON
  PROOF              a proof file, or - for standard input

Exit codes: 0 every check passed, 1 a check failed, 2 usage error, 4 unreadable file.

Examples:
  orbitdraw verify proof.json
  orbitdraw verify proof.json --require-signed --json | jq '.checks[] | select(.ok == false)'
  curl -s https://example.org/raffle/proof.json | orbitdraw verify -`,
  options: { ...GLOBAL_OPTIONS, 'require-signed': { type: 'boolean' } },
  async run(flags, positionals, ctx) {
    if (positionals.length !== 1) throw new UsageError('verify takes exactly one proof file', 'verify')
    const path = positionals[0]!
    let text: string
    try {
      text = path === '-' ? await readAll(process.stdin) : await readFile(path, 'utf8')
    } catch (cause) {
      throw new InvalidInputError('FILE_UNREADABLE', `cannot read proof ${path}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`, 'check the path', { cause })
    }
    const result = await verify(text, { requireAuthenticated: flags['require-signed'] === true, now: new Date() })
    if (flags.json === true) printJson(ctx, result)
    else ctx.out(formatResult(result))
    return result.ok ? EXIT.ok : EXIT.verificationFailed
  },
}

async function readAll(stream: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = []
  for await (const c of stream) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** Human-readable verification report. */
export function formatResult(r: VerifyResult): string {
  const lines: string[] = []
  for (const c of r.checks) lines.push(`${c.ok ? '✓' : '✗'} ${c.name.padEnd(22)} ${c.detail}`)
  for (const n of r.notes) lines.push(`  note: ${n}`)
  lines.push('')
  if (r.ok) {
    lines.push(r.authenticated ? 'VERIFIED: every check passed; the beacon\'s signed record vouches for the block.' : 'VERIFIED (integrity only): every check passed, but no signed beacon record proves the beacon published the block.')
  } else {
    lines.push(`FAILED: ${r.checks.filter((c) => !c.ok).map((c) => c.name).join(', ')}`)
  }
  if (r.commitment) lines.push(`draw: ${r.commitment.label === '' ? '(no label)' : JSON.stringify(r.commitment.label)} — ${r.commitment.draw.kind}, block ${r.commitment.target} of ${r.commitment.beacon}`)
  if (r.outcome) lines.push(...describeOutcome(r.outcome, r.ok ? '' : ' (claimed, not verified)'))
  return `${lines.join('\n')}\n`
}
