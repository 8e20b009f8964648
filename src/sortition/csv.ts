/**
 * Reading sortition inputs in the field's own CSV formats (edge: file I/O; parsing with csv-parse).
 *
 * - Pool: a header row, an id column (`id` by default, else the first column) and one column per
 *   feature, as used by the Sortition Foundation's tools.
 * - Quotas: header `feature,value,min,max` or `FeatureName,ValueName,MinQuota,MaxQuota`
 *   (case-insensitive; other columns are ignored).
 * - Panel-lottery portfolio: orbitdraw's rows of ids (optionally weighted), or the selected-panels file
 *   of the Sortition Foundation's `sortition-algorithms` package (see {@link parseSortitionAlgorithmsCsv}).
 *
 * Nothing is trimmed or fixed up: values are used exactly as written (the core rejects edge whitespace
 * and control characters, naming the row).
 *
 * @module
 */
import { parse as parseCsv } from 'csv-parse/sync'
import { InvalidInputError, LimitExceededError, OrbitdrawError } from '../core/errors.js'
import { LIMITS } from '../core/limits.js'
import { makePool, SORTITION_LIMITS, type QuotaRow, type SortitionPool } from '../core/sortition/pool.js'
import { csvMaxRecordSize, csvRowTooLong } from '../node/file-errors.js'
import { readTextFileAtMost } from '../node/read-at-most.js'
export type { SortitionInputErrorCode } from './errors.js'

/**
 * Largest pool or quotas file read, in bytes.
 * @category Sortition
 */
export const MAX_SORTITION_FILE_BYTES = 256 * 1024 * 1024

/**
 * Largest row of a sortition CSV (pool, quotas, portfolio, stages), its cells' UTF-8 bytes together:
 * room for the widest row the limits allow, a portfolio's weight and `maxPanelSize` ids of at most
 * `maxEntryBytes` UTF-8 bytes each, so 1,001 × 1,024 = 1,025,024 bytes. A longer
 * row is refused as it is read, before its cell is built whole (a pool whose one value was 200 MB cost
 * 1 GB and 7.5 s before its entry was refused).
 * @category Sortition
 */
export const MAX_SORTITION_ROW_BYTES = (SORTITION_LIMITS.maxPanelSize + 1) * LIMITS.maxEntryBytes

/**
 * A line break right after another (CRLF, LF or CR; a CR before an LF is part of the CRLF), or one at
 * the start: a text without it has no empty line at all, inside quotes or out.
 */
const MAY_HAVE_EMPTY_LINE = /^[\r\n]|(?:\r\n|\n|\r(?!\n))(?=[\r\n])/

/**
 * The CSV's rows (a leading BOM dropped; empty lines at the end ignored). `ragged`: rows may differ in
 * length (a portfolio's panels, one per row); otherwise every row must have the header's columns.
 * @throws {@link InvalidInputError} `INVALID_CSV`, also for an empty line between rows: it is no row,
 *   and skipping it would make every later "row N" of an error name the wrong line;
 *   {@link LimitExceededError} `LIMIT_EXCEEDED` for a row over {@link MAX_SORTITION_ROW_BYTES}.
 */
export function rowsOf(text: string, name: string, ragged = false, maxRows?: number): string[][] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text
  let rows: string[][]
  // The line of the first empty line followed by a row (csv-parse counts empty lines outside quotes only).
  let blankLine: number | undefined
  let lastLine = 0
  try {
    // `maxRows`: keep no more rows than that (the caller refuses a file that has them all): a file of
    // millions of rows is scanned, never held.
    rows = parseCsv(body, {
      relax_column_count: ragged,
      skip_empty_lines: true,
      max_record_size: csvMaxRecordSize(MAX_SORTITION_ROW_BYTES),
      ...(maxRows === undefined ? {} : { to: maxRows }),
      // csv-parse builds a context object for every record it hands to on_record (1.7 s of 8.5 s for a
      // pool of a million, and much of the garbage collection): asked only of a text with an empty line.
      ...(MAY_HAVE_EMPTY_LINE.test(body)
        ? {
            on_record: (record: string[], context: { empty_lines: number; lines: number }) => {
              if (context.empty_lines > 0 && blankLine === undefined) blankLine = lastLine + 1
              lastLine = context.lines
              return record
            },
          }
        : {}),
    }) as string[][]
  } catch (cause) {
    const tooLong = csvRowTooLong(cause, MAX_SORTITION_ROW_BYTES, 'MAX_SORTITION_ROW_BYTES', name)
    if (tooLong !== undefined) throw tooLong
    throw new InvalidInputError('INVALID_CSV', `${name} is not valid CSV: ${(cause as Error).message}`, ragged ? 'check quoting' : 'check quoting and that every row has the same number of columns', { cause })
  }
  if (blankLine !== undefined) throw new InvalidInputError('INVALID_CSV', `${name}: line ${blankLine} is empty, between rows`, 'remove the empty line (each line is one row; only empty lines at the end are ignored)', { path: `line ${blankLine}` })
  return rows
}

