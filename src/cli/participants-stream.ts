/**
 * Streaming reader of a participants file of lines (one entry per line), for `orbitdraw commit` and
 * `orbitdraw draw` (`draw-stream.ts`): the participants digest is computed as the file is read, in
 * chunks, without ever holding the list. For `draw` it can also keep the root of every aligned block (the
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
 * duplicate). `test/cli/participants-stream.test.ts` checks the digest and every error against it.
 *
 * @module
 */
import { createHash, type Hash } from 'node:crypto'
import { open, type FileHandle } from 'node:fs/promises'
import { InvalidInputError, MismatchError, type LimitExceededError } from '../core/errors.js'
import { firstInvalidUtf8 } from '../core/json.js'
import { LIMITS } from '../core/limits.js'
import type { Worker } from 'node:worker_threads'
import { MerkleWordsBuilder } from '../core/merkle.js'
import { duplicateError, entryErrorAt, leafWords, listSizeError } from '../core/participants.js'
import type { OrganizerSecret } from '../core/secret.js'
import { skeleton, type ConfusableGroup } from '../confusables.js'
import { chunkRoots, startWorker, type HashJob } from '../node/parallel-hash.js'
import { entryErrorIn, MAX_PARTICIPANTS_FILE_BYTES } from './participants-file.js'

/** Options of {@link streamParticipantsFile}. */
export interface StreamParticipantsOptions {
  /** Salt the leaves with this secret (a private list), as `participantsRoot(list, { secret })`. */
  secret?: OrganizerSecret
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

/** What {@link streamParticipantsFile} found. */
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
   * @throws {@link MismatchError} `PARTICIPANTS_MISMATCH` when they are no longer `to - from` valid lines.
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
   * @throws {@link MismatchError} `PARTICIPANTS_MISMATCH` when the file changed since the first pass.
   */
  rescanBytes(visit: (chunk: Uint8Array, bounds: Int32Array, lines: number, first: number) => void | Promise<void>): Promise<void>
}

/** @internal Blocks hashed by the worker thread, and blocks it handed back unhashed (read by tests). */
export const streamStats = { workerBlocks: 0, workerFailures: 0 }

const INDEX_BITS = 26
const INDEX_MASK = (1 << INDEX_BITS) - 1
const NL = 0x0a
const UTF8_HINT = 'save the file as UTF-8; a file in Latin-1 or Windows-1252 converts with: iconv -f latin1 -t utf-8 FILE > FILE.utf8 (use -f cp1252 for Windows files)'

/**
 * Reads a participants file of lines as a stream (see the module comment). Throws exactly what
 * `readParticipants(path, { format: 'lines' })` throws for the same file.
 * @throws {@link InvalidInputError} (or `LimitExceededError`) with the reader's codes and messages.
 */
