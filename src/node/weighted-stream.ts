/**
 * A weighted participants file (a CSV with a header, an entry column and a weight column, as
 * `orbitdraw commit --weight-column` reads it) read as a stream: the same parser (csv-parse, with the
 * options of the in-memory reader), the same rules and errors (by row), the weighted leaves hashed in
 * aligned blocks on the hash pool's worker as a file of lines is (`block-hasher.ts`), and the entries
 * never held: each leaves a 64-bit key for the duplicate search (`entry-keys.ts`) and its weight, which
 * the draw needs (`weightedPick` reads every weight).
 *
 * Memory: 16 bytes an entry (its weight and its key; the keys are dropped once compared), plus the
 * blocks in flight. The file is read again (whole, in order) for a duplicate's candidates, for the
 * winners' entries and for a full disclosure, each time checked against the first pass (the SHA-256 of
 * its bytes and its row count).
 *
 * @module
 */
import { createHash, type Hash } from 'node:crypto'
import { open, type FileHandle } from 'node:fs/promises'
import { CsvError, parse, type Parser } from 'csv-parse'
import { InvalidInputError, type LimitExceededError } from '../core/errors.js'
import { firstInvalidUtf8 } from '../core/json.js'
import { LIMITS } from '../core/limits.js'
import { duplicateError, entryErrorAt, listSizeError } from '../core/participants.js'
import type { OrganizerSecret } from '../core/secret.js'
import { BlockHasher, hashOfWords } from './block-hasher.js'
import { entryHashInto, findRepeats, skeletonHashInto } from './entry-keys.js'
import type { ConfusableGroup } from '../confusables.js'
import { csvParseError, entryErrorIn, fileChanged, csvMaxRecordSize, MAX_CSV_ROW_BYTES, MAX_PARTICIPANTS_FILE_BYTES, openParticipantsFile, participantsFileTooLarge, UTF8_HINT, utf8HintFor } from './file-errors.js'
import type {} from './errors.js'

/**
 * Options of {@link streamWeightedCsv}.
 * @category Node
 */
export interface StreamWeightedOptions {
  /** The column holding the entries: a header name or a 1-based number (default: the first). */
  column?: string
  /** The column holding the integer weights: a header name or a 1-based number. */
  weightColumn: string
  /** Salt the leaves with this secret (a private list), as `participantsRoot(list, { secret })`. */
  secret?: OrganizerSecret
  /** Also find the groups of look-alike entries (`findConfusableEntries`), for `commit`'s warning. */
  confusables?: boolean
  /**
   * Stops the read between two chunks once aborted, with the signal's reason (an `AbortError` by
   * default): a first pass over a large file takes seconds, and `orbitdraw` aborts it on Ctrl-C or SIGTERM.
   */
  signal?: AbortSignal
  /** Called after each chunk read while hashing: bytes read so far and the file's size. */
  onProgress?: (bytesRead: number, totalBytes: number) => void
  /** Bytes read at a time (default 1 MiB; tests use tiny chunks). */
  chunkBytes?: number
  /** Threads for the hashes, the calling one included (default 2, for files of at least 1 MiB). */
  threads?: 1 | 2
  /** @internal Smallest file hashed on two threads (default 1 MiB). */
  parallelFromBytes?: number
  /** @internal log2 of the block size in entries (default 14). */
  blockLog?: number
  /**
   * Also keep the root of every aligned block of `2^blockLog` entries (the last one partial), in order
   * ({@link StreamedWeighted.blockRoots}), for receipts. 32 bytes per 16,384 entries.
   */
  blockRoots?: boolean
}

/**
 * A weighted list read by {@link streamWeightedCsv}: its count, digest and weights, and ways to read
 * its entries again.
 * @category Node
 */
