/**
 * `orbitdraw commit`: fix a draw before its randomness exists.
 *
 * @module
 */
import { planTarget, type TargetPlan } from '../../beacon/plan.js'
import { planFixedTarget } from '../../beacon/plan.js'
import { commit, generateSecret } from '../../commit.js'
import { commitWithDigest } from '../../core/commitment.js'
import { checkCommitFits, entryBytesFloor } from '../../core/proof-size.js'
import type { OrganizerSecret } from '../../core/secret.js'
import { streamParticipantsFile, type StreamedParticipants } from '../../node/participants-stream.js'
import { streamWeightedCsv } from '../../node/weighted-stream.js'
import type { CommitResult } from '../../core/commitment.js'
import { DEFAULT_DRAW_KINDS, type DrawSpec } from '../../core/kinds/registry.js'
import type { AnyDrawKind } from '../../core/kinds/kind.js'
import type { WeightedEntry } from '../../core/participants.js'
import { validateDrawSpec } from '../../core/draw-spec.js'
import { ORBITPORT_BEACONS } from '../../core/trust.js'
import { InvalidInputError } from '../../errors.js'
import { participantsPathFor, readKindFiles } from '../kind-files.js'
import { explainQuotaError } from '../../sortition/relax.js'
import type { QuotaRow, SortitionPool } from '../../core/sortition/pool.js'
import { findConfusableEntries, type ConfusableGroup } from '../../confusables.js'
import { BEACON_HELP, BEACON_OPTIONS, GLOBAL_OPTIONS, OUTPUT_OPTIONS, type CliContext, type Command, type Flags } from '../command.js'
import { assertWritable, beaconClientFrom, beaconNameFrom, formatDuration, intFlag, parseDuration, stringFlag, writeOutput } from '../common.js'
import { EXIT, UsageError } from '../exit-codes.js'
import { drawSpecFromFlags, kindOptions, kindsHelp, kindsUsage, weightedUsage } from '../kinds.js'
import { printJson } from '../output.js'
import { escapeJsonText } from '../print-json.js'
import { participantsFrom, PARTICIPANTS_HELP, PARTICIPANTS_OPTIONS, streamsLines, streamsWeightedCsv } from '../participants-flags.js'
import { formatCount, plural } from '../plural.js'
import { safeText } from '../safe-text.js'
import { hashProgress } from '../hash-progress.js'
import { followedSecret, secretPathFor, writeSecretFile } from '../secret-file.js'
import { commitmentFile } from '../../core/commitment-file.js'
import { stampBeforeTarget, TimestampMarginError, type Retarget } from '../../timestamp/margin.js'
import { timestampCommitment, type TimestampResult } from '../../timestamp/client.js'
import { TIMESTAMP_HELP, TIMESTAMP_OPTIONS, tsaAnchorsFrom, tsaUrlsFrom } from '../timestamp-flags.js'
import { DRAND_HELP, DRAND_OPTIONS, drandChainsFrom } from '../drand-flags.js'
import { DRAND_QUICKNET, planRound, roundTime, type DrandChainInfo } from '../../core/drand/chain.js'
import { nodeFetch } from '../../net/node-fetch.js'

/** Default window on Orbitport's beacon when no --delay is given: time to publish the CID and time-stamp it. */
export const DEFAULT_REAL_DELAY_MS = 10 * 60_000
/** Below this, commit warns that there is too little time to publish the CID before the block. */
export const MIN_PUBLISH_WINDOW_MS = 2 * 60_000
/** Beyond this, a target needs --force (a typo like --delay 400d, or a sequence number off by digits). */
export const MAX_AHEAD_MS = 30 * 86_400_000

// Re-exported: `receipts` and tools import them from here.
export { participantsFrom, PARTICIPANTS_HELP, PARTICIPANTS_OPTIONS, streamsLines, streamsWeightedCsv }

/** Quotes `s` for a POSIX shell when it holds anything but safe characters. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_/.,:@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`
}

/**
 * The participants flags exactly as given (file, --format, --column, --weight-column), shell-quoted,
 * so the `draw` command printed by `commit` reads the list the same way.
 */
export function participantsArgs(flags: Flags): string {
  const parts: string[] = []
  const path = stringFlag(flags, 'participants')
  if (path !== undefined) parts.push('--participants', shellQuote(path))
  for (const name of ['format', 'column', 'weight-column']) {
    const v = stringFlag(flags, name)
    if (v !== undefined) parts.push(`--${name}`, shellQuote(v))
  }
  return parts.join(' ')
}

