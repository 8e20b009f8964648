/**
 * Streaming reader of a participants file of lines (one entry per line), for a commit, a draw
 * (`draw-stream.ts`) and receipts (`receipts-stream.ts`) of `orbitdraw/node`, and so for `orbitdraw
 * commit`, `draw` and `receipts`: the participants digest is computed as the file is read, in chunks,
 * without ever holding the list (the leaves hashed on two threads, `block-hasher.ts`). For `draw` it can also keep the root of every aligned block (the
 * private proof's audit paths), hash the file's bytes (`fingerprint`), and read the file again as bytes
 * (`rescanBytes`, the public proof's list) or by ranges of lines (`range`).
 *
 * What it keeps per entry: the byte offset of its line (4 bytes) and one 64-bit key (8 bytes) made of a
 * 38-bit hash of the entry (or of its confusable skeleton) and the entry's 26-bit index. Sorting the keys
 * (one native typed-array sort) puts equal hashes side by side; only those few candidates are read again
 * from the file and compared exactly, to find duplicates (the core's ENTRY_DUPLICATE, same pair) and
 * look-alike groups (the same groups as `findConfusableEntries`). For 10,000,000 entries that is about
 * 120 MiB beside a 200 MiB file, against about 1 GiB of strings for the in-memory reader. Both arrays are
 * sized from a first quick count of the file's line breaks (growing them by doubling held up to 200 MiB).
 *
 * Every rule and message is the in-memory reader's (`readParticipants` with the `lines` layout): the
 * same strict UTF-8 decoding (error at the same line and byte offset), the same byte order mark
 * handling, CRLF and blank-line rules, the same entry errors in the same order of precedence (invalid
 * UTF-8 anywhere, then the first blank line, then the list size, then the first bad entry, then the first
 * duplicate). A line too long for an entry (`MAX_ENTRY_LINE_BYTES`) is read in pieces and never held whole:
 * its UTF-8 checked and its length counted for the same error. `test/node/participants-stream.test.ts` and
 * `test/node/line-reader.test.ts` check the digest and every error against it; the
helpers live beside it: `line-reader.ts` (bytes and lines), `entry-keys.ts` (duplicates, look-alikes).
 *
 * @module
 */
import { createHash, type Hash } from 'node:crypto'
import { open, type FileHandle } from 'node:fs/promises'
import { InvalidInputError, type LimitExceededError } from '../core/errors.js'
import { firstInvalidUtf8 } from '../core/json.js'
import { LIMITS } from '../core/limits.js'
import { duplicateError, entryErrorAt, entryTooLongAt, listSizeError } from '../core/participants.js'
import type { OrganizerSecret } from '../core/secret.js'
import type { ConfusableGroup } from '../confusables.js'
import { BlockHasher, hashOfWords } from './block-hasher.js'
import { entryHashInto, findRepeats, INDEX_BITS, skeletonHashInto } from './entry-keys.js'
import { entryErrorIn, fileChanged, MAX_PARTICIPANTS_FILE_BYTES, openParticipantsFile, participantsFileTooLarge, UTF8_HINT, utf8HintFor } from './file-errors.js'
import { countLines, lineChunks, MAX_ENTRY_LINE_BYTES, nextLineStart, readLines, readRange, rescanBytesFile, type LinesVisitor } from './line-reader.js'
import type {} from './errors.js'

/**
 * Options of {@link streamParticipantsFile}.
 * @category Node
 */
