/**
 * Draw kind `panel`: a panel of `k` respondents drawn uniformly among all size-k subsets of the
 * committed pool that meet every quota, then up to `alternates` ranked alternates (the engine:
 * `src/core/sortition/`; the rules: docs/spec.md, Sortition). The participants are the pool in
 * canonical (type, id) order, each entry spelling out its values (`r0042|age=16-29|gender=female`);
 * the commitment carries the features, quotas, per-type counts and the exact features, so the draw
 * replays from the counts alone and a private (salted) list reveals only the panel and alternates.
 *
 * @module
 */
import * as v from 'valibot'
import { InvalidInputError } from '../errors.js'
import { drawAlternates } from '../sortition/alternates.js'
import { checkAlternatesCost } from '../sortition/cost.js'
import { checkPanelShape, dpOrder, drawPanel, PANEL_CHECK_NAMES, planPanel, selectionProbabilities, type PanelPlan } from '../sortition/panel.js'
import { checkQuotas, SORTITION_LIMITS, type QuotaRow, type SortitionPool } from '../sortition/pool.js'
import { declaredAs, described, integer, list, pattern, strictObject, text, type Infer } from '../schema/kit.js'
import { builtSpec, defineKind, type Declared } from './define.js'
import { badDraw, intFlagValue, type NamedCheck, type OutcomeJsonOf, type RankedJson, type SpecOf } from './kind.js'
import { commitHouseholds, householdRules, householdsField, householdsOption, householdsPlan, validateHouseholds, type PoolWithHouseholds } from './panel-households.js'
import { checkMethod, encodeMethod, maxRoundsField, methodKeys, methodOptions, planField } from './panel-method.js'
import { panelDisplay } from './sortition-display.js'
import {
  compareQuotaTables,
  compositionFields,
  compositionPool,
  compositionQuotas,
  encodeComposition,
  entriesProblem,
  featureSpecs,
  memberRows,
  memberRowsShape,
  poolParticipants,
  quotaTable,
  quotaTableShape,
  typeText,
  validateComposition,
  type Holds,
  type QuotaRowJson,
  type Same,
  type SortitionCommitInput,
} from './sortition.js'

export { methodOptions } from './panel-method.js'

/** A committed probability as the outcome carries it: a reduced fraction and its decimal (parsed by their patterns). */
const probabilityRow = strictObject({
  type: text(),
  respondents: integer(1),
  probability: pattern(/^(?:0|[1-9][0-9]*)\/[1-9][0-9]*$/, 'a fraction n/d'),
  decimal: pattern(/^[01]\.[0-9]{12}$/, 'a decimal with 12 digits'),
})

/**
 * The fields of a `panel` spec: the composition, the alternates, the exact features (their order
 * matters: docs/spec.md, Counting), the plan method and the household rule.
 */
const fields = {
  k: compositionFields.k,
  alternates: described(integer(0), 'Alternates wanted after the panel (0 for none). With any, the ranking\'s work bound (docs/spec.md, Work bound: alternates cost <= 2^32, computed from the pool size, k, the features and the household rule, whatever the number asked) must hold, else SORTITION_COST_LIMIT.'),
  exact: described(list(text(), SORTITION_LIMITS.maxFeatures), 'The exactly counted features, by name, in the counter\'s order. The plan\'s work bound (docs/spec.md, Work bound: count cost <= 2^27, key cost <= 2^27, draw cost <= 2^34, computed from the types, quotas, k and these features before any counting) must hold, else SORTITION_COST_LIMIT.'),
  features: compositionFields.features,
  types: compositionFields.types,
  plan: planField,
  maxRounds: maxRoundsField,
  households: householdsField,
}

