/**
 * Draw kind `stages`: one commitment, one seed, ordered stages over a list with committed columns (as a
 * sortition pool: `id|column=value|…` in (type, id) order). Each stage is a uniform pick or a weighted
 * draw (weights by the value of one column), its count absolute or a rounded fraction of its eligible
 * entries; its eligible entries pass its filter on the columns and were not selected by an earlier stage
 * (docs/spec.md, Stages). H-1B-shaped allocations, prize tiers, rehearsal-then-main draws.
 *
 * Declared once with `defineKind`: the fields below are the spec's and the outcome's type, JSON Schema
 * and parser; what they cannot say (names, a count or a fraction, weights against their column, filters
 * against the columns, the total) are the named refinements under "Rules".
 *
 * @module
 */
import * as v from 'valibot'
import { drawStages, stageTarget, type StageRounding, type StageRule } from '../allocation/stages.js'
import { InvalidInputError } from '../errors.js'
import { LIMITS } from '../limits.js'
import type { SortitionPool } from '../sortition/pool.js'
import { declaredAs, described, expected, integer, list, strictObject, text } from '../schema/kit.js'
import { defineKind, type Declared } from './define.js'
import {
  columnsEntriesProblem,
  columnsFields,
  columnsOfPool,
  describeWhere,
  entryTypes,
  typeCounts,
  typesPassing,
  validateColumns,
  validateWhere,
  whereShape,
  type ColumnsSpec,
  type WhereCondition,
} from './columns.js'
import { badDraw, type DisplaySection, type OutcomeJsonOf, type SectionsDisplay, type SpecOf } from './kind.js'
import { compareRankedRows, rankedRows, rankedRowsCheck } from './ranked.js'

/**
 * Protocol limits of the allocation kinds (docs/spec.md, Stages and Preference lottery).
 * @category Allocation
 */
export const ALLOCATION_LIMITS = {
  /** Most stages of a `stages` draw. */
  maxStages: 16,
  /** Most preference categories of a `preference-lottery` draw. */
  maxCategories: 16,
  /** Largest denominator of a stage's fraction, and largest weight. */
  maxDenominator: 1_000_000,
  /** Largest weight of a value in a weighted stage. */
  maxWeight: 1_000_000,
  /** Longest stage or category name, in UTF-16 code units. */
  maxNameLength: 64,
} as const

/**
 * The fields of a stage. A bound that the rules check (a count, a denominator, a weight) is parsed
 * without it and published with it (`declaredAs`): a committed stage over a bound is refused by its
 * rule, `INVALID_DRAW` at the field, as every kind's limits are.
 */
const stageFields = {
  name: text(),
  method: v.picklist(['pick', 'weighted'], expected('"pick" or "weighted"')),
  count: v.optional(declaredAs(integer(1), integer(1, LIMITS.maxDrawCount))),
  fraction: v.optional(
    described(
      // [num, den]: a missing item is refused at its index, as the integer it should be.
      declaredAs(v.pipe(list(v.unknown(), 2), v.tuple([integer(1), integer(1)])), v.pipe(list(integer(1, ALLOCATION_LIMITS.maxDenominator), 2), v.minLength(2))),
      '[num, den]: num/den of the eligible entries, 1 <= num <= den.',
    ),
  ),
  rounding: v.optional(v.picklist(['down', 'up', 'nearest'], expected('"down", "up" or "nearest"'))),
  where: whereShape,
  weightBy: v.optional(text()),
  weights: v.optional(declaredAs(list(integer(1), 64), list(integer(1, ALLOCATION_LIMITS.maxWeight), 64))),
}

/** The spec's fields besides `kind`: the committed columns and the stages in draw order. */
const stagesFields = {
  ...columnsFields,
  stages: described(list(strictObject(stageFields), ALLOCATION_LIMITS.maxStages), 'The stages in draw order.'),
}

/** The outcome's fields besides `kind`. */
const stagesOutcomeFields = {
  stages: described(
    list(strictObject({ name: text(), eligible: integer(0), target: integer(0), winners: rankedRowsCheck }), ALLOCATION_LIMITS.maxStages),
    'Per stage: its eligible entries (after excluding earlier winners), its target count, its winners.',
  ),
}

/** The spec as declared (what {@link StagesSpec} names, for the rules the kind's declaration uses). */
type Spec = Declared<'stages', typeof stagesFields>