/**
 * Parses a pool CSV.
 *
 * @param text - the CSV text (a leading byte order mark is ignored).
 * @param options - `idColumn`: the id column's header (default `id` if present, else the first column);
 *   `name`: the file name used in errors.
 * @returns the pool in canonical order.
 * @throws {@link InvalidInputError} `INVALID_CSV`, `SORTITION_POOL_INVALID` (naming the row), or the
 *   core's entry errors.
 * @example
 * ```ts
 * const pool = parsePoolCsv('id,gender,age\nr1,f,16-29\nr2,m,30-59\n')
 * ```
 * @category Sortition
 */
export function parsePoolCsv(text: string, options: { idColumn?: string; name?: string } = {}): SortitionPool {
  const name = options.name ?? 'pool'
  return poolOfRows(rowsOf(text, name), options.idColumn, name).pool
}

/**
 * Parses a pool CSV with a household column (issue 22, one person per household): the pool without
 * that column, and each respondent's household value by id, exactly as written (the matching rule,
 * `normalizeHousehold`, is applied when the panel is committed; docs/sortition.md, Households).
 *
 * @param options - `householdColumn`: the household column's header (required); `idColumn`, `name`
 *   as in {@link parsePoolCsv}.
 * @throws {@link InvalidInputError} as {@link parsePoolCsv}, and `SORTITION_POOL_INVALID` when the file
 *   has no such column or it is the id column.
 * @example
 * ```ts
 * const { pool, households } = parseHouseholdPoolCsv('id,gender,address\nr1,f,1 Main St\nr2,m,1 main st\n', { householdColumn: 'address' })
 * const { draw, participants } = panelDraw(pool, quotas, 1, { households })
 * ```
 * @category Sortition
 */
export function parseHouseholdPoolCsv(text: string, options: { householdColumn: string; idColumn?: string; name?: string }): { pool: SortitionPool; households: Map<string, string> } {
  const name = options.name ?? 'pool'
  const rows = rowsOf(text, name)
  const col = rows[0]?.indexOf(options.householdColumn) ?? -1
  if (col < 0) throw new InvalidInputError('SORTITION_POOL_INVALID', `${name} has no column ${JSON.stringify(options.householdColumn)}`, 'name the column that holds each respondent\'s household (for example an address)')
  const { pool, idCol } = poolOfRows(rows, options.idColumn, name, col)
  const households = new Map<string, string>()
  for (const r of rows.slice(1)) households.set(r[idCol]!, r[col]!)
  return { pool, households }
}

/** The pool of parsed CSV rows, without column `drop` (the household column), and its id column. */
function poolOfRows(rows: string[][], idColumn: string | undefined, name: string, drop = -1): { pool: SortitionPool; idCol: number } {
  if (rows.length < 2) throw new InvalidInputError('SORTITION_POOL_INVALID', `${name} has no respondent rows`, 'write a header row, then one row per respondent')
  const header = rows[0]!
  let idCol = 0
  if (idColumn !== undefined) {
    idCol = header.indexOf(idColumn)
    if (idCol < 0) throw new InvalidInputError('SORTITION_POOL_INVALID', `${name} has no column ${JSON.stringify(idColumn)}`, 'name an existing id column')
  } else if (header.includes('id')) idCol = header.indexOf('id')
  if (idCol === drop) throw new InvalidInputError('SORTITION_POOL_INVALID', `${name}: the household column ${JSON.stringify(header[drop])} is the id column`, 'name a household column other than the ids')
  const features = header.filter((_, i) => i !== idCol && i !== drop)
  const body = rows.slice(1).map((r) => ({ id: r[idCol]!, values: r.filter((_, i) => i !== idCol && i !== drop) }))
  try {
    return { pool: makePool(features, body), idCol }
  } catch (err) {
    if (!(err instanceof OrbitdrawError)) throw err
    const m = /^\$\.respondents\[([0-9]+)\]/.exec(err.path ?? '')
    const where = m === null ? '' : `, row ${Number(m[1]) + 2}`
    // Paths in the detail (a repeated id names both places) are rows of the file too.
    const detail = err.detail.replace(/\$\.respondents\[([0-9]+)\]/g, (_, i: string) => `row ${Number(i) + 2}`)
    throw new InvalidInputError(err.code, `${name}${where}: ${detail}`, err.hint, { cause: err, ...(err.path === undefined ? {} : { path: err.path }) })
  }
}