export interface StreamParticipantsOptions {
  /** Salt the leaves with this secret (a private list), as `participantsRoot(list, { secret })`. */
  secret?: OrganizerSecret
  /**
   * Stops the read between two chunks once aborted, with the signal's reason (an `AbortError` by
   * default): a first pass over a large file takes seconds, and `orbitdraw` aborts it on Ctrl-C or SIGTERM.
   */
  signal?: AbortSignal
  /** Called after each chunk read while hashing: bytes read so far and the file's size. */
  onProgress?: (bytesRead: number, totalBytes: number) => void
  /** Also find the groups of look-alike entries (`findConfusableEntries`), for `commit`'s warning. */
  confusables?: boolean
  /** Bytes read at a time (default 1 MiB; tests use tiny chunks to cross every boundary). */
  chunkBytes?: number
  /**
   * Threads for the leaf and node hashes, the calling one included: 2 (default) hands aligned blocks of
   * entries to a worker thread whenever it is free, for files of at least `parallelFromBytes`; 1 hashes here.
   */
  threads?: 1 | 2
  /** @internal Smallest file hashed on two threads (default 1 MiB, about 50,000 short entries). */
  parallelFromBytes?: number
  /** @internal log2 of the block size in entries (default 14); tests use small blocks. */
  blockLog?: number
  /** @internal false: at the end, wait for the worker instead of hashing its queued blocks here too (tests). */
  steal?: boolean
  /**
   * Also hash the file's bytes (SHA-256, native), so that {@link StreamedParticipants.rescanBytes} can tell
   * that the file is still the one read (`draw` reads it twice).
   */
  fingerprint?: boolean
  /**
   * Also keep the root of every aligned block of `2^blockLog` entries (the last one partial), in order:
   * each is a node of the tree ({@link StreamedParticipants.blockRoots}). 32 bytes per 16,384 entries.
   */
  blockRoots?: boolean
}

/**
 * What {@link streamParticipantsFile} found: the list's count and digest, and ways to read it again.
 * @category Node
 */
export interface StreamedParticipants {
  /** Number of entries. */
  readonly count: number
  /** The participants digest: equal to `participantsRoot(entries, { secret })`. */
  readonly root: Uint8Array
  /**
   * A floor of the UTF-8 bytes the entries take together: their UTF-16 length (exact for ASCII). The
   * core refuses with it, before any network call of a draw, a full disclosure no verifier could read.
   */
  readonly entryBytes: number
  /** Look-alike groups (with `confusables`), as `findConfusableEntries(entries)` returns them; else empty. */
  readonly confusables: readonly ConfusableGroup[]
  /**
   * With `blockRoots`: the roots of the aligned blocks of {@link StreamedParticipants.blockSize} entries
   * (the last one partial), in list order; the RFC 9162 tree over them (as leaf hashes) has the same root.
   * Else empty.
   */
  readonly blockRoots: readonly Uint8Array[]
  /** Entries per block of {@link StreamedParticipants.blockRoots} (a power of two). */
  readonly blockSize: number
  /**
   * Entries `[from, to)` read again as one byte range of the file, decoded by the scan's rules.
   * @throws `MismatchError` `PARTICIPANTS_MISMATCH` when they are no longer `to - from` valid lines.
   */
  range(from: number, to: number): Promise<string[]>
  /** The entries at `indices` (any order), read again from the file. */
  entries(indices: readonly number[]): Promise<string[]>
  /**
   * Reads the file again from the start, in the scan's chunks, without decoding: each chunk's bytes, with
   * line `k`'s UTF-8 bytes (no line end, no byte order mark) at `chunk[bounds[2k] .. bounds[2k + 1])`, for
   * `k < lines`; `first` is the list position of line 0. `visit` may be async (the reading waits for it);
   * `chunk` and `bounds` are reused afterwards. At the end (with `fingerprint`) the file's bytes must hash
   * as in the first pass, and the lines must be as many: otherwise the file changed in between.
   * @throws `MismatchError` `PARTICIPANTS_MISMATCH` when the file changed since the first pass.
   */
  rescanBytes(visit: LinesVisitor): Promise<void>
}

export { streamStats } from './block-hasher.js'

/** The line offsets of each list read (the start of every line, then the file's size), for the streamed draw's ranking windows. */
const LINE_OFFSETS = new WeakMap<StreamedParticipants, Uint32Array>()