export interface StreamedWeighted {
  /** Number of entries. */
  readonly count: number
  /** The participants digest: equal to `participantsRoot(list, { secret })` of the `{ entry, weight }` list. */
  readonly root: Uint8Array
  /** A floor of the UTF-8 bytes the entries take together (their UTF-16 length). */
  readonly entryBytes: number
  /** The weights, in committed order. */
  readonly weights: readonly number[]
  /**
   * With `blockRoots`: the roots of the aligned blocks of {@link StreamedWeighted.blockSize} entries (the
   * last one partial), in list order; the RFC 9162 tree over them (as leaf hashes) has the same root.
   * Else empty.
   */
  readonly blockRoots: readonly Uint8Array[]
  /** Entries per block of {@link StreamedWeighted.blockRoots} (a power of two). */
  readonly blockSize: number
  /** Look-alike groups (with `confusables`), as `findConfusableEntries(entries)` returns them; else empty. */
  readonly confusables: readonly ConfusableGroup[]
  /** The entries at `indices` (any order), read again from the file. */
  entries(indices: readonly number[]): Promise<string[]>
  /**
   * Reads the file again from the start: `visit` gets the rows in order, by batches (`first`: the list
   * position of `entries[0]`). At the end the file must still be the one read.
   * @throws `MismatchError` `PARTICIPANTS_MISMATCH` when the file changed since the first pass.
   */
  rescan(visit: (entries: readonly string[], weights: readonly number[], first: number) => void | Promise<void>): Promise<void>
}

/** Rows handed to a rescan's visitor at a time. */
const BATCH = 4096

/**
 * Reads a weighted participants CSV as a stream: the list `readParticipants(path, { weightColumn })`
 * reads (a header row, then one `{ entry, weight }` per row), its rules and errors, in memory O(count)
 * (16 bytes an entry), never the entries.
 *
 * @example
 * ```ts
 * import { streamWeightedCsv } from 'orbitdraw/node'
 *
 * const list = await streamWeightedCsv('tickets.csv', { column: 'name', weightColumn: 'tickets' })
 * console.log(list.count, list.weights.reduce((a, w) => a + w, 0))
 * ```
 * @throws `InvalidInputError` `FILE_UNREADABLE`, `FILE_TOO_LARGE`, `INVALID_UTF8`, `INVALID_CSV` (quoting,
 *   column counts, no data row), `UNKNOWN_COLUMN`, `WEIGHT_INVALID` (`path` `row N`), the entry rules
 *   (`ENTRY_EMPTY`, `ENTRY_DUPLICATE`…, `path` `row N`); `LimitExceededError` over `LIMITS.maxParticipants`.
 * @category Node
 */
export async function streamWeightedCsv(path: string, options: StreamWeightedOptions): Promise<StreamedWeighted> {
  const { file, size } = await openParticipantsFile(path)
  let scan: Scan
  try {
    if (size > MAX_PARTICIPANTS_FILE_BYTES) throw participantsFileTooLarge(path)
    scan = await scanCsv(file, size, path, options)
  } finally {
    await file.close()
  }
  const { count, fingerprint } = scan
  const chunkBytes = Math.max(1, options.chunkBytes ?? 1024 * 1024)
  const rescan: StreamedWeighted['rescan'] = async (visit) => {
    const again = await open(path, 'r').catch((cause: unknown) => {
      throw fileChanged(path, cause)
    })
    try {
      let seen = 0
      const hash = createHash('sha256')
      let entries: string[] = []
      let weights: number[] = []
      // The visitor's own errors (a sink that failed, a reader that stopped) pass through as they are.
      let visitFailed: { readonly error: unknown } | undefined
      const visitBatch = async (e: readonly string[], w: readonly number[], first: number): Promise<void> => {
        try {
          await visit(e, w, first)
        } catch (error) {
          visitFailed = { error }
          throw error
        }
      }
      try {
        await readRows(again, chunkBytes, hash, scan.columns, path, (entry, weight) => {
          entries.push(entry)
          weights.push(Number(weight))
          if (entries.length < BATCH) return undefined
          const first = seen
          seen += entries.length
          const [e, w] = [entries, weights]
          entries = []
          weights = []
          if (seen > count) throw fileChanged(path)
          return visitBatch(e, w, first)
        })
      } catch (cause) {
        if (visitFailed !== undefined) throw visitFailed.error
        throw fileChanged(path, cause)
      }
      if (entries.length > 0) {
        const first = seen
        seen += entries.length
        if (seen > count) throw fileChanged(path)
        await visit(entries, weights, first)
      }
      if (seen !== count || hash.digest('hex') !== fingerprint) throw fileChanged(path)
    } finally {
      await again.close()
    }
  }
  const entries = async (indices: readonly number[]): Promise<string[]> => {
    const wanted = new Map<number, number[]>()
    indices.forEach((g, k) => {
      if (!Number.isSafeInteger(g) || g < 0 || g >= count) throw new RangeError(`no entry ${g}`)
      wanted.set(g, [...(wanted.get(g) ?? []), k])
    })
    const out = new Array<string>(indices.length)
    await rescan((batch, _w, first) => {
      for (let k = 0; k < batch.length; k++) for (const at of wanted.get(first + k) ?? []) out[at] = batch[k]!
    })
    return out
  }
  const { duplicate, groups } = await findRepeats(scan.keys, count, options.confusables === true, entries)
  if (duplicate !== null) throw entryErrorIn(duplicateError(duplicate[0], duplicate[1], '.entry'), 'csv', path)
  return { count, root: scan.root, entryBytes: scan.entryChars, weights: scan.weights, blockRoots: scan.blockRoots, blockSize: scan.blockSize, confusables: groups, entries, rescan }
}

