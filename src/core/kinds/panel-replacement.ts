/**
 * Draw kind `panel-replacement` (issue 22 item 5; docs/spec.md, Panel replacements): when members of a
 * `panel` drop out, a follow-up commitment to a later block draws their replacements **uniformly among
 * the valid panels that extend the remaining members** (every quota, and the household rule when the
 * original has one). The spec repeats the original's composition (k, features with quotas, types,
 * households), names the original (`follows`: its CID, seed, target, the dropped members) and lists the
 * remaining members (`keep`). The replacements are a `panel` draw of `k − |keep|` members over the
 * respondents still available (not kept, not dropped, not in a kept member's household) with each quota
 * reduced by the kept members' counts: a bijection with the valid panels that contain `keep`.
 *
 * @module
 */
import { InvalidInputError, LimitExceededError, OrbitdrawError } from '../errors.js'
import { encodeFollows, followsShape, validateFollows } from '../follow-up.js'
import { declaredAs, described, integer, list, pattern, strictObject, text } from '../schema/kit.js'
import { drawHouseholdPanel, householdIndex, sharedHousehold } from '../sortition/household.js'
import { checkPanelShape, drawPanel, PANEL_CHECK_NAMES, planPanel, type PanelPlan } from '../sortition/panel.js'
import { SORTITION_LIMITS, type QuotaTable, type SortitionPool } from '../sortition/pool.js'
import { defineKind, type Declared } from './define.js'
import { badDraw, type NamedCheck, type OutcomeJsonOf, type SpecOf } from './kind.js'
import { commitHouseholds, householdsField, householdsPlan, validateHouseholds } from './panel-households.js'
import { checkMethod, encodeMethod, maxRoundsField, methodKeys, methodOptions, planField } from './panel-method.js'
import { checkNames, compareRows, counterOrder, type PanelOutcomeJson, type PanelSpec } from './panel.js'
import { replacementDisplay } from './sortition-display.js'
import { droppedIndices } from './dropped-lines.js'
import {
  compareQuotaTables,
  compositionFields,
  compositionPool,
  compositionQuotas,
  encodeComposition,
  entriesProblem,
  memberRows,
  memberRowsShape,
  quotaTable,
  quotaTableShape,
  validateComposition,
  type QuotaRowJson,
} from './sortition.js'

/**
 * `follows` as a replacement reads it: the seed by its pattern, the dropped as whole numbers (an index
 * out of range is the rule's `INVALID_DRAW`); published as the follow-up's declared `followsShape`.
 */
const follows = declaredAs(
  strictObject({
    commitment: text(),
    seed: pattern(/^[0-9a-f]{64}$/, '64 lowercase hex digits'),
    target: integer(1),
    dropped: list(integer(0), SORTITION_LIMITS.maxPanelSize),
  }),
  followsShape,
)

/**
 * The fields of a `panel-replacement` spec: the original's composition, the original named
 * (`follows`), the remaining members, the replacement plan's exact features, the household rule.
 */
const fields = {
  k: compositionFields.k,
  follows,
  keep: declaredAs(
    list(integer(0), SORTITION_LIMITS.maxPanelSize),
    described(list(integer(0, SORTITION_LIMITS.maxPoolSize - 1), SORTITION_LIMITS.maxPanelSize), 'The remaining members (committed indices, strictly ascending): the original members but the dropped.'),
  ),
  exact: described(list(text(), SORTITION_LIMITS.maxFeatures), 'The exactly counted features of the replacement plan (over the available respondents, quotas reduced by the kept members).'),
  features: compositionFields.features,
  types: compositionFields.types,
  households: householdsField,
  // The replacement plan's method (absent = method 1, as before plan methods existed; docs/spec.md, Panel replacements).
  plan: planField,
  maxRounds: maxRoundsField,
}

type Spec = Declared<'panel-replacement', typeof fields>

/**
 * A computed `panel-replacement` outcome.
 * @category Sortition
 */
export interface PanelReplacementOutcome {
  readonly kind: 'panel-replacement'
  /** The whole new panel (kept and new members), committed indices ascending. */
  readonly members: readonly number[]
  /** The new members, committed indices ascending. */
  readonly replacements: readonly number[]
  readonly rounds: number
  readonly quotas: readonly QuotaRowJson[]
}