/** @internal The byte offset of each line of `list` as the scan found it (the start of every line, then the file's size). */
export function lineOffsetsOf(list: StreamedParticipants): Uint32Array {
  const offsets = LINE_OFFSETS.get(list)
  if (offsets === undefined) throw new Error('participants-stream: not a list read by streamParticipantsFile')
  return offsets
}

const NL = 0x0a

/**
 * Reads a participants file of lines (UTF-8, one entry per line, LF or CRLF, an optional byte order
 * mark) as a stream: every entry rule of the core (`validateEntries`), in memory O(count) (12 bytes an
 * entry), never the list. The digest equals `participantsRoot(entries, { secret })`; errors name the
 * file and the line, as `orbitdraw commit` prints them.
 *
 * @example
 * ```ts
 * import { streamParticipantsFile } from 'orbitdraw/node'
 * import { bytesToHex, commitWithDigest } from 'orbitdraw'
 *
 * const list = await streamParticipantsFile('entrants.txt', { confusables: true })
 * console.log(list.count, bytesToHex(list.root), list.confusables.length)
 * ```
 * @throws `InvalidInputError` `FILE_UNREADABLE`, `FILE_TOO_LARGE`, `INVALID_UTF8` (line and byte
 *   offset), `ENTRY_EMPTY` (a blank line), `ENTRY_DUPLICATE` (`path` the later line, the detail naming the
 *   earlier), `ENTRY_TOO_LONG` and the other entry rules (`path` `line N`); `LimitExceededError` for a
 *   list over `LIMITS.maxParticipants`.
 * @category Node
 */
export async function streamParticipantsFile(path: string, options: StreamParticipantsOptions = {}): Promise<StreamedParticipants> {
  if ((2 ** INDEX_BITS) <= LIMITS.maxParticipants) throw new Error('participants-stream: the key has too few index bits for LIMITS.maxParticipants')
  const { file, size } = await openParticipantsFile(path)
  try {
    if (size > MAX_PARTICIPANTS_FILE_BYTES) throw participantsFileTooLarge(path)
    const scan = await scanFile(file, size, path, options)
    return await finish(file, path, scan, options)
  } finally {
    await file.close()
  }
}

interface Scan {
  count: number
  root: Uint8Array
  blockRoots: Uint8Array[]
  offsets: Uint32Array
  keys: BigUint64Array
  /** SHA-256 of the file's bytes (with `fingerprint`). */
  fingerprint: string | null
  /** The entries' UTF-16 length together: a floor of their UTF-8 bytes (exact for ASCII). */
  entryChars: number
}

/** One pass over the file: decoding, line rules, entry rules, leaf hashes into the tree, offsets and keys. */
async function scanFile(file: FileHandle, size: number, path: string, options: StreamParticipantsOptions): Promise<Scan> {
  const chunkBytes = Math.max(1, options.chunkBytes ?? 1024 * 1024)
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const secret = options.secret ?? null
  const pipeline = new BlockHasher({ secret, blockLog: options.blockLog ?? 14, threads: (options.threads ?? 2) === 2 && size >= (options.parallelFromBytes ?? 1024 * 1024), steal: options.steal ?? true, keepRoots: options.blockRoots === true })
  try {
    return await scanWith(file, size, path, options, pipeline, chunkBytes, decoder)
  } finally {
    pipeline.close()
  }
}

