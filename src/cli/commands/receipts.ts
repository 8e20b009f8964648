/**
 * `orbitdraw receipts COMMITMENT --participants FILE --secret FILE -o DIR`: one receipt per participant
 * of a private list, and `orbitdraw check-receipt RECEIPT [--commitment CID]`: check one.
 *
 * @module
 */
import { access, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { checkReceipt, serializeReceipt, type Receipt } from '../../core/receipt.js'
import { InvalidInputError } from '../../errors.js'
import { describeCommitment } from '../../core/commitment.js'
import { LIMITS } from '../../core/limits.js'
import { DEFAULT_DRAW_KINDS } from '../../core/kinds/registry.js'
import { streamReceiptsFile, type StreamedReceipts } from '../../node/receipts-stream.js'
import { makeReceiptsAsync } from '../../receipts.js'
import { GLOBAL_OPTIONS, OUTPUT_OPTIONS, type Command } from '../command.js'
import { readBytesInput, readCommitmentFile, stringFlag } from '../common.js'
import { EXIT, UsageError } from '../exit-codes.js'
import { printJson } from '../output.js'
import { safeText } from '../safe-text.js'
import { readSecretFile } from '../secret-file.js'
import { participantsFrom, PARTICIPANTS_HELP, PARTICIPANTS_OPTIONS, streamsLines, streamsWeightedCsv } from '../participants-flags.js'

/** Receipt names checked at a time, for a list in memory (before writing, without --force). */
const NAME_BATCH = 16_384

/**
 * A receipt's file name: the zero-padded index, then the entry reduced to `[A-Za-z0-9._-]` (at most 40
 * characters), then `.json`. The index keeps names unique and the name safe on every file system
 * (no separators, no leading dot, no reserved device name, no control characters).
 */
export function receiptFileName(index: number, entry: string, count: number): string {
  const width = String(Math.max(0, count - 1)).length
  const slug = entry
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 40)
    .replace(/[-.]+$/g, '')
  return `${String(index).padStart(width, '0')}${slug === '' ? '' : `-${slug}`}.json`
}

export const receiptsCommand: Command = {
  name: 'receipts',
  summary: 'write one receipt per participant of a private list ("I was in the draw")',
  help: `Usage: orbitdraw receipts COMMITMENT --participants FILE --secret FILE -o DIR [--force] [--json]

For a list committed with 'orbitdraw commit --private': checks the participants (salted with the
secret) against the commitment, then writes one small JSON receipt per participant into DIR. A
receipt holds the commitment, the participant's index, entry and leaf salt, and the inclusion path:
its holder can check it was in the draw ('orbitdraw check-receipt'), and learns nothing about anyone
else. Send each participant their own file only.

Flags:
  COMMITMENT               the commitment file (- for stdin)
  --secret FILE            the organizer secret (NAME.secret.json written by 'commit --private')
  -o, --output DIR         the directory to write into (created if missing); files are named
                           INDEX-ENTRY.json with the entry reduced to letters, digits, '.', '_', '-'
  --force                  overwrite existing receipt files (otherwise refused before writing any)
  --json                   print a machine-readable summary

${PARTICIPANTS_HELP}

Exit codes: 0 written, 2 usage error, 4 bad input (participants or secret do not match the commitment).

Example:
  orbitdraw receipts commitment.json -p names.txt --secret commitment.secret.json -o receipts/`,
  options: { ...GLOBAL_OPTIONS, ...PARTICIPANTS_OPTIONS, secret: { type: 'string' }, ...OUTPUT_OPTIONS },
  async run(flags, positionals, ctx) {
    if (positionals.length !== 1) throw new UsageError('receipts takes exactly one commitment file', 'receipts')
    const path = positionals[0]!
    if (path === '-' && stringFlag(flags, 'participants') === '-') throw new UsageError('the commitment and the participants cannot both come from standard input', 'receipts')
    const dir = stringFlag(flags, 'output')
    if (dir === undefined || dir === '-') throw new UsageError('-o DIR is required: the directory to write the receipts into', 'receipts')
    const secretPath = stringFlag(flags, 'secret')
    if (secretPath === undefined) throw new UsageError('--secret FILE is required (the .secret.json written by commit --private)', 'receipts')
    // The file 'commit' writes (with its time-stamps), or a bare commitment: the same reader as 'draw'.
    const commitment = (await readCommitmentFile(path)).commitment
    if (commitment.participants?.salted !== true) throw new UsageError('receipts are for a private list (commit --private); this commitment is public: its participants check it against the published list', 'receipts')
    const cid = describeCommitment(commitment).cid
    const secret = await readSecretFile(secretPath, cid)
    const force = flags.force === true
    // A file of lines, or a weighted CSV (--weight-column) of a weighted draw, is read as a stream (never
    // the list; the same receipts, byte for byte); other layouts in memory, the tree built on two threads
    // for large lists.
    const participantsKind = DEFAULT_DRAW_KINDS.get(commitment.draw.kind)?.participants
    const weightedCsv = participantsKind === 'weighted' && streamsWeightedCsv(flags)
    const streamed = (participantsKind === 'entries' && streamsLines(flags)) || weightedCsv
    let book: { readonly count: number; receipts(): Iterable<Receipt> | AsyncIterable<Receipt> }
    let names: (visit: (names: readonly string[]) => Promise<void>) => Promise<void>
    if (streamed) {
      const column = stringFlag(flags, 'column')
      const columns = weightedCsv ? { weightColumn: stringFlag(flags, 'weight-column')!, ...(column === undefined ? {} : { column }) } : {}
      const stream: StreamedReceipts = await streamReceiptsFile(commitment, stringFlag(flags, 'participants')!, secret, { ...columns, signal: ctx.signal })
      book = stream
      names = (visit) => stream.rescan((entries, first) => visit(entries.map((e, k) => receiptFileName(first + k, e, stream.count))))
    } else {
      const participants = await participantsFrom(flags, 'receipts')
      const inMemory = await makeReceiptsAsync(commitment, participants, secret)
      book = inMemory
      names = async (visit) => {
        for (let from = 0; from < inMemory.count; from += NAME_BATCH) {
          await visit(participants.slice(from, from + NAME_BATCH).map((e, k) => receiptFileName(from + k, typeof e === 'string' ? e : e.entry, inMemory.count)))
        }
      }
    }
    await mkdir(dir, { recursive: true }).catch((cause: NodeJS.ErrnoException) => {
      throw new InvalidInputError('FILE_UNWRITABLE', `cannot create the directory ${dir}: ${cause.code ?? 'error'}`, 'check the path and permissions')
    })
    if (!force) {
      // Before any receipt is written: no file of the same name may exist (read in batches, not held).
      await names(async (batch) => {
        for (const name of batch) {
          const exists = await access(join(dir, name)).then(
            () => true,
            () => false,
          )
          if (exists) throw new UsageError(`${join(dir, name)} already exists; pass --force to overwrite the receipts, or choose another -o DIR`, 'receipts')
        }
      })
    }
    const written: string[] = []
    for await (const r of book.receipts()) {
      const name = receiptFileName(r.index, r.entry, book.count)
      const file = join(dir, name)
      try {
        await writeFile(file, serializeReceipt(r), { flag: force ? 'w' : 'wx' })
      } catch (cause) {
        const code = (cause as NodeJS.ErrnoException).code
        if (code === 'EEXIST') throw new UsageError(`${file} already exists; pass --force to overwrite the receipts`, 'receipts')
        throw new InvalidInputError('FILE_UNWRITABLE', `cannot write ${file}: ${code ?? 'error'}`, 'check the directory is writable')
      }
      if (flags.json === true) written.push(name)
    }
    if (flags.json === true) printJson(ctx, { ok: true, commitmentCid: cid, directory: dir, count: book.count, files: written })
    else ctx.out(`Wrote ${book.count} receipt${book.count === 1 ? '' : 's'} for commitment ${cid} into ${dir}\nSend each participant their own file; they check it with: orbitdraw check-receipt FILE --commitment ${cid}\n`)
    return EXIT.ok
  },
}