/** The replacement plan: the available respondents, the reduced quotas, the sub-plan and its households. */
export interface ReplacementPlan {
  /** The whole pool (committed indices) and its quotas. */
  readonly pool: SortitionPool
  readonly quotas: QuotaTable
  /** Committed index of each available respondent (the sub-pool's index `i` is `available[i]`). */
  readonly available: readonly number[]
  /** The plan over the available respondents with the reduced quotas, `k − |keep|` members. */
  readonly plan: PanelPlan
  /** The household index of the sub-pool (households of 2 or more available respondents), if any. */
  readonly households?: Int32Array
}

const plans = new WeakMap<object, ReplacementPlan>()

/** The sub-pool and reduced quotas of a spec (no counting). */
export function subPool(spec: Pick<Spec, 'k' | 'features' | 'types' | 'keep' | 'follows' | 'households'>): { pool: SortitionPool; quotas: QuotaTable; sub: SortitionPool; reduced: QuotaTable; available: number[]; groups?: number[][] } {
  const pool = compositionPool(spec)
  const quotas = compositionQuotas(spec)
  const n = pool.respondents.length
  const out = new Uint8Array(n)
  for (const i of spec.keep) out[i] = 1
  for (const i of spec.follows.dropped) out[i] = 1
  const of = spec.households === undefined ? undefined : householdIndex(spec.households, n)
  if (of !== undefined) {
    const keptHouseholds = new Set(spec.keep.map((i) => of[i]!).filter((h) => h >= 0))
    for (let i = 0; i < n; i++) if (keptHouseholds.has(of[i]!)) out[i] = 1
  }
  const available: number[] = []
  for (let i = 0; i < n; i++) if (out[i] === 0) available.push(i)
  const reduced: QuotaTable = {
    min: spec.features.map((f, fi) => f.min.map((m, v) => Math.max(0, m - spec.keep.filter((i) => pool.respondents[i]!.type[fi] === v).length))),
    max: spec.features.map((f, fi) => f.max.map((m, v) => m - spec.keep.filter((i) => pool.respondents[i]!.type[fi] === v).length)),
  }
  const sub: SortitionPool = { features: pool.features, respondents: available.map((i) => pool.respondents[i]!) }
  let groups: number[][] | undefined
  if (spec.households !== undefined) {
    const at = new Map(available.map((c, i) => [c, i]))
    groups = spec.households.map((g) => g.flatMap((c) => (at.has(c) ? [at.get(c)!] : []))).filter((g) => g.length > 1)
  }
  return { pool, quotas, sub, reduced, available, ...(groups === undefined ? {} : { groups }) }
}

/**
 * The replacement plan of a valid spec (gates included), cached per spec object. Its gates stop at the
 * kept count they need, as a `panel` verifier's do (docs/spec.md, Commit-time gate): method 1's quota
 * gate at its 7th kept trial, the gate with households at its 7th; a refusal draws every trial, so it
 * reports the same figures. The plan's `gate` gives the trials drawn.
 */
export function replacementPlanOf(spec: Spec, exactFeatures?: readonly string[]): ReplacementPlan {
  const hit = plans.get(spec)
  if (hit !== undefined) return hit
  const { pool, quotas, sub, reduced, available, groups } = subPool(spec)
  const r = spec.k - spec.keep.length
  const plan = planPanel(sub, reduced, r, { exactFeatures: exactFeatures ?? spec.exact, explain: false, stopAtKept: true, ...methodOptions(spec) })
  const households = householdsPlan(groups, plan)
  const entry = { pool, quotas, available, plan, ...(households === undefined ? {} : { households }) }
  plans.set(spec, entry)
  return entry
}

/**
 * Options of {@link panelReplacementDraw}.
 * @category Sortition
 */
export interface PanelReplacementDrawOptions {
  /** The exact features of the replacement plan by name, in any order (committed in the counter's order; default: chosen by the planner). */
  exactFeatures?: readonly string[]
}

/**
 * Builds a `panel-replacement` spec from the original `panel` proof's commitment and outcome and the
 * dropped members: the same composition, the original named (`follows`), the remaining members, the
 * exact features chosen for the replacement plan and its plan method. The plan method is chosen as a
 * `panel` commit chooses it (docs/spec.md, Plan methods; Panel replacements): method 1 when its gate
 * admits the replacement plan (the spec then has no `plan` key, byte for byte what it was before plan
 * methods), else method 2 (`"plan": 2`), else method 3 (`"plan": 3` and `maxRounds`); with households,
 * the gates with households then move on to the next method in the same way.
 *
 * @param original - the original proof (parsed or as JSON): a `panel` draw.
 * @param dropped - committed indices of the members who dropped out.
 * @param originalCid - the original commitment's CID (the verdict's `commitmentCid`).
 * @throws {@link InvalidInputError} `INVALID_ARGUMENT` when the original is not a panel or a dropped
 *   index is not a member; the planner's errors when no valid panel extends the remaining members;
 *   `SORTITION_ACCEPTANCE_TOO_LOW` naming each plan method tried when none admits the replacement plan.
 * @category Sortition
 */
