/**
 * The stages file of `orbitdraw commit --stages FILE` (edge: file I/O; CSV with csv-parse). Two
 * spellings of the same list of stages, in draw order (docs/allocation.md, The stages file):
 *
 * - JSON: an array of `{ "name", "method", "count", "rounding"?, "where"?, "weightBy"?, "weights"? }`,
 *   `count` a whole number or a fraction `"1/3"` (with `rounding`), `where` `{ column: [values] }`,
 *   `weights` `{ value: weight }`;
 * - CSV: header `name,method,count` and optional `rounding`, `where`, `weight_by`, `weights`; a `where`
 *   cell `degree=advanced` or `degree=advanced|masters;wage=IV`, a `weights` cell `I=1;II=2;III=3;IV=4`.
 *
 * @module
 */
import type { StageRounding } from '../core/allocation/stages.js'
import { InvalidInputError } from '../core/errors.js'
import { parseJsonText } from '../core/json.js'
import type { StageInput } from '../core/kinds/stages.js'
import { readTextFileAtMost } from '../node/read-at-most.js'
import { rowsOf } from '../sortition/csv.js'

/**
 * Largest stages file read, in bytes.
 * @category Allocation
 */
export const MAX_STAGES_FILE_BYTES = 1024 * 1024

function bad(name: string, where: string, detail: string, hint: string): never {
  throw new InvalidInputError('INVALID_DRAW', `${name}${where}: ${detail}`, hint)
}

function countOf(x: unknown, rounding: unknown, name: string, at: string): StageInput['count'] {
  if (typeof x === 'number' || (typeof x === 'string' && /^[0-9]+$/.test(x))) {
    const n = Number(x)
    if (!Number.isSafeInteger(n) || n < 1) bad(name, at, `count must be a whole number >= 1, got ${JSON.stringify(x)}`, 'write e.g. 650, or a fraction 1/3 with a rounding')
    if (rounding !== undefined && rounding !== '') bad(name, at, 'rounding goes with a fraction count only', 'drop the rounding')
    return n
  }
  const m = typeof x === 'string' ? /^\s*([0-9]+)\s*\/\s*([0-9]+)\s*$/.exec(x) : null
  if (m === null) bad(name, at, `count must be a whole number or a fraction like 1/3, got ${JSON.stringify(x)}`, 'write e.g. 650 or 1/3')
  if (rounding !== 'down' && rounding !== 'up' && rounding !== 'nearest') bad(name, at, `a fraction count needs rounding down, up or nearest, got ${JSON.stringify(rounding ?? '')}`, 'add a rounding')
  return { fraction: [Number(m[1]), Number(m[2])], rounding: rounding as StageRounding }
}

function methodOf(x: unknown, name: string, at: string): 'pick' | 'weighted' {
  if (x !== 'pick' && x !== 'weighted') bad(name, at, `method must be pick or weighted, got ${JSON.stringify(x)}`, 'write pick or weighted')
  return x
}

function stringMap<T>(x: unknown, name: string, at: string, what: string, each: (v: unknown, key: string) => T): { [k: string]: T } | undefined {
  if (x === undefined) return undefined
  if (typeof x !== 'object' || x === null || Array.isArray(x)) bad(name, at, `${what} must be an object`, `write ${what} as { … }`)
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, each(v, k)]))
}

/** Parses a stages file in JSON. */
function fromJson(text: string, name: string): StageInput[] {
  const list = parseJsonText(text, name)
  if (!Array.isArray(list) || list.length === 0) bad(name, '', 'a JSON stages file is a non-empty array of stages', 'write [{ "name": …, "method": …, "count": … }, …]')
  return list.map((s: unknown, i) => {
    const at = ` stage ${i + 1}`
    if (typeof s !== 'object' || s === null || Array.isArray(s)) bad(name, at, 'a stage is an object', 'write { "name": …, "method": …, "count": … }')
    const o = s as Record<string, unknown>
    const unknown = Object.keys(o).filter((k) => !['name', 'method', 'count', 'rounding', 'where', 'weightBy', 'weights'].includes(k))
    if (unknown.length > 0) bad(name, at, `unknown key ${JSON.stringify(unknown[0])}`, 'keys are name, method, count, rounding, where, weightBy, weights')
    if (typeof o.name !== 'string') bad(name, at, 'name must be a string', 'name the stage')
    const where = stringMap(o.where, name, at, 'where', (v, k) => {
      const values = typeof v === 'string' ? [v] : v
      if (!Array.isArray(values) || !values.every((x) => typeof x === 'string')) bad(name, at, `where.${k} must be a value or a list of values`, 'write e.g. { "degree": ["advanced"] }')
      return values as string[]
    })
    const weights = stringMap(o.weights, name, at, 'weights', (v, k) => {
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) bad(name, at, `weights.${k} must be a whole number >= 1`, 'use positive whole weights')
      return v
    })
    if (o.weightBy !== undefined && typeof o.weightBy !== 'string') bad(name, at, 'weightBy must be a column name', 'write e.g. "weightBy": "wage"')
    return { name: o.name, method: methodOf(o.method, name, at), count: countOf(o.count, o.rounding, name, at), ...(where === undefined ? {} : { where }), ...(o.weightBy === undefined ? {} : { weightBy: o.weightBy as string }), ...(weights === undefined ? {} : { weights }) }
  })
}