interface Scan {
  count: number
  root: Uint8Array
  weights: number[]
  keys: BigUint64Array
  blockRoots: Uint8Array[]
  blockSize: number
  fingerprint: string
  entryChars: number
  columns: Columns
}

/** The entry and weight columns (0-based). */
interface Columns {
  readonly entry: number
  readonly weight: number
}

async function scanCsv(file: FileHandle, size: number, path: string, options: StreamWeightedOptions): Promise<Scan> {
  const hasher = new BlockHasher({ secret: options.secret ?? null, blockLog: options.blockLog ?? 14, threads: (options.threads ?? 2) === 2 && size >= (options.parallelFromBytes ?? 1024 * 1024), steal: true, keepRoots: options.blockRoots === true })
  try {
    const hash = createHash('sha256')
    const keyOf = options.confusables === true ? skeletonHashInto : entryHashInto
    let weightError: InvalidInputError | undefined
    let entryError: InvalidInputError | LimitExceededError | undefined
    let index = 0
    let entryChars = 0
    let block: string[] = []
    let blockWeights: number[] = []
    let blockFirst = 0
    const weights: number[] = []
    let keys = new BigUint64Array(1024)
    let keyWords = new Uint32Array(keys.buffer)
    const columnsOf = (header: string[]): Columns => ({ entry: columnIndex(header, options.column ?? '1', '--column', path), weight: columnIndex(header, options.weightColumn, '--weight-column', path) })
    const columns = await readRows(file, Math.max(1, options.chunkBytes ?? 1024 * 1024), hash, columnsOf, path, (entry, weightText) => {
      const g = index++
      const row = g + 2
      if (weightError === undefined && (!/^[1-9][0-9]*$/.test(weightText) || !Number.isSafeInteger(Number(weightText)))) {
        weightError = new InvalidInputError('WEIGHT_INVALID', `${path}: row ${row}: weight ${JSON.stringify(weightText)} is not a positive integer`, 'weights are whole numbers of tickets, 1 or more', { path: `row ${row}` })
      }
      if (weightError !== undefined || entryError !== undefined || g >= LIMITS.maxParticipants) return
      const err = entryErrorAt(entry, g)
      if (err !== null) {
        entryError = err
        return
      }
      const weight = Number(weightText)
      if (g >= keys.length) {
        const bigger = new BigUint64Array(keys.length * 2)
        bigger.set(keys)
        keys = bigger
        keyWords = new Uint32Array(keys.buffer)
      }
      keyOf(entry, g, keyWords)
      entryChars += entry.length
      weights.push(weight)
      block.push(entry)
      blockWeights.push(weight)
      if (block.length === hasher.blockSize) {
        hasher.push(block, blockFirst, blockWeights)
        block = []
        blockWeights = []
        blockFirst = g + 1
      }
    }, options.onProgress === undefined ? undefined : (read) => options.onProgress!(read, size), options.signal)
    // The in-memory reader's order: the CSV's own errors (thrown by readRows), the weights, then the entries.
    if (weightError !== undefined) throw weightError
    const sizeError = listSizeError(index)
    if (sizeError !== null) throw entryErrorIn(sizeError, 'csv', path)
    if (entryError !== undefined) throw entryErrorIn(entryError, 'csv', path)
    const root = await hasher.finish(block, blockFirst, blockWeights)
    return { count: index, root, weights, keys: keys.subarray(0, index), blockRoots: (hasher.roots ?? []).map(hashOfWords), blockSize: hasher.blockSize, fingerprint: hash.digest('hex'), entryChars, columns }
  } finally {
    hasher.close()
  }
}

