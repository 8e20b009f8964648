/**
 * The files of a follow-up draw (`commit --replacing PROOF --dropped IDS [--pool-list FILE]`, `draw
 * --original PROOF`), read strictly as bytes: a proof as `verify` reads one, a list of one item per line
 * as a participants file of lines. Its own module, so that `draw` does not load the sortition readers.
 *
 * @module
 */
import { InvalidInputError } from '../core/errors.js'
import { LIMITS } from '../core/limits.js'
import { readProofJson } from '../core/proof.js'
import { MAX_PARTICIPANTS_FILE_BYTES } from '../node/file-errors.js'
import { decodeUtf8 } from '../node/utf8-text.js'
import { readBytesInput } from './read-bytes.js'

/**
 * A proof given as a file (`commit --replacing PROOF`, `draw --original PROOF`): its bytes, read as
 * `verify` reads them (at most `maxProofBytes` + 1, strict UTF-8, no byte order mark, no duplicate keys).
 * @throws `InvalidInputError` `FILE_UNREADABLE`, `ParseError` (`INVALID_JSON`, `PROOF_TOO_LARGE`, …): exit 4.
 */
export async function readProofFile(path: string): Promise<unknown> {
  return readProofJson(await readBytesInput(path, 'proof', LIMITS.maxProofBytes))
}

/**
 * A file of one item per line (`--dropped IDS`, `--pool-list FILE`): strict UTF-8, an optional byte
 * order mark, LF or CRLF, a final newline optional. A blank line is refused with its number, as in a
 * participants file: nothing is skipped or fixed up.
 * @throws `InvalidInputError` `FILE_UNREADABLE`, `FILE_TOO_LARGE`, `INVALID_UTF8`, `ENTRY_EMPTY` (exit 4).
 */
export async function readTextLines(path: string): Promise<string[]> {
  const bytes = await readBytesInput(path, 'file', MAX_PARTICIPANTS_FILE_BYTES)
  if (bytes.length > MAX_PARTICIPANTS_FILE_BYTES) throw new InvalidInputError('FILE_TOO_LARGE', `${path} is over ${MAX_PARTICIPANTS_FILE_BYTES} bytes`, `files over ${MAX_PARTICIPANTS_FILE_BYTES} bytes are not read`)
  let text = decodeUtf8(bytes, path)
  if (text.startsWith('\uFEFF')) text = text.slice(1) // a UTF-8 byte order mark is not data
  const lines = text.split(/\r?\n/)
  if (lines[lines.length - 1] === '') lines.pop()
  const blank = lines.indexOf('')
  if (blank >= 0) throw new InvalidInputError('ENTRY_EMPTY', `${path}, line ${blank + 1} is empty`, 'remove blank lines: every line is one item', { path: `line ${blank + 1}` })
  return lines
}
