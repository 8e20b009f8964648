/**
 * Per-type selection probabilities of a committed `panel` plan, for every plan (issue 22, item 3):
 * exact fractions when the plan counts every feature; otherwise the reproducible estimate
 * (docs/spec.md, Estimated selection probabilities: a stream derived from the commitment's CID alone,
 * never the beacon), with its 95 % interval, labelled as an estimate.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { estimateSeed, estimateSelectionProbabilities } from '../sortition/estimate.js'
import { planPanel } from '../sortition/plan.js'
import { selectionProbabilities } from '../sortition/probabilities.js'
import { compositionPool, compositionQuotas, typeText } from './sortition.js'
import type { PanelSpec } from './panel.js'

/**
 * One type's probability: exact (`kind: "exact"`, a reduced fraction and a 12-digit decimal) or
 * estimated (`kind: "estimate"`, a figure and its 95 % interval).
 * @category Sortition
 */
export type PanelTypeProbability =
  | { readonly type: string; readonly respondents: number; readonly probability: string; readonly decimal: string }
  | { readonly type: string; readonly respondents: number; readonly estimate: number; readonly low: number; readonly high: number }

/**
 * The selection probabilities of a `panel` plan, labelled exact or estimate.
 * @category Sortition
 */
export type PanelProbabilities =
  | { readonly kind: 'exact'; readonly types: readonly { readonly type: string; readonly respondents: number; readonly probability: string; readonly decimal: string }[] }
  | {
      readonly kind: 'estimate'
      /** Sample panels drawn on the stream of SHA-256("orbitdraw sortition probabilities v1" ‖ cid). */
      readonly panels: number
      /** Rejection rounds they took in all. */
      readonly rounds: number
      /** The commitment CID the stream is derived from. */
      readonly cid: string
      readonly types: readonly { readonly type: string; readonly respondents: number; readonly estimate: number; readonly low: number; readonly high: number }[]
    }

/**
 * Default sample panels of an estimate.
 * @category Sortition
 */
export const DEFAULT_ESTIMATE_PANELS = 200

/**
 * Every type's selection probability under a committed `panel` draw: exact when the plan counts every
 * feature, else an estimate from `panels` sample panels on the stream of the commitment's CID (anyone
 * recomputes the same figures). Rows are in canonical type order (exact rows: the counter's cell order,
 * as in a proof). Work: the plan's counter, then `panels` draws (each bounded by the plan's round cap).
 *
 * @param cid - the commitment's CID text (for the estimate's stream).
 * @param panels - sample panels of an estimate, 2 … 100,000 (default 200).
 * @throws the plan's errors (a committed plan is valid, so only for a spec that never was committed).
 * @example
 * ```ts
 * const p = panelProbabilities(spec, cid)
 * if (p.kind === 'estimate') for (const t of p.types) console.log(t.type, t.estimate, [t.low, t.high])
 * ```
 * @category Sortition
 */
export function panelProbabilities(spec: PanelSpec, cid: string, panels = DEFAULT_ESTIMATE_PANELS): PanelProbabilities {
  if (spec.kind !== 'panel') throw new InvalidInputError('INVALID_ARGUMENT', `selection probabilities are for panel draws; this is a ${String((spec as { kind: unknown }).kind)} draw`, 'pass a panel draw')
  const pool = compositionPool(spec)
  const plan = planPanel(pool, compositionQuotas(spec), spec.k, { exactFeatures: spec.exact, explain: false, skipAcceptanceCheck: true, ...(spec.plan === 2 ? { method: 2 as const } : spec.plan === 3 ? { method: 3 as const, ...(spec.maxRounds === undefined ? {} : { maxRounds: spec.maxRounds }) } : {}) })
  if (plan.exact) {
    return { kind: 'exact', types: selectionProbabilities(plan).map((p) => ({ type: typeText(pool.features, p.type), respondents: p.respondents, probability: `${p.numerator}/${p.denominator}`, decimal: p.decimal })) }
  }
  const e = estimateSelectionProbabilities(plan, estimateSeed(cid), panels)
  return { kind: 'estimate', panels: e.panels, rounds: e.rounds, cid, types: e.types.map((t) => ({ type: typeText(pool.features, t.type), respondents: t.respondents, estimate: t.estimate, low: t.low, high: t.high })) }
}

/**
 * The probabilities as aligned text lines (CLI), the estimate labelled as such on its first line.
 * @category Sortition
 */
export function formatPanelProbabilities(p: PanelProbabilities): string[] {
  const width = Math.max(4, ...p.types.map((t) => t.type.length))
  if (p.kind === 'exact') {
    return [`  Selection probability per type (exact: every feature is counted exactly):`, `    ${'Type'.padEnd(width)}  Respondents  Probability`, ...p.types.map((t) => `    ${t.type.padEnd(width)}  ${String(t.respondents).padStart(11)}  ${t.decimal} (${t.probability})`)]
  }
  return [
    `  Selection probability per type (ESTIMATE from ${p.panels} sample panels on a stream derived from the commitment ${p.cid} alone; 95 % interval):`,
    `    ${'Type'.padEnd(width)}  Respondents  Estimate  95 % interval`,
    ...p.types.map((t) => `    ${t.type.padEnd(width)}  ${String(t.respondents).padStart(11)}  ${t.estimate.toFixed(4).padStart(8)}  [${t.low.toFixed(4)}, ${t.high.toFixed(4)}]`),
  ]
}