export function panelReplacementDraw(original: { readonly commitment: object; readonly seed: string; readonly outcome: unknown }, dropped: readonly number[], originalCid: string, options: PanelReplacementDrawOptions = {}): PanelReplacementSpec {
  const c = original.commitment as { readonly target?: unknown; readonly draw?: unknown }
  const d = (c.draw ?? {}) as PanelSpec
  if (typeof c.target !== 'number') throw new InvalidInputError('INVALID_ARGUMENT', 'the original proof has no commitment target', 'pass an orbitdraw proof of a panel draw')
  if (d.kind !== 'panel') throw new InvalidInputError('INVALID_ARGUMENT', `the original draw is a ${String(d.kind)}, not a panel`, 'replace members of a panel draw')
  const members = (original.outcome as PanelOutcomeJson).members.map((m) => m.index)
  const drop = [...new Set(dropped)].sort((a, b) => a - b)
  if (drop.length === 0) throw new InvalidInputError('INVALID_ARGUMENT', 'no dropped member named', 'name who dropped out')
  for (const i of drop) if (!members.includes(i)) throw new InvalidInputError('INVALID_ARGUMENT', `participant ${i} is not a member of the original panel`, 'name members of the original panel')
  const keep = members.filter((m) => !drop.includes(m))
  const base = { kind: 'panel-replacement' as const, k: d.k, features: d.features.map((f) => ({ name: f.name, values: [...f.values], min: [...f.min], max: [...f.max] })), types: d.types.map((t) => [...t]), follows: { commitment: originalCid, seed: original.seed, target: c.target, dropped: drop }, keep, ...(d.households === undefined ? {} : { households: d.households.map((g) => [...g]) }) }
  const { sub, reduced, groups } = subPool(base)
  const r = d.k - keep.length
  let chosen: PanelPlan
  try {
    // Method 1 when its gate admits the plan, else 2, else 3 on the same trials (docs/spec.md, Plan methods).
    const quotaPlan = planPanel(sub, reduced, r, { fallbackToMethod2: true, fallbackToMethod3: true, ...(options.exactFeatures === undefined ? {} : { exactFeatures: counterOrder(sub, options.exactFeatures) }) })
    chosen = commitHouseholds(base.households === undefined ? undefined : (groups ?? []), quotaPlan).plan
  } catch (err) {
    if (err instanceof OrbitdrawError && err.code === 'SORTITION_ACCEPTANCE_TOO_LOW') throw new LimitExceededError('SORTITION_ACCEPTANCE_TOO_LOW', `no plan method admits the replacement plan (tried plan methods 1, 2 and 3 in turn): ${err.detail}`, err.hint)
    throw err
  }
  const spec: PanelReplacementSpec = { ...base, exact: chosen.counter.exact.map((f) => sub.features[f]!.name), ...methodKeys(chosen) }
  replacementPlanOf(spec)
  return spec
}

/** The first problem of `keep` against the composition and `follows`, or undefined. */
function keepProblem(spec: Spec, n: number): { path: string; detail: string } | undefined {
  if (!Array.isArray(spec.keep)) return { path: 'keep', detail: 'keep must be a list of committed indices' }
  if (spec.keep.length + (spec.follows?.dropped?.length ?? 0) !== spec.k) return { path: 'keep', detail: `the kept (${spec.keep.length}) and dropped (${spec.follows?.dropped?.length ?? 0}) members must add up to the panel size ${spec.k}` }
  const dropped = new Set(spec.follows.dropped)
  for (let i = 0; i < spec.keep.length; i++) {
    const x = spec.keep[i]!
    if (!Number.isSafeInteger(x) || x < 0 || x >= n) return { path: `keep[${i}]`, detail: `index ${String(x)} is not one of the ${n} committed respondents` }
    if (i > 0 && x <= spec.keep[i - 1]!) return { path: `keep[${i}]`, detail: 'the kept members must be strictly ascending' }
    if (dropped.has(x)) return { path: `keep[${i}]`, detail: `respondent ${x} is both kept and dropped` }
  }
  return undefined
}

