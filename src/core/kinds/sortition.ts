/**
 * Pieces shared by the sortition kinds (`panel`, `panel-lottery`): the committed pool composition
 * (features with their quotas, per-type counts), its declared fields and encoder, the participants list in
 * canonical (type, id) order with entries that spell out each respondent's values, the pool rebuilt
 * from the per-type counts alone, and the quota table of an outcome (docs/spec.md, Sortition kinds).
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { validateEntry } from '../participants.js'
import { compareCodePoints, SORTITION_LIMITS, type QuotaRow, type QuotaTable, type Respondent, type SortitionPool } from '../sortition/pool.js'
import { badDraw, type RankedJson } from './kind.js'
import { declaredAs, described, integer, list, strictObject, text, type Infer } from '../schema/kit.js'
import type { Fields } from './define.js'
import { rankedRowsCheck, rankedShape } from './ranked.js'

/**
 * A sortition kind's commit inputs: the draw spec and the participants list in committed order.
 * @category Sortition
 */
export interface SortitionCommitInput<S> {
  /** The spec to commit (`draw`). */
  readonly draw: S
  /** The participants to commit, in canonical (type, id) order: `id|feature=value|…`. */
  readonly participants: readonly string[]
}

const SEPARATOR = '|'

/** The declared shape of a committed feature. */
export const featureShape = strictObject({
  name: text(),
  values: list(text(), SORTITION_LIMITS.maxValuesPerFeature),
  min: list(integer(0), SORTITION_LIMITS.maxValuesPerFeature),
  max: list(integer(0), SORTITION_LIMITS.maxValuesPerFeature),
})
/** The declared shape of `features`. */
export const featuresShape = described(list(featureShape, SORTITION_LIMITS.maxFeatures), 'The features sorted by name (code points), each with its values sorted and the min and max panel members per value.')
/** The declared shape of `types`. */
export const typesShape = described(list(list(integer(0), SORTITION_LIMITS.maxFeatures + 1), SORTITION_LIMITS.maxPoolSize), 'Per respondent type, in lexicographic order: its value index on every feature, then its number of respondents (at least 1). The committed participants list is in this order.')

/**
 * The declared fields of a pool's composition, shared by the sortition kinds: the panel size `k`
 * (parsed as any positive integer, so that a size over the limit is the rule's `INVALID_DRAW`;
 * published with its limit), the features with their quotas and the per-type counts.
 */
export const compositionFields = {
  k: declaredAs(integer(1), integer(1, SORTITION_LIMITS.maxPanelSize)),
  features: featuresShape,
  types: typesShape,
}

/**
 * One feature of a committed pool: its name, its values (code-point order) and each value's quota.
 * @category Sortition
 */
export interface SortitionFeatureSpec {
  /** Feature name. */
  readonly name: string
  /** Its values, sorted by code point (every value some respondent has, no other). */
  readonly values: readonly string[]
  /** Fewest panel members per value (aligned with `values`). */
  readonly min: readonly number[]
  /** Most panel members per value (aligned with `values`). */
  readonly max: readonly number[]
}

/**
 * The committed composition of a pool, common to the sortition specs.
 * @category Sortition
 */
export interface SortitionComposition {
  /** Panel size. */
  readonly k: number
  /** The features, sorted by name, with their quotas. */
  readonly features: readonly SortitionFeatureSpec[]
  /**
   * The respondent types present, in lexicographic order of their value indices, each followed by its
   * number of respondents: `[t_0, …, t_{m−1}, n]`. Type `i` is committed participants
   * `Σ_{j<i} n_j … Σ_{j≤i} n_j − 1` (the list is in (type, id) order).
   */
  readonly types: readonly (readonly number[])[]
}

/** The declared shape of a row of an outcome's quota table. */
export const quotaRowShape = strictObject({ feature: text(), value: text(), min: integer(0), max: integer(0), selected: integer(0) })

/**
 * One row of an outcome's quota table: how many members have the value, against its quota.
 * @category Sortition
 */
export interface QuotaRowJson {
  readonly feature: string
  readonly value: string
  readonly min: number
  readonly max: number
  readonly selected: number
}