/** `a=1|2;b=3` → { a: ['1', '2'], b: ['3'] } */
function cellMap(cell: string, name: string, at: string, what: string): { [k: string]: string[] } {
  const out: { [k: string]: string[] } = {}
  for (const part of cell.split(';')) {
    if (part.trim() === '') continue
    const eq = part.indexOf('=')
    if (eq <= 0) bad(name, at, `${what} ${JSON.stringify(part)} is not COLUMN=VALUE`, what === 'where' ? 'write e.g. degree=advanced or degree=advanced|masters;wage=IV' : 'write e.g. I=1;II=2')
    out[part.slice(0, eq)] = part.slice(eq + 1).split('|')
  }
  return out
}

/** Parses a stages file in CSV. */
function fromCsv(text: string, name: string): StageInput[] {
  // The sortition CSVs' reader: an empty line between rows is refused with its line, so "row N" below is line N.
  const rows = rowsOf(text, name)
  const header = rows[0]?.map((h) => h.trim().toLowerCase()) ?? []
  for (const h of ['name', 'method', 'count']) if (!header.includes(h)) bad(name, '', `the header has no ${h} column`, 'write the header name,method,count[,rounding,where,weight_by,weights]')
  const unknown = header.filter((h) => !['name', 'method', 'count', 'rounding', 'where', 'weight_by', 'weights'].includes(h))
  if (unknown.length > 0) bad(name, '', `unknown column ${JSON.stringify(unknown[0])}`, 'columns are name, method, count, rounding, where, weight_by, weights')
  if (rows.length < 2) bad(name, '', 'no stage rows', 'write one row per stage, in draw order')
  const col = (r: string[], h: string): string | undefined => {
    const i = header.indexOf(h)
    return i < 0 || r[i] === '' ? undefined : r[i]
  }
  return rows.slice(1).map((r, i) => {
    const at = ` row ${i + 2}`
    const where = col(r, 'where')
    const weights = col(r, 'weights')
    const weightBy = col(r, 'weight_by')
    const w = weights === undefined ? undefined : Object.fromEntries(Object.entries(cellMap(weights, name, at, 'weights')).map(([k, v]) => {
      if (v.length !== 1 || !/^[0-9]+$/.test(v[0]!)) bad(name, at, `the weight of ${JSON.stringify(k)} must be a whole number`, 'write e.g. I=1;II=2')
      return [k, Number(v[0])]
    }))
    return { name: col(r, 'name') ?? '', method: methodOf(col(r, 'method'), name, at), count: countOf(col(r, 'count'), col(r, 'rounding'), name, at), ...(where === undefined ? {} : { where: cellMap(where, name, at, 'where') }), ...(weightBy === undefined ? {} : { weightBy }), ...(w === undefined ? {} : { weights: w }) }
  })
}

/**
 * Parses a stages file: JSON when its first non-space character is `[`, else CSV.
 * @throws {@link InvalidInputError} `INVALID_JSON`, `INVALID_CSV`, or `INVALID_DRAW` naming the stage
 *   (JSON) or the row (CSV) and what is wrong.
 * @example
 * ```ts
 * const stages = parseStagesText('name,method,count,where\nregular,pick,650,\nadvanced,pick,200,degree=advanced\n')
 * ```
 * @category Allocation
 */
export function parseStagesText(text: string, name = 'stages'): StageInput[] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text
  return body.trimStart().startsWith('[') ? fromJson(body, name) : fromCsv(body, name)
}

/**
 * Reads and parses a stages file. See {@link parseStagesText}.
 * @throws {@link InvalidInputError} `FILE_UNREADABLE`, `FILE_TOO_LARGE`, and those of {@link parseStagesText}.
 * @category Allocation
 */
export async function readStagesFile(path: string): Promise<StageInput[]> {
  return parseStagesText(await readTextFileAtMost(path, MAX_STAGES_FILE_BYTES), path)
}
