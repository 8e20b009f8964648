/**
 * `orbitdraw announce COMMITMENT`: the short public announcement of a commitment, the one thing the
 * whole proof relies on (the CID published before the target block): as text, Markdown or JSON, and
 * optionally a QR code (SVG) of the verifier link.
 *
 * @module
 */
import { writeFile } from 'node:fs/promises'
import qrcode from 'qrcode-generator'
import { LIMITS } from '../../core/limits.js'
import { BEACON_HELP, BEACON_OPTIONS, GLOBAL_OPTIONS, OUTPUT_OPTIONS, type Command } from '../command.js'
import { assertWritable, readBytesInput, stringFlag, writeOutput } from '../common.js'
import { EXIT, UsageError } from '../exit-codes.js'
import { escapeMarkdown } from '../markdown.js'
import { formatCount, plural } from '../plural.js'
import { escapeJsonText } from '../print-json.js'
import { safeText } from '../safe-text.js'
import { expectedTime, inspectBytes, type Inspection } from './inspect.js'

/** What an announcement says; also its `--format json` output. */
export interface Announcement {
  readonly cid: string
  readonly label: string
  readonly beacon: string
  readonly target: number
  /** The draw in words ("pick 3 of 120"). */
  readonly draw: string
  readonly participants: { readonly count: number; readonly root: string; readonly salted: boolean } | null
  /** When the target block is expected (ISO, UTC), from the beacon's latest block; null with --offline. */
  readonly expectedTime: string | null
  /** The same in the announcer's local time, with its UTC offset; null with --offline. */
  readonly expectedLocalTime: string | null
  /** The times the commitment's RFC 3161 time-stamps claim (read, not verified). */
  readonly timestamps: readonly string[]
  /** The verifier page with `?commitment=CID`; null without --verifier-url. */
  readonly verifierLink: string | null
}

export const announceCommand: Command = {
  name: 'announce',
  summary: 'write the announcement of a commitment (CID, target block and time, verifier link) to publish',
  help: `Usage: orbitdraw announce COMMITMENT [--format text|markdown|json] [--verifier-url URL] [--qr FILE.svg]
                         [-o FILE] [--force] [--offline] [--gateway URL]... [--timeout-ms N]

Writes the short announcement an organizer publishes BEFORE the target block: the commitment CID,
the label, the draw, the number of participants and their Merkle root, the target block and when it is
expected (in your local time and in UTC; asked of the beacon), the time-stamps' times, and the link to
the verifier page with ?commitment=CID (so readers pin this CID). Publishing the CID before the block
is what makes the draw trustworthy: do it where people can see when it appeared.

Flags:
  COMMITMENT          the commitment file written by 'orbitdraw commit' (- for stdin)
  --format F          text (default), markdown, or json
  --verifier-url URL  where the verifier page is hosted (https://…/index.html); the link adds
                      ?commitment=CID. Environment: ORBITDRAW_VERIFIER_URL
  --qr FILE.svg       also write a QR code (SVG) of the verifier link (of the CID without a link)
  -o, --output FILE   write the announcement to FILE (default: standard output)
  --force             overwrite existing output files
  --offline           do not ask the beacon; the announcement then has no expected time

${BEACON_HELP}

Exit codes: 0 written, 2 usage error, 3 network failure (ask again, or --offline), 4 not a readable
commitment.

Examples:
  orbitdraw announce commitment.json --verifier-url https://example.org/verify/
  orbitdraw announce commitment.json --format markdown --verifier-url https://example.org/verify/ --qr cid.svg -o announcement.md
  orbitdraw announce commitment.json --format json --offline | jq -r .cid`,
  options: {
    ...GLOBAL_OPTIONS,
    ...BEACON_OPTIONS,
    format: { type: 'string' },
    'verifier-url': { type: 'string' },
    qr: { type: 'string' },
    ...OUTPUT_OPTIONS,
    offline: { type: 'boolean' },
  },
  async run(flags, positionals, ctx) {
    if (positionals.length !== 1) throw new UsageError('announce takes exactly one commitment file', 'announce')
    const format = flags.json === true ? 'json' : (stringFlag(flags, 'format') ?? 'text')
    if (format !== 'text' && format !== 'markdown' && format !== 'json') throw new UsageError(`--format must be text, markdown or json, not ${JSON.stringify(format)}`, 'announce')
    if (flags.offline === true && (flags.gateway !== undefined || flags['timeout-ms'] !== undefined || flags.beacon !== undefined)) throw new UsageError('--gateway, --beacon and --timeout-ms ask the beacon: drop them with --offline', 'announce')
    const verifierUrl = verifierBase(stringFlag(flags, 'verifier-url') ?? ctx.env.ORBITDRAW_VERIFIER_URL)
    const output = stringFlag(flags, 'output') ?? '-'
    const qr = stringFlag(flags, 'qr')
    const force = flags.force === true
    if (qr !== undefined && !qr.toLowerCase().endsWith('.svg')) throw new UsageError('--qr writes an SVG file: give a name ending in .svg', 'announce')
    await assertWritable(output, force, 'announce')
    if (qr !== undefined) await assertWritable(qr, force, 'announce')

    const facts = inspectBytes(await readBytesInput(positionals[0]!, 'commitment', LIMITS.maxProofBytes))
    if (facts.kind !== 'commitment') throw new UsageError(`${positionals[0]} is a ${facts.kind}, not a commitment: announce the commitment file written by 'orbitdraw commit', before its target block`, 'announce')
    const expected = flags.offline === true ? undefined : await expectedTime(facts, flags, ctx)
    if (expected?.published === true) ctx.err(`warning: block ${formatCount(facts.target)} is already out (the latest is ${formatCount(expected.latest)}): an announcement made now cannot show the commitment came first\n`)
    const a = announcementOf(facts, expected === undefined || expected.published || expected.time === null ? null : new Date(expected.time), verifierUrl)

    // JSON with terminal-unsafe characters escaped (a label may hold CSI or bidi overrides): the same value when parsed.
    const text = format === 'json' ? `${escapeJsonText(JSON.stringify(a, null, 2))}\n` : format === 'markdown' ? formatMarkdown(a) : formatText(a)
    await writeOutput(ctx, output, text, force, 'announce')
    if (qr !== undefined) await writeQr(qr, a.verifierLink ?? a.cid, force)
    if (output !== '-' || qr !== undefined) {
      const said = [output === '-' ? undefined : `announcement written to ${output}`, qr === undefined ? undefined : `QR code of ${a.verifierLink === null ? 'the CID' : 'the verifier link'} written to ${qr}`].filter((s) => s !== undefined)
      ctx.err(`${safeText(said.join('; '))}\n`)
    }
    return EXIT.ok
  },
}

