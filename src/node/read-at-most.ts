/**
 * Reading a whole input file with a bound that holds for any kind of file: a regular file states its
 * size, but a device (`/dev/zero`), a pipe or a FIFO (`-p <(generate)`) states 0 and may never end. The
 * readers that take a file whole (the CLI's participants JSON and CSV, the sortition and stages CSVs, a
 * credentials file) read through this, so such a file costs at most its bound and is refused by size.
 * (`readFile` read `/dev/zero` until memory ran out: 2.7 GB in 20 s, and the command did not stop at a
 * SIGTERM.) The caller refuses a file over its bound by size (`FILE_TOO_LARGE`).
 *
 * @module
 */
import { open } from 'node:fs/promises'
import { concatBytes } from '../core/bytes.js'
import { InvalidInputError } from '../core/errors.js'
import { decodeUtf8 } from './utf8-text.js'

/**
 * The bytes of the file at `path`, or `undefined` when it holds more than `maxBytes` (then at most
 * `maxBytes` + 64 KiB of it were read, and none of it kept). A regular file over the bound is refused by
 * its size before any read; one within it is read into one buffer of its size, and any more bytes (a
 * file that grew, a pipe, a device) in pieces, joined once at the end.
 * @throws the file system's errors (`ENOENT`, `EACCES`, `EISDIR`…), for the caller to name.
 */
export async function readFileAtMost(path: string, maxBytes: number): Promise<Uint8Array | undefined> {
  const file = await open(path, 'r')
  try {
    const stat = await file.stat()
    if (stat.isFile() && stat.size > maxBytes) return undefined
    const pieces: Uint8Array[] = []
    let total = 0
    let piece = new Uint8Array(stat.isFile() ? stat.size + 1 : PIECE_BYTES)
    let filled = 0
    for (;;) {
      const { bytesRead } = await file.read(piece, filled, piece.length - filled, null)
      if (bytesRead === 0) break
      filled += bytesRead
      if (total + filled > maxBytes) return undefined
      if (filled === piece.length) {
        pieces.push(piece)
        total += filled
        piece = new Uint8Array(PIECE_BYTES)
        filled = 0
      }
    }
    pieces.push(piece.subarray(0, filled))
    return pieces.length === 1 ? pieces[0] : concatBytes(...pieces)
  } finally {
    await file.close()
  }
}

/**
 * A whole text file, read with {@link readFileAtMost} and decoded as strict UTF-8: the readers of
 * participants, sortition and stages files. `name` is how messages name it (`participants file a.txt`).
 * @throws {@link InvalidInputError} `FILE_UNREADABLE` (the file system's error code), `FILE_TOO_LARGE`
 *   (over `maxBytes`), `INVALID_UTF8` (with the line and byte offset).
 */
export async function readTextFileAtMost(path: string, maxBytes: number, name = path): Promise<string> {
  let bytes: Uint8Array | undefined
  try {
    bytes = await readFileAtMost(path, maxBytes)
  } catch (cause) {
    throw new InvalidInputError('FILE_UNREADABLE', `cannot read ${name}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`, 'check the path and permissions', { cause })
  }
  if (bytes === undefined) throw new InvalidInputError('FILE_TOO_LARGE', `${name} is over ${maxBytes} bytes`, `files over ${maxBytes} bytes are not read`)
  return decodeUtf8(bytes, name)
}

/** Bytes read at a time past a file's stated size. */
const PIECE_BYTES = 64 * 1024
