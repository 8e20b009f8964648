/**
 * Reads participants for the CLI: one entry per line, a CSV column, or a JSON array. Nothing is
 * trimmed or fixed up: entries that break the rules are reported with their line or row.
 *
 * @module
 */
import { createRequire } from 'node:module'
import { LimitExceededError, OrbitdrawError } from '../core/errors.js'
import { parseJsonText } from '../core/json.js'
import type { WeightedEntry } from '../core/participants.js'
import { validateWeightedEntries } from '../core/participants.js'
import { validateEntries } from '../core/participants.js'
import { InvalidInputError } from '../errors.js'
import { readTextFileAtMost } from '../node/read-at-most.js'
import { decodeUtf8 } from '../node/utf8-text.js'
import { csvParseError, entryErrorIn, csvMaxRecordSize, MAX_CSV_ROW_BYTES, MAX_PARTICIPANTS_FILE_BYTES, type ParticipantsFormat } from '../node/file-errors.js'

export type { ParticipantsFormat }

/** Options for {@link readParticipants}. */
export interface ReadParticipantsOptions {
  /** Layout; default from the extension (`.csv`, `.json`, anything else: lines). */
  format?: ParticipantsFormat
  /** CSV: the column holding the entries (header name or 1-based number). Default: the first. */
  column?: string
  /** CSV: the column holding integer weights (makes the list weighted). */
  weightColumn?: string
  /** Reads standard input when the path is `-`. */
  stdin?: () => Promise<string>
}

export { MAX_PARTICIPANTS_FILE_BYTES }

/** Reads and parses a participants file (`-` for standard input). */
export async function readParticipants(path: string, options: ReadParticipantsOptions = {}): Promise<string[] | WeightedEntry[]> {
  const text = path === '-' ? await (options.stdin ?? readStdin)() : await readText(path)
  const format = options.format ?? (path.endsWith('.csv') ? 'csv' : path.endsWith('.json') ? 'json' : 'lines')
  const name = path === '-' ? 'standard input' : path
  let list: string[] | WeightedEntry[]
  try {
    list = parseParticipants(text, format, options)
  } catch (err) {
    if (err instanceof InvalidInputError && !err.detail.startsWith(name)) throw new InvalidInputError(err.code, `${name}: ${err.detail}`, err.hint, { cause: err, ...(err.path === undefined ? {} : { path: err.path }) })
    throw err
  }
  checkEntries(list, format, name)
  return list
}

/**
 * Applies the core's entry rules (no edge whitespace, no control characters, no duplicates, limits)
 * and reports a broken entry by its line (lines), row (CSV) or index (JSON) in the file.
 */
export function checkEntries(list: string[] | WeightedEntry[], format: ParticipantsFormat, name: string): void {
  try {
    if (list.length > 0 && typeof list[0] === 'object') validateWeightedEntries(list as WeightedEntry[])
    else validateEntries(list as string[])
  } catch (err) {
    if (!(err instanceof OrbitdrawError)) throw err
    throw entryErrorIn(err, format, name)
  }
}

function readText(path: string): Promise<string> {
  return readTextFileAtMost(path, MAX_PARTICIPANTS_FILE_BYTES, `participants file ${path}`)
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  let total = 0
  for await (const c of process.stdin) {
    total += (c as Buffer).length
    if (total > MAX_PARTICIPANTS_FILE_BYTES) throw new InvalidInputError('FILE_TOO_LARGE', 'standard input is too large', `send at most ${MAX_PARTICIPANTS_FILE_BYTES} bytes`)
    chunks.push(c as Buffer)
  }
  return decodeUtf8(Buffer.concat(chunks), 'standard input')
}

/** Parses participants text in the given format. Exported for tests and tools. */
export function parseParticipants(text: string, format: ParticipantsFormat, options: Pick<ReadParticipantsOptions, 'column' | 'weightColumn'> = {}): string[] | WeightedEntry[] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text // a UTF-8 byte order mark is not data
  switch (format) {
    case 'lines':
      return parseLines(body)
    case 'json':
      return parseJsonList(body)
    case 'csv':
      return parseCsvList(body, options)
    default:
      throw new InvalidInputError('INVALID_FORMAT', `unknown participants format ${JSON.stringify(format)}`, 'use lines, csv or json')
  }
}