/**
 * `true` when `A` and `B` are the same type: the documented types of the composition's parts are
 * checked against their declared fields (a change of one that the other does not follow fails to compile).
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
/** Compiles only for `true`. */
export type Holds<T extends true> = T
type _CompositionDeclared = [Holds<Same<SortitionComposition, Fields<typeof compositionFields>>>, Holds<Same<SortitionFeatureSpec, Infer<typeof featureShape>>>, Holds<Same<QuotaRowJson, Infer<typeof quotaRowShape>>>]

/** The declared shape of an outcome's quota table. */
export const quotaTableShape = described(list(quotaRowShape, SORTITION_LIMITS.maxFeatures * SORTITION_LIMITS.maxValuesPerFeature), 'Every feature value with its quota and the number of selected members who have it.')

/**
 * The declared shape of an outcome's list of members (`what`, at most `max`): the ranked rows of a
 * proof, parsed as any ranking is (up to a full ranking of every participant, `rankedRowsCheck`).
 */
export function memberRowsShape(max: number, what: string) {
  return declaredAs(rankedRowsCheck, described(list(rankedShape, max), what))
}

/** The canonical IPLD form of the common keys. */
export function encodeComposition(c: SortitionComposition): { k: number; features: object[]; types: number[][] } {
  return { k: c.k, features: c.features.map((f) => ({ name: f.name, values: [...f.values], min: [...f.min], max: [...f.max] })), types: c.types.map((t) => [...t]) }
}

/** The text of a name or value: an entry under the participants rules, without `|` (and `=` in a name). */
function checkName(s: unknown, path: string, isFeature: boolean): void {
  if (typeof s !== 'string') badDraw(path, 'must be a string', 'write names and values as text')
  validateEntry(s, path)
  if (s.includes(SEPARATOR) || (isFeature && s.includes('='))) badDraw(path, `${JSON.stringify(s)} contains ${isFeature ? '"|" or "="' : '"|"'}, which the participant entries use as separators`, 'rename it without these characters')
}

/**
 * Validates the common keys against the participant count: features and values in canonical order,
 * quotas, types in order and each value present, the counts adding up to the participants.
 * @throws {@link InvalidInputError} `INVALID_DRAW` at the bad key.
 */
