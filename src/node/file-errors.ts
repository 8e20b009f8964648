/**
 * The errors of a participants file read from disk, shared by the streaming reader (`participants-stream.ts`)
 * and the CLI's in-memory reader (`cli/participants-file.ts`): an entry error located by its line, row or
 * index in the file, invalid UTF-8 located by line and byte offset, and a file that changed between passes.
 *
 * @module
 */
import { open, type FileHandle } from 'node:fs/promises'
import { InvalidInputError, LimitExceededError, MismatchError, type OrbitdrawError } from '../core/errors.js'
import type { InvalidInputErrorCode } from '../core/error-codes.js'

/**
 * Largest participants file read, in bytes.
 * @category Node
 */
export const MAX_PARTICIPANTS_FILE_BYTES = 512 * 1024 * 1024

/**
 * Largest row of a participants CSV: its fields' UTF-8 bytes together, quotes and commas not counted
 * (csv-parse's `max_record_size`). A row holds one entry (at most `maxEntryBytes`, 1,024 bytes), its
 * weight and any other columns: 1 MiB leaves room for long notes, and a row over
 * it is refused as it is read, before its field is built whole (a 400 MB one cost 941 MB and 105 s).
 * @category Node
 */
export const MAX_CSV_ROW_BYTES = 1024 * 1024

/**
 * csv-parse's `max_record_size` that refuses exactly the rows over `maxBytes`: it checks before it adds
 * a byte, so it lets a row reach one byte more than the option (csv-parse 7.0.3, measured; pinned by the
 * readers' tests at both sides of the bound).
 */
export function csvMaxRecordSize(maxBytes: number): number {
  return maxBytes - 1
}

/**
 * csv-parse's error for a row over `maxBytes` (`CSV_MAX_RECORD_SIZE`, given
 * {@link csvMaxRecordSize}) as `LIMIT_EXCEEDED` naming its row (counted from the header, row 1) and
 * the limit `limitName`; `undefined` for its other errors. `name` is the file's, when the message
 * should name it.
 */
export function csvRowTooLong(cause: unknown, maxBytes: number, limitName: string, name?: string): LimitExceededError | undefined {
  const c = cause as { code?: unknown; records?: unknown }
  if (c.code !== 'CSV_MAX_RECORD_SIZE') return undefined
  const where = typeof c.records === 'number' ? `row ${c.records + 1}` : undefined
  // The parser's error holds the value read so far: not kept as the cause (a private list's data).
  return new LimitExceededError('LIMIT_EXCEEDED', `${name === undefined ? '' : `${name}, `}${where ?? 'a row'}: over ${maxBytes.toLocaleString('en-US')} bytes, the limit ${limitName}; not read further`, 'check the quoting (an unclosed quote makes the rest of the file one value); a value is at most 1,024 bytes of UTF-8', { path: where ?? '$' })
}

/**
 * A csv-parse error as a participants reader reports it: a row over {@link MAX_CSV_ROW_BYTES} as
 * `LIMIT_EXCEEDED` ({@link csvRowTooLong}), any other as `INVALID_CSV`; `name` is the file's, when the
 * message should name it.
 */
export function csvParseError(cause: unknown, name?: string): InvalidInputError | LimitExceededError {
  return csvRowTooLong(cause, MAX_CSV_ROW_BYTES, 'MAX_CSV_ROW_BYTES', name) ?? new InvalidInputError('INVALID_CSV', `${name === undefined ? '' : `${name}: `}participants CSV cannot be parsed: ${(cause as Error).message}`, 'fix the quoting or the number of columns on the reported line', { cause })
}

/** How a participants file is laid out: one entry per line, a CSV column, or a JSON array. */
export type ParticipantsFormat = 'lines' | 'csv' | 'json'

/** The usual fix for a file that is not UTF-8. */
export const UTF8_HINT = 'save the file as UTF-8; a file in Latin-1 or Windows-1252 converts with: iconv -f latin1 -t utf-8 FILE > FILE.utf8 (use -f cp1252 for Windows files)'