/**
 * Warns on stderr about entries that look alike (UTS #39 skeletons collide), naming them by line (CSV
 * row, JSON index); with `strict` refuses them instead (`ENTRIES_CONFUSABLE`, exit 4).
 */
function checkConfusables(warn: (text: string) => void, list: readonly (string | WeightedEntry)[], flags: Flags, strict: boolean): void {
  reportConfusables(warn, findConfusableEntries(list), (i) => list[i]!, flags, strict)
}

/**
 * Reads `--participants` as a stream with `read`, showing hashing progress, then reports its look-alike
 * groups (the first 20 groups' entries read back from the file).
 */
async function readStreamed<L extends { readonly confusables: readonly ConfusableGroup[]; entries(indices: readonly number[]): Promise<string[]> }>(
  ctx: CliContext,
  flags: Flags,
  read: (path: string, onProgress: (read: number, total: number) => void) => Promise<L>,
): Promise<L> {
  const path = stringFlag(flags, 'participants')!
  const progress = hashProgress(ctx, path)
  let list: L
  try {
    list = await read(path, (done, total) => progress.update(done, total))
  } finally {
    progress.done()
  }
  const shown = list.confusables.slice(0, 20).flatMap((g) => g.indices)
  const texts = new Map((await list.entries(shown)).map((t, k) => [shown[k]!, t]))
  reportConfusables(ctx.err, list.confusables, (i) => texts.get(i)!, flags, flags['strict-entries'] === true)
  return list
}

/** {@link checkConfusables} for groups already found (the streaming reader finds them itself). */
function reportConfusables(warn: (text: string) => void, groups: readonly ConfusableGroup[], entryAt: (i: number) => string | WeightedEntry, flags: Flags, strict: boolean): void {
  if (groups.length === 0) return
  const path = stringFlag(flags, 'participants') ?? ''
  const format = stringFlag(flags, 'format') ?? (path.endsWith('.csv') ? 'csv' : path.endsWith('.json') ? 'json' : 'lines')
  const where = (i: number): string => (format === 'lines' ? `line ${i + 1}` : format === 'csv' ? `row ${i + 2}` : `$[${i}]`)
  const text = (i: number): string => {
    const e = entryAt(i)
    return JSON.stringify(typeof e === 'string' ? e : e.entry)
  }
  const lines = groups.slice(0, 20).map((g) => `  ${g.indices.map((i) => `${where(i)} ${text(i)}`).join(' / ')}`)
  if (groups.length > 20) lines.push(`  … and ${plural(groups.length - 20, 'more group')}`)
  const summary = `${plural(groups.length, 'group')} of entries look alike (equal Unicode confusable skeletons, UTS #39)`
  if (strict) throw new InvalidInputError('ENTRIES_CONFUSABLE', `${summary}: ${lines.map((l) => l.trim()).join("; ")}`, 'make look-alike entries distinguishable (an id or e-mail address), or drop --strict-entries to commit them with a warning')
  warn(`${[`warning: ${summary}; people may not tell them apart:`, ...lines].map(safeText).join('\n')}\n`)
}

