/**
 * `orbitdraw inspect FILE`: what a commitment, a proof or a receipt says, without writing code. It
 * reads; it does not verify ('orbitdraw verify' and 'orbitdraw check-receipt' do).
 *
 * @module
 */
import { base64ToBytes } from '../../core/bytes.js'
import { COMMITMENT_FILE_TYPE } from '../../core/schema/commitment-file.js'
import { describeCommitment, parseCommitment, type Commitment } from '../../core/commitment.js'
import { kindOf } from '../../core/draw-spec.js'
import { LIMITS } from '../../core/limits.js'
import { parseBlock } from '../../core/block.js'
import { parseCommitmentFile } from '../../core/commitment-file.js'
import { parseProof, type Proof } from '../../core/proof.js'
import { parseReceipt, type Receipt } from '../../core/receipt.js'
import { ParseError } from '../../core/errors.js'
import { PROOF_TYPE } from '../../core/version.js'
import { RECEIPT_TYPE } from '../../core/schema/receipt.js'
import { type DrawSpec } from '../../core/kinds/registry.js'
import { InvalidInputError } from '../../core/errors.js'
import { readProofJson } from '../../core/proof.js'
import { parseTimestampToken } from '../../core/timestamp/token.js'
import { BEACON_HELP, BEACON_OPTIONS, GLOBAL_OPTIONS, type CliContext, type Command, type Flags } from '../command.js'
import { beaconClientFrom, formatDuration, intFlag, readBytesInput } from '../common.js'
import { EXIT, UsageError } from '../exit-codes.js'
import { plural } from '../plural.js'
import { printJson } from '../output.js'
import { DEFAULT_ESTIMATE_PANELS, formatPanelProbabilities, panelProbabilities, type PanelProbabilities } from '../../core/kinds/panel-probabilities.js'
import type { PanelSpec } from '../../core/kinds/panel.js'
import type { PanelReplacementSpec } from '../../core/kinds/panel-replacement.js'
import { safeText } from '../safe-text.js'

/** What `inspect` reports; also its `--json` output. */
export interface Inspection {
  readonly ok: true
  /** What the file is. */
  readonly kind: 'commitment' | 'proof' | 'receipt'
  /** The commitment CID, recomputed from the commitment itself (the file's own claim is not trusted). */
  readonly cid: string
  /** The CID the file states, when it states one and it differs from the recomputed one. */
  readonly statedCid?: string
  readonly label: string
  readonly beacon: string
  readonly target: number
  /** The latest block the organizer saw when committing. */
  readonly after: { readonly sequence: number; readonly block: string }
  readonly draw: Record<string, unknown>
  /** The draw in words, from its kind (for example "pick 3 of 120"). */
  readonly drawText: string
  /** Count and Merkle root (hex) of the committed list; null for a range draw. */
  readonly participants: { readonly count: number; readonly root: string; readonly salted: boolean } | null
  /** Times claimed by the carried RFC 3161 time-stamps (read, not verified). */
  readonly timestamps: readonly string[]
  /** For a proof: the target block's publication time as carried (not verified). */
  readonly targetTime?: string
  /** With --online, for a commitment: the beacon's latest block and when the target is expected. */
  readonly expected?: { readonly latest: number; readonly published: boolean; readonly time: string | null }
  /** For a receipt: whose it is (index 0-based; position = index + 1). */
  readonly receipt?: { readonly index: number; readonly position: number; readonly entry: string }
  /** For a proof: how much of the list it discloses. */
  readonly disclosure?: 'full' | 'winners' | null
  /** With --probabilities, for a `panel` draw: each type's selection probability, exact or labelled estimate. */
  readonly probabilities?: PanelProbabilities
}