export function validateComposition(c: SortitionComposition, participantCount: number, path: string): void {
  if (!Number.isSafeInteger(c.k) || c.k < 1 || c.k > SORTITION_LIMITS.maxPanelSize) badDraw(`${path}.k`, `k must be 1 to ${SORTITION_LIMITS.maxPanelSize}, got ${String(c.k)}`, 'draw a panel of at least one member')
  if (c.k > participantCount) badDraw(`${path}.k`, `cannot draw a panel of ${c.k} from ${participantCount} respondents`, 'lower k or grow the pool')
  if (participantCount > SORTITION_LIMITS.maxPoolSize) badDraw(`${path}.types`, `the pool has ${participantCount} respondents, over maxPoolSize = ${SORTITION_LIMITS.maxPoolSize}`, 'use a smaller pool')
  if (!Array.isArray(c.features) || c.features.length < 1 || c.features.length > SORTITION_LIMITS.maxFeatures) badDraw(`${path}.features`, `1 to ${SORTITION_LIMITS.maxFeatures} features are needed`, 'commit the pool\'s features')
  c.features.forEach((f, i) => {
    const p = `${path}.features[${i}]`
    checkName(f.name, `${p}.name`, true)
    if (i > 0 && compareCodePoints(c.features[i - 1]!.name, f.name) >= 0) badDraw(`${p}.name`, 'features must be sorted by name (code points), each once', 'sort the features by name')
    if (!Array.isArray(f.values) || f.values.length < 1 || f.values.length > SORTITION_LIMITS.maxValuesPerFeature) badDraw(`${p}.values`, `a feature has 1 to ${SORTITION_LIMITS.maxValuesPerFeature} values`, 'merge values')
    f.values.forEach((x: string, j: number) => {
      checkName(x, `${p}.values[${j}]`, false)
      if (j > 0 && compareCodePoints(f.values[j - 1]!, x) >= 0) badDraw(`${p}.values[${j}]`, 'values must be sorted (code points), each once', 'sort the values')
    })
    for (const key of ['min', 'max'] as const) {
      const a = f[key]
      if (!Array.isArray(a) || a.length !== f.values.length) badDraw(`${p}.${key}`, `${key} needs one number per value (${f.values.length})`, 'give a quota for every value')
      a.forEach((x: number, j: number) => {
        if (!Number.isSafeInteger(x) || x < 0) badDraw(`${p}.${key}[${j}]`, `${key} must be a whole number >= 0`, 'fix the quota')
      })
    }
    f.min.forEach((x: number, j: number) => {
      if (x > f.max[j]!) badDraw(`${p}.min[${j}]`, `the min ${x} of ${JSON.stringify(f.name)}=${JSON.stringify(f.values[j])} is above its max ${f.max[j]}`, 'lower the min or raise the max')
    })
  })
  if (!Array.isArray(c.types) || c.types.length < 1) badDraw(`${path}.types`, 'at least one respondent type is needed', 'commit the pool composition')
  const m = c.features.length
  const seen = c.features.map((f) => new Array<boolean>(f.values.length).fill(false))
  let total = 0
  c.types.forEach((t, i) => {
    const p = `${path}.types[${i}]`
    if (!Array.isArray(t) || t.length !== m + 1) badDraw(p, `a type is ${m} value indices and a count`, 'write [t_0, …, t_m-1, n]')
    t.forEach((x, f) => {
      if (!Number.isSafeInteger(x) || x < 0 || (f < m && x >= c.features[f]!.values.length)) badDraw(`${p}[${f}]`, f < m ? `value index ${String(x)} is not a value of ${JSON.stringify(c.features[f]!.name)}` : 'bad count', 'use value indices in range')
      if (f < m) seen[f]![x] = true
    })
    const n = t[m]!
    if (n < 1) badDraw(`${p}[${m}]`, 'a type has at least one respondent', 'omit empty types')
    if (i > 0 && compareTypes(c.types[i - 1]!, t, m) >= 0) badDraw(p, 'types must be in lexicographic order, each once', 'sort the types')
    total += n
  })
  seen.forEach((s, f) =>
    s.forEach((x, j) => {
      if (!x) badDraw(`${path}.features[${f}].values[${j}]`, `no respondent type has ${JSON.stringify(c.features[f]!.name)}=${JSON.stringify(c.features[f]!.values[j])}`, 'list only values some respondent has')
    }),
  )
  if (total !== participantCount) badDraw(`${path}.types`, `the types count ${total} respondents, the commitment ${participantCount} participants`, 'commit the per-type counts of the committed list')
}

function compareTypes(a: readonly number[], b: readonly number[], m: number): number {
  for (let f = 0; f < m; f++) if (a[f] !== b[f]) return a[f]! - b[f]!
  return 0
}

/** The pool rebuilt from a composition: respondent `i` is committed participant `i` (id = its index). */
export function compositionPool(c: SortitionComposition): SortitionPool {
  const m = c.features.length
  const respondents: Respondent[] = []
  for (const t of c.types) {
    const type = t.slice(0, m)
    for (let j = 0; j < t[m]!; j++) respondents.push({ id: String(respondents.length), type })
  }
  return { features: c.features.map((f) => ({ name: f.name, values: f.values })), respondents }
}

/** The quota table of a composition. */
export function compositionQuotas(c: SortitionComposition): QuotaTable {
  return { min: c.features.map((f) => f.min), max: c.features.map((f) => f.max) }
}

/** `feature=value|…` of a type (value indices), the tail of an entry and the name of a type. */
export function typeText(features: readonly { readonly name: string; readonly values: readonly string[] }[], type: readonly number[]): string {
  // A plain loop (no closure, no array to join): it runs once per type, in `commit` and again in the draw.
  let out = ''
  for (let i = 0; i < features.length; i++) {
    const f = features[i]!
    out += `${i === 0 ? '' : SEPARATOR}${f.name}=${f.values[type[i]!]}`
  }
  return out
}

