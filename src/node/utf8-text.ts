/**
 * Strict UTF-8 decoding of a text file read by an edge (the CLI's participants files, the sortition CSV
 * readers): the one place that turns bad bytes into an error naming the line and byte offset. Kept out of
 * `src/cli/` so the library's readers do not load (or ship) the command-line code.
 *
 * @module
 */
import { firstInvalidUtf8 } from '../core/json.js'
import { InvalidInputError } from '../core/errors.js'
import { utf8HintFor } from './file-errors.js'

/**
 * Strict UTF-8 decoding of a file's bytes. Invalid bytes are an error naming the line (1-based) and the
 * byte offset (0-based, in the file) of the first bad byte, with the usual fix for a file saved in
 * Latin-1 or Windows-1252 (or in UTF-16, when it starts with a UTF-16 byte order mark).
 * @param name - how messages name the input (`participants file names.txt`, `standard input`).
 * @throws `InvalidInputError` `INVALID_UTF8`.
 */
export function decodeUtf8(bytes: Uint8Array, name: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch (cause) {
    const at = firstInvalidUtf8(bytes)
    let line = 1
    for (let i = 0; i < at; i++) if (bytes[i] === 0x0a) line++
    const bad = at < bytes.length ? `byte 0x${bytes[at]!.toString(16).padStart(2, '0')}` : 'a truncated character at the end'
    throw new InvalidInputError('INVALID_UTF8', `${name} is not valid UTF-8: line ${line}, byte offset ${at} (${bad})`, utf8HintFor(bytes), { path: `line ${line}`, cause })
  }
}