export async function streamParticipantsFile(path: string, options: StreamParticipantsOptions = {}): Promise<StreamedParticipants> {
  if ((2 ** INDEX_BITS) <= LIMITS.maxParticipants) throw new Error('participants-stream: the key has too few index bits for LIMITS.maxParticipants')
  let file: FileHandle
  let size: number
  try {
    file = await open(path, 'r')
    size = (await file.stat()).size
  } catch (cause) {
    throw new InvalidInputError('FILE_UNREADABLE', `cannot read participants file ${path}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`, 'check the path and permissions', { cause })
  }
  try {
    if (size > MAX_PARTICIPANTS_FILE_BYTES) {
      throw new InvalidInputError('FILE_TOO_LARGE', `participants file ${path} is ${size} bytes`, `files over ${MAX_PARTICIPANTS_FILE_BYTES} bytes are not read`)
    }
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
  const pipeline = new BlockPipeline(secret, options.blockLog ?? 14, (options.threads ?? 2) === 2 && size >= (options.parallelFromBytes ?? 1024 * 1024), options.steal ?? true, options.blockRoots === true)
  try {
    return await scanWith(file, size, path, options, pipeline, chunkBytes, decoder)
  } finally {
    pipeline.close()
  }
}

async function scanWith(file: FileHandle, size: number, path: string, options: StreamParticipantsOptions, pipeline: BlockPipeline, chunkBytes: number, decoder: TextDecoder): Promise<Scan> {
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
  for await (const { chunk, base, last } of lineChunks(file, Math.min(chunkBytes, size), hash)) {
    options.onProgress?.(base + chunk.length, size)
    let text: string
    try {
      text = decoder.decode(chunk, { stream: !last })
    } catch (cause) {
      const at = firstInvalidUtf8(chunk)
      let line = linesBefore + 1
      for (let i = 0; i < at; i++) if (chunk[i] === NL) line++
      const bad = base + at < size ? `byte 0x${chunk[at]!.toString(16).padStart(2, '0')}` : 'a truncated character at the end'
      throw new InvalidInputError('INVALID_UTF8', `participants file ${path} is not valid UTF-8: line ${line}, byte offset ${base + at} (${bad})`, UTF8_HINT, { path: `line ${line}`, cause })
    }
    // Byte offsets of the line starts in this chunk (the first line of the file starts at 0, its
    // byte order marks included: re-reading it applies the same rules).
    let lineStart = 0
    if (first) {
      first = false
      if (text.startsWith('\uFEFF')) text = text.slice(1) // a second byte order mark (the decoder ate one): not data
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

/** Number of lines in the file (its line breaks, plus one for a last line without one). */
async function countLines(file: FileHandle, size: number, chunkBytes: number): Promise<number> {
  const buf = new Uint8Array(Math.max(1, Math.min(size, Math.max(chunkBytes, 1 << 16))))
  let count = 0
  let last = NL
  for (let at = 0; at < size; ) {
    const { bytesRead } = await file.read(buf, 0, Math.min(buf.length, size - at), at)
    if (bytesRead === 0) break
    for (let i = 0; i < bytesRead; i++) if (buf[i] === NL) count++
    last = buf[bytesRead - 1]!
    at += bytesRead
  }
  return last === NL ? count : count + 1
}

/**
 * Reads `file` from its start in pieces of whole lines: each `chunk` ends just after a line break, or at
 * the end of the file (`last`); `base` is the chunk's offset in the file. A line longer than the buffer
 * grows it (only a broken file has lines that long). `hash`, when given, sees every byte once, in order.
 * A chunk is a view of the reader's buffer: it is valid until the loop asks for the next one.
 */
async function* lineChunks(file: FileHandle, bufferBytes: number, hash: Hash | null): AsyncGenerator<{ chunk: Uint8Array; base: number; last: boolean }> {
  let buf = new Uint8Array(Math.max(1, bufferBytes))
  let filled = 0 // bytes in buf not yet handed out (a line cut by the previous read)
  let base = 0 // file offset of buf[0]
  let eof = false
  while (!eof || filled > 0) {
    if (!eof) {
      if (filled === buf.length) {
        const bigger = new Uint8Array(buf.length * 2)
        bigger.set(buf)
        buf = bigger
      }
      const { bytesRead } = await file.read(buf, filled, buf.length - filled, base + filled)
      if (bytesRead === 0) eof = true
      hash?.update(buf.subarray(filled, filled + bytesRead))
      filled += bytesRead
    }
    // Up to the last newline (or everything at the end of the file).
    const end = eof ? filled : buf.lastIndexOf(NL, filled - 1) + 1
    if (end === 0) continue
    yield { chunk: buf.subarray(0, end), base, last: eof && end === filled }
    buf.copyWithin(0, end, filled)
    filled -= end
    base += end
  }
}

/** Byte index after the next newline at or after `from` in `chunk`. */
function nextLineStart(chunk: Uint8Array, from: number): number {
  const nl = chunk.indexOf(NL, from)
  return nl < 0 ? chunk.length : nl + 1
}

function grow(a: Uint32Array): Uint32Array<ArrayBuffer> {
  const bigger = new Uint32Array(a.length * 2)
  bigger.set(a)
  return bigger
}

/** Throws `err` as the in-memory reader reports it: "FILE, line N: …" (see `checkEntries`). */
function locate(err: InvalidInputError | LimitExceededError, path: string): never {
  throw entryErrorIn(err, 'lines', path)
}

/** The key of entry `g`: 38 bits of a hash of the string's UTF-16 units, then the 26-bit index. */
function entryHashInto(s: string, g: number, words: Uint32Array): void {
  let h1 = 0x811c9dc5
  let h2 = 0x01000193
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k)
    h1 = Math.imul(h1 ^ c, 0x01000193)
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15)
  }
  writeKey(h1, h2, g, words)
}

function writeKey(h1: number, h2: number, g: number, words: Uint32Array): void {
  h1 ^= h1 >>> 16
  h1 = Math.imul(h1, 0x85ebca6b)
  h1 ^= h1 >>> 13
  h2 ^= h2 >>> 16
  h2 = Math.imul(h2, 0xc2b2ae35)
  h2 ^= h2 >>> 16
  // Little-endian BigUint64 element g: low word at 2g, high word at 2g + 1.
  words[2 * g + 1] = h1 >>> 0
  words[2 * g] = (((h2 >>> 0) & ~INDEX_MASK) | g) >>> 0
}

/** Prototypes of the ASCII characters (UTS #39 skeleton of each), when every one is ASCII itself. */
let asciiSkeletons: string[] | null | undefined

function asciiTable(): string[] | null {
  if (asciiSkeletons !== undefined) return asciiSkeletons
  const table: string[] = []
  for (let c = 0; c < 128; c++) {
    const k = skeleton(String.fromCharCode(c))
    for (let i = 0; i < k.length; i++) if (k.charCodeAt(i) > 0x7f) return (asciiSkeletons = null)
    table.push(k)
  }
  return (asciiSkeletons = table)
}

/**
 * The key of entry `g` by its confusable skeleton: the same hash over the skeleton's UTF-16 units. An
 * ASCII entry's skeleton is the concatenation of its characters' skeletons (NFD leaves ASCII alone), so
 * it is hashed without building the string; any other entry goes through `skeleton()`.
 */
function skeletonHashInto(s: string, g: number, words: Uint32Array): void {
  const table = asciiTable()
  let ascii = table !== null
  if (ascii) {
    for (let k = 0; k < s.length; k++) {
      if (s.charCodeAt(k) > 0x7f) {
        ascii = false
        break
      }
    }
  }
  if (!ascii) {
    entryHashInto(skeleton(s), g, words)
    return
  }
  let h1 = 0x811c9dc5
  let h2 = 0x01000193
  for (let k = 0; k < s.length; k++) {
    const p = table![s.charCodeAt(k)]!
    for (let m = 0; m < p.length; m++) {
      const c = p.charCodeAt(m)
      h1 = Math.imul(h1 ^ c, 0x01000193)
      h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15)
    }
  }
  writeKey(h1, h2, g, words)
}