async function scanWith(file: FileHandle, size: number, path: string, options: StreamParticipantsOptions, pipeline: BlockHasher, chunkBytes: number, decoder: TextDecoder): Promise<Scan> {
  const keyOf = options.confusables === true ? skeletonHashInto : entryHashInto
  let linesBefore = 0 // newlines before the current chunk (for the UTF-8 error's line number)
  let index = 0 // entries seen (including bad ones)
  let first = true
  let emptyError: InvalidInputError | undefined
  let entryError: InvalidInputError | LimitExceededError | undefined
  let block: string[] = [] // entries of the current aligned block, not yet hashed
  let blockFirst = 0
  let entryChars = 0
  // Sized from a count of the file's line breaks (a quick read): growing by doubling would hold the old
  // and the new arrays at once and up to twice the room needed (about 200 MB instead of 120 MB at 10^7).
  const capacity = Math.min(await countLines(file, size, chunkBytes), LIMITS.maxParticipants) + 1
  let offsets = new Uint32Array(capacity)
  let keys = new BigUint64Array(capacity)
  let keyWords = new Uint32Array(keys.buffer)
  const hash: Hash | null = options.fingerprint === true ? createHash('sha256') : null
  // A line over MAX_ENTRY_LINE_BYTES comes in pieces (its entry is over maxEntryBytes whatever it holds):
  // each decoded for the UTF-8 rule and counted, never joined. `long` is its list position and length so far.
  let long: { g: number; units: number; cr: boolean } | null = null
  for await (const { chunk, base, last, long: piece } of lineChunks(file, Math.min(chunkBytes, size), MAX_ENTRY_LINE_BYTES, hash)) {
    options.signal?.throwIfAborted()
    // A file that grows while it is read (appended to) stops at the bound like one that was larger.
    if (base + chunk.length > MAX_PARTICIPANTS_FILE_BYTES) throw participantsFileTooLarge(path)
    options.onProgress?.(base + chunk.length, size)
    let text: string
    try {
      text = decoder.decode(chunk, { stream: !last })
    } catch (cause) {
      const at = firstInvalidUtf8(chunk)
      let line = linesBefore + 1
      for (let i = 0; i < at; i++) if (chunk[i] === NL) line++
      const bad = base + at < size ? `byte 0x${chunk[at]!.toString(16).padStart(2, '0')}` : 'a truncated character at the end'
      throw new InvalidInputError('INVALID_UTF8', `participants file ${path} is not valid UTF-8: line ${line}, byte offset ${base + at} (${bad})`, base === 0 ? utf8HintFor(chunk) : UTF8_HINT, { path: `line ${line}`, cause })
    }
    // Byte offsets of the line starts in this chunk (the first line of the file starts at 0, its
    // byte order marks included: re-reading it applies the same rules).
    let lineStart = 0
    if (first) {
      first = false
      if (text.startsWith('\uFEFF')) text = text.slice(1) // a second byte order mark (the decoder ate one): not data
    }
    if (piece) {
      long ??= { g: index++, units: 0, cr: false }
      long.units += text.length
      const ends = text.endsWith('\n')
      if (ends || last) {
        // The entry is the line without its line feed, and without a carriage return just before it.
        const units = ends ? long.units - 1 - ((text.length >= 2 ? text.charCodeAt(text.length - 2) === 0x0d : long.cr) ? 1 : 0) : long.units
        // The core's first length check, recorded as the whole-line path below records an entry error: the first one, none after a blank line.
        if (emptyError === undefined && entryError === undefined && long.g < LIMITS.maxParticipants) entryError = entryTooLongAt(units, long.g)
        if (ends) linesBefore++
        long = null
      } else long.cr = text.endsWith('\r')
      continue
    }
    const lines = text.split(/\r?\n/)
    if (text.endsWith('\n')) lines.pop()
    else if (text === '') lines.length = 0
    const healthy = emptyError === undefined && entryError === undefined
    for (let k = 0; k < lines.length; k++) {
      const line = lines[k]!
      const g = index++
      if (line === '') {
        emptyError ??= new InvalidInputError('ENTRY_EMPTY', `line ${g + 1} is empty`, 'remove blank lines: every line is one entry', { path: `line ${g + 1}` })
      } else if (healthy && entryError === undefined && emptyError === undefined) {
        if (g >= LIMITS.maxParticipants) {
          // The size error wins over anything per entry: stop keeping entries, keep counting lines.
        } else {
          const err = entryErrorAt(line, g)
          if (err !== null) entryError = err
          else {
            if (g >= offsets.length) {
              offsets = grow(offsets)
              const bigger = new BigUint64Array(keys.length * 2)
              bigger.set(keys)
              keys = bigger
              keyWords = new Uint32Array(keys.buffer)
            }
            offsets[g] = base + lineStart
            entryChars += line.length
            keyOf(line, g, keyWords)
            block.push(line)
            if (block.length === pipeline.blockSize) {
              pipeline.push(block, blockFirst)
              block = []
              blockFirst = g + 1
            }
          }
        }
      }
      lineStart = nextLineStart(chunk, lineStart)
    }
    linesBefore += text.endsWith('\n') ? lines.length : Math.max(0, lines.length - 1) // the newlines of this chunk
  }
  if (long !== null) throw new Error('participants-stream: the reader ended inside a long line') // lineChunks ends every line
  try {
    decoder.decode()
  } catch (cause) {
    throw new InvalidInputError('INVALID_UTF8', `participants file ${path} is not valid UTF-8: line ${linesBefore + 1}, byte offset ${size} (a truncated character at the end)`, UTF8_HINT, { path: `line ${linesBefore + 1}`, cause })
  }
  if (emptyError !== undefined) throw new InvalidInputError(emptyError.code, `${path}: ${emptyError.detail}`, emptyError.hint, { cause: emptyError, ...(emptyError.path === undefined ? {} : { path: emptyError.path }) })
  const sizeError = listSizeError(index)
  if (sizeError !== null) locate(sizeError, path)
  if (entryError !== undefined) locate(entryError, path)
  if (index + 1 > offsets.length) offsets = grow(offsets)
  offsets[index] = size // the end of the last line
  const root = await pipeline.finish(block, blockFirst)
  const blockRoots = (pipeline.roots ?? []).map(hashOfWords)
  return { count: index, root, blockRoots, offsets: offsets.subarray(0, index + 1), keys: keys.subarray(0, index), fingerprint: hash === null ? null : hash.digest('hex'), entryChars }
}