/** The fields of a `panel` outcome. */
const outcomeFields = {
  members: memberRowsShape(SORTITION_LIMITS.maxPanelSize, 'The panel members in committed order (rank = position).'),
  alternates: memberRowsShape(SORTITION_LIMITS.maxPoolSize, 'The alternates in the order they are asked.'),
  rounds: declaredAs(integer(1), integer(1, SORTITION_LIMITS.maxRejectionRoundsV3)),
  quotas: quotaTableShape,
  probabilities: v.optional(
    declaredAs(
      list(probabilityRow, SORTITION_LIMITS.maxPoolSize),
      described(list(strictObject({ type: text(), respondents: integer(1), probability: text(), decimal: text() }), SORTITION_LIMITS.maxPoolSize), 'Exact selection probability of each respondent type (only when every feature is counted exactly).'),
    ),
  ),
}

type Spec = Declared<'panel', typeof fields>

/**
 * Exact selection probability of one respondent type under a `panel` draw.
 * @category Sortition
 */
export interface TypeProbabilityJson {
  /** The type, `feature=value|…` (features in canonical order). */
  readonly type: string
  /** Respondents of this type in the pool. */
  readonly respondents: number
  /** The probability that a given respondent of the type is on the panel, a reduced fraction `n/d`. */
  readonly probability: string
  /** The same, as a decimal rounded down to 12 digits. */
  readonly decimal: string
}
type _ProbabilityDeclared = Holds<Same<TypeProbabilityJson, Infer<typeof probabilityRow>>>

/**
 * A computed `panel` outcome.
 * @category Sortition
 */
export interface PanelOutcome {
  readonly kind: 'panel'
  /** The members: committed indices, ascending. */
  readonly members: readonly number[]
  /** The alternates: committed indices, in rank order. */
  readonly alternates: readonly number[]
  /** Rejection rounds used (1 when the first relaxed panel was kept). */
  readonly rounds: number
  /** Every feature value with its quota and the members who have it. */
  readonly quotas: readonly QuotaRowJson[]
  /** Selection probabilities by type, when every feature is counted exactly. */
  readonly probabilities?: readonly TypeProbabilityJson[]
}

/** Plans by spec object (a spec is immutable data): validate, compute and the checks share one plan. */
const plans = new WeakMap<object, { count: number; plan: PanelPlan; probabilities?: TypeProbabilityJson[]; households?: Int32Array }>()

/** The plan of a valid spec: the counter over its exact features, with method 1's acceptance gate (method 2's gate is commit-side only: docs/spec.md, Plan methods). */
function planOf(spec: Spec, count: number): { plan: PanelPlan; probabilities?: TypeProbabilityJson[]; households?: Int32Array } {
  const hit = plans.get(spec)
  if (hit !== undefined && hit.count === count) return hit
  const pool = compositionPool(spec)
  // A verifier's gate stops at its 7th kept trial: the verdict cannot change after it (docs/spec.md, Commit-time gate).
  const plan = planPanel(pool, compositionQuotas(spec), spec.k, { exactFeatures: spec.exact, explain: false, stopAtKept: true, ...methodOptions(spec) })
  // With households the per-type probabilities are no longer the counter's: none are given.
  const households = householdsPlan(spec.households, plan)
  const entry = { count, plan, ...(households !== undefined ? { households } : plan.exact ? { probabilities: probabilitiesOf(plan) } : {}) }
  plans.set(spec, entry)
  return entry
}

function probabilitiesOf(plan: PanelPlan): TypeProbabilityJson[] {
  return selectionProbabilities(plan).map((p) => ({ type: typeText(plan.pool.features, p.type), respondents: p.respondents, probability: `${p.numerator}/${p.denominator}`, decimal: p.decimal }))
}

/**
 * Options of {@link panelDraw}.
 * @category Sortition
 */
export interface PanelDrawOptions {
  /** Alternates to draw after the panel (default 0). */
  alternates?: number
  /** The exact features by name (default: chosen by the planner; docs/spec.md, Choosing E). */
  exactFeatures?: readonly string[]
  /**
   * One person per household: each respondent's household value by id (for example an address),
   * matched after `normalizeHousehold` (docs/sortition.md, Households). Only the groups are committed.
   */
  households?: ReadonlyMap<string, string>
}