export const commitCommand: Command = {
  name: 'commit',
  summary: 'fix a draw before its randomness exists; prints the CID to publish',
  help: `Usage: orbitdraw commit --participants FILE [--format lines|csv|json] [--column C] [--weight-column W]
                        ${kindsUsage()}
                        [--private] [--label TEXT] [--strict-entries] [--delay 10m | --sequence N]
                        [--tsa URL]... [--trust-tsa FILE]... [--no-timestamp] [-o commitment.json] [--force]
                        [--gateway URL]... [--beacon NAME] [--timeout-ms N] [--allow-unsigned-head] [--json]

Reads the participants, asks the beacon for its latest signed block, chooses a future target block
(at least --delay ahead, or exactly --sequence N), and writes the commitment: a small DAG-JSON file
whose CID identifies the draw. Publish the CID (and ideally the file and the participants) BEFORE
the target block appears; nobody, the organizer included, can know the outcome before then.

What to draw (exactly one):
${kindsHelp()}

${PARTICIPANTS_HELP}

Commitment:
  --strict-entries         refuse (exit 4) entries that look alike (equal Unicode confusable
                           skeletons, UTS #39), instead of warning about them on stderr
  --label TEXT             a free description, part of the commitment (e.g. "Spring raffle 2026")
  --private                keep the list private: salt every leaf with a fresh random secret, written
                           (mode 0600) next to the commitment as NAME.secret.json. Keep that file:
                           'draw --secret' and 'receipts --secret' need it; never publish it
  --secret FILE            a follow-up (--replacing) of a private list: the followed draw's
                           NAME.secret.json; the follow-up is committed with the same secret, over the
                           same list, so both have one root
  --delay D                the target is at least D from now: 90s, 5m, 1h, 1h30m, 2d (a unit is
                           required). Default on Orbitport's beacon: 10m, time to publish the CID and
                           time-stamp it; on other beacons (the emulator): the next safe block. Under
                           2m, commit warns that there is little time to publish
  --sequence N             commit to exactly block N (must still be in the future)
                           A target more than 30 days away needs --force
  -o, --output FILE        where to write the commitment (default commitment.json; - for stdout)
  --force                  overwrite an existing output file; accept a target more than 30 days away
  --json                   print a machine-readable summary

${TIMESTAMP_HELP}

Second source (protocol v2):
  --drand                  mix a drand round into the draw: the outcome is then unbiased unless both
                           Orbitport and drand are dishonest. The round is the chain's first one due at
                           least --drand-margin after the target block's expected time (default chain:
                           drand's quicknet; a chain given with --trust-drand is used instead)
  --drand-margin D         time to time-stamp the target block before the round is public (default 60s)
${DRAND_HELP}

${BEACON_HELP}

Exit codes: 0 written, 2 usage error, 3 network failure (including no time-stamp to be had), 4 bad
participants file.

Examples:
  orbitdraw commit --participants names.txt --pick 3 --label "Door prizes" --delay 5m
  orbitdraw commit -p entrants.csv --column email --pick 1 --delay 1h -o raffle.commitment.json
  orbitdraw commit -p tickets.csv --column name --weight-column tickets --weighted 2 --delay 10m
  orbitdraw commit --range 1..49 --count 6 --distinct --label "Lotto" --sequence 123456
  orbitdraw emulator &   # then, in another shell, with the printed ORBITDRAW_* variables set:
  orbitdraw commit -p names.txt --pick 3 --delay 10s --json`,
  options: {
    ...GLOBAL_OPTIONS,
    ...BEACON_OPTIONS,
    ...PARTICIPANTS_OPTIONS,
    ...TIMESTAMP_OPTIONS,
    ...kindOptions(),
    label: { type: 'string' },
    'strict-entries': { type: 'boolean' },
    delay: { type: 'string' },
    sequence: { type: 'string' },
    ...OUTPUT_OPTIONS,
    private: { type: 'boolean' },
    secret: { type: 'string' },
    drand: { type: 'boolean' },
    'drand-margin': { type: 'string' },
    ...DRAND_OPTIONS,
  },
  async run(flags, positionals, ctx) {
    if (positionals.length > 0) throw new UsageError(`commit takes no positional arguments (got ${positionals.map((p) => JSON.stringify(p)).join(' ')})`, 'commit')
    const chosen = drawSpecFromFlags(flags, 'commit')
    const kind = chosen.kind
    let draw = chosen.spec
    if (flags.delay !== undefined && flags.sequence !== undefined) throw new UsageError('give --delay or --sequence, not both', 'commit')
    const explicitDelayMs = flags.delay === undefined ? undefined : parseDuration(stringFlag(flags, 'delay')!, '--delay', 'commit')
    // On Orbitport's beacon, a commitment needs time to be published (and time-stamped) before its
    // block: the default window is DEFAULT_REAL_DELAY_MS. Other beacons (the emulator) keep the next safe block.
    const realBeacon = ORBITPORT_BEACONS.some((b) => b.name === beaconNameFrom(flags, ctx, 'commit'))
    const delayMs = explicitDelayMs ?? (realBeacon && flags.sequence === undefined ? DEFAULT_REAL_DELAY_MS : 0)
    const sequence = intFlag(flags, 'sequence', 'commit', 1)
    const output = stringFlag(flags, 'output') ?? 'commitment.json'
    const force = flags.force === true
    const label = stringFlag(flags, 'label') ?? ''

    let participants: string[] | WeightedEntry[] | undefined
    // A file of lines is read as a stream (digest, duplicates and look-alikes without holding the list);
    // a private list's secret is then drawn first, since the leaves are salted as they are read.
    let streamed: Pick<StreamedParticipants, 'count' | 'root' | 'entryBytes'> | undefined
    let streamSecret: OrganizerSecret | undefined
    // A kind that builds its participants from its own inputs (the sortition pool) writes them next to the commitment.
    let builtPath: string | undefined
    // The kind of the spec drawn: a built spec's own (a re-roll of a weighted draw is a weighted-reroll).
    let drawKind: AnyDrawKind = kind
    // A follow-up of a private list is committed again with the followed draw's secret (--secret FILE).
    let reusedSecret: OrganizerSecret | undefined
    if (kind.cli.build !== undefined) {
      // A kind may read --participants itself, in a format of its own (a list with columns: `stages`).
      const ownParticipants = kind.cli.files?.participants !== undefined
      const kindFlags = ownParticipants ? { ...chosen.flags, participants: stringFlag(flags, 'participants') } : chosen.flags
      const files = await readKindFiles(kind, kindFlags, 'commit')
      let built: ReturnType<NonNullable<typeof kind.cli.build>>
      try {
        built = kind.cli.build(kindFlags, files)
      } catch (err) {
        if (err instanceof InvalidInputError && err.code === 'INVALID_FLAG') throw new UsageError(err.detail, 'commit')
        // Infeasible or too-tight quotas: the smallest relaxation from the HiGHS solver (src/sortition/relax.ts).
        throw await explainQuotaError(err, files.pool as SortitionPool | undefined, files.quotas as QuotaRow[] | undefined, Number(chosen.flags[kind.cli.flag]))
      }
      draw = built.draw as DrawSpec
      drawKind = DEFAULT_DRAW_KINDS.get(draw.kind) ?? kind
      if (built.participants !== undefined) {
        if (flags.participants !== undefined && !ownParticipants) throw new UsageError(`a --${kind.cli.flag} draw makes its participants from its input files; drop --participants`, 'commit')
        if (output === '-') throw new UsageError(`a --${kind.cli.flag} draw writes its participants next to the commitment: give -o FILE, not -`, 'commit')
        builtPath = participantsPathFor(output)
        participants = [...built.participants]
      }
      // A follow-up (a re-roll, a panel replacement) is over the followed draw's committed list: a private one again with its secret.
      if ('follows' in draw) {
        reusedSecret = await followedSecret(files.replacing, draw.follows.commitment, stringFlag(flags, 'secret'), flags.private === true)
      }
    }
    if (flags.secret !== undefined && (draw === undefined || !('follows' in draw))) {
      throw new UsageError('--secret is for a follow-up of a private list (--replacing); a new private list gets its secret from --private', 'commit')
    }
    if (participants !== undefined) {
      // Built above.
    } else if (drawKind.participants === 'none') {
      if (flags.participants !== undefined) throw new UsageError(`a --${kind.cli.flag} draw takes no --participants`, 'commit')
    } else if (streamsLines(flags)) {
      if (drawKind.participants === 'weighted') throw new UsageError(`--${kind.cli.flag} needs weights: use --weight-column with a CSV, or a JSON array of {"entry": …, "weight": …}`, 'commit')
      const secret = (streamSecret = reusedSecret ?? (flags.private === true ? generateSecret() : undefined))
      streamed = await readStreamed(ctx, flags, (path, onProgress) => streamParticipantsFile(path, { confusables: true, onProgress, signal: ctx.signal, ...(secret === undefined ? {} : { secret }) }))
    } else if (kind.participants === 'weighted' && streamsWeightedCsv(flags)) {
      // A weighted CSV: its weight column read as a stream too (orbitdraw/node's streamWeightedCsv).
      const secret = (streamSecret = reusedSecret ?? (flags.private === true ? generateSecret() : undefined))
      const column = stringFlag(flags, 'column')
      streamed = await readStreamed(ctx, flags, (path, onProgress) => streamWeightedCsv(path, { weightColumn: stringFlag(flags, 'weight-column')!, ...(column === undefined ? {} : { column }), confusables: true, onProgress, signal: ctx.signal, ...(secret === undefined ? {} : { secret }) }))
    } else {
      participants = await participantsFrom(flags, 'commit')
      const weighted = participants.length > 0 && typeof participants[0] === 'object'
      if (drawKind.participants === 'weighted' && !weighted) throw new UsageError(`--${kind.cli.flag} needs weights: use --weight-column with a CSV, or a JSON array of {"entry": …, "weight": …}`, 'commit')
      if (drawKind.participants !== 'weighted' && weighted) throw new UsageError(`the participants carry weights; use ${weightedUsage()} (or drop --weight-column)`, 'commit')
      checkConfusables(ctx.err, participants, flags, flags['strict-entries'] === true)
    }
    // Impossible draws fail before any network call (the library's own rule, reported as a usage error).
    if (draw === undefined) throw new Error('unreachable: a kind without build gives its spec from the flags')
    try {
      validateDrawSpec(draw, participants?.length ?? streamed?.count ?? 0)
    } catch (err) {
      if (err instanceof InvalidInputError) throw new UsageError(`${err.detail}; ${err.hint}`, 'commit')
      throw err
    }
    // A public list whose proof no verifier could read (over maxProofBytes) is refused before any network
    // call; commit() and commitWithDigest() check the same floor again.
    if (participants !== undefined || streamed !== undefined) {
      checkCommitFits(streamed?.count ?? participants!.length, streamed?.entryBytes ?? entryBytesFloor(participants!), flags.private === true || reusedSecret !== undefined, drawKind, draw)
    }
    await assertWritable(output, force, 'commit')
    if (builtPath !== undefined) await assertWritable(builtPath, force, 'commit')
    const isPrivate = flags.private === true || reusedSecret !== undefined
    if (isPrivate && kind.participants === 'none') throw new UsageError(`a --${kind.cli.flag} draw has no participants to keep --private`, 'commit')
    if (isPrivate && output === '-') throw new UsageError('--private writes the secret next to the commitment file: give -o FILE, not -', 'commit')
    const secretPath = isPrivate ? secretPathFor(output) : undefined
    if (secretPath !== undefined) await assertWritable(secretPath, force, 'commit')

    const client = beaconClientFrom(flags, ctx, 'commit')
    const call = { signal: ctx.signal }
    const allowUnsigned = flags['allow-unsigned-head'] === true
    type Plan = Pick<TargetPlan, 'beacon' | 'after' | 'target' | 'estimatedTime' | 'authenticated' | 'intervalSeconds'>
    // extraMs > 0: the time-stamps came too late for the previous target, which is moved later (see stampBeforeTarget).
    const planFor = async (extraMs: number): Promise<Plan> => {
      let plan: Plan
      if (sequence === undefined) {
        plan = await planTarget({ client, delaySeconds: (delayMs + extraMs) / 1000, requireAuthenticated: !allowUnsigned, ...call })
      } else {
        try {
          plan = await planFixedTarget(client, sequence, { requireAuthenticated: !allowUnsigned, ...call })
        } catch (err) {
          if (err instanceof InvalidInputError && err.code === 'UNAUTHENTICATED_HEAD') throw new UsageError(`${err.detail}; use gateways that serve ?format=ipns-record or pass --allow-unsigned-head knowingly`, 'commit')
          if (err instanceof InvalidInputError && err.code === 'INVALID_SEQUENCE') throw new UsageError(`${err.detail}; choose a later --sequence, or use --delay`, 'commit')
          throw err
        }
      }
      const aheadMs = plan.estimatedTime.getTime() - Date.now()
      if (aheadMs > MAX_AHEAD_MS && !force) throw new UsageError(`block ${plan.target} is expected around ${plan.estimatedTime.toISOString()}, ~${formatDuration(aheadMs)} from now; pass --force if you mean a target that far away`, 'commit')
      if (extraMs === 0 && aheadMs < MIN_PUBLISH_WINDOW_MS && (explicitDelayMs !== undefined || sequence !== undefined || realBeacon)) {
        ctx.err(`warning: the target block is only ~${formatDuration(aheadMs)} away: the CID must be published (and time-stamped) before it appears, or nobody can trust the draw; use --delay ${formatDuration(MIN_PUBLISH_WINDOW_MS)} or more for a real draw\n`)
      }
      return plan
    }
    // A mixed draw (--drand): the first round of the chain due at least --drand-margin after the target's
    // expected time, chosen again for every target (a moved target moves its round too).
    let drandChain: DrandChainInfo | undefined
    let drandMargin = 60
    if (flags.drand === true) {
      const { added } = await drandChainsFrom(flags, ctx, 'commit')
      drandChain = added[added.length - 1] ?? DRAND_QUICKNET
      if (flags['drand-margin'] !== undefined) drandMargin = parseDuration(stringFlag(flags, 'drand-margin')!, '--drand-margin', 'commit') / 1000
    } else if (flags['drand-margin'] !== undefined) throw new UsageError('--drand-margin is for a mixed draw: add --drand', 'commit')
    let drand: { chain: string; round: number } | undefined
    let drandDue: number | undefined
    const build = (plan: Plan): CommitResult => {
      if (drandChain !== undefined) {
        const round = planRound(drandChain, plan.estimatedTime.getTime() / 1000, drandMargin)
        drand = { chain: drandChain.hash, round }
        drandDue = roundTime(drandChain, round)
      }
      try {
        // A moved target keeps a streamed private list's secret: the first commitment was never published (only its digest went to the authority).
        return streamed === undefined
          ? commit({ beacon: plan.beacon, target: plan.target, after: plan.after, ...(participants === undefined ? {} : { participants }), draw, label, ...(isPrivate ? { private: reusedSecret === undefined ? (true as const) : { secret: reusedSecret } } : {}), ...(drand === undefined ? {} : { drand }) })
          : { ...commitWithDigest({ beacon: plan.beacon, target: plan.target, after: plan.after, draw, label, ...(drand === undefined ? {} : { drand }) }, { count: streamed.count, root: streamed.root, salted: streamSecret !== undefined, entryBytes: streamed.entryBytes }), ...(streamSecret === undefined ? {} : { secret: streamSecret }) }
      } catch (err) {
        // A draw the flags asked for that cannot be made (more winners than entries, a label too long…).
        if (err instanceof InvalidInputError && (err.path?.startsWith('$.draw') === true || err.path === '$.label')) throw new UsageError(`${err.detail}; ${err.hint}`, 'commit')
        throw err
      }
    }
    // Time-stamp before writing: a file without its tokens is not written unless --no-timestamp says so. The
    // tokens must leave the target its margin (genTime + accuracy before the block's earliest expected time):
    // a --delay target is moved later and stamped again; a --sequence target is refused.
    let plan: Plan
    let result: CommitResult
    let stamped: TimestampResult | undefined
    let retargeted: readonly Retarget[] = []
    if (flags['no-timestamp'] === true) {
      plan = await planFor(0)
      result = build(plan)
    } else {
      const authorities = tsaUrlsFrom(flags, ctx, 'commit')
      const anchors = await tsaAnchorsFrom(flags, ctx, 'commit')
      try {
        ;({ plan, result, stamped, retargeted } = await stampBeforeTarget({ fixedTarget: sequence !== undefined, plan: planFor, build, stamp: (cid) => timestampCommitment(cid, { authorities, anchors, signal: ctx.signal, fetch: nodeFetch }) }))
      } catch (err) {
        if (err instanceof TimestampMarginError && sequence !== undefined) throw new UsageError(`${err.detail}; ${err.hint}`, 'commit')
        throw err
      }
      for (const r of retargeted) ctx.err(`${safeText(`note: the time-stamp came ${(r.shortMs / 1000).toFixed(1)} s too late for block ${r.from} (genTime + the authority's accuracy must be before the block's time); committed to block ${r.to} instead and time-stamped again (nothing was published: only the new CID counts)`)}\n`)
    }
    const timestamps = stamped?.tokens.map((t) => ({ authority: t.authority, name: t.authorityName, time: t.time })) ?? []
    // The secret first: a commitment whose secret could not be written is useless for a private draw.
    if (secretPath !== undefined) await writeSecretFile(secretPath, result.secret!, result.cid, force, 'commit')
    // A private list's file lists every respondent: owner-only, as its secret file.
    if (builtPath !== undefined) await writeOutput(ctx, builtPath, `${(participants as string[]).join('\n')}\n`, force, 'commit', isPrivate ? 0o600 : undefined)
    await writeOutput(ctx, output, `${JSON.stringify(commitmentFile(result, stamped?.tokens.map((t) => t.base64) ?? []), null, 2)}\n`, force, 'commit')

    const pArgs = builtPath === undefined ? participantsArgs(flags) : `--participants ${shellQuote(builtPath)}`
    // The exact command to run later: every participants flag is needed to read the list the same way.
    const drawCommand = ['orbitdraw draw', shellQuote(output === '-' ? 'commitment.json' : output), ...(pArgs === '' ? [] : [pArgs]), ...(secretPath === undefined ? [] : ['--secret', shellQuote(secretPath)]), ...(typeof chosen.flags.replacing === 'string' ? ['--original', shellQuote(chosen.flags.replacing)] : []), '-o proof.json'].join(' ')
    const summary = {
      ok: true,
      cid: result.cid,
      file: output === '-' ? null : output,
      ...(secretPath === undefined ? {} : { secretFile: secretPath }),
      beacon: plan.beacon,
      target: plan.target,
      after: plan.after,
      estimatedTime: plan.estimatedTime.toISOString(),
      intervalSeconds: plan.intervalSeconds,
      authenticated: plan.authenticated,
      draw: result.json.draw,
      label,
      participants: result.commitment.participants ?? null,
      ...(builtPath === undefined ? {} : { participantsFile: builtPath }),
      commitment: result.json,
      ...(drand === undefined ? {} : { drand: { ...drand, due: new Date(drandDue! * 1000).toISOString() } }),
      timestamps,
      ...(retargeted.length === 0 ? {} : { retargeted }),
      drawCommand,
    }
    if (flags.json === true) {
      if (output !== '-') printJson(ctx, summary)
      else ctx.err(`${escapeJsonText(JSON.stringify(summary))}\n`)
      return EXIT.ok
    }
    const say = output === '-' ? (t: string) => ctx.err(t) : (t: string) => ctx.out(t)
    say(formatSummary(summary, drawKind.describe(draw, participants?.length ?? streamed?.count), plan.estimatedTime, drawCommand))
    if (secretPath !== undefined) say(`\n${[`Private list: the secret is in ${secretPath} (mode 0600). Keep it, never publish it, and never publish the list: the draw command above reveals only the winners (each with its salt and inclusion path; a full disclosure needs --full-disclosure);`, `give each participant a receipt: orbitdraw receipts ${shellQuote(output)} ${pArgs} --secret ${shellQuote(secretPath)} -o receipts/`].map(safeText).join('\n')}\n`)
    return EXIT.ok
  },
}

