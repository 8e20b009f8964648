/**
 * Draw kind `preference-lottery` (Bloom Housing-shaped): one uniform rank over every application (a
 * shuffle); applications claim committed preference categories through their committed columns; the
 * categories, in their committed priority order, fill their set-aside units with their claimants by
 * rank among those not yet allocated; the units left go to the general pool by rank (docs/spec.md,
 * Preference lottery). The participants are a list with columns, as for `stages`.
 *
 * Declared once with `defineKind`: the fields below are the spec's and the outcome's type, JSON Schema
 * and parser; what they cannot say (names, non-empty filters on the columns, the set-asides within the
 * units) is the named refinement `validatePreferences`.
 *
 * @module
 */
import { drawPreferences } from '../allocation/preference.js'
import { InvalidInputError } from '../errors.js'
import { LIMITS } from '../limits.js'
import { SORTITION_LIMITS, type SortitionPool } from '../sortition/pool.js'
import { bulkList, declaredAs, described, integer, list, strictObject, text } from '../schema/kit.js'
import { columnsEntriesProblem, columnsFields, columnsOfPool, describeWhere, entryTypes, typesPassing, validateColumns, validateWhere, whereShape } from './columns.js'
import { defineKind, type Declared } from './define.js'
import { badDraw, intFlagValue, type DisplaySection, type OutcomeJsonOf, type RankedJson, type SectionsDisplay, type SpecOf } from './kind.js'
import { compareRankedRows, rankedRowsCheck, rankedRowsChecked, rankedShape } from './ranked.js'
import { ALLOCATION_LIMITS, canonicalWhere, nameCheck } from './stages.js'

/** Committed indices (every application in rank order, or a category's claimants), checked in one loop. */
const indexList = list(integer(0), SORTITION_LIMITS.maxPoolSize)
const indexRows = bulkList(integer(0), SORTITION_LIMITS.maxPoolSize, { accept: (x) => Number.isSafeInteger(x) && (x as number) >= 0 }, indexList)

/** The spec's fields besides `kind`: the committed columns, the units, the categories in priority order. */
const preferenceFields = {
  ...columnsFields,
  units: described(declaredAs(integer(1), integer(1, LIMITS.maxDrawCount)), 'Total units.'),
  categories: described(list(strictObject({ name: text(), where: whereShape, units: integer(1) }), ALLOCATION_LIMITS.maxCategories), 'The preference categories in priority order: who claims each (a filter on the columns) and its set-aside units.'),
}

/**
 * The outcome's fields besides `kind`. A category's `units` is parsed as any whole number (a claimed
 * 0 is a wrong outcome, which check `outcome` names) and published as it is in a valid proof.
 */
const preferenceOutcomeFields = {
  order: described(indexRows, 'Every application (committed index) in rank order: the first has rank 1.'),
  categories: list(strictObject({ name: text(), units: declaredAs(integer(0), integer(1)), ranked: described(indexRows, 'Its claimants in rank order.'), winners: described(rankedRowsChecked(list(rankedShape, LIMITS.maxParticipants)), 'Its allocated claimants; rank = global rank.') }), ALLOCATION_LIMITS.maxCategories),
  general: strictObject({ units: described(integer(0), 'The units left for the general pool.'), winners: rankedRowsCheck }),
}

/** The spec as declared (what {@link PreferenceLotterySpec} names, for the rules the kind's declaration uses). */
type Spec = Declared<'preference-lottery', typeof preferenceFields>

/**
 * A `preference-lottery` draw: the committed columns, the total `units` (what the categories do not
 * fill goes to the general pool) and the `categories` in priority order. Make one with
 * {@link preferenceLotteryDraw}.
 * @category Allocation
 */
export type PreferenceLotterySpec = SpecOf<typeof preferenceLotteryKind>

/**
 * One committed preference category: its `name` (unique in the draw), who claims it (`where`: the
 * applications that pass this filter on the committed columns) and its set-aside `units`.
 * @category Allocation
 */
export type PreferenceCategorySpec = PreferenceLotterySpec['categories'][number]

/**
 * A `preference-lottery` outcome as carried in a proof. `order` and each category's `ranked` are
 * committed indices only (no entry text, so a private list stays private); winners are ranked rows whose
 * `rank` is the global rank.
 * @category Allocation
 */
