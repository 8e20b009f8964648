/**
 * The committed columns of the allocation kinds (`stages`, `preference-lottery`): the same format as the
 * sortition composition (docs/spec.md, Sortition kinds), without the quotas. The commitment's `features`
 * list each column with its values (code-point order), `types` the per-type counts, and the participants
 * are `id|column=value|…` in (type, id) order, so every entry's values are committed and checkable from
 * its index. A filter (`where`) selects entries by their values.
 *
 * @module
 */
import { validateEntry } from '../participants.js'
import { compareCodePoints, SORTITION_LIMITS, type SortitionPool } from '../sortition/pool.js'
import { badDraw } from './kind.js'
import { entriesProblem, poolParticipants } from './sortition.js'
import { described, integer, list, strictObject, text } from '../schema/kit.js'

/**
 * One committed column: its name and its values in code-point order.
 * @category Allocation
 */
export interface ColumnSpec {
  readonly name: string
  readonly values: readonly string[]
}

/**
 * The committed columns of a list: the columns (sorted by name) and the per-type counts
 * `[v_0, …, v_{m−1}, n]` in lexicographic order (as a sortition composition's `types`).
 * @category Allocation
 */
export interface ColumnsSpec {
  readonly features: readonly ColumnSpec[]
  readonly types: readonly (readonly number[])[]
}

/**
 * A filter on committed columns: an entry passes when, for every condition, its value of `feature` is
 * one of `values` (conditions sorted by feature, values in the column's order, each once).
 * @category Allocation
 */
export interface WhereCondition {
  readonly feature: string
  readonly values: readonly string[]
}

/** The declared shapes. */
export const columnsShape = described(list(strictObject({ name: text(), values: list(text(), SORTITION_LIMITS.maxValuesPerFeature) }), SORTITION_LIMITS.maxFeatures), 'The committed columns sorted by name (code points), each with its values sorted.')
export const columnTypesShape = described(list(list(integer(0), SORTITION_LIMITS.maxFeatures + 1), SORTITION_LIMITS.maxPoolSize), 'Per entry type, in lexicographic order: its value index in every column, then its number of entries (at least 1). The committed participants list is in this order.')
export const whereShape = described(list(strictObject({ feature: text(), values: list(text(), SORTITION_LIMITS.maxValuesPerFeature) }), SORTITION_LIMITS.maxFeatures), 'Conditions, all of which an entry must meet: its value of the column is one of the values. Empty: every entry.')

/** The fields of a spec with committed columns (besides its own): `features` and `types`. */
export const columnsFields = { features: columnsShape, types: columnTypesShape }

function checkName(s: unknown, path: string, isColumn: boolean): void {
  if (typeof s !== 'string') badDraw(path, 'must be a string', 'write names and values as text')
  validateEntry(s, path)
  if (s.includes('|') || (isColumn && s.includes('='))) badDraw(path, `${JSON.stringify(s)} contains ${isColumn ? '"|" or "="' : '"|"'}, which the participant entries use as separators`, 'rename it without these characters')
}

/**
 * Validates the columns against the participant count: columns and values in canonical order, types
 * in order, each value present, the counts adding up to the participants.
 * @throws {@link InvalidInputError} `INVALID_DRAW` at the bad key.
 */
export function validateColumns(c: ColumnsSpec, n: number, path: string): void {
  if (n > SORTITION_LIMITS.maxPoolSize) badDraw(`${path}.types`, `the list has ${n} entries, over ${SORTITION_LIMITS.maxPoolSize}`, 'use a smaller list')
  if (!Array.isArray(c.features) || c.features.length < 1 || c.features.length > SORTITION_LIMITS.maxFeatures) badDraw(`${path}.features`, `1 to ${SORTITION_LIMITS.maxFeatures} columns are needed`, 'commit the list\'s columns')
  c.features.forEach((f, i) => {
    const p = `${path}.features[${i}]`
    checkName(f.name, `${p}.name`, true)
    if (i > 0 && compareCodePoints(c.features[i - 1]!.name, f.name) >= 0) badDraw(`${p}.name`, 'columns must be sorted by name (code points), each once', 'sort the columns by name')
    if (!Array.isArray(f.values) || f.values.length < 1 || f.values.length > SORTITION_LIMITS.maxValuesPerFeature) badDraw(`${p}.values`, `a column has 1 to ${SORTITION_LIMITS.maxValuesPerFeature} values`, 'merge values')
    f.values.forEach((x: string, j: number) => {
      checkName(x, `${p}.values[${j}]`, false)
      if (j > 0 && compareCodePoints(f.values[j - 1]!, x) >= 0) badDraw(`${p}.values[${j}]`, 'values must be sorted (code points), each once', 'sort the values')
    })
  })
  const m = c.features.length
  if (!Array.isArray(c.types) || c.types.length < 1) badDraw(`${path}.types`, 'at least one entry type is needed', 'commit the per-type counts')
  const seen = c.features.map((f) => new Array<boolean>(f.values.length).fill(false))
  let total = 0
  c.types.forEach((t, i) => {
    const p = `${path}.types[${i}]`
    if (!Array.isArray(t) || t.length !== m + 1) badDraw(p, `a type is ${m} value indices and a count`, 'write [v_0, …, v_m-1, n]')
    t.forEach((x, f) => {
      if (!Number.isSafeInteger(x) || x < 0 || (f < m && x >= c.features[f]!.values.length)) badDraw(`${p}[${f}]`, f < m ? `value index ${String(x)} is not a value of ${JSON.stringify(c.features[f]!.name)}` : 'bad count', 'use value indices in range')
      if (f < m) seen[f]![x] = true
    })
    if (t[m]! < 1) badDraw(`${p}[${m}]`, 'a type has at least one entry', 'omit empty types')
    if (i > 0) {
      const prev = c.types[i - 1]!
      let cmp = 0
      for (let f = 0; f < m && cmp === 0; f++) cmp = prev[f]! - t[f]!
      if (cmp >= 0) badDraw(p, 'types must be in lexicographic order, each once', 'sort the types')
    }
    total += t[m]!
  })
  seen.forEach((s, f) =>
    s.forEach((x, j) => {
      if (!x) badDraw(`${path}.features[${f}].values[${j}]`, `no entry has ${JSON.stringify(c.features[f]!.name)}=${JSON.stringify(c.features[f]!.values[j])}`, 'list only values some entry has')
    }),
  )
  if (total !== n) badDraw(`${path}.types`, `the types count ${total} entries, the commitment ${n} participants`, 'commit the per-type counts of the committed list')
}