/**
 * Parses the file's rows (csv-parse, the in-memory reader's options) and hands each data row's entry and
 * weight text to `row`; returns the columns (`columns` itself, or found from the header row by
 * `columns`). `hash` sees every byte, in order.
 * @throws the errors of `row`; `INVALID_UTF8`; `INVALID_CSV` for the parser's errors and a file without
 *   a data row; `UNKNOWN_COLUMN`.
 */
async function readRows(file: FileHandle, chunkBytes: number, hash: Hash, columns: Columns | ((header: string[]) => Columns), path: string, row: (entry: string, weight: string) => void | Promise<void>, progress?: (read: number) => void, signal?: AbortSignal): Promise<Columns> {
  const parser: Parser = parse({ relax_column_count: false, skip_empty_lines: false, bom: true, max_record_size: csvMaxRecordSize(MAX_CSV_ROW_BYTES) })
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const buf = new Uint8Array(chunkBytes)
  let at = 0
  let failure: unknown
  // The file's text goes into the parser as the rows come out (the parser holds about a chunk).
  const feed = (async () => {
    try {
      for (;;) {
        const { bytesRead } = await file.read(buf, 0, buf.length, at)
        if (bytesRead === 0) break
        const bytes = buf.subarray(0, bytesRead)
        hash.update(bytes)
        let text: string
        try {
          text = decoder.decode(bytes, { stream: true })
        } catch (cause) {
          const bad = firstInvalidUtf8(bytes)
          throw new InvalidInputError('INVALID_UTF8', `participants file ${path} is not valid UTF-8: byte offset ${at + Math.max(0, bad)}`, at === 0 ? utf8HintFor(bytes) : UTF8_HINT, { cause })
        }
        at += bytesRead
        signal?.throwIfAborted()
        // A file that grows while it is read (appended to) stops at the bound like one that was larger.
        if (at > MAX_PARTICIPANTS_FILE_BYTES) throw participantsFileTooLarge(path)
        progress?.(at)
        // A parser that stopped (its own error, or the rows' reader gone) never drains: wait for either.
        if (!parser.write(text)) await drainedOrClosed(parser)
        if (parser.destroyed) return
      }
      try {
        decoder.decode()
      } catch (cause) {
        throw new InvalidInputError('INVALID_UTF8', `participants file ${path} is not valid UTF-8: a truncated character at the end`, UTF8_HINT, { cause })
      }
      parser.end()
    } catch (err) {
      failure = err
      parser.destroy(err as Error)
    }
  })()
  let found = typeof columns === 'function' ? undefined : columns
  let rows = 0
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (rows++ === 0) {
        if (found === undefined) found = (columns as (header: string[]) => Columns)(record)
        continue
      }
      const pending = row(record[found!.entry]!, record[found!.weight]!)
      if (pending !== undefined) await pending
    }
  } catch (cause) {
    await feed
    if (failure !== undefined) throw failure
    // csv-parse's own errors are the in-memory reader's INVALID_CSV (or LIMIT_EXCEEDED for a long row).
    // Tested by class, not code: one of its codes, INVALID_OPENING_QUOTE, lacks the CSV_ prefix.
    if (cause instanceof CsvError) throw csvParseError(cause, path)
    throw cause
  }
  await feed
  if (failure !== undefined) throw failure
  if (rows < 2 || found === undefined) throw new InvalidInputError('INVALID_CSV', `${path}: participants CSV needs a header row and at least one data row`, 'add a header row naming the columns')
  return found
}

/** Resolves when `parser` asks for more text, or once it is closed (it then never will). */
function drainedOrClosed(parser: Parser): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      parser.off('drain', done)
      parser.off('close', done)
      resolve()
    }
    parser.on('drain', done)
    parser.on('close', done)
  })
}

/** A column by header name or 1-based number, as the in-memory reader finds it. */
function columnIndex(header: string[], spec: string, flag: string, path: string): number {
  if (/^[1-9][0-9]*$/.test(spec)) {
    const i = Number(spec) - 1
    if (i < header.length) return i
  }
  const i = header.indexOf(spec)
  if (i < 0) throw new InvalidInputError('UNKNOWN_COLUMN', `${path}: ${flag} ${JSON.stringify(spec)} is not a column of the CSV (columns: ${header.join(', ')})`, `pass a header name or a 1-based column number to ${flag}`)
  return i
}
