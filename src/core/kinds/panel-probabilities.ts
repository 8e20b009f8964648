/**
 * Per-type selection probabilities of a committed `panel` or `panel-replacement` plan, for every plan
 * (issue 22, item 3): exact fractions when the plan counts every feature and has no household rule;
 * otherwise the reproducible estimate (docs/spec.md, Estimated selection probabilities: a stream
 * derived from the commitment's CID alone, never the beacon), with its 95 % interval, labelled as an
 * estimate. Under a household rule the rows are per type and household size, each the group's average:
 * exact by the count with the rule when it fits its budget, else the estimate drawn with the rule. A
 * summary (lowest, highest, their ratio, the equal share k/n) makes the comparison with a maximin tool
 * one line. {@link startPanelProbabilities} draws the estimate a few panels at a time (partial figures).
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { estimateSeed, MAX_ESTIMATE_PANELS, startEstimate } from '../sortition/estimate.js'
import { householdIndex } from '../sortition/household.js'
import { householdProbabilities } from '../sortition/household-probabilities.js'
import { planPanel } from '../sortition/plan.js'
import { selectionProbabilities } from '../sortition/probabilities.js'
import type { PanelPlan } from '../sortition/round.js'
import { compositionPool, compositionQuotas, typeText } from './sortition.js'
import type { PanelSpec } from './panel.js'
import { replacementPlanOf, type PanelReplacementSpec } from './panel-replacement.js'

/**
 * One type's probability: exact (`kind: "exact"`, a reduced fraction and a 12-digit decimal) or
 * estimated (`kind: "estimate"`, a figure and its 95 % interval).
 * @category Sortition
 */
export type PanelTypeProbability =
  | { readonly type: string; readonly household?: number; readonly respondents: number; readonly probability: string; readonly decimal: string }
  | { readonly type: string; readonly household?: number; readonly respondents: number; readonly estimate: number; readonly low: number; readonly high: number }

/**
 * The figures a comparison with a maximin tool reads first: the lowest and highest type (exact decimal
 * or estimate, as a double), their ratio, and the equal share `k / n` every respondent would have if all
 * chances were equal (the maximin ideal). For an estimate the interval of each type is in its row.
 * @category Sortition
 */
export interface PanelProbabilitySummary {
  /** `k / n` (for replacements: replacements drawn / respondents available), the equal share. */
  readonly equal: number
  /**
   * The type with the lowest probability (first in canonical order on a tie) and its figure; for an
   * estimate also its 95 % interval (`low`, `high`): with many small types the lowest and highest
   * estimates are pulled outwards by sampling noise, so read them with their intervals.
   */
  readonly lowest: { readonly type: string; readonly household?: number; readonly value: number; readonly low?: number; readonly high?: number }
  /** The type with the highest probability and its figure (and interval, for an estimate); with households, its household size. */
  readonly highest: { readonly type: string; readonly household?: number; readonly value: number; readonly low?: number; readonly high?: number }
  /** `highest / lowest`, or null when the lowest is 0. */
  readonly ratio: number | null
}

/**
 * What the figures are of (a `panel` draw, or the replacements of a `panel-replacement` draw), whether
 * a household rule applies, and the summary: the part every {@link PanelProbabilities} shares.
 * @category Sortition
 */
export interface PanelProbabilityScope {
  /**
   * `panel`: the chance that a given respondent of the type is on the panel. `replacements`: the chance
   * that a given available respondent of the type (not kept, not dropped, not a kept member's housemate)
   * is drawn as a replacement; only available respondents are counted.
   */
  readonly scope: 'panel' | 'replacements'
  /**
   * True when the committed draw has the household rule: the rows are then per group, a type and a
   * household size (`household`, 1 = alone), each figure the average over the group's respondents;
   * exact when the count with households stays within its budget (`HOUSEHOLD_EXACT_BUDGET`), else the estimate.
   */
  readonly households: boolean
  readonly summary: PanelProbabilitySummary
}

/**
 * The selection probabilities of a `panel` (or `panel-replacement`) plan, labelled exact or estimate.
 * @category Sortition
 */