export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'show what a commitment, proof or receipt says: CID, beacon, target, count, root',
  help: `Usage: orbitdraw inspect FILE [--online [--gateway URL]...] [--probabilities [--panels N]] [--json]

Shows what a commitment, a proof or a receipt file says, so a participant can compare the CID with
the one the organizer announced without writing code: the commitment CID (recomputed from the
commitment itself, never taken from the file's claim), the label, the beacon, the target block, the
block seen at commit time, the draw, the number of participants and their Merkle root (hex), and the
times claimed by the carried time-stamps. For a proof, also the target block's publication time.

inspect reads, it does not verify: run 'orbitdraw verify PROOF' or 'orbitdraw check-receipt RECEIPT'
for that.

Flags:
  FILE            a commitment, proof or receipt file (- for standard input)
  --online        ask the beacon named in the file for its latest block, and say when the target
                  block is expected (or that it is out)
  --probabilities for a panel draw: each respondent type's selection probability, exact when every
                  feature is counted exactly, else an ESTIMATE (labelled so) from sample panels drawn
                  on a stream derived from the commitment's CID alone, with its 95 % interval; with a
                  household rule per type and household size (the average over the group's
                  respondents), exact when the count with the rule is small, else the estimate;
                  for a panel-replacement draw, each available respondent type's chance of being
                  drawn as a replacement; then the lowest, highest, their ratio and k/n
  --panels N      sample panels of the estimate (default 200, 2 to 100000)
  --json          print the same facts as JSON (index 0-based, position 1-based)

${BEACON_HELP}

Exit codes: 0 shown, 2 usage error, 3 network failure (--online), 4 not a readable commitment,
proof or receipt.

Examples:
  orbitdraw inspect commitment.json
  orbitdraw inspect proof.json --json | jq -r .cid
  orbitdraw inspect commitment.json --online
  orbitdraw inspect assembly.json --probabilities --panels 1000`,
  options: { ...GLOBAL_OPTIONS, ...BEACON_OPTIONS, online: { type: 'boolean' }, probabilities: { type: 'boolean' }, panels: { type: 'string' } },
  async run(flags, positionals, ctx) {
    if (positionals.length !== 1) throw new UsageError('inspect takes exactly one file (a commitment, a proof or a receipt)', 'inspect')
    if (flags.online !== true && (flags.gateway !== undefined || flags['timeout-ms'] !== undefined || flags.beacon !== undefined)) throw new UsageError('--gateway, --beacon and --timeout-ms are for --online', 'inspect')
    const bytes = await readBytesInput(positionals[0]!, 'file', LIMITS.maxProofBytes)
    if (flags.panels !== undefined && flags.probabilities !== true) throw new UsageError('--panels goes with --probabilities', 'inspect')
    let facts = inspectBytes(bytes, flags.probabilities === true ? (intFlag(flags, 'panels', 'inspect', 2, 100_000) ?? DEFAULT_ESTIMATE_PANELS) : undefined)
    if (flags.online === true && facts.kind === 'commitment') facts = { ...facts, expected: await expectedTime(facts, flags, ctx) }
    if (flags.json === true) printJson(ctx, facts)
    else ctx.out(formatInspection(facts))
    return EXIT.ok
  },
}

/**
 * Reads a commitment file (or a bare commitment), a proof or a receipt and returns its facts.
 * @throws {@link ParseError} `UNKNOWN_FILE_TYPE` for any other JSON; the core's parse errors.
 */
export function inspectBytes(bytes: Uint8Array, probabilityPanels?: number): Inspection {
  const value = readProofJson(bytes)
  const type = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { type?: unknown }).type : undefined
  if (type === undefined || type === COMMITMENT_FILE_TYPE) {
    const file = parseCommitmentFile(bytes)
    return { ...commitmentFacts('commitment', file.commitment, undefined), timestamps: tokenTimes(file.timestamps), ...probabilitiesOf(file.commitment, probabilityPanels) }
  }
  if (type === PROOF_TYPE) {
    const proof = parseProof(value)
    const commitment = parseCommitment(proof.commitment)
    return { ...commitmentFacts('proof', commitment, proof.commitmentCid), timestamps: tokenTimes(proof.timestamps ?? []), ...targetTime(proof, commitment.target), disclosure: proof.participants?.disclosure ?? null, ...probabilitiesOf(commitment, probabilityPanels) }
  }
  if (type === RECEIPT_TYPE) {
    const receipt: Receipt = parseReceipt(bytes)
    const commitment = parseCommitment(receipt.commitment)
    return { ...commitmentFacts('receipt', commitment, receipt.commitmentCid), receipt: { index: receipt.index, position: receipt.index + 1, entry: receipt.entry } }
  }
  throw new ParseError('UNKNOWN_FILE_TYPE', `the file's type is ${JSON.stringify(type)}, not a commitment ("${COMMITMENT_FILE_TYPE}"), a proof ("${PROOF_TYPE}") or a receipt ("${RECEIPT_TYPE}")`, 'pass a file written by orbitdraw commit, draw or receipts', { path: '$.type' })
}

/** With --probabilities: a panel draw's per-type probabilities (exact, else the CID-seeded estimate). */
function probabilitiesOf(c: Commitment, panels: number | undefined): { probabilities?: PanelProbabilities } {
  if (panels === undefined) return {}
  try {
    return { probabilities: panelProbabilities(c.draw as PanelSpec | PanelReplacementSpec, describeCommitment(c).cid, panels) }
  } catch (err) {
    if (err instanceof InvalidInputError && err.code === 'INVALID_ARGUMENT') throw new UsageError(`--probabilities: ${err.detail}`, 'inspect')
    throw err
  }
}

function commitmentFacts(kind: Inspection['kind'], c: Commitment, stated: string | undefined): Inspection {
  const cid = describeCommitment(c).cid
  return {
    ok: true,
    kind,
    cid,
    ...(stated !== undefined && stated !== cid ? { statedCid: stated } : {}),
    label: c.label,
    beacon: c.beacon,
    target: c.target,
    after: { sequence: c.after.sequence, block: c.after.block },
    draw: drawJson(c.draw),
    drawText: kindOf(c.draw).describe(c.draw, c.participants?.count),
    participants: c.participants === undefined ? null : { count: c.participants.count, root: c.participants.root, salted: c.participants.salted === true },
    timestamps: [],
  }
}