/**
 * Builds what `commit` needs for a `panel` draw from a pool and its quotas: the spec (features,
 * quotas, per-type counts, the exact features chosen by the planner) and the participants in
 * canonical (type, id) order, each `id|feature=value|…`. Runs every feasibility check first.
 *
 * @throws {@link InfeasibleQuotasError} naming the broken constraint and the smallest relaxation;
 *   `LimitExceededError` `SORTITION_STATE_LIMIT` / `SORTITION_ACCEPTANCE_TOO_LOW`; `InvalidInputError`
 *   `SORTITION_POOL_INVALID` for an id or value containing `|` (or a feature name `|` or `=`).
 * @example
 * ```ts
 * const pool = await readPoolCsv('pool.csv')
 * const { draw, participants } = panelDraw(pool, await readQuotasCsv('quotas.csv'), 40, { alternates: 10 })
 * const { commitment, secret } = await commit({ beacon, target, after, draw, participants, private: true })
 * ```
 * @category Sortition
 */
export function panelDraw(pool: SortitionPool, quotaRows: readonly QuotaRow[], k: number, options: PanelDrawOptions = {}): SortitionCommitInput<PanelSpec> {
  const alternates = options.alternates ?? 0
  if (!Number.isSafeInteger(alternates) || alternates < 0) throw new InvalidInputError('INVALID_ARGUMENT', `alternates must be a whole number >= 0, got ${String(alternates)}`, 'pass the number of alternates')
  const table = checkQuotas(pool, quotaRows, k)
  const { types, entries, order } = poolParticipants(pool)
  if (alternates > pool.respondents.length - k) throw new InvalidInputError('INVALID_ARGUMENT', `${alternates} alternates asked, but only ${pool.respondents.length - k} respondents are left after a panel of ${k}`, `ask for at most ${pool.respondents.length - k}`)
  const ordered: SortitionPool = { features: pool.features, respondents: order.map((i) => pool.respondents[i]!) }
  // A named E is put in the counter's order (more values first, then by name), the one order a commitment may carry.
  // Plan method 1 when its gate admits the plan (the commitment is then byte for byte what it always was),
  // else method 2, else method 3 on the same trials; with households, then the chosen method's gate with
  // households (its stream, trials and kept count), moving on to the next method while it refuses.
  const groups = householdsOption(options.households, ordered)
  checkAlternatesCost(pool.respondents.length, k, pool.features.length, alternates, groups !== undefined)
  const quotaPlan = planPanel(ordered, table, k, { fallbackToMethod2: true, fallbackToMethod3: true, chooseBy: 'time', ...(options.exactFeatures === undefined ? {} : { exactFeatures: counterOrder(pool, options.exactFeatures) }) })
  const { plan: chosen, households } = commitHouseholds(groups, quotaPlan)
  const draw: PanelSpec = { kind: 'panel', k, alternates, features: featureSpecs(pool, table), types, exact: chosen.counter.exact.map((f) => pool.features[f]!.name), ...methodKeys(chosen), ...(groups === undefined ? {} : { households: groups }) }
  // The plan just built is the one the spec's validation would rebuild (same types in committed order,
  // same quotas and exact features, gate passed): `commit` validates this very object, so reuse it.
  plans.set(draw, { count: pool.respondents.length, plan: chosen, ...(households !== undefined ? { households } : chosen.exact ? { probabilities: probabilitiesOf(chosen) } : {}) })
  // Its fields are the pool's checked names and the integers built here; `validate`'s rules check them all again.
  builtSpec(draw)
  return { draw, participants: entries }
}