export type PanelProbabilities =
  | (PanelProbabilityScope & { readonly kind: 'exact'; readonly types: readonly { readonly type: string; readonly household?: number; readonly respondents: number; readonly probability: string; readonly decimal: string }[] })
  | (PanelProbabilityScope & {
      readonly kind: 'estimate'
      /** Sample panels drawn on the stream of SHA-256("orbitdraw sortition probabilities v1" ‖ cid). */
      readonly panels: number
      /** Rejection rounds they took in all. */
      readonly rounds: number
      /** The commitment CID the stream is derived from. */
      readonly cid: string
      readonly types: readonly { readonly type: string; readonly household?: number; readonly respondents: number; readonly estimate: number; readonly low: number; readonly high: number }[]
    })

/**
 * Default sample panels of an estimate.
 * @category Sortition
 */
export const DEFAULT_ESTIMATE_PANELS = 200

function summaryOf(rows: readonly { type: string; household?: number; value: number; low?: number; high?: number }[], equal: number): PanelProbabilitySummary {
  let lo = rows[0]!
  let hi = rows[0]!
  for (const r of rows) {
    if (r.value < lo.value) lo = r
    if (r.value > hi.value) hi = r
  }
  const pick = (r: (typeof rows)[number]): PanelProbabilitySummary['lowest'] => ({ type: r.type, ...(r.household === undefined ? {} : { household: r.household }), value: r.value, ...(r.low === undefined ? {} : { low: r.low, high: r.high! }) })
  return { equal, lowest: pick(lo), highest: pick(hi), ratio: lo.value === 0 ? null : hi.value / lo.value }
}

/** The plan, household index, draw size and scope of a committed spec. */
function planOf(spec: PanelSpec | PanelReplacementSpec): { plan: PanelPlan; households?: Int32Array; scope: 'panel' | 'replacements' } {
  if (spec.kind === 'panel-replacement') {
    const rp = replacementPlanOf(spec)
    return { plan: rp.plan, scope: 'replacements', ...(rp.households === undefined ? {} : { households: rp.households }) }
  }
  const pool = compositionPool(spec)
  const plan = planPanel(pool, compositionQuotas(spec), spec.k, { exactFeatures: spec.exact, explain: false, skipAcceptanceCheck: true, ...(spec.plan === 2 ? { method: 2 as const } : spec.plan === 3 ? { method: 3 as const, ...(spec.maxRounds === undefined ? {} : { maxRounds: spec.maxRounds }) } : {}) })
  return { plan, scope: 'panel', ...(spec.households === undefined ? {} : { households: householdIndex(spec.households, pool.respondents.length) }) }
}

/**
 * Options of {@link panelProbabilities}.
 * @category Sortition
 */
export interface PanelProbabilityOptions {
  /** With households: the budget of the exact count (`HOUSEHOLD_EXACT_BUDGET` by default); over it, the estimate. */
  readonly budget?: number
}

/**
 * Every type's selection probability under a committed `panel` draw, or the replacements of a
 * `panel-replacement` draw: exact when the plan counts every feature and has no household rule; under
 * a household rule, per group (type × household size, each row the average over the group's
 * respondents), exact when the count with households fits its budget; else an estimate from `panels`
 * sample panels on the stream of the commitment's CID (anyone recomputes the same figures; the beacon
 * plays no part), the sample panels keeping the household rule. Rows are in canonical type order
 * (then household size; exact rows without households: the counter's cell order, as in a proof). Work: the plan's counter, then `panels` draws (each
 * bounded by the plan's round cap).
 *
 * @param cid - the commitment's CID text (for the estimate's stream).
 * @param panels - sample panels of an estimate, 2 … 100,000 (default 200).
 * @throws {@link InvalidInputError} `INVALID_ARGUMENT` for another kind; the plan's errors (a committed
 *   plan is valid, so only for a spec that never was committed).
 * @example
 * ```ts
 * const p = panelProbabilities(spec, cid)
 * if (p.kind === 'estimate') for (const t of p.types) console.log(t.type, t.estimate, [t.low, t.high])
 * console.log(p.summary.lowest, p.summary.highest, p.summary.ratio, p.summary.equal)
 * ```
 * @category Sortition
 */
export function panelProbabilities(spec: PanelSpec | PanelReplacementSpec, cid: string, panels = DEFAULT_ESTIMATE_PANELS, options: PanelProbabilityOptions = {}): PanelProbabilities {
  const run = startPanelProbabilities(spec, cid, panels, options)
  run.advance(panels)
  return run.current()!
}

/**
 * {@link panelProbabilities} computed a few sample panels at a time, so that a page can show partial
 * figures while it runs and stop early: exact figures are there at once (`done`); an estimate's
 * {@link PanelProbabilityRun.current} after `n` panels (n ≥ 2) is exactly `panelProbabilities(spec,
 * cid, n)` (the same stream, panels and arithmetic), its intervals wider than the final ones.
 * @category Sortition
 */