export type PreferenceLotteryOutcomeJson = OutcomeJsonOf<typeof preferenceLotteryKind>

/**
 * A computed `preference-lottery` outcome (committed indices).
 * @category Allocation
 */
export interface PreferenceLotteryOutcome {
  readonly kind: 'preference-lottery'
  /** Every application in rank order. */
  readonly order: readonly number[]
  readonly categories: readonly { readonly name: string; readonly units: number; readonly ranked: readonly number[]; readonly winners: readonly number[] }[]
  readonly general: { readonly units: number; readonly winners: readonly number[] }
}

/**
 * A category as an organizer writes it.
 * @category Allocation
 */
export interface PreferenceCategoryInput {
  readonly name: string
  /** Column → the values that claim it. */
  readonly where: { readonly [column: string]: readonly string[] }
  readonly units: number
}

/**
 * Builds what `commit` needs for a `preference-lottery` draw from a list with columns and the
 * categories in priority order.
 * @throws {@link InvalidInputError} `INVALID_DRAW`, `SORTITION_POOL_INVALID`.
 * @example
 * ```ts
 * const pool = parsePoolCsv('id,local,disability\na1,yes,no\na2,no,yes\na3,no,no\n')
 * const { draw, participants } = preferenceLotteryDraw(pool, [{ name: 'disability', where: { disability: ['yes'] }, units: 1 }], 2)
 * ```
 * @category Allocation
 */
export function preferenceLotteryDraw(pool: SortitionPool, categories: readonly PreferenceCategoryInput[], units: number): { draw: PreferenceLotterySpec; participants: string[] } {
  return buildPreferences(pool, categories, units)
}

/** {@link preferenceLotteryDraw}, typed by the declaration (the CLI facet's build uses it inside the kind's own declaration). */
function buildPreferences(pool: SortitionPool, categories: readonly PreferenceCategoryInput[], units: number): { draw: Spec; participants: string[] } {
  const { columns, participants } = columnsOfPool(pool)
  const spec: Spec = { kind: 'preference-lottery', ...columns, units, categories: categories.map((c) => ({ name: c.name, where: canonicalWhere(columns, c.where), units: c.units })) }
  preferenceLotteryKind.validate(spec, participants.length, '$.draw')
  return { draw: spec, participants }
}

/**
 * Reads `--preferences`: `NAME:UNITS` or `COLUMN=VALUE:UNITS`, comma-separated, in priority order. `NAME`
 * alone is a column whose value `yes` claims the category.
 * @throws {@link InvalidInputError} `INVALID_FLAG`.
 * @category Allocation
 */
export function parsePreferencesFlag(text: string): PreferenceCategoryInput[] {
  const parts = text.split(',').map((s) => s.trim()).filter((s) => s !== '')
  if (parts.length === 0) throw new InvalidInputError('INVALID_FLAG', '--preferences names no category', 'write e.g. --preferences disability:4,local:20')
  return parts.map((p) => {
    const m = /^([^:=]+?)(?:=([^:]+))?:([0-9]+)$/.exec(p)
    if (m === null) throw new InvalidInputError('INVALID_FLAG', `--preferences: ${JSON.stringify(p)} is not COLUMN:UNITS or COLUMN=VALUE:UNITS`, 'write e.g. --preferences disability:4,local=yes:20')
    const column = m[1]!.trim()
    const value = m[2]?.trim() ?? 'yes'
    return { name: m[2] === undefined ? column : `${column}=${value}`, where: { [column]: [value] }, units: Number(m[3]) }
  })
}

function rows(indices: readonly number[], rankOf: (i: number) => number, entry: (i: number) => string): RankedJson[] {
  return indices.map((index) => ({ rank: rankOf(index), index, entry: entry(index) }))
}

function compareIndices(what: string, e: readonly number[], c: readonly number[]): string | undefined {
  if (e.length !== c.length) return `${what}: ${e.length} applications expected, ${c.length} claimed`
  const i = e.findIndex((x, j) => x !== c[j])
  return i < 0 ? undefined : `${what}: position ${i + 1} is application ${e[i]}, the proof claims ${c[i]}`
}