/** Sorts the keys, reads the candidates again, and finds the first duplicate and the look-alike groups. */
async function finish(file: FileHandle, path: string, scan: Scan, options: StreamParticipantsOptions): Promise<StreamedParticipants> {
  const { count, offsets, keys } = scan
  // (Not `scan` itself in the closures below: it holds the keys, garbage once sorted and compared.)
  const fingerprint = scan.fingerprint
  const chunkBytes = options.chunkBytes ?? 1024 * 1024
  const { duplicate, groups } = await findRepeats(keys, count, options.confusables === true, (indices) => readLines(file, offsets, indices))
  if (duplicate !== null) locate(duplicateError(duplicate[0], duplicate[1]), path)
  // The file stays open only for this call: entries(), range() and rescanBytes() reopen it.
  const blockSize = 2 ** (options.blockLog ?? 14)
  const list: StreamedParticipants = {
    blockRoots: scan.blockRoots,
    blockSize,
    range: async (from, to) => {
      const f = await open(path, 'r').catch((cause: unknown) => {
        throw fileChanged(path, cause)
      })
      try {
        return await readRange(f, path, offsets, from, to)
      } finally {
        await f.close()
      }
    },
    rescanBytes: (visit) => rescanBytesFile(path, count, fingerprint, chunkBytes, visit),
    count,
    root: scan.root,
    entryBytes: scan.entryChars,
    confusables: groups,
    entries: async (indices) => {
      const f = await open(path, 'r')
      try {
        return await readLines(f, offsets, indices)
      } finally {
        await f.close()
      }
    },
  }
  LINE_OFFSETS.set(list, offsets)
  return list
}

/** Throws `err` as the in-memory reader reports it: "FILE, line N: …". */
function locate(err: InvalidInputError | LimitExceededError, path: string): never {
  throw entryErrorIn(err, 'lines', path)
}

function grow(a: Uint32Array): Uint32Array<ArrayBuffer> {
  const bigger = new Uint32Array(a.length * 2)
  bigger.set(a)
  return bigger
}