/**
 * The committed entry of a respondent: `id|feature=value|…`, features in canonical order.
 * @category Sortition
 */
export function sortitionEntry(features: readonly { readonly name: string; readonly values: readonly string[] }[], id: string, type: readonly number[]): string {
  return `${id}${SEPARATOR}${typeText(features, type)}`
}

/**
 * The committed composition and participants of a pool: the types in lexicographic order with their
 * counts, the entries in (type, id) order, and `order[i]` = the pool index of participant `i`.
 * @throws {@link InvalidInputError} `SORTITION_POOL_INVALID` when an id contains `|`, or a feature
 *   name `|` or `=`, or a value `|` (the entries' separators).
 */
export function poolParticipants(pool: SortitionPool): { types: number[][]; entries: string[]; order: number[] } {
  pool.features.forEach((f) => {
    if (f.name.includes(SEPARATOR) || f.name.includes('=')) throw new InvalidInputError('SORTITION_POOL_INVALID', `feature ${JSON.stringify(f.name)} contains "|" or "=", which the committed entries use as separators`, 'rename the column')
    for (const x of f.values) if (x.includes(SEPARATOR)) throw new InvalidInputError('SORTITION_POOL_INVALID', `value ${JSON.stringify(x)} of ${JSON.stringify(f.name)} contains "|", which the committed entries use as a separator`, 'rename the value')
  })
  const m = pool.features.length
  for (const r of pool.respondents) if (r.id.includes(SEPARATOR)) throw new InvalidInputError('SORTITION_POOL_INVALID', `respondent id ${JSON.stringify(r.id)} contains "|", which the committed entries use as a separator`, 'use ids without "|"')
  // The pool is sorted by id, and the sort is stable: within a type, ids stay in code-point order.
  const order = typeOrder(pool, m)
  const types: number[][] = []
  const entries: string[] = []
  let tail = ''
  for (const i of order) {
    const r = pool.respondents[i]!
    const last = types.at(-1)
    if (last !== undefined && compareTypes(last, r.type, m) === 0) last[m]!++
    else {
      types.push([...r.type, 1])
      // The tail of every entry of this type: built once per type.
      tail = typeText(pool.features, r.type)
    }
    entries.push(r.id + SEPARATOR + tail)
  }
  return { types, entries, order }
}

/**
 * The pool's indices in (type, index) order: a stable sort of the respondents by type. Each is keyed
 * `type · n + i` (the type as a mixed-radix number, the first feature most significant) in a
 * `Float64Array`, sorted without a comparator: in a fresh process the comparator sort over `compareTypes`
 * took 20–35 ms for 2,000 respondents (its first runs and recompiles), this about 1 ms. When a key could
 * pass 2^53, or a value index is out of its feature's range, the comparator sort runs as before.
 */
function typeOrder(pool: SortitionPool, m: number): number[] {
  const { respondents, features } = pool
  const n = respondents.length
  let product = n
  for (const f of features) product *= f.values.length
  keyed: if (product <= Number.MAX_SAFE_INTEGER) {
    const keys = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      const t = respondents[i]!.type
      let x = 0
      for (let f = 0; f < m; f++) {
        const v = t[f]!
        if (!(Number.isInteger(v) && v >= 0 && v < features[f]!.values.length)) break keyed
        x = x * features[f]!.values.length + v
      }
      keys[i] = x * n + i
    }
    keys.sort()
    const order = new Array<number>(n)
    for (let x = 0; x < n; x++) order[x] = keys[x]! % n
    return order
  }
  const order = respondents.map((_, i) => i)
  order.sort((a, b) => compareTypes(respondents[a]!.type, respondents[b]!.type, m))
  return order
}

/** The features with their quotas, from a pool and its quota table. */
export function featureSpecs(pool: SortitionPool, table: QuotaTable): SortitionFeatureSpec[] {
  return pool.features.map((f, i) => ({ name: f.name, values: f.values, min: table.min[i]!, max: table.max[i]! }))
}

/** The quota rows of a composition as `QuotaRow`s (feature, value, min, max). */
export function compositionRows(c: SortitionComposition): QuotaRow[] {
  return c.features.flatMap((f) => f.values.map((value, j) => ({ feature: f.name, value, min: f.min[j]!, max: f.max[j]! })))
}