/**
 * The rules of a `preference-lottery` spec beyond its fields: the columns against the participants, the
 * units within the limit, 1 to 16 categories, each with a valid unique name and a non-empty filter on
 * the columns, their set-asides within the units.
 */
function validatePreferences(spec: Spec, n: number, path: string): void {
  validateColumns(spec, n, path)
  if (!Number.isSafeInteger(spec.units) || spec.units < 1 || spec.units > LIMITS.maxDrawCount) badDraw(`${path}.units`, `units must be 1 to ${LIMITS.maxDrawCount}, got ${String(spec.units)}`, 'allocate at least one unit')
  if (!Array.isArray(spec.categories) || spec.categories.length < 1 || spec.categories.length > ALLOCATION_LIMITS.maxCategories) badDraw(`${path}.categories`, `1 to ${ALLOCATION_LIMITS.maxCategories} categories are needed`, 'commit the preference categories in priority order')
  const names = new Set<string>()
  let setAside = 0
  spec.categories.forEach((c, i) => {
    const p = `${path}.categories[${i}]`
    nameCheck(c.name, `${p}.name`)
    if (names.has(c.name)) badDraw(`${p}.name`, `two categories are named ${JSON.stringify(c.name)}`, 'name each category once')
    names.add(c.name)
    validateWhere(spec, c.where, `${p}.where`)
    if (c.where.length === 0) badDraw(`${p}.where`, 'a category is claimed through at least one condition', 'say which column and value claim it')
    if (!Number.isSafeInteger(c.units) || c.units < 1) badDraw(`${p}.units`, `units must be a whole number >= 1, got ${String(c.units)}`, 'set aside at least one unit')
    setAside += c.units
  })
  if (setAside > spec.units) badDraw(`${path}.units`, `the categories set aside ${setAside} units, more than the ${spec.units} in all`, 'raise units or lower the set-asides')
}

/** The applications a spec ranks: its types' counts (its committed participants). */
function applications(spec: { readonly features: readonly unknown[]; readonly types: readonly (readonly number[])[] }): number {
  return spec.types.reduce((a, t) => a + t[spec.features.length]!, 0)
}

/**
 * The `preference-lottery` kind.
 * @category Allocation
 */
