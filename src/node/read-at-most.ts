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

/** Bytes read at a time past a file's stated size. */
const PIECE_BYTES = 64 * 1024