const CHECKS = PANEL_CHECK_NAMES

/**
 * The `panel-replacement` kind.
 * @category Sortition
 */
export const panelReplacementKind = defineKind({
  name: 'panel-replacement',
  draw: fields,
  // The protocol reads the composition and the household rule first, then the link (docs/spec.md).
  parseOrder: ['k', 'features', 'types', 'households', 'follows', 'keep', 'exact', 'plan', 'maxRounds'],
  outcome: {
    members: memberRowsShape(SORTITION_LIMITS.maxPanelSize, 'The whole new panel (kept and new members) in committed order.'),
    replacements: memberRowsShape(SORTITION_LIMITS.maxPanelSize, 'The new members in committed order.'),
    rounds: declaredAs(integer(1), integer(1, SORTITION_LIMITS.maxRejectionRoundsV3)),
    quotas: quotaTableShape,
  },
  compute(stream, spec): PanelReplacementOutcome {
    const rp = replacementPlanOf(spec)
    const drawn = rp.households === undefined ? drawPanel(rp.plan, stream) : drawHouseholdPanel(rp.plan, rp.households, stream)
    const replacements = drawn.members.map((i) => rp.available[i]!).sort((a, b) => a - b)
    const members = [...spec.keep, ...replacements].sort((a, b) => a - b)
    return { kind: 'panel-replacement', members, replacements, rounds: drawn.rounds, quotas: quotaTable(spec, rp.pool, members) }
  },
  toJson: (o, entry) => ({ kind: 'panel-replacement', members: memberRows(o.members, entry), replacements: memberRows(o.replacements, entry), rounds: o.rounds, quotas: o.quotas }),
  winnersOnly: { count: (spec) => spec.k, winners: (o) => [...o.members] },
  rules: {
    validate(spec, n, path) {
      validateComposition(spec, n, path)
      validateFollows(spec.follows, n, path, 'panelReplacementDraw')
      const problem = keepProblem(spec, n)
      if (problem !== undefined) badDraw(`${path}.${problem.path}`, problem.detail, 'keep the original members but the dropped')
      validateHouseholds(spec.households, n, path)
      checkMethod(spec.plan, spec.maxRounds, path)
      // Named once each and in the counter's order, as a panel's: one replacement plan, one commitment.
      checkNames(spec, path)
      const { plan } = replacementPlanOf(spec)
      if (plan.counter.count === 0n) badDraw(`${path}.keep`, 'no valid panel extends the kept members', 'relax the quotas')
    },
    checkEntries: (spec, rows, full) => entriesProblem(spec, rows, full),
    encode: (spec) => ({
      kind: 'panel-replacement',
      ...encodeComposition(spec),
      follows: encodeFollows(spec.follows),
      keep: [...spec.keep],
      exact: [...spec.exact],
      ...encodeMethod(spec),
      ...(spec.households === undefined ? {} : { households: spec.households.map((g) => [...g]) }),
    }),
    compare(e, c) {
      return compareRows('member', e.members, c.members) ?? compareRows('replacement', e.replacements, c.replacements) ?? (e.rounds !== c.rounds ? `the replacements took ${e.rounds} round(s), the proof claims ${c.rounds}` : undefined) ?? compareQuotaTables(e.quotas, c.quotas)
    },
    claimCheckNames: CHECKS,
    claimChecks(spec, claimed, expected) {
      const rp = replacementPlanOf(spec)
      const members = claimed.members.map((r) => r.index)
      const failed = checkPanelShape({ pool: rp.pool, quotas: rp.quotas, k: spec.k }, members)
      const replayed = expected.members.map((r) => r.index)
      const sorted = [...members].sort((a, b) => a - b)
      if (sorted.length !== replayed.length || sorted.some((m, i) => m !== replayed[i])) failed.push({ check: 'panel-replay', detail: `the claimed panel differs from the replayed replacement draw (${replayed.filter((m) => !sorted.includes(m)).length} replayed member(s) missing)` })
      const missing = spec.keep.filter((m) => !members.includes(m))
      if (missing.length > 0) failed.push({ check: 'panel-replay', detail: `the claimed panel drops ${missing.length} kept member(s) (index ${missing.join(', ')})` })
      const pass: Record<(typeof CHECKS)[number], string> = {
        'panel-size': `the panel has ${spec.k} members`,
        'panel-distinct': 'no member is listed twice',
        'panel-members-known': `every member is one of the committed respondents`,
        'panel-quotas': `the panel meets all ${expected.quotas.length} quotas`,
        'panel-replay': `the ${spec.keep.length} kept member(s) and the ${spec.k - spec.keep.length} replacement(s) the seed draws (${expected.rounds} round(s))`,
      }
      const named = CHECKS.map((name): NamedCheck => {
        const f = failed.filter((x) => x.check === name)
        return { name, ok: f.length === 0, detail: f.length === 0 ? pass[name] : f.map((x) => x.detail).join('; ') }
      })
      if (spec.households === undefined) return named
      const pair = sharedHousehold(householdIndex(spec.households, rp.pool.respondents.length), members)
      return [...named, pair === undefined ? { name: 'panel-households', ok: true, detail: `no two of the ${members.length} members share one of the ${spec.households.length} committed household(s)` } : { name: 'panel-households', ok: false, detail: `members ${pair[0]} and ${pair[1]} share a committed household` }]
    },
  },
  view: {
    describeOutcome: (o) => `the replacement(s) ${o.replacements.map((w) => JSON.stringify(w.entry)).join(', ')} follow from the seed (${o.rounds} round(s)); the new panel has ${o.members.length} members`,
    describe: (spec, n) => `replacement of ${spec.follows.dropped.length} member(s) of the panel of ${spec.k}${n === undefined ? '' : ` from ${n} respondents`} (commitment ${spec.follows.commitment.slice(0, 16)}…), keeping ${spec.keep.length}`,
    display: (o) => replacementDisplay(o),
  },
  cli: {
    flag: 'replacing',
    options: { replacing: 'string', dropped: 'string', 'pool-list': 'string' },
    usage: '--replacing PROOF --dropped IDS --pool-list FILE [--secret FILE]',
    help: '  --replacing PROOF --dropped IDS --pool-list FILE [--secret FILE]\n                           replacements for the panel members (ids, one per line) who dropped out of\n                           the panel draw of PROOF, uniform among the valid panels keeping the rest;\n                           FILE: the participants file of the original commit (docs/sortition.md);\n                           a private panel needs the original --secret FILE (one list, one root)',
    fromFlags: () => {
      throw new InvalidInputError('INVALID_FLAG', '--replacing needs --dropped IDS and --pool-list FILE', 'add --dropped dropped.txt --pool-list assembly.participants.txt')
    },
    files: { replacing: 'proof-json', dropped: 'text-lines', 'pool-list': 'text-lines' },
    build(_flags, files): { draw: Spec; participants: string[] } {
      const original = files.replacing as { commitment: object; commitmentCid: string; seed: string; outcome: PanelOutcomeJson }
      const ids = files.dropped as string[]
      const participants = files['pool-list'] as string[]
      if (typeof original !== 'object' || original === null || typeof original.commitmentCid !== 'string' || !Array.isArray(original.outcome?.members)) throw new InvalidInputError('INVALID_ARGUMENT', '--replacing needs the proof of a panel draw', 'pass the proof file orbitdraw draw wrote')
      const byId = new Map(original.outcome.members.map((m) => [m.entry.slice(0, m.entry.indexOf('|')), m.index]))
      const dropped = droppedIndices(
        ids,
        (id) => byId.get(id.trim()),
        (id) => new InvalidInputError('INVALID_ARGUMENT', `${JSON.stringify(id)} is not a member of the original panel`, 'list the ids of members who dropped out, one per line'),
        'member',
      )
      return { draw: panelReplacementDraw(original, dropped, original.commitmentCid), participants }
    },
  },
})

/**
 * A `panel-replacement` draw: the original's composition (k, features with quotas, types, and its
 * household rule when it has one), the original `panel` draw and who dropped out (`follows`), the
 * remaining members (`keep`: committed indices, ascending; the original members but the dropped) and
 * the exact features of the replacement plan, in the counter's order. Make one with
 * {@link panelReplacementDraw}.
 * @category Sortition
 */
export type PanelReplacementSpec = SpecOf<typeof panelReplacementKind>

/**
 * A `panel-replacement` outcome as carried in a proof: the whole new panel and the new members as
 * ranked rows, the rounds and the quota table.
 * @category Sortition
 */
export type PanelReplacementOutcomeJson = OutcomeJsonOf<typeof panelReplacementKind>