/**
 * A `stages` draw: the committed columns and the stages in order. Make one with {@link stagesDraw}.
 * @category Allocation
 */
export type StagesSpec = SpecOf<typeof stagesKind>

/**
 * One committed stage: its `name` (unique in the draw), its `method` (`pick`, uniform, or `weighted`
 * by `weightBy`), exactly one of `count` and `fraction` (`[num, den]` of the stage's eligible entries,
 * rounded by `rounding`), its filter `where` on committed columns (`[]`: every entry), and for a
 * weighted stage its column `weightBy` and `weights`, one positive integer per value of that column in
 * the column's order.
 * @category Allocation
 */
export type StageSpec = StagesSpec['stages'][number]

/** A stage as declared (what {@link StageSpec} names, for the rules). */
type Stage = Spec['stages'][number]

/**
 * A `stages` outcome as carried in a proof: per stage, its eligible count, its target count and its
 * winners (rank 1 first).
 * @category Allocation
 */
export type StagesOutcomeJson = OutcomeJsonOf<typeof stagesKind>

/**
 * A computed `stages` outcome.
 * @category Allocation
 */
export interface StagesOutcome {
  readonly kind: 'stages'
  readonly stages: readonly { readonly name: string; readonly eligible: number; readonly target: number; readonly winners: readonly number[] }[]
}

/**
 * A stage as an organizer writes it (the stages file): filters and weights by column and value names.
 * @category Allocation
 */
export interface StageInput {
  readonly name: string
  readonly method: 'pick' | 'weighted'
  /** A whole number, or a fraction of the eligible with its rounding. */
  readonly count: number | { readonly fraction: readonly [number, number]; readonly rounding: StageRounding }
  /** Column → the values that pass (all conditions must hold). */
  readonly where?: { readonly [column: string]: readonly string[] }
  /** A weighted stage's column. */
  readonly weightBy?: string
  /** A weighted stage's weight of every value of `weightBy`. */
  readonly weights?: { readonly [value: string]: number }
}

/** Checks a stage's or a category's name: 1 to 64 UTF-16 units, no control character, no surrounding space. */
export function nameCheck(s: unknown, path: string): void {
  const control = typeof s === 'string' && [...s].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)
  if (typeof s !== 'string' || s.length < 1 || s.length > ALLOCATION_LIMITS.maxNameLength || s.trim() !== s || control) badDraw(path, `a name is 1 to ${ALLOCATION_LIMITS.maxNameLength} characters, without control characters or surrounding spaces`, 'rename it')
}

/**
 * The canonical `where` of a column → values map: conditions sorted by column, values in the column's
 * order (unknown ones kept, for `validate` to name).
 */
export function canonicalWhere(columns: ColumnsSpec, where: { readonly [column: string]: readonly string[] } | undefined): WhereCondition[] {
  const byName = new Map(columns.features.map((f) => [f.name, f.values]))
  return Object.entries(where ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([feature, values]) => {
      const order = byName.get(feature) ?? []
      return { feature, values: [...new Set(values)].sort((a, b) => order.indexOf(a) - order.indexOf(b)) }
    })
}

// Rules: what the fields cannot say.

/** A stage's count: a count within the limit, or a fraction `num <= den` with its rounding. */
function checkStageCount(s: Stage, p: string): void {
  if ((s.count === undefined) === (s.fraction === undefined)) badDraw(p, 'a stage has a count or a fraction, not both or neither', 'give count: N or fraction: [num, den] with rounding')
  if (s.count !== undefined) {
    if (!Number.isSafeInteger(s.count) || s.count < 1 || s.count > LIMITS.maxDrawCount) badDraw(`${p}.count`, `count must be 1 to ${LIMITS.maxDrawCount}, got ${String(s.count)}`, 'draw at least one winner')
    if (s.rounding !== undefined) badDraw(`${p}.rounding`, 'rounding goes with a fraction only', 'drop rounding')
    return
  }
  const f = s.fraction!
  if (!Array.isArray(f) || f.length !== 2 || !f.every((x) => Number.isSafeInteger(x) && x >= 1 && x <= ALLOCATION_LIMITS.maxDenominator) || f[0]! > f[1]!) badDraw(`${p}.fraction`, `a fraction is [num, den] with 1 <= num <= den <= ${ALLOCATION_LIMITS.maxDenominator}`, 'write e.g. [1, 3]')
  if (s.rounding !== 'down' && s.rounding !== 'up' && s.rounding !== 'nearest') badDraw(`${p}.rounding`, 'a fraction needs rounding "down", "up" or "nearest"', 'state how the count is rounded')
}