export const preferenceLotteryKind = defineKind({
  name: 'preference-lottery',
  draw: preferenceFields,
  outcome: preferenceOutcomeFields,
  compute(stream, spec): PreferenceLotteryOutcome {
    const r = drawPreferences(stream, entryTypes(spec), spec.categories.map((c) => ({ claims: typesPassing(spec, c.where), units: c.units })), spec.units)
    return {
      kind: 'preference-lottery',
      order: Array.from(r.order),
      categories: r.categories.map((c, i) => ({ name: spec.categories[i]!.name, units: spec.categories[i]!.units, ranked: c.ranked, winners: c.winners })),
      general: { units: r.general.units, winners: r.general.winners },
    }
  },
  toJson(o, entry) {
    const rank = new Map<number, number>()
    const rankOf = (i: number): number => {
      if (rank.size === 0) o.order.forEach((x, k) => rank.set(x, k + 1))
      return rank.get(i)!
    }
    return {
      kind: 'preference-lottery',
      order: [...o.order],
      categories: o.categories.map((c) => ({ name: c.name, units: c.units, ranked: [...c.ranked], winners: rows(c.winners, rankOf, entry) })),
      general: { units: o.general.units, winners: rows(o.general.winners, rankOf, entry) },
    }
  },
  winnersOnly: { count: (spec) => Math.min(spec.units, applications(spec)), winners: (o) => [...o.categories.flatMap((c) => c.winners), ...o.general.winners], upTo: true },
  rules: {
    validate: validatePreferences,
    checkEntries: (spec, rows, full) => columnsEntriesProblem(spec, rows, full),
    // The outcome ranks every application: a proof carries the claimed size before verify ranks it
    // (a winners-only proof may reveal no entry, so the revealed entries bound nothing).
    carried(spec, claimed) {
      const n = applications(spec)
      const carried = claimed?.order.length ?? 0
      return carried === n ? undefined : `the commitment ranks ${n} application(s) but the proof's outcome carries ${carried}`
    },
    compare(e, c) {
      const d = compareIndices('the global rank', e.order, c.order)
      if (d !== undefined) return d
      if (e.categories.length !== c.categories.length) return `${e.categories.length} categories expected, ${c.categories.length} claimed`
      for (let i = 0; i < e.categories.length; i++) {
        const x = e.categories[i]!
        const y = c.categories[i]!
        const at = `category ${i + 1} (${JSON.stringify(x.name)})`
        if (x.name !== y.name || x.units !== y.units) return `${at}: ${x.units} units; the proof claims ${JSON.stringify(y.name)} with ${y.units}`
        const r = compareIndices(`${at}, ranked list`, x.ranked, y.ranked) ?? compareRankedRows(x.winners, y.winners)
        if (r !== undefined) return r.startsWith(at) ? r : `${at}: ${r}`
      }
      if (e.general.units !== c.general.units) return `the general pool has ${e.general.units} units, the proof claims ${c.general.units}`
      const r = compareRankedRows(e.general.winners, c.general.winners)
      return r === undefined ? undefined : `general pool: ${r}`
    },
  },
  view: {
    describeOutcome: (o) => `${o.order.length} applications ranked; ${o.categories.map((c) => `${JSON.stringify(c.name)} ${c.winners.length} of ${c.units}`).join(', ')}, general pool ${o.general.winners.length} of ${o.general.units}; every allocation follows from the seed`,
    describe: (spec, n) => `preference lottery: ${spec.units} units${n === undefined ? '' : ` among ${n} applications`}, one rank for all; set-asides in priority order: ${spec.categories.map((c) => `${JSON.stringify(c.name)} ${c.units} (${describeWhere(c.where)})`).join(', ')}; the rest to the general pool`,
    display(o): SectionsDisplay {
      const sections: DisplaySection[] = [
        {
          layout: 'table',
          title: 'Allocation',
          note: `categories in priority order; one rank over all ${o.order.length} applications (the proof's "order"); unfilled set-asides go to the general pool`,
          columns: [{ label: 'Category' }, { label: 'Units', align: 'right' }, { label: 'Claimants', align: 'right' }, { label: 'Allocated', align: 'right' }],
          rows: [...o.categories.map((c) => [c.name, String(c.units), String(c.ranked.length), String(c.winners.length)]), ['general pool', String(o.general.units), String(o.order.length), String(o.general.winners.length)]],
        },
        ...o.categories.map((c): DisplaySection => ({ layout: 'ranked', title: `${c.name} (${c.winners.length} of ${c.units})`, note: 'rank = global rank', rows: c.winners })),
        { layout: 'ranked', title: `General pool (${o.general.winners.length} of ${o.general.units})`, note: 'rank = global rank', rows: o.general.winners },
      ]
      return { layout: 'sections', title: `Preference lottery: ${o.categories.reduce((a, c) => a + c.winners.length, 0) + o.general.winners.length} units allocated`, sections }
    },
  },
  cli: {
    flag: 'preferences',
    options: { preferences: 'string', units: 'string' },
    usage: '--preferences CATEGORIES --units N --participants FILE.csv',
    help: '  --preferences CATEGORIES --units N --participants FILE.csv\n                           preference lottery: one rank for all; CATEGORIES in priority order,\n                           COLUMN:UNITS or COLUMN=VALUE:UNITS (value "yes" by default), e.g. disability:4,local:20',
    fromFlags: () => {
      throw new InvalidInputError('INVALID_FLAG', '--preferences needs --participants FILE.csv', 'add --participants applications.csv')
    },
    files: { participants: 'sortition-pool' },
    build(flags, files) {
      const pool = files.participants as SortitionPool | undefined
      if (pool === undefined) throw new InvalidInputError('INVALID_FLAG', '--preferences needs --participants FILE.csv', 'add --participants applications.csv')
      const units = intFlagValue(flags, 'units', 1)
      if (units === undefined) throw new InvalidInputError('INVALID_FLAG', '--preferences needs --units N (the total units)', 'add e.g. --units 40')
      return buildPreferences(pool, parsePreferencesFlag(String(flags.preferences ?? '')), units)
    },
  },
})