function parseLines(text: string): string[] {
  const lines = text.split(/\r?\n/)
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  lines.forEach((l, i) => {
    if (l === '') throw new InvalidInputError('ENTRY_EMPTY', `line ${i + 1} is empty`, 'remove blank lines: every line is one entry', { path: `line ${i + 1}` })
  })
  return lines
}

function parseJsonList(text: string): string[] | WeightedEntry[] {
  let v: unknown
  try {
    // The core's reader: nesting bounded before parsing (100 MB of nested brackets cost JSON.parse 52 s
    // and 4.9 GB), duplicate keys refused (an object's "entry" given twice: the last one won silently).
    v = parseJsonText(text, 'participants file')
  } catch (err) {
    if (err instanceof OrbitdrawError && err.code === 'JSON_TOO_DEEP') throw new LimitExceededError('JSON_TOO_DEEP', err.detail, 'a participants file is an array of strings, or of { "entry", "weight" } objects: two levels deep', { path: '$' })
    if (!(err instanceof OrbitdrawError) || err.code !== 'INVALID_JSON') throw err
    throw new InvalidInputError('INVALID_JSON', err.detail, 'supply a JSON array of strings or of { "entry", "weight" } objects', { cause: err.cause })
  }
  if (!Array.isArray(v)) throw new InvalidInputError('INVALID_JSON', 'participants JSON must be an array', 'supply a JSON array of strings or of { "entry", "weight" } objects', { path: '$' })
  if (v.every((x) => typeof x === 'string')) return v as string[]
  return v.map((x: unknown, i) => {
    const o = x as { entry?: unknown; weight?: unknown }
    if (typeof x !== 'object' || x === null || typeof o.entry !== 'string' || typeof o.weight !== 'number' || Object.keys(x).some((k) => k !== 'entry' && k !== 'weight')) {
      throw new InvalidInputError('INVALID_ENTRY', 'every item must be a string, or every item an object { "entry": string, "weight": integer }', 'do not mix strings and objects', { path: `$[${i}]` })
    }
    return { entry: o.entry, weight: o.weight }
  })
}

/** `csv-parse`'s synchronous parser, required the first time a CSV list is read (a list of lines never loads it). */
let parseCsv: typeof import('csv-parse/sync').parse | undefined

function parseCsvList(text: string, options: Pick<ReadParticipantsOptions, 'column' | 'weightColumn'>): string[] | WeightedEntry[] {
  parseCsv ??= (createRequire(import.meta.url)('csv-parse/sync') as typeof import('csv-parse/sync')).parse
  let rows: string[][]
  try {
    rows = parseCsv(text, { relax_column_count: false, skip_empty_lines: false, bom: true, max_record_size: csvMaxRecordSize(MAX_CSV_ROW_BYTES) }) as string[][]
  } catch (cause) {
    throw csvParseError(cause)
  }
  if (rows.length < 2) throw new InvalidInputError('INVALID_CSV', 'participants CSV needs a header row and at least one data row', 'add a header row naming the columns')
  const header = rows[0]!
  const col = columnIndex(header, options.column ?? '1', '--column')
  const wcol = options.weightColumn === undefined ? undefined : columnIndex(header, options.weightColumn, '--weight-column')
  const data = rows.slice(1)
  if (wcol === undefined) return data.map((r) => r[col]!)
  return data.map((r, i) => {
    const w = r[wcol]!
    if (!/^[1-9][0-9]*$/.test(w) || !Number.isSafeInteger(Number(w))) {
      throw new InvalidInputError('WEIGHT_INVALID', `row ${i + 2}: weight ${JSON.stringify(w)} is not a positive integer`, 'weights are whole numbers of tickets, 1 or more', { path: `row ${i + 2}` })
    }
    return { entry: r[col]!, weight: Number(w) }
  })
}

function columnIndex(header: string[], spec: string, flag: string): number {
  if (/^[1-9][0-9]*$/.test(spec)) {
    const i = Number(spec) - 1
    if (i < header.length) return i
  }
  const i = header.indexOf(spec)
  if (i < 0) throw new InvalidInputError('UNKNOWN_COLUMN', `${flag} ${JSON.stringify(spec)} is not a column of the CSV (columns: ${header.join(', ')})`, `pass a header name or a 1-based column number to ${flag}`)
  return i
}