const HEADERS: readonly (readonly string[])[] = [
  ['feature', 'value', 'min', 'max'],
  ['featurename', 'valuename', 'minquota', 'maxquota'],
]

/**
 * Parses a quotas CSV: header `feature,value,min,max` or `FeatureName,ValueName,MinQuota,MaxQuota`.
 *
 * @throws {@link InvalidInputError} `INVALID_CSV`, `QUOTA_INVALID` (unknown header, a min or max that is
 *   not a whole number; naming the row); `LimitExceededError` `LIMIT_EXCEEDED` for more than
 *   `maxFeatures` x `maxValuesPerFeature` (1,024) rows, found without holding them.
 * @example
 * ```ts
 * const rows = parseQuotasCsv('feature,value,min,max\ngender,f,20,22\ngender,m,18,20\n')
 * ```
 * @category Sortition
 */
export function parseQuotasCsv(text: string, options: { name?: string } = {}): QuotaRow[] {
  const name = options.name ?? 'quotas'
  // One row per value of a feature of the pool: at most maxFeatures x maxValuesPerFeature rows (a header and
  // one more are read, to tell a file that has more).
  const maxQuotaRows = SORTITION_LIMITS.maxFeatures * SORTITION_LIMITS.maxValuesPerFeature
  const rows = rowsOf(text, name, false, maxQuotaRows + 2)
  if (rows.length > maxQuotaRows + 1) {
    throw new LimitExceededError('LIMIT_EXCEEDED', `${name} has more than ${maxQuotaRows.toLocaleString('en-US')} quota rows, over the limit of maxFeatures x maxValuesPerFeature = ${SORTITION_LIMITS.maxFeatures} x ${SORTITION_LIMITS.maxValuesPerFeature}`, 'write one row per feature value of the pool', { path: `row ${maxQuotaRows + 2}` })
  }
  if (rows.length === 0) throw new InvalidInputError('QUOTA_INVALID', `${name} is empty`, 'write the header feature,value,min,max and one row per feature value')
  const header = rows[0]!.map((h) => h.toLowerCase())
  let cols: number[] | undefined
  for (const h of HEADERS) {
    const c = h.map((x) => header.indexOf(x))
    if (c.every((i) => i >= 0)) cols = c
  }
  if (cols === undefined) {
    throw new InvalidInputError('QUOTA_INVALID', `${name} header ${JSON.stringify(rows[0]!.join(','))} is not feature,value,min,max nor FeatureName,ValueName,MinQuota,MaxQuota`, 'use one of the two headers')
  }
  const [fc, vc, minc, maxc] = cols as [number, number, number, number]
  return rows.slice(1).map((r, i) => {
    const num = (s: string, what: string): number => {
      if (!/^[0-9]{1,9}$/.test(s)) throw new InvalidInputError('QUOTA_INVALID', `${name}, row ${i + 2}: ${what} ${JSON.stringify(s)} is not a whole number`, 'write min and max as whole numbers (digits only)', { path: `row ${i + 2}` })
      return Number(s)
    }
    return { feature: r[fc]!, value: r[vc]!, min: num(r[minc]!, 'min'), max: num(r[maxc]!, 'max') }
  })
}

/**
 * Parses a panel-lottery portfolio: one candidate panel per row of ids, no header; or, when the first
 * row starts with the header cell `weight`, a header row and an integer weight in the first column of
 * every row (the rest of the row is the panel's ids); or, when the first row is exactly
 * `Assembly 0,Assembly 1,…`, the several-selections file of `sortition-algorithms` (see
 * {@link parseSortitionAlgorithmsCsv}: one panel per row after it, each of weight 1). Rows may differ
 * in length (the core then names the panel of the wrong size).
 *
 * @returns the panels (ids as written) and one weight per panel (all 1 without a weight column).
 * @throws {@link InvalidInputError} `INVALID_CSV`, `LOTTERY_INVALID` (no panel, a weight that is not a
 *   positive whole number).
 * @example
 * ```ts
 * const { panels, weights } = parseLotteryCsv('r1,r4,r7\nr2,r4,r9\n')
 * ```
 * @category Sortition
 */
