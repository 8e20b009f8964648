/**
 * `orbitdraw draw COMMITMENT --participants FILE -o proof.json`: wait for the committed block, draw,
 * write the proof.
 *
 * @module
 */
import { drawWith } from '../../beacon/draw.js'
import { draw } from '../../draw.js'
import { drawsFromDigest } from '../../core/draw.js'
import type { Proof } from '../../core/proof.js'
import type { CliStreamedDraw as StreamedDraw } from '../draw-stream.js'
import { isStreamedRanking, type StreamedProof } from '../../node/proof-writer.js'
import { serializeProof } from '../../core/proof.js'
import type { Participants } from '../../core/draw.js'
import { privateKindNames } from '../../core/draw.js'
import { parseBlock } from '../../core/block.js'
import { kindOf } from '../../core/draw-spec.js'
import { DEFAULT_DRAW_KINDS } from '../../core/kinds/registry.js'
import { base64ToBytes } from '../../core/bytes.js'
import { BEACON_HELP, BEACON_OPTIONS, GLOBAL_OPTIONS, OUTPUT_OPTIONS, type Command } from '../command.js'
import { withOriginal } from '../../core/follow-up.js'
import { assertWritable, beaconNameFrom, clientOptionsFrom, parseDuration, readCommitmentFile, stringFlag, writeOutput } from '../common.js'
import { EXIT, UsageError } from '../exit-codes.js'
import { hashProgress } from '../hash-progress.js'
import { printJson } from '../output.js'
import { escapeJsonText } from '../print-json.js'
import { plural } from '../plural.js'
import { progressLine } from '../progress.js'
import { safeText } from '../safe-text.js'
import { readProofFile } from '../follow-up-files.js'
import { readSecretFile } from '../secret-file.js'
import { participantsFrom, PARTICIPANTS_HELP, PARTICIPANTS_OPTIONS, streamsLines, streamsWeightedCsv } from '../participants-flags.js'
import { describeOutcome } from './describe.js'
import { DRAND_HELP, DRAND_OPTIONS, mixedDrawOptions } from '../drand-flags.js'
import { TIMESTAMP_OPTIONS } from '../timestamp-flags.js'
import type { CliContext } from '../command.js'

/** The most rows of a ranking written from the file that the command prints (the proof has them all). */
const SHOWN_ROWS = 10_000

/** Says once (on stderr) that the draw waits for its drand round. */
function waitNote(ctx: CliContext, quiet: boolean, round: number, endLine: () => void): (secondsLeft: number) => void {
  let told = false
  return (secondsLeft) => {
    if (told || quiet) return
    told = true
    endLine()
    ctx.err(`block time-stamped; waiting for drand round ${round} (~${secondsLeft} s)\n`)
  }
}