/**
 * Validates a filter against the columns: known columns sorted by name, each once; known values in the
 * column's order, each once, at least one.
 * @throws {@link InvalidInputError} `INVALID_DRAW` at the bad key.
 */
export function validateWhere(c: ColumnsSpec, where: readonly WhereCondition[], path: string): void {
  if (!Array.isArray(where)) badDraw(path, 'must be a list of conditions', 'write [] for every entry')
  where.forEach((w, i) => {
    const p = `${path}[${i}]`
    const col = c.features.find((f) => f.name === w.feature)
    if (col === undefined) badDraw(`${p}.feature`, `${JSON.stringify(w.feature)} is not a committed column (${c.features.map((f) => f.name).join(', ')})`, 'filter on a committed column')
    if (i > 0 && compareCodePoints(where[i - 1]!.feature, w.feature) >= 0) badDraw(`${p}.feature`, 'conditions must be sorted by column (code points), each once', 'sort the conditions')
    if (!Array.isArray(w.values) || w.values.length < 1) badDraw(`${p}.values`, 'a condition needs at least one value', 'list the values that pass')
    let last = -1
    w.values.forEach((x: string, j: number) => {
      const at = col.values.indexOf(x)
      if (at < 0) badDraw(`${p}.values[${j}]`, `${JSON.stringify(x)} is not a value of ${JSON.stringify(w.feature)} (${col.values.map((v) => JSON.stringify(v)).join(', ')})`, 'use committed values')
      if (at <= last) badDraw(`${p}.values[${j}]`, 'values must be in the column\'s order, each once', 'sort the values')
      last = at
    })
  })
}

/** Per type, whether it passes the filter. */
export function typesPassing(c: ColumnsSpec, where: readonly WhereCondition[]): boolean[] {
  const conds = where.map((w) => {
    const f = c.features.findIndex((x) => x.name === w.feature)
    return { f, ok: new Set(w.values.map((v) => c.features[f]!.values.indexOf(v))) }
  })
  return c.types.map((t) => conds.every(({ f, ok }) => ok.has(t[f]!)))
}

/** The number of entries of each type. */
export function typeCounts(c: ColumnsSpec): number[] {
  const m = c.features.length
  return c.types.map((t) => t[m]!)
}

/** The type of every committed entry (the list is in type order). */
export function entryTypes(c: ColumnsSpec): Uint32Array {
  const counts = typeCounts(c)
  const out = new Uint32Array(counts.reduce((a, b) => a + b, 0))
  let at = 0
  counts.forEach((k, t) => {
    out.fill(t, at, at + k)
    at += k
  })
  return out
}

/** `column=value` of a type, joined by `sep`. */
export function typeLabel(c: ColumnsSpec, type: number, sep = ', '): string {
  const t = c.types[type]!
  return c.features.map((f, i) => `${f.name}=${f.values[t[i]!]}`).join(sep)
}

/** "degree=advanced, wage=III or IV" (or "every entry"). */
export function describeWhere(where: readonly WhereCondition[]): string {
  return where.length === 0 ? 'every entry' : where.map((w) => `${w.feature}=${w.values.join(' or ')}`).join(', ')
}

/** The first problem of committed entries against the columns (as the sortition kinds), or undefined. */
export function columnsEntriesProblem(c: ColumnsSpec, rows: readonly { readonly index: number; readonly entry: string }[], full: boolean): string | undefined {
  return entriesProblem({ k: 0, features: c.features.map((f) => ({ name: f.name, values: f.values, min: [], max: [] })), types: c.types }, rows, full)
}

/**
 * The committed columns and participants of a table of entries with columns (read as a sortition
 * pool: `parsePoolCsv`): the columns, the types with their counts, and the entries `id|column=value|…`
 * in (type, id) order.
 * @throws {@link InvalidInputError} `SORTITION_POOL_INVALID` for ids, columns or values with separators.
 */
export function columnsOfPool(pool: SortitionPool): { columns: ColumnsSpec; participants: string[] } {
  const { types, entries } = poolParticipants(pool)
  return { columns: { features: pool.features.map((f) => ({ name: f.name, values: [...f.values] })), types }, participants: entries }
}