export function parseLotteryCsv(text: string, options: { name?: string } = {}): { panels: string[][]; weights: number[] } {
  const name = options.name ?? 'portfolio'
  const rows = rowsOf(text, name, true)
  if (isAssemblyHeader(rows[0])) return multiSelections(rows, name)
  const weighted = rows.length > 0 && rows[0]![0]!.toLowerCase() === 'weight'
  const data = weighted ? rows.slice(1) : rows
  if (data.length === 0) throw new InvalidInputError('LOTTERY_INVALID', `${name} has no panel`, 'write one candidate panel per row of ids')
  const weights = data.map((r, i) => {
    if (!weighted) return 1
    const w = r[0]!
    if (!/^[1-9][0-9]{0,14}$/.test(w) || !Number.isSafeInteger(Number(w))) {
      throw new InvalidInputError('LOTTERY_INVALID', `${name}, row ${i + 2}: weight ${JSON.stringify(w)} is not a positive whole number`, 'write integer weights of at least 1', { path: `row ${i + 2}` })
    }
    return Number(w)
  })
  return { panels: data.map((r) => (weighted ? r.slice(1) : r)), weights }
}

/**
 * The Sortition Foundation's `sortition-algorithms` (Python) writes the panels it selects with
 * `csv.writer` (`,`, `"` quoting only where needed, CRLF line ends) in one of two forms
 * (src/sortition_algorithms/core.py, `multi_selection_to_table` and `person_list_to_table`, read at
 * commit 1334ebc055261e3b3746b94b781dc184d9456714; adapters.py `_write_csv_rows`):
 *
 * - several selections (`number_selections` ≥ 2, the "transparent lottery"): a header row
 *   `Assembly 0,Assembly 1,…,Assembly n-1`, then **n rows**, row i the ids of selection i (despite the
 *   header, each selection is a row, not a column). The same panel may appear more than once: the
 *   package says to draw one row uniformly, which is a panel lottery of these rows, each of weight 1.
 * - one selection: a header row `<id column>,<columns to keep…>,<features…>` and one row per selected
 *   person, the id first.
 */
const ASSEMBLY = /^Assembly (0|[1-9][0-9]{0,5})$/

/** True when `row` is exactly `Assembly 0,Assembly 1,…` (at least one cell). */
function isAssemblyHeader(row: readonly string[] | undefined): boolean {
  return row !== undefined && row.length > 0 && row.every((c, i) => ASSEMBLY.exec(c)?.[1] === String(i))
}

/** The rows after an `Assembly …` header: one panel each, weight 1; the row count must match the header. */
function multiSelections(rows: readonly string[][], name: string): { panels: string[][]; weights: number[] } {
  const n = rows[0]!.length
  const data = rows.slice(1)
  if (data.length !== n) {
    throw new InvalidInputError('LOTTERY_INVALID', `${name}: the header names ${n} selection(s) (Assembly 0 to Assembly ${n - 1}) but ${data.length} row(s) of ids follow`, 'use the selected-panels file exactly as sortition-algorithms wrote it: one row of ids per selection after the header', { path: `row ${Math.min(data.length, n) + 2}` })
  }
  data.forEach((r, i) => {
    const blank = r.findIndex((id) => id === '')
    if (blank >= 0) throw new InvalidInputError('LOTTERY_INVALID', `${name}, row ${i + 2}: selection ${i} has an empty id in column ${blank + 1}`, 'every cell of a selection row is a respondent id', { path: `row ${i + 2}` })
  })
  return { panels: data.map((r) => [...r]), weights: data.map(() => 1) }
}

/**
 * What {@link parseSortitionAlgorithmsCsv} read: the panels (ids as written) and their weights, ready for
 * a `panel-lottery` draw, and which of the package's two files it was.
 * @category Sortition
 */
export interface SortitionAlgorithmsSelection {
  /** `'selections'`: the several-selections file (`Assembly 0,…`); `'selected'`: one selected panel with its columns. */
  readonly format: 'selections' | 'selected'
  /** One panel per selection (one panel for `'selected'`). */
  readonly panels: string[][]
  /** All 1: every selection row is one equally likely ticket (a repeated panel has several). */
  readonly weights: number[]
  /** For `'selected'`: the header (id column first, then the kept columns and the features). */
  readonly columns?: readonly string[]
}