/** Feature names in the counter's order: more values first, then by name (code points); unknown names keep their place at the end. */
export function counterOrder(pool: SortitionPool, names: readonly string[]): string[] {
  const idx = (name: string): number => pool.features.findIndex((f) => f.name === name)
  const known = names.filter((x) => idx(x) >= 0)
  return [...dpOrder(pool, known.map(idx)).map((f) => pool.features[f]!.name), ...names.filter((x) => idx(x) < 0)]
}

/** The exact features of a sortition spec (`panel`, `panel-replacement`): committed names, each once, in the counter's order. */
export function checkNames(spec: Pick<Spec, 'features' | 'exact'>, path: string): void {
  if (!Array.isArray(spec.exact)) badDraw(`${path}.exact`, 'exact must be a list of feature names', 'list the exact features')
  const names = spec.features.map((f) => f.name)
  spec.exact.forEach((e, i) => {
    if (!names.includes(e)) badDraw(`${path}.exact[${i}]`, `exact feature ${JSON.stringify(e)} is not a committed feature`, 'name committed features')
    if (spec.exact.indexOf(e) !== i) badDraw(`${path}.exact[${i}]`, `exact feature ${JSON.stringify(e)} is named twice`, 'name each feature once')
    // The order changes the cells and so the draw: one set of exact features has one committed order.
    if (i > 0) {
      const a = spec.features[names.indexOf(spec.exact[i - 1]!)]!
      const b = spec.features[names.indexOf(e)]!
      if (a.values.length < b.values.length || (a.values.length === b.values.length && names.indexOf(a.name) > names.indexOf(b.name))) {
        badDraw(`${path}.exact[${i}]`, `exact features must be in the counter's order (more values first, then by name): ${JSON.stringify(e)} (${b.values.length} values) comes before ${JSON.stringify(a.name)} (${a.values.length} values)`, 'list the exact features with more values first, ties by name')
      }
    }
  })
}

/** The first row of a ranked list that differs from the replay's (`what` 1 = rank 1), rank, index and entry shown; or undefined. */
export function compareRows(what: string, e: readonly RankedJson[], c: readonly RankedJson[]): string | undefined {
  if (e.length !== c.length) return `${e.length} ${what} expected, ${c.length} claimed`
  const i = e.findIndex((x, j) => x.rank !== c[j]!.rank || x.index !== c[j]!.index || x.entry !== c[j]!.entry)
  return i < 0 ? undefined : `${what} ${i + 1} should be ${JSON.stringify(e[i]!.entry)} (index ${e[i]!.index}); the proof claims ${JSON.stringify(c[i]!.entry)} (rank ${c[i]!.rank}, index ${c[i]!.index})`
}

/**
 * The `panel` kind.
 * @category Sortition
 */
