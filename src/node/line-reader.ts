/**
 * Reading a participants file of lines by bytes, for the streaming reader (`participants-stream.ts`):
 * the file in pieces of whole lines, its lines counted, read again (whole, by byte ranges, or by line
 * offsets), each time with the first pass's rules (byte order marks, CRLF) and, where the first pass
 * kept one, a check that the file is still the one it read.
 *
 * @module
 */
import { createHash, type Hash } from 'node:crypto'
import { open, type FileHandle } from 'node:fs/promises'
import { LIMITS } from '../core/limits.js'
import { fileChanged } from './file-errors.js'

const NL = 0x0a

/**
 * Called by `StreamedParticipants.rescanBytes` with each chunk's bytes and its lines: line `k`'s UTF-8 bytes (no
 * line end, no byte order mark) are `chunk[bounds[2k] .. bounds[2k + 1])`, for `k < lines`; `first` is
 * the list position of line 0. `chunk` and `bounds` are reused afterwards.
 * @category Node
 */
export type LinesVisitor = (chunk: Uint8Array, bounds: Int32Array, lines: number, first: number) => void | Promise<void>

/** Number of lines in the file (its line breaks, plus one for a last line without one). */
export async function countLines(file: FileHandle, size: number, chunkBytes: number): Promise<number> {
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
 * The bound {@link lineChunks} gets from every participants reader: the longest line (its bytes before the
 * line feed) whose entry can still be within `LIMITS.maxEntryBytes` UTF-16 code units, the length the
 * core checks first (3 bytes a unit, plus a carriage return, plus the two byte order marks the first line
 * may start with). A longer line has an entry over the limit whatever else it holds.
 */
export const MAX_ENTRY_LINE_BYTES = 3 * LIMITS.maxEntryBytes + 1 + 6

/** What {@link lineChunks} hands out. */
export interface LineChunk {
  /** Whole lines, or with `long` a piece of one line. A view of the reader's buffer. */
  chunk: Uint8Array
  /** The chunk's offset in the file. */
  base: number
  /** The chunk ends at the end of the file. */
  last: boolean
  /**
   * The chunk is a piece of a line over the bound, in order: it holds no line break but as its last byte,
   * which ends the line (as the end of the file does: `last`, the piece empty when the line's bytes were all
   * handed out before the reader found the end). A piece that does not end the line ends before an
   * unfinished UTF-8 sequence (at most 3 bytes, handed out with the next piece), so each piece of a valid
   * line decodes on its own and an invalid one fails at its own byte.
   */
  long: boolean
}

/**
 * Reads `file` from its start in pieces of whole lines: each `chunk` ends just after a line break, or at
 * the end of the file (`last`); `base` is the chunk's offset in the file. A line longer than the buffer
 * grows it up to `maxLineBytes` + 1 bytes, never further: a line still unfinished past `maxLineBytes`
 * bytes (line feed not counted) is handed out in buffer-sized pieces (`long`) and never held whole. Any
 * line the buffer holds whole comes whole, whatever its length. `hash`, when given, sees every byte once,
 * in order. A chunk is a view of the reader's buffer: it is valid until the loop asks for the next one.
 */
export async function* lineChunks(file: FileHandle, bufferBytes: number, maxLineBytes: number, hash: Hash | null): AsyncGenerator<LineChunk> {
  let buf = new Uint8Array(Math.max(1, bufferBytes))
  let filled = 0 // bytes in buf not yet handed out (a line cut by the previous read)
  let base = 0 // file offset of buf[0]
  let eof = false
  let long = false // buf[0] is inside a line over maxLineBytes, whose pieces are being handed out
  const grow = (): void => {
    const bigger = new Uint8Array(Math.min(buf.length * 2, Math.max(buf.length + 1, maxLineBytes + 1, 4)))
    bigger.set(buf)
    buf = bigger
  }
  while (!eof || filled > 0) {
    if (!eof && filled < buf.length) {
      const { bytesRead } = await file.read(buf, filled, buf.length - filled, base + filled)
      if (bytesRead === 0) eof = true
      hash?.update(buf.subarray(filled, filled + bytesRead))
      filled += bytesRead
    }
    let end: number
    const piece = long
    if (long) {
      // The line's next piece: up to its line break, or the end of the file, or a full buffer.
      const nl = buf.subarray(0, filled).indexOf(NL)
      if (nl >= 0) end = nl + 1
      else if (eof) end = filled
      else if (filled < buf.length) continue
      else end = characterEnd(buf, filled)
      if (end === 0) {
        grow() // a buffer of fewer than 4 bytes, all of one unfinished character
        continue
      }
      if (nl >= 0) long = false
    } else {
      // Up to the last newline (or everything at the end of the file).
      end = eof ? filled : buf.lastIndexOf(NL, filled - 1) + 1
      if (end === 0) {
        // The buffer holds one unfinished line: more room for it, or its pieces once over the bound.
        if (filled > maxLineBytes) long = true
        else if (filled === buf.length) grow()
        continue
      }
    }
    yield { chunk: buf.subarray(0, end), base, last: eof && end === filled, long: piece }
    buf.copyWithin(0, end, filled)
    filled -= end
    base += end
  }
  // A long line whose last piece filled the buffer exactly up to the end of the file: its end, empty.
  if (long) yield { chunk: buf.subarray(0, 0), base, last: true, long: true }
}

/**
 * Where a piece of `bytes[0 .. end)` may end without cutting a UTF-8 sequence: before the lead byte of
 * the last sequence when its bytes run past `end`, else `end`. Continuation bytes are looked for at most
 * 3 back; bytes that are no valid UTF-8 are left to the decoder, which fails at the same byte either way.
 */
function characterEnd(bytes: Uint8Array, end: number): number {
  let i = end - 1
  while (i > end - 4 && i >= 0 && (bytes[i]! & 0xc0) === 0x80) i--
  if (i < 0) return end
  const b = bytes[i]!
  const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1
  return i + length > end ? i : end
}

/** Byte index after the next newline at or after `from` in `chunk`. */
export function nextLineStart(chunk: Uint8Array, from: number): number {
  const nl = chunk.indexOf(NL, from)
  return nl < 0 ? chunk.length : nl + 1
}

/**
 * The second pass of `StreamedParticipants.rescanBytes`: the same chunks as the scan, each line's
 * bytes located without decoding (the file was valid UTF-8 then; the fingerprint says whether it still is
 * the same). Up to two byte order marks at the start are not data (the decoder drops one, the scan one more).
 */
export function rescanBytesFile(path: string, count: number, fingerprint: string | null, chunkBytes: number, visit: LinesVisitor): Promise<void> {
  let bounds = new Int32Array(2048)
  return readAgain(path, count, fingerprint, chunkBytes, async (chunk, atStart, final, first) => {
    let p = 0
    for (let k = 0; atStart && k < 2 && chunk[p] === 0xef && chunk[p + 1] === 0xbb && chunk[p + 2] === 0xbf; k++) p += 3
    let n = 0
    while (p < chunk.length) {
      let nl = chunk.indexOf(NL, p)
      if (nl < 0) {
        if (!final) throw fileChanged(path) // a chunk ends at a newline except at the end of the file
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
    if (first + n > count) throw fileChanged(path)
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
    throw fileChanged(path, cause)
  }
  try {
    const hash: Hash | null = fingerprint === null ? null : createHash('sha256')
    let index = 0
    for await (const { chunk, base, last, long } of lineChunks(file, chunkBytes, MAX_ENTRY_LINE_BYTES, hash)) {
      if (long) throw fileChanged(path) // the first pass refuses such a line: a valid file has none
      index += await chunkLines(chunk, base === 0, last, index)
    }
    if (index !== count || (hash !== null && hash.digest('hex') !== fingerprint)) throw fileChanged(path)
  } finally {
    await file.close()
  }
}

/** Entries `[from, to)` read again as one byte range, decoded and split by the same rules as the scan. */
export async function readRange(file: FileHandle, path: string, offsets: Uint32Array, from: number, to: number): Promise<string[]> {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to < from || to > offsets.length - 1) throw new RangeError(`no entries ${from}..${to}`)
  const start = offsets[from]!
  const bytes = new Uint8Array(offsets[to]! - start)
  const { bytesRead } = await file.read(bytes, 0, bytes.length, start)
  let text: string
  try {
    if (bytesRead !== bytes.length) throw new RangeError('short read')
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: from !== 0 }).decode(bytes)
  } catch (cause) {
    throw fileChanged(path, cause)
  }
  if (from === 0 && text.startsWith('\uFEFF')) text = text.slice(1)
  const lines = text.split(/\r?\n/)
  if (text.endsWith('\n')) lines.pop()
  else if (text === '') lines.length = 0
  if (lines.length !== to - from) throw fileChanged(path)
  return lines
}

/** Entries `indices` read again from their byte ranges, decoded by the same rules as the scan. */
export async function readLines(file: FileHandle, offsets: Uint32Array, indices: readonly number[]): Promise<string[]> {
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