/** The fix for a file saved as UTF-16 (what Windows tools call "Unicode"), which the Latin-1 advice would garble. */
export const UTF16_HINT = 'the file is UTF-16 (it starts with a UTF-16 byte order mark, FF FE or FE FF): save it as UTF-8, or convert it with: iconv -f utf-16 -t utf-8 FILE > FILE.utf8'

/** The hint for a file that is not UTF-8, from its first bytes: {@link UTF16_HINT} when they are a UTF-16 byte order mark, else {@link UTF8_HINT}. */
export function utf8HintFor(start: Uint8Array): string {
  return start.length >= 2 && ((start[0] === 0xff && start[1] === 0xfe) || (start[0] === 0xfe && start[1] === 0xff)) ? UTF16_HINT : UTF8_HINT
}

/**
 * A core entry error (path `$[i]`) as a file reader reports it: by its line (lines), row (CSV) or index
 * (JSON) in the file named `name`.
 */
export function entryErrorIn(err: OrbitdrawError, format: ParticipantsFormat, name: string): InvalidInputError {
  const m = /^\$\[([0-9]+)\]/.exec(err.path ?? '')
  const where = m === null ? undefined : format === 'lines' ? `line ${Number(m[1]) + 1}` : format === 'csv' ? `row ${Number(m[1]) + 2}` : `$[${m[1]}]`
  // Index references inside the detail ("entry 4 is identical to entry 2 ($[2])") are renumbered the
  // same way; the prefix already names the broken line, so it is not said twice.
  const detail = err.detail.replace(/entry ([0-9]+) is identical to entry ([0-9]+) \(\$\[[0-9]+\][^)]*\)/, (_all, j: string, i: string) => {
    const at = (k: string): string => (format === 'lines' ? `line ${Number(k) + 1}` : format === 'csv' ? `row ${Number(k) + 2}` : `$[${k}]`)
    return `identical to ${at(i)}`
  })
  // The code is the core entry error's own (an InvalidInputError's, or LIMIT_EXCEEDED, listed there too): kept as is.
  return new InvalidInputError(err.code as InvalidInputErrorCode, `${name}${where === undefined ? '' : `, ${where}`}: ${detail}`, err.hint, { path: where ?? err.path ?? '$', cause: err })
}

/** The error of a file that is no longer what the first pass read. */
export function fileChanged(path: string, cause?: unknown): MismatchError {
  return new MismatchError('PARTICIPANTS_MISMATCH', `participants file ${path} changed while it was being read for the draw`, 'leave the file alone until the draw is written, then run the draw again', cause === undefined ? {} : { cause })
}

/**
 * Opens a participants file for a streamed read: its handle and size, or `FILE_UNREADABLE` naming the
 * path. Only a regular file: a streamed read goes over the file more than once, by offsets, and a pipe
 * or a device states no size (`/dev/zero` was read a byte at a time, for ever).
 */
export async function openParticipantsFile(path: string): Promise<{ file: FileHandle; size: number }> {
  let opened: { file: FileHandle; size: number; regular: boolean }
  try {
    const file = await open(path, 'r')
    try {
      const stat = await file.stat()
      opened = { file, size: stat.size, regular: stat.isFile() }
    } catch (cause) {
      await file.close()
      throw cause
    }
  } catch (cause) {
    throw new InvalidInputError('FILE_UNREADABLE', `cannot read participants file ${path}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`, 'check the path and permissions', { cause })
  }
  if (!opened.regular) {
    await opened.file.close()
    throw new InvalidInputError('FILE_UNREADABLE', `participants file ${path} is not a regular file (a pipe or a device): it is read as a stream, more than once`, 'save the list to a file first, or pass it on standard input (-p -), which is read whole')
  }
  return { file: opened.file, size: opened.size }
}

/** `FILE_TOO_LARGE` for a participants file over {@link MAX_PARTICIPANTS_FILE_BYTES} (by its size, or once read past it: a file that grew). */
export function participantsFileTooLarge(path: string): InvalidInputError {
  return new InvalidInputError('FILE_TOO_LARGE', `participants file ${path} is over ${MAX_PARTICIPANTS_FILE_BYTES} bytes`, `files over ${MAX_PARTICIPANTS_FILE_BYTES} bytes are not read`)
}