/** Sorts the keys, reads the candidates again, and finds the first duplicate and the look-alike groups. */
async function finish(file: FileHandle, path: string, scan: Scan, options: StreamParticipantsOptions): Promise<StreamedParticipants> {
  const { count, offsets, keys } = scan
  // (Not `scan` itself in the closures below: it holds the keys, garbage once sorted and compared.)
  const fingerprint = scan.fingerprint
  const chunkBytes = options.chunkBytes ?? 1024 * 1024
  keys.sort()
  const words = new Uint32Array(keys.buffer, keys.byteOffset, keys.length * 2)
  // Runs of keys whose 38 hash bits agree: the only entries that can be equal (or look alike).
  const candidates: number[][] = []
  for (let a = 0; a < count; ) {
    let b = a + 1
    const hi = words[2 * a + 1]!
    const lo = words[2 * a]! & ~INDEX_MASK
    while (b < count && words[2 * b + 1] === hi && (words[2 * b]! & ~INDEX_MASK) >>> 0 === lo >>> 0) b++
    if (b - a > 1) {
      const run: number[] = []
      for (let k = a; k < b; k++) run.push(words[2 * k]! & INDEX_MASK)
      candidates.push(run)
    }
    a = b
  }
  const read = (indices: readonly number[]): Promise<string[]> => readLines(file, offsets, indices)
  const all = [...new Set(candidates.flat())].sort((x, y) => x - y)
  const text = new Map<number, string>()
  const got = await read(all)
  all.forEach((g, k) => text.set(g, got[k]!))
  // Duplicates: the smallest later index j equal to an earlier entry, and that entry's first occurrence.
  let dup: [number, number] | null = null
  const groups: ConfusableGroup[] = []
  for (const run of candidates) {
    const firstOf = new Map<string, number>()
    for (const g of run) {
      const s = text.get(g)!
      const i = firstOf.get(s)
      if (i === undefined) firstOf.set(s, g)
      else if (dup === null || g < dup[1]) dup = [i, g]
    }
    if (options.confusables === true) {
      const bySkeleton = new Map<string, number[]>()
      for (const g of run) {
        const k = skeleton(text.get(g)!)
        const list = bySkeleton.get(k)
        if (list === undefined) bySkeleton.set(k, [g])
        else list.push(g)
      }
      for (const [k, indices] of bySkeleton) if (indices.length > 1) groups.push({ skeleton: k, indices: indices.sort((x, y) => x - y) })
    }
  }
  if (dup !== null) locate(duplicateError(dup[0], dup[1]), path)
  groups.sort((x, y) => x.indices[0]! - y.indices[0]!)
  // The file stays open only for this call: entries(), range() and rescanBytes() reopen it.
  const blockSize = 2 ** (options.blockLog ?? 14)
  return {
    blockRoots: scan.blockRoots,
    blockSize,
    range: async (from, to) => {
      const f = await open(path, 'r').catch((cause: unknown) => {
        throw changed(path, cause)
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
}

/** The error of a file that is no longer what the first pass read. */
function changed(path: string, cause?: unknown): MismatchError {
  return new MismatchError('PARTICIPANTS_MISMATCH', `participants file ${path} changed while it was being read for the draw`, 'leave the file alone until the draw is written, then run the draw again', cause === undefined ? {} : { cause })
}

/**
 * The second pass of {@link StreamedParticipants.rescanBytes}: the same chunks as the scan, each line's
 * bytes located without decoding (the file was valid UTF-8 then; the fingerprint says whether it still is
 * the same). Up to two byte order marks at the start are not data (the decoder drops one, the scan one more).
 */
function rescanBytesFile(path: string, count: number, fingerprint: string | null, chunkBytes: number, visit: (chunk: Uint8Array, bounds: Int32Array, lines: number, first: number) => void | Promise<void>): Promise<void> {
  let bounds = new Int32Array(2048)
  return readAgain(path, count, fingerprint, chunkBytes, async (chunk, atStart, final, first) => {
    let p = 0
    for (let k = 0; atStart && k < 2 && chunk[p] === 0xef && chunk[p + 1] === 0xbb && chunk[p + 2] === 0xbf; k++) p += 3
    let n = 0
    while (p < chunk.length) {
      let nl = chunk.indexOf(NL, p)
      if (nl < 0) {
        if (!final) throw changed(path) // a chunk ends at a newline except at the end of the file
        nl = chunk.length
      }
      const end = nl > p && chunk[nl - 1] === 0x0d ? nl - 1 : nl
      if (2 * n + 2 > bounds.length) {
        const bigger = new Int32Array(bounds.length * 2)
        bigger.set(bounds)
        bounds = bigger
      }
      bounds[2 * n] = p
      bounds[2 * n + 1] = end
      n++
      p = nl + 1
    }
    if (first + n > count) throw changed(path)
    if (n > 0) await visit(chunk, bounds, n, first)
    return n
  })
}

/**
 * Reads the file again in the scan's chunks (up to the last newline of each read), hashing its bytes;
 * `chunkLines` handles a chunk and returns its number of lines. At the end the count and the
 * fingerprint must be the first pass's.
 */
async function readAgain(path: string, count: number, fingerprint: string | null, chunkBytes: number, chunkLines: (chunk: Uint8Array, atStart: boolean, final: boolean, first: number) => Promise<number>): Promise<void> {
  let file: FileHandle
  try {
    file = await open(path, 'r')
  } catch (cause) {
    throw changed(path, cause)
  }
  try {
    const hash: Hash | null = fingerprint === null ? null : createHash('sha256')
    let index = 0
    for await (const { chunk, base, last } of lineChunks(file, chunkBytes, hash)) index += await chunkLines(chunk, base === 0, last, index)
    if (index !== count || (hash !== null && hash.digest('hex') !== fingerprint)) throw changed(path)
  } finally {
    await file.close()
  }
}

/** Entries `[from, to)` read again as one byte range, decoded and split by the same rules as the scan. */
async function readRange(file: FileHandle, path: string, offsets: Uint32Array, from: number, to: number): Promise<string[]> {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to < from || to > offsets.length - 1) throw new RangeError(`no entries ${from}..${to}`)
  const start = offsets[from]!
  const bytes = new Uint8Array(offsets[to]! - start)
  const { bytesRead } = await file.read(bytes, 0, bytes.length, start)
  let text: string
  try {
    if (bytesRead !== bytes.length) throw new RangeError('short read')
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: from !== 0 }).decode(bytes)
  } catch (cause) {
    throw changed(path, cause)
  }
  if (from === 0 && text.startsWith('\uFEFF')) text = text.slice(1)
  const lines = text.split(/\r?\n/)
  if (text.endsWith('\n')) lines.pop()
  else if (text === '') lines.length = 0
  if (lines.length !== to - from) throw changed(path)
  return lines
}

/** A hash from the 8 big-endian words the tree code uses. */
function hashOfWords(words: Int32Array): Uint8Array {
  const out = new Uint8Array(32)
  for (let k = 0; k < 8; k++) {
    const w = words[k]!
    out[4 * k] = w >>> 24
    out[4 * k + 1] = (w >>> 16) & 255
    out[4 * k + 2] = (w >>> 8) & 255
    out[4 * k + 3] = w & 255
  }
  return out
}

/** Entries `indices` read again from their byte ranges, decoded by the same rules as the scan. */
async function readLines(file: FileHandle, offsets: Uint32Array, indices: readonly number[]): Promise<string[]> {
  const out: string[] = []
  for (const g of indices) {
    if (!Number.isSafeInteger(g) || g < 0 || g >= offsets.length - 1) throw new RangeError(`no entry ${g}`)
    const start = offsets[g]!
    const bytes = new Uint8Array(offsets[g + 1]! - start)
    await file.read(bytes, 0, bytes.length, start)
    // Line 0 may begin with up to two byte order marks, dropped exactly as the scan dropped them.
    let s = new TextDecoder('utf-8', { fatal: true, ignoreBOM: g !== 0 }).decode(bytes)
    if (g === 0 && s.startsWith('\uFEFF')) s = s.slice(1)
    out.push(s.replace(/\r?\n$/, ''))
  }
  return out
}

/** Most blocks handed to the worker and not yet answered (bounds the memory held for it; replies are read between file reads). */
const MAX_IN_WORKER = 4

interface Block {
  readonly first: number
  lines: string[] | null
  root: Int32Array | null
}

/**
 * Hashes the list in aligned blocks of `2^blockLog` entries, in order: each block goes to the worker
 * thread unless it already has {@link MAX_IN_WORKER} blocks in hand, else it is hashed here (so the
 * split follows the two threads' actual speeds: this thread also reads, decodes and checks the entries); block roots enter the
 * compact range in list order (a block's root is the tree's node over it: RFC 9162 trees built
 * bottom-up have every aligned block as a subtree), and the last, partial block goes in leaf by leaf.
 * A worker that fails is replaced by this thread: the digest never depends on threads.
 */
class BlockPipeline {
  readonly blockSize: number
  /** With `keepRoots`: the roots of the blocks taken into the tree so far, in list order (the last, partial one too once finished). */
  readonly roots: Int32Array[] | null
  readonly #builder = new MerkleWordsBuilder()
  readonly #secret: OrganizerSecret | null
  readonly #blockLog: number
  readonly #queue: Block[] = []
  readonly #replies: { block: Block; settle: (roots: Int32Array | null) => void }[] = []
  readonly #pending: Promise<void>[] = []
  readonly #steal: boolean
  #worker: Worker | null
  #secretBytes: Uint8Array | null = null

  constructor(secret: OrganizerSecret | null, blockLog: number, threads: boolean, steal: boolean, keepRoots = false) {
    this.roots = keepRoots ? [] : null
    this.#secret = secret
    this.#steal = steal
    this.#blockLog = blockLog
    this.blockSize = 2 ** blockLog
    this.#worker = threads ? startWorker() : null
    this.#worker?.on('message', (roots: Int32Array) => this.#replies.shift()?.settle(roots))
    const fail = (): void => {
      this.#worker = null
      for (const r of this.#replies.splice(0)) r.settle(null)
    }
    this.#worker?.on('error', fail)
    this.#worker?.on('exit', fail)
  }

  /** Hands over the next block (exactly `blockSize` entries, starting at list position `first`). */
  push(lines: string[], first: number): void {
    const block: Block = { first, lines, root: null }
    this.#queue.push(block)
    if (this.#worker !== null && this.#replies.length < MAX_IN_WORKER) {
      this.#secretBytes ??= this.#secret === null ? null : this.#secret.exportBytes()
      const job: HashJob = { entries: lines.join('\n'), weights: null, secret: this.#secretBytes === null ? null : this.#secretBytes.slice(), salts: null, firstIndex: first, chunk: this.blockSize }
      this.#pending.push(
        new Promise<void>((resolve) => {
          this.#replies.push({
            block,
            settle: (roots) => {
              const ok = roots !== null && roots.length === 8
              if (block.root === null) {
                // (Not already hashed here at the end, see finish.)
                if (ok) streamStats.workerBlocks++
                else streamStats.workerFailures++
                block.root = ok ? roots : this.#hashHere(block)
              }
              resolve()
            },
          })
        }),
      )
      this.#worker.postMessage(job)
    } else {
      block.root = this.#hashHere(block)
    }
    this.#drain()
  }

  /** The digest, once every block is in: `tail` holds the last entries (fewer than a block). */
  async finish(tail: string[], first: number): Promise<Uint8Array> {
    // This thread is done reading: rather than wait, it hashes the blocks still queued for the worker,
    // from the last one back, while the worker answers from the first (whichever hashes a block first wins).
    for (let k = this.#queue.length - 1; k >= 0 && this.#steal; k--) {
      const b = this.#queue[k]!
      if (b.root !== null) continue
      await new Promise((resolve) => setImmediate(resolve)) // take the worker's answers in between
      if (b.root === null) b.root = this.#hashHere(b)
    }
    await Promise.all(this.#pending)
    this.#drain()
    if (this.#queue.length > 0) throw new Error('participants-stream: a block was not hashed')
    if (tail.length > 0) {
      const words = leafWords(tail, null, this.#secret, first)
      this.#builder.addLeafWords(words, 0, tail.length)
      // The last, partial block is a node of the tree too.
      if (this.roots !== null) this.roots.push(chunkRoots(words, tail.length, this.blockSize))
    }
    return this.#builder.root()
  }

  close(): void {
    const w = this.#worker
    this.#worker = null
    this.#secretBytes?.fill(0)
    if (w !== null) void w.terminate()
  }

  #hashHere(block: Block): Int32Array {
    const lines = block.lines!
    return chunkRoots(leafWords(lines, null, this.#secret, block.first), lines.length, this.blockSize)
  }

  #drain(): void {
    while (this.#queue.length > 0 && this.#queue[0]!.root !== null) {
      const b = this.#queue.shift()!
      this.#builder.addSubtreeWords(b.root!, 0, this.#blockLog)
      this.roots?.push(b.root!)
      b.lines = null
    }
  }
}