/** The draw parameters for JSON output: integers beyond JSON's safe range (bigints) as decimal strings. */
function drawJson(d: DrawSpec): Record<string, unknown> {
  return Object.fromEntries(Object.entries(d).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]))
}

/** The genTime of each carried token, as ISO text; a token that does not parse is shown as such. */
function tokenTimes(tokens: readonly string[]): string[] {
  return tokens.map((t) => {
    try {
      return new Date(parseTimestampToken(base64ToBytes(t)).tstInfo.genTime).toISOString()
    } catch {
      return 'unreadable token'
    }
  })
}

/** The target block's timestamp as carried in the proof's chain (newest first), if it can be read. */
function targetTime(proof: Proof, target: number): { targetTime?: string } {
  try {
    const head = proof.chain.blocks[0]
    if (head === undefined) return {}
    const headSequence = parseBlock(base64ToBytes(head.bytes), head.cid).sequence
    const b = proof.chain.blocks[headSequence - target]
    if (b === undefined) return {}
    const block = parseBlock(base64ToBytes(b.bytes), b.cid)
    return block.sequence === target ? { targetTime: new Date(block.timestamp * 1000).toISOString() } : {}
  } catch {
    return {}
  }
}

export async function expectedTime(facts: Inspection, flags: Flags, ctx: CliContext): Promise<NonNullable<Inspection['expected']>> {
  const client = beaconClientFrom(flags, ctx, 'inspect', facts.beacon)
  const call = { signal: ctx.signal }
  const head = await client.latest(call)
  const latest = head.block.sequence
  if (latest >= facts.target) return { latest, published: true, time: '' }
  const intervalMs = await client.intervalMs(call)
  return { latest, published: false, time: expectedAt(Math.min(Date.now(), head.block.timestamp * 1000), facts.target - latest, intervalMs) }
}

/**
 * When a block `ahead` blocks after one seen at `fromMs` is due at `intervalMs` a block (ISO 8601), or
 * null when that is past what a date holds: the interval is estimated from blocks a gateway serves, and an
 * absurd one (a head dated 2^40 s) made `new Date(…).toISOString()` throw (fuzzing pass 3).
 */
export function expectedAt(fromMs: number, ahead: number, intervalMs: number): string | null {
  const d = new Date(fromMs + ahead * intervalMs)
  return Number.isNaN(d.getTime()) ? null : d.toISOString()
}


/** Human form of an {@link Inspection}; every line escaped. */
export function formatInspection(f: Inspection): string {
  const lines = [
    `${f.kind === 'commitment' ? 'Commitment' : f.kind === 'proof' ? 'Proof' : 'Receipt'} (read, not verified)`,
    `  CID            ${f.cid}`,
    ...(f.statedCid === undefined ? [] : [`  WARNING        the file states the CID ${f.statedCid}, but its commitment hashes to the CID above`]),
    `  label          ${f.label === '' ? '(none)' : JSON.stringify(f.label)}`,
    `  draw           ${f.drawText}`,
    ...(f.participants === null ? [] : [`  participants   ${plural(f.participants.count, 'entry', 'entries')}${f.participants.salted ? ' (private list: salted)' : ''}, Merkle root ${f.participants.root}`]),
    `  beacon         ${f.beacon}`,
    `  seen at commit block ${f.after.sequence.toLocaleString('en-US')} ${f.after.block}`,
    `  target block   ${f.target.toLocaleString('en-US')} (${plural(f.target - f.after.sequence, 'block')} after it)${f.targetTime === undefined ? '' : `, published ${f.targetTime}`}`,
    ...(f.expected === undefined
      ? []
      : [`  expected       ${f.expected.published ? `already out (the latest block is ${f.expected.latest.toLocaleString('en-US')})` : f.expected.time === null ? `past any date at the beacon's estimated block interval (the latest block is ${f.expected.latest.toLocaleString('en-US')})` : `around ${f.expected.time} (in ~${formatDuration(Date.parse(f.expected.time) - Date.now())}; the latest block is ${f.expected.latest.toLocaleString('en-US')})`}`]),
    ...f.timestamps.map((t) => `  time-stamp     ${t} (claimed; 'orbitdraw verify' checks it)`),
    ...(f.receipt === undefined ? [] : [`  entry          ${JSON.stringify(f.receipt.entry)}, position ${f.receipt.position.toLocaleString('en-US')} in the list`]),
    ...(f.disclosure === undefined || f.disclosure === null ? [] : [`  disclosure     ${f.disclosure === 'full' ? 'every entry' : 'only the winners (private draw)'}`]),
    ...(f.probabilities === undefined ? [] : formatPanelProbabilities(f.probabilities)),
    '',
    f.kind === 'proof' ? 'Compare the CID with the one the organizer announced, then check the proof: orbitdraw verify FILE' : f.kind === 'receipt' ? 'Compare the CID with the one the organizer announced, then: orbitdraw check-receipt FILE --commitment CID' : 'Compare the CID with the one the organizer announced before the target block.',
  ]
  return `${lines.map(safeText).join('\n')}\n`
}