export interface PanelProbabilityRun {
  /** Sample panels the estimate will draw in all (0 for exact figures). */
  readonly panels: number
  /** Sample panels drawn so far. */
  readonly drawn: number
  /** True when the figures are final (exact, or every sample panel drawn). */
  readonly done: boolean
  /** Draws up to `count` more sample panels (never more than `panels` in all). */
  advance(count: number): void
  /** The figures so far: exact; or the estimate from the panels drawn (undefined before 2). */
  current(): PanelProbabilities | undefined
}

/**
 * Starts {@link panelProbabilities} without drawing any sample panel (the plan, and the exact count with
 * households, are computed now).
 *
 * @param panels - sample panels of an estimate, 2 … 100,000.
 * @throws the errors of {@link panelProbabilities}.
 * @category Sortition
 */
export function startPanelProbabilities(spec: PanelSpec | PanelReplacementSpec, cid: string, panels = DEFAULT_ESTIMATE_PANELS, options: PanelProbabilityOptions = {}): PanelProbabilityRun {
  if (spec.kind !== 'panel' && spec.kind !== 'panel-replacement') throw new InvalidInputError('INVALID_ARGUMENT', `selection probabilities are for panel and panel-replacement draws; this is a ${String((spec as { kind: unknown }).kind)} draw`, 'pass a panel draw')
  if (!Number.isSafeInteger(panels) || panels < 2 || panels > MAX_ESTIMATE_PANELS) throw new InvalidInputError('INVALID_ARGUMENT', `panels must be a whole number from 2 to ${MAX_ESTIMATE_PANELS}, got ${String(panels)}`, 'draw at least 2 sample panels')
  const { plan, households, scope } = planOf(spec)
  const { pool } = plan
  const equal = plan.k / pool.respondents.length
  const base = { scope, households: households !== undefined }
  const finished = (p: PanelProbabilities): PanelProbabilityRun => ({ panels: 0, drawn: 0, done: true, advance: () => undefined, current: () => p })
  if (plan.exact && households === undefined) {
    const types = selectionProbabilities(plan).map((p) => ({ type: typeText(pool.features, p.type), respondents: p.respondents, probability: `${p.numerator}/${p.denominator}`, decimal: p.decimal }))
    return finished({ kind: 'exact', ...base, types, summary: summaryOf(types.map((t) => ({ type: t.type, value: Number(t.decimal) })), equal) })
  }
  // With households: exact per group (type × household size) when the count fits its budget.
  const exact = households === undefined ? undefined : householdProbabilities(pool, plan.quotas, plan.k, households, options.budget)
  if (exact !== undefined) {
    const types = exact.map((p) => ({ type: typeText(pool.features, p.type), household: p.household, respondents: p.respondents, probability: `${p.numerator}/${p.denominator}`, decimal: p.decimal }))
    return finished({ kind: 'exact', ...base, types, summary: summaryOf(types.map((t) => ({ type: t.type, household: t.household, value: Number(t.decimal) })), equal) })
  }
  const run = startEstimate(plan, estimateSeed(cid), households === undefined ? {} : { households })
  return {
    panels,
    get drawn() {
      return run.drawn
    },
    get done() {
      return run.drawn >= panels
    },
    advance(count: number): void {
      run.advance(Math.max(0, Math.min(count, panels - run.drawn)))
    },
    current(): PanelProbabilities | undefined {
      if (run.drawn < 2) return undefined
      const e = run.result()
      const types = e.types.map((t) => ({ type: typeText(pool.features, t.type), ...(t.household === undefined ? {} : { household: t.household }), respondents: t.respondents, estimate: t.estimate, low: t.low, high: t.high }))
      return { kind: 'estimate', ...base, panels: e.panels, rounds: e.rounds, cid, types, summary: summaryOf(types.map((t) => ({ type: t.type, ...(t.household === undefined ? {} : { household: t.household }), value: t.estimate, low: t.low, high: t.high })), equal) }
    },
  }
}

/**
 * What a verifier (the page) can offer to compute for a verified sortition proof.
 * @category Sortition
 */