/** A stage's weights: none for a pick; for a weighted stage a committed column and one weight in bounds per value of it. */
function checkStageWeights(spec: Spec, s: Stage, p: string): void {
  if (s.method === 'pick') {
    if (s.weightBy !== undefined || s.weights !== undefined) badDraw(`${p}.weightBy`, 'a pick stage has no weights', 'drop weightBy and weights, or make the stage weighted')
    return
  }
  const col = spec.features.find((f) => f.name === s.weightBy)
  if (col === undefined) badDraw(`${p}.weightBy`, `a weighted stage names the committed column its weights follow (${spec.features.map((f) => f.name).join(', ')}), got ${JSON.stringify(s.weightBy)}`, 'weight by a committed column')
  if (!Array.isArray(s.weights) || s.weights.length !== col.values.length) badDraw(`${p}.weights`, `one weight per value of ${JSON.stringify(col.name)} (${col.values.length}) is needed`, 'give every value a weight')
  s.weights.forEach((w: number, j: number) => {
    if (!Number.isSafeInteger(w) || w < 1 || w > ALLOCATION_LIMITS.maxWeight) badDraw(`${p}.weights[${j}]`, `a weight is a whole number from 1 to ${ALLOCATION_LIMITS.maxWeight}, got ${String(w)}`, 'use positive whole weights (filter out what must not win)')
  })
}

/**
 * The rules of a `stages` spec beyond its fields: the columns against the participants, 1 to 16 stages,
 * each with a valid unique name, a count or a fraction, a filter on the columns and its weights, and at
 * most `LIMITS.maxDrawCount` winners in all.
 */
function validateStages(spec: Spec, n: number, path: string): void {
  validateColumns(spec, n, path)
  if (!Array.isArray(spec.stages) || spec.stages.length < 1 || spec.stages.length > ALLOCATION_LIMITS.maxStages) badDraw(`${path}.stages`, `1 to ${ALLOCATION_LIMITS.maxStages} stages are needed`, 'commit the stages')
  const names = new Set<string>()
  spec.stages.forEach((s, i) => {
    const p = `${path}.stages[${i}]`
    nameCheck(s.name, `${p}.name`)
    if (names.has(s.name)) badDraw(`${p}.name`, `two stages are named ${JSON.stringify(s.name)}`, 'name each stage once')
    names.add(s.name)
    if (s.method !== 'pick' && s.method !== 'weighted') badDraw(`${p}.method`, `method must be "pick" or "weighted", got ${JSON.stringify(s.method)}`, 'use pick or weighted')
    checkStageCount(s, p)
    validateWhere(spec, s.where, `${p}.where`)
    checkStageWeights(spec, s, p)
  })
  const total = stageMaxima(spec).reduce((a, b) => a + b, 0)
  if (total > LIMITS.maxDrawCount) badDraw(`${path}.stages`, `the stages draw up to ${total} winners, over ${LIMITS.maxDrawCount}`, 'draw fewer winners')
}

/**
 * The `stages` kind.
 * @category Allocation
 */