/**
 * Parses the selected-panels CSV written by the Sortition Foundation's `sortition-algorithms` package
 * (its `selected` output): either its several-selections file (header `Assembly 0,…,Assembly n-1`, then
 * n rows of ids, one selection per row) or its one-selection file (header `id,…` and one row per selected
 * person, the id in the first column or in `idColumn`). Ids are taken exactly as written.
 *
 * @param options - `idColumn`: the id column of a one-selection file (default: its first column);
 *   `name`: the file name used in errors.
 * @throws {@link InvalidInputError} `INVALID_CSV` (not CSV, or a one-selection row of the wrong width),
 *   `LOTTERY_INVALID` (no selection, a header that names another number of selections than the rows
 *   that follow, an empty id, an unknown `idColumn`), naming the row.
 * @example
 * ```ts
 * const { panels, weights } = parseSortitionAlgorithmsCsv('Assembly 0,Assembly 1\r\np1,p4,p7\r\np2,p4,p9\r\n')
 * // panels: [['p1','p4','p7'], ['p2','p4','p9']], weights: [1, 1]: commit them as a panel lottery
 * ```
 * @category Sortition
 */
export function parseSortitionAlgorithmsCsv(text: string, options: { idColumn?: string; name?: string } = {}): SortitionAlgorithmsSelection {
  const name = options.name ?? 'selected panels'
  const rows = rowsOf(text, name, true)
  if (rows.length === 0) throw new InvalidInputError('LOTTERY_INVALID', `${name} is empty`, 'give the selected-panels file that sortition-algorithms wrote')
  if (isAssemblyHeader(rows[0])) return { format: 'selections', ...multiSelections(rows, name) }
  const header = rows[0]!
  const col = options.idColumn === undefined ? 0 : header.indexOf(options.idColumn)
  if (col < 0) throw new InvalidInputError('LOTTERY_INVALID', `${name} has no column ${JSON.stringify(options.idColumn)}`, 'name the id column of the selected file (its first column by default)', { path: 'row 1' })
  const data = rows.slice(1)
  if (data.length === 0) throw new InvalidInputError('LOTTERY_INVALID', `${name} has a header but no selected person`, 'give the selected file of a run that selected a panel')
  const ids = data.map((r, i) => {
    if (r.length !== header.length) throw new InvalidInputError('INVALID_CSV', `${name}, row ${i + 2}: ${r.length} cells under a header of ${header.length}`, 'use the file exactly as sortition-algorithms wrote it', { path: `row ${i + 2}` })
    const id = r[col]!
    if (id === '') throw new InvalidInputError('LOTTERY_INVALID', `${name}, row ${i + 2}: the id is empty`, 'every selected person has an id', { path: `row ${i + 2}` })
    return id
  })
  return { format: 'selected', panels: [ids], weights: [1], columns: [...header] }
}

function readText(path: string): Promise<string> {
  return readTextFileAtMost(path, MAX_SORTITION_FILE_BYTES)
}

/**
 * Reads and parses a pool CSV file. See {@link parsePoolCsv}.
 * @category Sortition
 */
export async function readPoolCsv(path: string, options: { idColumn?: string } = {}): Promise<SortitionPool> {
  return parsePoolCsv(await readText(path), { ...options, name: path })
}

/**
 * Reads and parses a pool CSV file with a household column. See {@link parseHouseholdPoolCsv}.
 * @category Sortition
 */
export async function readHouseholdPoolCsv(path: string, options: { householdColumn: string; idColumn?: string }): Promise<{ pool: SortitionPool; households: Map<string, string> }> {
  return parseHouseholdPoolCsv(await readText(path), { ...options, name: path })
}

/**
 * Reads and parses a panel-lottery portfolio CSV file. See {@link parseLotteryCsv}.
 * @category Sortition
 */
export async function readLotteryCsv(path: string): Promise<{ panels: string[][]; weights: number[] }> {
  return parseLotteryCsv(await readText(path), { name: path })
}

/**
 * Reads and parses a quotas CSV file. See {@link parseQuotasCsv}.
 * @category Sortition
 */
export async function readQuotasCsv(path: string): Promise<QuotaRow[]> {
  return parseQuotasCsv(await readText(path), { name: path })
}

/**
 * Reads and parses a `sortition-algorithms` selected-panels CSV file. See {@link parseSortitionAlgorithmsCsv}.
 * @category Sortition
 */
export async function readSortitionAlgorithmsCsv(path: string, options: { idColumn?: string } = {}): Promise<SortitionAlgorithmsSelection> {
  return parseSortitionAlgorithmsCsv(await readText(path), { ...options, name: path })
}