export const panelKind = defineKind({
  name: 'panel',
  draw: fields,
  // The protocol reads the composition first, then the plan method and the households (docs/spec.md).
  parseOrder: ['k', 'features', 'types', 'plan', 'maxRounds', 'households', 'alternates', 'exact'],
  outcome: outcomeFields,
  compute(stream, spec, { count }): PanelOutcome {
    const { plan, probabilities, households } = planOf(spec, count)
    const rules = householdRules(households)
    const drawn = rules === undefined ? drawPanel(plan, stream) : rules.draw(plan, stream)
    const { alternates } = drawAlternates(stream, plan.pool, plan.quotas, drawn.members, spec.alternates, rules?.allowed(drawn.members))
    return { kind: 'panel', members: drawn.members, alternates, rounds: drawn.rounds, quotas: quotaTable(spec, plan.pool, drawn.members), ...(probabilities === undefined ? {} : { probabilities }) }
  },
  toJson: (o, entry) => ({
    kind: 'panel',
    members: memberRows(o.members, entry),
    alternates: memberRows(o.alternates, entry),
    rounds: o.rounds,
    quotas: o.quotas,
    ...(o.probabilities === undefined ? {} : { probabilities: o.probabilities }),
  }),
  winnersOnly: { count: (spec) => spec.k + spec.alternates, winners: (o) => [...o.members, ...o.alternates], upTo: true },
  rules: {
    validate(spec, n, path) {
      validateComposition(spec, n, path)
      if (!Number.isSafeInteger(spec.alternates) || spec.alternates < 0 || spec.alternates > n - spec.k) badDraw(`${path}.alternates`, `alternates must be 0 to ${n - spec.k} (the respondents left after the panel), got ${String(spec.alternates)}`, 'ask for fewer alternates')
      checkNames(spec, path)
      checkMethod(spec.plan, spec.maxRounds, path)
      validateHouseholds(spec.households, n, path)
      // The alternates' ranking within its work bound, from the commitment alone, before any planning.
      checkAlternatesCost(n, spec.k, spec.features.length, spec.alternates, spec.households !== undefined)
      // The counter within its state limit, a positive count and the acceptance gate (bounds every replay).
      planOf(spec, n)
    },
    checkEntries: (spec, rows, full) => entriesProblem(spec, rows, full),
    encode: (spec) => ({ kind: 'panel', ...encodeComposition(spec), alternates: spec.alternates, exact: [...spec.exact], ...encodeMethod(spec), ...(spec.households === undefined ? {} : { households: spec.households.map((g) => [...g]) }) }),
    compare(e, c) {
      const p = e.probabilities
      const q = c.probabilities
      return (
        compareRows('member', e.members, c.members) ??
        compareRows('alternate', e.alternates, c.alternates) ??
        (e.rounds !== c.rounds ? `the panel took ${e.rounds} round(s), the proof claims ${c.rounds}` : undefined) ??
        compareQuotaTables(e.quotas, c.quotas) ??
        ((p === undefined) !== (q === undefined)
          ? p === undefined
            ? 'the proof claims selection probabilities, which are only exact when every feature is counted exactly'
            : 'the proof omits the selection probabilities'
          : p !== undefined && q !== undefined && (p.length !== q.length || p.some((x, i) => x.type !== q[i]!.type || x.respondents !== q[i]!.respondents || x.probability !== q[i]!.probability || x.decimal !== q[i]!.decimal))
            ? 'the selection probabilities differ from the recomputed ones'
            : undefined)
      )
    },
    claimCheckNames: PANEL_CHECK_NAMES,
    claimChecks(spec, claimed, expected) {
      const n = spec.types.reduce((a, t) => a + t.at(-1)!, 0)
      const { plan, households } = planOf(spec, n)
      const members = claimed.members.map((r) => r.index)
      const failed = checkPanelShape(plan, members)
      const sorted = [...members].sort((a, b) => a - b)
      const replayed = expected.members.map((r) => r.index)
      if (sorted.length !== replayed.length || sorted.some((m, i) => m !== replayed[i])) {
        failed.push({ check: 'panel-replay', detail: `the claimed panel differs from the replayed draw (${replayed.filter((m) => !sorted.includes(m)).length} replayed member(s) missing)` })
      }
      const pass: Record<(typeof PANEL_CHECK_NAMES)[number], string> = {
        'panel-size': `the panel has ${spec.k} members`,
        'panel-distinct': 'no member is listed twice',
        'panel-members-known': `every member is one of the ${n} committed respondents`,
        'panel-quotas': `the panel meets all ${expected.quotas.length} quotas: ${expected.quotas.map((q) => `${q.feature}=${q.value} ${q.selected} in ${q.min}..${q.max}`).join(', ')}`,
        'panel-replay': `the panel is the one the seed draws (${expected.rounds} round(s))`,
      }
      const named = PANEL_CHECK_NAMES.map((name): NamedCheck => {
        const f = failed.filter((x) => x.check === name)
        return { name, ok: f.length === 0, detail: f.length === 0 ? pass[name] : f.map((x) => x.detail).join('; ') }
      })
      const rules = householdRules(households)
      return rules === undefined ? named : [...named, rules.check(members, spec.households!.length)]
    },
  },
  view: {
    describeOutcome: (o) =>
      `the panel ${o.members.slice(0, 5).map((w) => JSON.stringify(w.entry)).join(', ')}${o.members.length > 5 ? `, … (${o.members.length} members)` : ''}${o.alternates.length > 0 ? ` and the alternates ${o.alternates.slice(0, 10).map((w) => `${w.rank}. ${JSON.stringify(w.entry)}`).join(', ')}${o.alternates.length > 10 ? ', …' : ''}` : ''} follow from the seed (${o.rounds} round(s))`,
    describe: (spec, n) => `panel of ${spec.k}${n === undefined ? '' : ` from ${n} respondents`} meeting quotas on ${spec.features.length} feature(s)${spec.households === undefined ? '' : ', at most one member per household'}${spec.alternates > 0 ? `, up to ${spec.alternates} alternate(s)` : ''}`,
    display: (o) => panelDisplay(o),
  },
  cli: {
    flag: 'panel',
    options: { panel: 'string', pool: 'string', quotas: 'string', alternates: 'string', 'exact-features': 'string', 'household-column': 'string' },
    usage: '--panel K --pool FILE --quotas FILE [--alternates A]',
    help: '  --panel K --pool FILE --quotas FILE [--alternates A] [--exact-features F,G] [--household-column C]\n                           sortition: K members uniform among the panels meeting every quota,\n                           then A ranked alternates (pool and quotas CSVs: docs/sortition.md);\n                           --household-column: at most one member per household of column C',
    fromFlags: () => {
      throw new InvalidInputError('INVALID_FLAG', '--panel needs --pool FILE and --quotas FILE', 'add --pool pool.csv --quotas quotas.csv')
    },
    files: { pool: 'sortition-pool', quotas: 'sortition-quotas' },
    build(flags, files): SortitionCommitInput<Spec> {
      const k = intFlagValue(flags, 'panel', 1)!
      const alternates = intFlagValue(flags, 'alternates', 0) ?? 0
      const read = files.pool as SortitionPool | PoolWithHouseholds | undefined
      const quotas = files.quotas as QuotaRow[] | undefined
      if (read === undefined || quotas === undefined) throw new InvalidInputError('INVALID_FLAG', '--panel needs --pool FILE and --quotas FILE', 'add --pool pool.csv --quotas quotas.csv')
      const pool = 'households' in read ? read.pool : read
      const households = 'households' in read ? read.households : undefined
      const exact = flags['exact-features'] === undefined ? undefined : String(flags['exact-features']).split(',').filter((x) => x !== '')
      return panelDraw(pool, quotas, k, { alternates, ...(exact === undefined ? {} : { exactFeatures: exact }), ...(households === undefined ? {} : { households }) })
    },
  },
})

/**
 * A `panel` draw: `k` members uniform among the quota-meeting panels of the committed pool, then up
 * to `alternates` ranked alternates (0 for none; fewer are drawn when fewer respondents could replace
 * a member), with the exact features in the counter's order (docs/spec.md, Counting), the plan method
 * (absent = method 1; 2 = the sequential gate and 400,000 rounds) and, when committed, the household
 * rule (the households of two or more respondents, each a list of committed indices, ascending,
 * households ordered by first index; at most one member per household). Make one with {@link panelDraw}.
 * @category Sortition
 */
export type PanelSpec = SpecOf<typeof panelKind>

/**
 * A `panel` outcome as carried in a proof: the members in committed order, rank 1 first (the rank is
 * the position, not a preference), the alternates in rank order (alternate 1 is asked first; the
 * replacement rule: docs/sortition.md), the rounds, the quota table and, when every feature is
 * counted exactly, the selection probabilities by type.
 * @category Sortition
 */
export type PanelOutcomeJson = OutcomeJsonOf<typeof panelKind>