export interface ProbabilityOffer {
  /** True when the figures will be exact (a replacement plan that counts every feature, no household rule). */
  readonly exact: boolean
  /** Sample panels of an estimate. */
  readonly panels: number
  /** `panel`: a panel draw; `replacements`: the replacements of a panel-replacement draw. */
  readonly scope: 'panel' | 'replacements'
  /** True when the draw has the household rule. */
  readonly households: boolean
}

/**
 * The probabilities a verifier can offer for a commitment's draw and the proof's outcome, or undefined:
 * a `panel` outcome that carries no exact probabilities, or any `panel-replacement` draw.
 * @category Sortition
 */
export function probabilityOffer(draw: unknown, outcome: unknown): ProbabilityOffer | undefined {
  const d = draw as { kind?: unknown; exact?: unknown; features?: unknown; households?: unknown } | undefined
  if (d === undefined || !Array.isArray(d.exact) || !Array.isArray(d.features)) return undefined
  const households = d.households !== undefined
  if (d.kind === 'panel') {
    if ((outcome as { probabilities?: unknown } | undefined)?.probabilities !== undefined) return undefined
    return { exact: false, panels: DEFAULT_ESTIMATE_PANELS, scope: 'panel', households }
  }
  if (d.kind === 'panel-replacement') return { exact: d.exact.length === d.features.length && !households, panels: DEFAULT_ESTIMATE_PANELS, scope: 'replacements', households }
  return undefined
}

/** What a row's figure is, in words (CLI, page notes). */
export function probabilityMeaning(p: Pick<PanelProbabilities, 'scope' | 'households'>): string {
  const who = p.scope === 'panel' ? 'the chance that a given respondent of the type is on the panel' : 'the chance that a given available respondent of the type (not kept, not dropped, not living with a kept member) is drawn as a replacement'
  return p.households ? `${who}, per type and household size (1 = alone): the average over the group's respondents under the household rule (one who shares a household has less chance than one who lives alone)` : who
}

/** The summary line: lowest, highest, their ratio, the equal share. */
export function summaryText(s: PanelProbabilitySummary, digits: number): string {
  const ratio = s.ratio === null ? '∞' : s.ratio.toFixed(2)
  const figure = (x: PanelProbabilitySummary['lowest']): string => `${x.value.toFixed(digits)}${x.low === undefined ? '' : ` [${x.low.toFixed(digits)}, ${x.high!.toFixed(digits)}]`} (${x.type}${x.household === undefined ? '' : `, household of ${x.household}`})`
  return `lowest ${figure(s.lowest)}, highest ${figure(s.highest)}, highest/lowest ${ratio}; equal share k/n ${s.equal.toFixed(digits)} (what a maximin tool aims at for everyone)`
}

/**
 * The probabilities as aligned text lines (CLI), the estimate labelled as such on its first line.
 * @category Sortition
 */
export function formatPanelProbabilities(p: PanelProbabilities): string[] {
  const width = Math.max(4, ...p.types.map((t) => t.type.length))
  const meaning = `    ${probabilityMeaning(p)}.`
  const what = p.scope === 'panel' ? 'Selection probability per type' : 'Replacement probability per type'
  // With households, one more column: the household size of the row's respondents (1 = alone).
  const hh = (t: { household?: number }): string => (p.households ? `  ${String(t.household ?? '').padStart(9)}` : '')
  const hhHead = p.households ? '  Household' : ''
  if (p.kind === 'exact') {
    return [
      `  ${what} (exact: ${p.households ? 'counted with the household rule, per type and household size' : 'every feature is counted exactly'}):`,
      meaning,
      `    ${'Type'.padEnd(width)}${hhHead}  Respondents  Probability`,
      ...p.types.map((t) => `    ${t.type.padEnd(width)}${hh(t)}  ${String(t.respondents).padStart(11)}  ${t.decimal} (${t.probability})`),
      `    Summary: ${summaryText(p.summary, 6)}.`,
    ]
  }
  return [
    `  ${what} (ESTIMATE from ${p.panels} sample panels on a stream derived from the commitment ${p.cid} alone; 95 % interval):`,
    meaning,
    `    ${'Type'.padEnd(width)}${hhHead}  Respondents  Estimate  95 % interval`,
    ...p.types.map((t) => `    ${t.type.padEnd(width)}${hh(t)}  ${String(t.respondents).padStart(11)}  ${t.estimate.toFixed(4).padStart(8)}  [${t.low.toFixed(4)}, ${t.high.toFixed(4)}]`),
    `    Summary (ESTIMATE): ${summaryText(p.summary, 4)}.`,
  ]
}