/** The verifier page's URL, checked: http(s) only, no fragment. */
function verifierBase(raw: string | undefined): URL | undefined {
  if (raw === undefined || raw === '') return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new UsageError(`--verifier-url ${JSON.stringify(raw)} is not a URL; give where the verifier page is hosted, e.g. https://example.org/verify/`, 'announce')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`--verifier-url must be an http(s) URL, not ${url.protocol}`, 'announce')
  url.hash = ''
  return url
}

/** The announcement of a commitment's facts. */
export function announcementOf(f: Inspection, expected: Date | null, verifierUrl: URL | undefined): Announcement {
  let link: string | null = null
  if (verifierUrl !== undefined) {
    const url = new URL(verifierUrl.href)
    url.searchParams.set('commitment', f.cid)
    link = url.href
  }
  return {
    cid: f.cid,
    label: f.label,
    beacon: f.beacon,
    target: f.target,
    draw: f.drawText,
    participants: f.participants,
    expectedTime: expected === null ? null : expected.toISOString(),
    expectedLocalTime: expected === null ? null : localTime(expected),
    timestamps: f.timestamps,
    verifierLink: link,
  }
}

/** `2026-11-27 03:10 (UTC+01:00)`: the date's wall-clock time in this process's time zone. */
export function localTime(d: Date): string {
  const offset = -d.getTimezoneOffset()
  const two = (n: number): string => String(n).padStart(2, '0')
  const sign = offset < 0 ? '-' : '+'
  const abs = Math.abs(offset)
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())} (UTC${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)})`
}

function participantsText(a: Announcement): string | undefined {
  if (a.participants === null) return undefined
  return `${plural(a.participants.count, 'entry', 'entries')}${a.participants.salted ? ' (private list)' : ''}, Merkle root ${a.participants.root}`
}

function whenText(a: Announcement): string {
  return a.expectedTime === null ? `block ${formatCount(a.target)}` : `block ${formatCount(a.target)}, expected around ${a.expectedLocalTime} = ${a.expectedTime.slice(0, 16).replace('T', ' ')} UTC`
}

/** Plain text; every line escaped for a terminal. */
export function formatText(a: Announcement): string {
  const parts = participantsText(a)
  const lines = [
    `Draw commitment${a.label === '' ? '' : `: ${JSON.stringify(a.label)}`}`,
    `  commitment CID  ${a.cid}`,
    `  draw            ${a.draw}`,
    ...(parts === undefined ? [] : [`  participants    ${parts}`]),
    `  beacon          ${a.beacon}`,
    `  decided by      ${whenText(a)}`,
    ...a.timestamps.map((t) => `  time-stamped    ${t}`),
    '',
    a.verifierLink === null ? `Check the result with any copy of the orbitdraw verifier, pinning this CID (?commitment=${a.cid}), or: orbitdraw verify PROOF --commitment ${a.cid}` : `Check the result: ${a.verifierLink}`,
  ]
  return `${lines.map(safeText).join('\n')}\n`
}

/** Markdown; the label (the only free text) escaped, the rest is orbitdraw's own ASCII. */
export function formatMarkdown(a: Announcement): string {
  const parts = participantsText(a)
  const lines = [
    `## Draw commitment${a.label === '' ? '' : `: ${escapeMarkdown(a.label)}`}`,
    '',
    `- **Commitment CID:** \`${a.cid}\``,
    `- **Draw:** ${escapeMarkdown(a.draw)}`,
    ...(parts === undefined ? [] : [`- **Participants:** ${escapeMarkdown(parts)}`]),
    `- **Beacon:** \`${a.beacon}\``,
    `- **Decided by:** ${escapeMarkdown(whenText(a))}`,
    ...a.timestamps.map((t) => `- **Time-stamped:** ${escapeMarkdown(t)}`),
    '',
    a.verifierLink === null ? `Check the result with any copy of the orbitdraw verifier, pinning this CID (\`?commitment=${a.cid}\`), or \`orbitdraw verify PROOF --commitment ${a.cid}\`.` : `Check the result: <${a.verifierLink}>`,
  ]
  return `${lines.join('\n')}\n`
}

/** The QR code (error correction M, automatic size) of `text` as a scalable SVG. */
export function qrSvg(text: string): string {
  const code = qrcode(0, 'M')
  code.addData(text, 'Byte')
  code.make()
  return `${code.createSvgTag({ cellSize: 4, margin: 4, scalable: true })}\n`
}

async function writeQr(path: string, text: string, force: boolean): Promise<void> {
  await writeFile(path, qrSvg(text), { flag: force ? 'w' : 'wx' })
}