export const drawCommand: Command = {
  name: 'draw',
  summary: 'wait for the committed block, draw, and write the proof',
  help: `Usage: orbitdraw draw COMMITMENT --participants FILE [--format lines|csv|json] [--column C] [--weight-column W]
                     [--secret FILE [--full-disclosure]] [-o proof.json] [--force] [--wait-timeout D] [--quiet]
                     [--gateway URL]... [--timeout-ms N] [--allow-unsigned-head] [--json]

Reads the commitment, checks the participants against it at once (same entries, same order), then
waits for the target block with a live progress line on stderr, fetches it with the beacon's signed
head and the chain down to it, derives the outcome and writes the proof bundle. Anyone can re-check
the proof offline with 'orbitdraw verify'.

For a pick, shuffle, tiebreak or weighted draw, the file is read as a stream (never held in memory:
a file of lines, or for a weighted draw a CSV with --weight-column) and read again after the block to
write the proof: leave it unchanged until the draw is done (a changed file is refused, exit 4, and
nothing is written). A shuffle's ranking is written from the file; over ${SHOWN_ROWS} entries only its
first ${SHOWN_ROWS} rows are printed (the proof has them all). JSON, standard input, other CSV and the
sortition kinds (whose entries are checked against each other) are read whole.

Flags:
  COMMITMENT               the commitment file written by 'orbitdraw commit' (- for stdin)
  --secret FILE            the organizer secret of a private list (NAME.secret.json, written by
                           'commit --private'); required for such a commitment. A private list's
                           proof reveals only the winners, each with its leaf salt and Merkle
                           inclusion proof; the rest of the list stays secret
  --full-disclosure        publish EVERY entry of a private list, with its salt, in the proof (warns
                           with the count); needed for a private shuffle, never the default
  --private                accepted for compatibility: winners-only is already the default of a
                           private list
  -o, --output FILE        where to write the proof (default proof.json; - for stdout)
  --force                  overwrite an existing output file (otherwise refused before waiting)
  --wait-timeout D         give up waiting after D (90s, 10m, 2h; default: wait as long as needed)
  --quiet                  no progress line
  --json                   print a machine-readable summary (progress still goes to stderr)

${PARTICIPANTS_HELP}

${BEACON_HELP}

A mixed commitment (commit --drand) also names a drand round: right after the target block appears,
draw time-stamps it (--tsa, --trust-tsa as for commit), then waits for the round and checks its
signature. If the block or the round never appears, the draw is void: make a new commitment.
${DRAND_HELP}
The beacon is the one named in the commitment; --beacon, if given, must match it.

Exit codes: 0 proof written, 2 usage error, 3 network failure, 4 bad input (participants do not
match the commitment, unreadable commitment), 130 interrupted.

Examples:
  orbitdraw draw commitment.json --participants names.txt -o proof.json
  orbitdraw draw commitment.json -p names.txt --secret commitment.secret.json -o proof.json
  orbitdraw draw lotto.commitment.json -o lotto.proof.json      # range draws take no participants
  orbitdraw draw commitment.json -p names.txt --json | jq -r '.outcome.winners[].entry'`,
  options: {
    ...GLOBAL_OPTIONS,
    ...BEACON_OPTIONS,
    ...PARTICIPANTS_OPTIONS,
    private: { type: 'boolean' },
    'full-disclosure': { type: 'boolean' },
    secret: { type: 'string' },
    ...OUTPUT_OPTIONS,
    'wait-timeout': { type: 'string' },
    // A follow-up draw (a panel replacement): the original proof, carried in the new one.
    original: { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
    ...TIMESTAMP_OPTIONS,
    ...DRAND_OPTIONS,
  },
  async run(flags, positionals, ctx) {
    if (positionals.length !== 1) throw new UsageError('draw takes exactly one commitment file', 'draw')
    const path = positionals[0]!
    if (path === '-' && stringFlag(flags, 'participants') === '-') throw new UsageError('the commitment and the participants cannot both come from standard input', 'draw')
    const output = stringFlag(flags, 'output') ?? 'proof.json'
    const force = flags.force === true
    const timeoutMs = flags['wait-timeout'] === undefined ? undefined : parseDuration(stringFlag(flags, 'wait-timeout')!, '--wait-timeout', 'draw')
    const file = await readCommitmentFile(path)
    const commitment = file.commitment
    if (flags.beacon !== undefined || ctx.env.ORBITDRAW_BEACON) {
      const named = beaconNameFrom(flags, ctx, 'draw')
      if (named !== commitment.beacon && flags.beacon !== undefined) throw new UsageError(`--beacon ${named} differs from the commitment's beacon ${commitment.beacon}`, 'draw')
    }
    const kind = kindOf(commitment.draw)
    let participants: Participants | undefined
    // A file of lines for a kind that draws from the list's digest (pick) is read as a stream, once the
    // secret is known (a salted list's leaves are salted as they are read); other lists are read whole.
    // A weighted CSV (--weight-column) of a weighted draw is read as a stream too.
    const weightedCsv = kind.participants === 'weighted' && drawsFromDigest(kind) && streamsWeightedCsv(flags)
    const streamed = (kind.participants === 'entries' && drawsFromDigest(kind) && streamsLines(flags)) || weightedCsv
    if (kind.participants === 'none') {
      if (flags.participants !== undefined) throw new UsageError(`this commitment is a ${kind.name} draw: it takes no --participants`, 'draw')
    } else if (!streamed) {
      // draw() checks the list against the committed root and count before it starts waiting.
      participants = await participantsFrom(flags, 'draw')
      // Say it in the CLI's terms (not the library's JSON path) when the list's shape does not fit the draw.
      const weighted = participants.length > 0 && typeof participants[0] === 'object'
      if (kind.participants === 'weighted' && !weighted) throw new UsageError('this commitment is a weighted draw: read the weights as at commit time, with --weight-column W for a CSV (or a JSON array of {"entry", "weight"}); \'orbitdraw commit\' printed the exact draw command', 'draw')
      if (kind.participants !== 'weighted' && weighted) throw new UsageError(`this commitment is a ${kind.name} draw without weights: drop --weight-column`, 'draw')
    }
    if (flags.private === true && flags['full-disclosure'] === true) throw new UsageError('--private and --full-disclosure contradict each other: choose one', 'draw')
    if (flags.private === true && kind.winnersOnly === undefined) throw new UsageError(`--private is for ${privateKindNames(DEFAULT_DRAW_KINDS)} draws; this commitment is a ${kind.name} draw`, 'draw')
    const salted = commitment.participants?.salted === true
    if (flags.private === true && !salted) throw new UsageError('--private needs a private (salted) list, and this commitment is public: its inclusion paths would let anyone test guesses of the other entries; commit with --private, or draw without it', 'draw')
    if (flags['full-disclosure'] === true && !salted) throw new UsageError('--full-disclosure is for a private (salted) list; this commitment is public: its proof discloses every entry anyway, drop the flag', 'draw')
    // A private list's proof reveals only its winners unless a full disclosure is asked for by name.
    if (salted && kind.winnersOnly === undefined && flags['full-disclosure'] !== true) {
      throw new UsageError(`this commitment is a private list, but a ${kind.name} draw's proof must carry every entry and its salt: pass --full-disclosure to publish the whole list knowingly (or commit a ${privateKindNames(DEFAULT_DRAW_KINDS)} draw to keep it private)`, 'draw')
    }
    const disclosure: 'full' | 'winners' | undefined = salted ? (flags['full-disclosure'] === true ? 'full' : 'winners') : undefined
    if (disclosure === 'full') {
      const count = commitment.participants!.count
      ctx.err(`warning: --full-disclosure publishes the whole private list: the proof will carry all ${plural(count, 'entry', 'entries')} with their salts, readable by anyone who gets the proof\n`)
    }
    const secretPath = stringFlag(flags, 'secret')
    if (salted && secretPath === undefined) throw new UsageError('this commitment is a private (salted) list: pass --secret FILE (the .secret.json written by commit --private)', 'draw')
    if (!salted && secretPath !== undefined) throw new UsageError('this commitment is a public list: it takes no --secret', 'draw')
    // The file's CID is its commitment's (parseCommitmentFile computed or checked it): no second encoding.
    const secret = secretPath === undefined ? undefined : await readSecretFile(secretPath, file.cid)
    await assertWritable(output, force, 'draw')
    let list: StreamedDraw | undefined
    if (streamed) {
      const path = stringFlag(flags, 'participants')!
      const hashing = hashProgress(ctx, path)
      try {
        const column = stringFlag(flags, 'column')
        const columns = weightedCsv ? { weightColumn: stringFlag(flags, 'weight-column')!, ...(column === undefined ? {} : { column }) } : {}
        // The streaming reader (and its CSV parser, hash pool, ranking writer) loads only for a streamed list.
        const { readForDraw } = await import('../draw-stream.js')
        list = await readForDraw(path, { ...columns, signal: ctx.signal, ...(disclosure === undefined ? {} : { disclosure }), ...(secret === undefined ? {} : { secret }), ...(flags.quiet === true ? {} : { onProgress: (read: number, total: number) => hashing.update(read, total) }) })
      } finally {
        hashing.done()
      }
    }

    const progress = progressLine(ctx, flags.quiet === true)
    const clientOptions = clientOptionsFrom(flags, ctx, 'draw')
    const drawOptions = {
      clientOptions,
      signal: ctx.signal,
      onProgress: (p: Parameters<typeof progress.update>[0]) => progress.update(p),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(disclosure === undefined ? {} : { disclosure }),
      ...(secret === undefined ? {} : { secret }),
      allowUnauthenticated: clientOptions.allowUnsignedHead === true,
      timestamps: file.timestamps,
      // A commitment made with --no-timestamp was said so by commit (and is said so by every verdict).
      untimestamped: file.timestamps.length === 0,
      // A mixed (v2) commitment: time-stamp block N as soon as it appears, then wait for drand round R.
      ...(commitment.drand === undefined ? {} : { drand: await mixedDrawOptions(flags, ctx, commitment.drand.chain, 'draw', waitNote(ctx, flags.quiet === true, commitment.drand.round, () => progress.done())) }),
    }
    const follows = (commitment.draw as { follows?: unknown }).follows !== undefined
    const originalPath = stringFlag(flags, 'original')
    if (follows && originalPath === undefined) throw new UsageError('this commitment follows another draw: give its proof with --original PROOF (the new proof carries it)', 'draw')
    if (!follows && originalPath !== undefined) throw new UsageError('--original is for a follow-up draw (orbitdraw commit --replacing); this commitment follows no other draw', 'draw')
    const original = originalPath === undefined ? undefined : await readProofFile(originalPath)
    let proof: Proof | StreamedProof
    try {
      const from = list
      proof = from === undefined ? await draw(commitment, participants, drawOptions) : await drawWith(commitment, drawOptions, () => from.prepare(commitment), (prepared, block, drand) => from.prove(prepared, block, drand))
    } finally {
      progress.done()
    }
    // A follow-up draw (a panel replacement) is never streamed: its list is read whole.
    if (original !== undefined) proof = withOriginal(proof as Proof, original) as Proof
    if (list === undefined) await writeOutput(ctx, output, serializeProof(proof as Proof), force, 'draw')
    else await list.write(proof, { path: output, force, command: 'draw', out: (text) => ctx.out(text) })
    // A ranking written from the file: its first rows, read again, stand for it on the terminal.
    const ranking = isStreamedRanking(proof.outcome) ? proof.outcome : undefined
    const outcome = ranking === undefined ? (proof.outcome as Proof['outcome']) : { kind: ranking.kind, ranking: await ranking.head(SHOWN_ROWS) }
    const unshown = ranking === undefined ? 0 : ranking.indices.length - Math.min(SHOWN_ROWS, ranking.indices.length)
    const authenticated = proof.chain.ipnsRecord !== undefined
    // A streamed public proof's list was written from the file: the proof object has no participants.
    const disclosed = proof.participants?.disclosure ?? list?.disclosure ?? null
    // Blocks run newest first from the head: the target sits head.sequence - target places down.
    const head = proof.chain.blocks[0]!
    const headSequence = parseBlock(base64ToBytes(head.bytes), head.cid).sequence
    const target = { sequence: commitment.target, cid: proof.chain.blocks[headSequence - commitment.target]!.cid }
    if (flags.json === true) {
      const summary = { ok: true, file: output === '-' ? null : output, commitmentCid: proof.commitmentCid, disclosure: disclosed, authenticated, target, ...(proof.drand === undefined ? {} : { drand: { round: proof.drand.round, signature: proof.drand.signature } }), seed: proof.seed, outcome, ...(unshown === 0 ? {} : { outcomeRows: ranking!.indices.length }) }
      if (output === '-') ctx.err(`${escapeJsonText(JSON.stringify(summary))}\n`)
      else printJson(ctx, summary)
      return EXIT.ok
    }
    // describeOutcome's lines are already escaped (its tables are aligned on the escaped text).
    const lines = [
      safeText(`Drew ${commitment.label === '' ? 'the draw' : JSON.stringify(commitment.label)} from block ${commitment.target} (${target.cid})${proof.drand === undefined ? '' : ` mixed with drand round ${proof.drand.round}`}`),
      ...describeOutcome(outcome),
      ...(unshown === 0 ? [] : [`  … and ${plural(unshown, 'more row', 'more rows')} in the proof`]),
      '',
      ...[
        `Proof ${output === '-' ? 'printed to stdout' : `written to ${output}`}${authenticated ? ' (with the beacon\'s signed head)' : ' (WITHOUT a signed head: integrity only)'}${disclosed === 'winners' ? '; only the winners are revealed' : ''}.`,
        `Anyone can check it: orbitdraw verify ${output === '-' ? 'proof.json' : output}`,
      ].map(safeText),
    ]
    ;(output === '-' ? ctx.err : ctx.out)(`${lines.join('\n')}\n`)
    return EXIT.ok
  },
}