function formatSummary(
  s: { cid: string; file: string | null; beacon: string; target: number; drand?: { chain: string; round: number; due: string }; after: { sequence: number; block: string }; authenticated: boolean; label: string; participants: { count: number; root: string; salted?: boolean } | null; timestamps: readonly { authority: string; name: string; time: string }[] },
  drawText: string,
  eta: Date,
  drawCommand: string,
): string {
  const inMs = eta.getTime() - Date.now()
  const lines = [
    `Commitment ${s.file === null ? 'printed to stdout' : `written to ${s.file}`}`,
    `  CID            ${s.cid}`,
    `  draw           ${drawText}${s.label === '' ? '' : ` — ${JSON.stringify(s.label)}`}`,
    ...(s.participants === null ? [] : [`  participants   ${plural(s.participants.count, 'entry', 'entries')}, Merkle root ${s.participants.root} (hex)`]),
    `  beacon         ${s.beacon}`,
    `  seen now       block ${formatCount(s.after.sequence)} ${s.after.block}${s.authenticated ? ' (signed)' : ' (UNSIGNED head)'}`,
    `  target block   ${formatCount(s.target)}, expected around ${eta.toISOString()} (in ~${formatDuration(inMs)})`,
    ...(s.drand === undefined ? [] : [`  drand round    ${formatCount(s.drand.round)} of chain ${s.drand.chain.slice(0, 16)}…, due ${s.drand.due} (void if it never appears)`]),
    ...(s.timestamps.length === 0 ? ['  time-stamp     NONE (--no-timestamp): the proof will not show when this was committed'] : s.timestamps.map((t) => `  time-stamp     ${t.time} by ${t.name} (${t.authority})`)),
    '',
    `Publish BEFORE block ${formatCount(s.target)} appears (~${formatDuration(inMs)} from now):`,
    `  - the commitment CID ${s.cid}${s.file === null ? '' : ` and the file ${s.file} (orbitdraw announce ${shellQuote(s.file)} writes the announcement)`}`,
    ...(s.participants === null
      ? []
      : s.participants.salted === true
        ? ['  - NOT the participants list: it is private (the count and root above are in the commitment)']
        : ['  - the participants list, in this exact order']),
    '',
    'Then draw (it waits for the block if needed):',
    `  ${drawCommand}`,
  ]
  return `${lines.map(safeText).join('\n')}\n`
}