/** The quota table of an outcome: every value with its quota and its selected members. */
export function quotaTable(c: SortitionComposition, pool: SortitionPool, members: readonly number[]): QuotaRowJson[] {
  return c.features.flatMap((f, fi) => {
    const cnt = new Array<number>(f.values.length).fill(0)
    for (const i of members) {
      const r = pool.respondents[i]
      if (r !== undefined) cnt[r.type[fi]!]!++
    }
    return f.values.map((value, j) => ({ feature: f.name, value, min: f.min[j]!, max: f.max[j]!, selected: cnt[j]! }))
  })
}

/** The first difference between two quota tables, or undefined. */
export function compareQuotaTables(e: readonly QuotaRowJson[], c: readonly QuotaRowJson[]): string | undefined {
  if (e.length !== c.length) return `the quota table has ${e.length} rows, the proof claims ${c.length}`
  for (let i = 0; i < e.length; i++) {
    const x = e[i]!
    const y = c[i]!
    if (x.feature !== y.feature || x.value !== y.value || x.min !== y.min || x.max !== y.max || x.selected !== y.selected) {
      return `quota row ${i + 1} is ${JSON.stringify(x.feature)}=${JSON.stringify(x.value)} ${x.min}..${x.max}, ${x.selected} selected; the proof claims ${JSON.stringify(y.feature)}=${JSON.stringify(y.value)} ${y.min}..${y.max}, ${y.selected} selected`
    }
  }
  return undefined
}

/** Where each type's range of committed indices starts (prefix sums; one more than the types). */
function starts(c: SortitionComposition): number[] {
  const m = c.features.length
  const s = [0]
  for (const t of c.types) s.push(s.at(-1)! + t[m]!)
  return s
}

/**
 * The first problem of committed entries against a composition, or undefined: each entry must be
 * `id|feature=value|…` with the values of the type its index falls in. With `full` (the whole list in
 * committed order) the ids must also be unique and in code-point order within each type; otherwise
 * (revealed entries only) unique among those given.
 */
export function entriesProblem(c: SortitionComposition, rows: readonly { readonly index: number; readonly entry: string }[], full: boolean): string | undefined {
  const s = starts(c)
  const n = s.at(-1)!
  const ids = new Map<string, number>()
  let type = 0
  let prevId: string | undefined
  // The expected tail of the last type seen (entries come type by type): built once per type.
  let tailType = -1
  let tail = ''
  for (const { index, entry } of rows) {
    if (!Number.isSafeInteger(index) || index < 0 || index >= n) return `entry ${JSON.stringify(entry)} is at index ${index}, outside the ${n} committed respondents`
    if (full) {
      while (s[type + 1]! <= index) {
        type++
        prevId = undefined
      }
    } else {
      let lo = 0
      let hi = c.types.length - 1
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1
        if (s[mid]! <= index) lo = mid
        else hi = mid - 1
      }
      type = lo
    }
    if (type !== tailType) {
      tail = typeText(c.features, c.types[type]!)
      tailType = type
    }
    const cut = entry.indexOf(SEPARATOR)
    const id = cut < 0 ? '' : entry.slice(0, cut)
    if (cut <= 0 || entry.slice(cut + 1) !== tail) return `entry ${index} ${JSON.stringify(entry)} is not "<id>|${tail}", the type the per-type counts give index ${index}`
    const other = ids.get(id)
    if (other !== undefined) return `respondent id ${JSON.stringify(id)} appears at indices ${other} and ${index}`
    ids.set(id, index)
    if (full) {
      if (prevId !== undefined && compareCodePoints(prevId, id) >= 0) return `entry ${index}: within a type the ids must be in code-point order (${JSON.stringify(prevId)} before ${JSON.stringify(id)})`
      prevId = id
    }
  }
  return undefined
}

/** The ranked rows of members (rank = position in the list). */
export function memberRows(indices: readonly number[], entry: (index: number) => string): RankedJson[] {
  return indices.map((index, i) => ({ rank: i + 1, index, entry: entry(index) }))
}