export const stagesKind = defineKind({
  name: 'stages',
  draw: stagesFields,
  outcome: stagesOutcomeFields,
  compute(stream, spec): StagesOutcome {
    const results = drawStages(stream, entryTypes(spec), rules(spec))
    return { kind: 'stages', stages: results.map((r, i) => ({ name: spec.stages[i]!.name, eligible: r.eligible, target: r.target, winners: r.winners })) }
  },
  toJson: (o, entry) => ({ kind: 'stages', stages: o.stages.map((s) => ({ name: s.name, eligible: s.eligible, target: s.target, winners: rankedRows(s.winners, entry) })) }),
  winnersOnly: { count: (spec) => stageMaxima(spec).reduce((a, b) => a + b, 0), fewest: (spec) => stageMinima(spec).reduce((a, b) => a + b, 0), winners: (o) => o.stages.flatMap((s) => s.winners), upTo: true },
  rules: {
    validate: validateStages,
    checkEntries: (spec, rows, full) => columnsEntriesProblem(spec, rows, full),
    compare(e, c) {
      if (e.stages.length !== c.stages.length) return `${e.stages.length} stages expected, ${c.stages.length} claimed`
      for (let i = 0; i < e.stages.length; i++) {
        const x = e.stages[i]!
        const y = c.stages[i]!
        const at = `stage ${i + 1} (${JSON.stringify(x.name)})`
        if (x.name !== y.name) return `${at}: the proof names it ${JSON.stringify(y.name)}`
        if (x.eligible !== y.eligible) return `${at}: ${x.eligible} entries are eligible, the proof claims ${y.eligible}`
        if (x.target !== y.target) return `${at}: its count is ${x.target}, the proof claims ${y.target}`
        const d = compareRankedRows(x.winners, y.winners)
        if (d !== undefined) return `${at}: ${d}`
      }
      return undefined
    },
  },
  view: {
    describeOutcome: (o) => `${o.stages.map((s) => `${JSON.stringify(s.name)}: ${s.winners.length} of ${s.eligible} eligible`).join('; ')}; every winner follows from the seed`,
    describe: (spec, n) => `${spec.stages.length} stage${spec.stages.length === 1 ? '' : 's'}${n === undefined ? '' : ` over ${n} entries`}, each excluding earlier winners: ${spec.stages.map(describeStage).join('; ')}`,
    display(o): SectionsDisplay {
      const sections: DisplaySection[] = [
        {
          layout: 'table',
          title: 'Stages',
          note: 'in draw order; a stage\'s eligible entries pass its filter and were not selected by an earlier stage',
          columns: [{ label: 'Stage' }, { label: 'Eligible', align: 'right' }, { label: 'Count', align: 'right' }, { label: 'Selected', align: 'right' }],
          rows: o.stages.map((s) => [s.name, String(s.eligible), String(s.target), String(s.winners.length)]),
        },
        ...o.stages.map((s, i): DisplaySection => ({ layout: 'ranked', title: `Stage ${i + 1}: ${s.name} (${s.winners.length})`, rows: s.winners })),
      ]
      return { layout: 'sections', title: `Staged draw: ${o.stages.reduce((a, s) => a + s.winners.length, 0)} selected in ${o.stages.length} stage${o.stages.length === 1 ? '' : 's'}`, sections }
    },
  },
  cli: {
    flag: 'stages',
    options: { stages: 'string' },
    usage: '--stages FILE --participants FILE.csv',
    help: '  --stages FILE --participants FILE.csv\n                           staged draw: the stages in FILE (CSV or JSON; docs/allocation.md), in order,\n                           over the participants CSV and its columns; earlier winners excluded',
    fromFlags: () => {
      throw new InvalidInputError('INVALID_FLAG', '--stages needs --participants FILE.csv', 'add --participants registrations.csv')
    },
    files: { stages: 'allocation-stages', participants: 'sortition-pool' },
    build(_flags, files) {
      const pool = files.participants as SortitionPool | undefined
      const stages = files.stages as StageInput[] | undefined
      if (pool === undefined || stages === undefined) throw new InvalidInputError('INVALID_FLAG', '--stages needs --participants FILE.csv', 'add --participants registrations.csv')
      return buildStages(pool, stages)
    },
  },
})

/**
 * Builds what `commit` needs for a `stages` draw from a list with columns (read as a sortition pool)
 * and the stages as written: the spec and the participants in (type, id) order.
 *
 * @throws {@link InvalidInputError} `INVALID_DRAW` naming the stage and its bad key, `SORTITION_POOL_INVALID`.
 * @example
 * ```ts
 * const pool = parsePoolCsv('id,degree,wage\nr1,advanced,IV\nr2,bachelor,I\n')
 * const { draw, participants } = stagesDraw(pool, [{ name: 'regular', method: 'pick', count: 1 }])
 * ```
 * @category Allocation
 */
export function stagesDraw(pool: SortitionPool, stages: readonly StageInput[]): { draw: StagesSpec; participants: string[] } {
  return buildStages(pool, stages)
}