export const checkReceiptCommand: Command = {
  name: 'check-receipt',
  summary: 'check a participant receipt offline ("I was in the draw")',
  help: `Usage: orbitdraw check-receipt RECEIPT [--commitment CID] [--json]

Checks a receipt written by 'orbitdraw receipts', offline: the commitment inside it hashes to its
CID (and to --commitment CID, the one the organizer published), the list is salted, and the entry
with its salt is proven by the inclusion path to be at its index under the committed root.

Flags:
  RECEIPT                  the receipt file (- for stdin)
  --commitment CID         the commitment CID the organizer published; without it the receipt is only
                           checked against itself, and the report says so
  --json                   print the checks as JSON

Exit codes: 0 the receipt checks, 1 it does not, 2 usage error, 4 unreadable file.

Example:
  orbitdraw check-receipt 0007-alice.json --commitment baguqeera…`,
  options: { ...GLOBAL_OPTIONS, commitment: { type: 'string' } },
  async run(flags, positionals, ctx) {
    if (positionals.length !== 1) throw new UsageError('check-receipt takes exactly one receipt file', 'check-receipt')
    // Bytes, not text: the core decodes them strictly (an FF byte is refused, never repaired into U+FFFD)
    // and reads at most one byte past maxReceiptBytes, so a huge file or /dev/zero is refused by its size.
    const bytes = await readBytesInput(positionals[0]!, 'receipt', LIMITS.maxReceiptBytes)
    const pin = stringFlag(flags, 'commitment')
    const result = checkReceipt(bytes, pin === undefined ? {} : { commitment: pin })
    if (flags.json === true) {
      const { receipt, commitment, ...rest } = result
      printJson(ctx, { ...rest, ...(receipt === undefined ? {} : { commitmentCid: receipt.commitmentCid, index: receipt.index, entry: receipt.entry }), ...(commitment === undefined ? {} : { label: commitment.label }) })
    } else {
      const lines = result.checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.name.padEnd(18)} ${c.detail}`)
      for (const n of result.notes) lines.push(`  note: ${n}`)
      lines.push('')
      if (result.ok) {
        const r = result.receipt!
        lines.push(`${result.pinned ? 'CHECKED' : 'CHECKED (not pinned)'}: ${JSON.stringify(r.entry)} is at position ${(r.index + 1).toLocaleString('en-US')} of the list committed as ${r.commitmentCid}${result.commitment!.label === '' ? '' : ` (${JSON.stringify(result.commitment!.label)})`}.`)
        if (!result.pinned) lines.push('Compare that CID with the one the organizer published, or pass it with --commitment CID.')
      } else lines.push(`FAILED: ${result.checks.filter((c) => !c.ok).map((c) => c.name).join(', ')}`)
      // A receipt is a third party's file: its entry, label and field names (quoted in the details) never reach the terminal raw.
      ctx.out(`${lines.map(safeText).join('\n')}\n`)
    }
    return result.ok ? EXIT.ok : EXIT.verificationFailed
  },
}