/** {@link stagesDraw}, typed by the declaration (the CLI facet's build uses it inside the kind's own declaration). */
function buildStages(pool: SortitionPool, stages: readonly StageInput[]): { draw: Spec; participants: string[] } {
  const { columns, participants } = columnsOfPool(pool)
  const spec: Spec = {
    kind: 'stages',
    ...columns,
    stages: stages.map((s, i) => {
      const col = s.weightBy === undefined ? undefined : columns.features.find((f) => f.name === s.weightBy)
      if (s.method === 'weighted' && s.weightBy !== undefined && col === undefined) badDraw(`$.draw.stages[${i}].weightBy`, `stage ${JSON.stringify(s.name)}: ${JSON.stringify(s.weightBy)} is not a column of the list (${columns.features.map((f) => f.name).join(', ')})`, 'weight by a column of the participants file')
      if (col !== undefined && s.weights !== undefined) {
        for (const value of Object.keys(s.weights)) if (!col.values.includes(value)) badDraw(`$.draw.stages[${i}].weights`, `stage ${JSON.stringify(s.name)}: no entry has ${s.weightBy}=${JSON.stringify(value)}`, `weights are for the values of ${s.weightBy}: ${col.values.join(', ')}`)
      }
      const weights = col === undefined || s.weights === undefined ? undefined : col.values.map((value) => {
        const w = s.weights![value]
        if (w === undefined) badDraw(`$.draw.stages[${i}].weights`, `stage ${JSON.stringify(s.name)}: no weight for ${s.weightBy}=${JSON.stringify(value)}`, 'give every value of the column a weight')
        return w
      })
      return {
        name: s.name,
        method: s.method,
        ...(typeof s.count === 'number' ? { count: s.count } : { fraction: [s.count.fraction[0], s.count.fraction[1]] as const, rounding: s.count.rounding }),
        where: canonicalWhere(columns, s.where),
        ...(s.method === 'weighted' ? { weightBy: s.weightBy!, weights: weights ?? [] } : {}),
      }
    }),
  }
  stagesKind.validate(spec, participants.length, '$.draw')
  return { draw: spec, participants }
}

/** The sampler's rules of a spec. */
function rules(spec: Spec): StageRule[] {
  return spec.stages.map((s) => {
    const eligible = typesPassing(spec, s.where)
    const count = s.count !== undefined ? { count: s.count } : { num: s.fraction![0]!, den: s.fraction![1]!, rounding: s.rounding! }
    if (s.method === 'pick') return { method: 'pick', count, eligible }
    const f = spec.features.findIndex((x) => x.name === s.weightBy)
    return { method: 'weighted', count, eligible, weights: spec.types.map((t) => s.weights![t[f]!]!) }
  })
}

/** Per stage: the entries that pass its filter (`n_s`), before earlier winners are excluded. */
function stagePassing(spec: Spec): { rule: StageRule; passing: number }[] {
  const counts = typeCounts(spec)
  return rules(spec).map((rule) => ({ rule, passing: counts.reduce((a, n, t) => a + (rule.eligible[t] === true ? n : 0), 0) }))
}

/** A stage's winners for `e` eligible entries: `min(target(e), e)`, non-decreasing in `e`. */
const stageWinners = (rule: StageRule, e: number): number => Math.min(stageTarget(rule.count, e), e)

/** The most winners each stage can have: its count for every entry that passes its filter. */
export function stageMaxima(spec: Spec): number[] {
  return stagePassing(spec).map(({ rule, passing }) => stageWinners(rule, passing))
}

/**
 * The fewest winners each stage can have, whatever the seed: its count for `max(0, n_s − M_s)` eligible
 * entries, `M_s` the most winners of the stages before it (at most that many of its `n_s` were taken
 * earlier). A winners-only proof must reveal at least their sum (docs/spec.md, Stages).
 */
export function stageMinima(spec: Spec): number[] {
  let before = 0
  return stagePassing(spec).map(({ rule, passing }) => {
    const fewest = stageWinners(rule, Math.max(0, passing - before))
    before += stageWinners(rule, passing)
    return fewest
  })
}

function describeStage(s: Stage): string {
  const count = s.count !== undefined ? String(s.count) : `${s.fraction![0]}/${s.fraction![1]} (rounded ${s.rounding})`
  return `${JSON.stringify(s.name)}: ${s.method === 'weighted' ? `weighted by ${s.weightBy}` : 'pick'} ${count} of ${describeWhere(s.where)}`
}

