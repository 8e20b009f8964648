/**
 * The verifier page's extra views of the sortition kinds, computed in the worker: the per-type
 * probabilities a proof does not carry (a `panel` plan with features left to rejection or a household
 * rule, a `panel-replacement` draw), offered after the verdict and computed on request from the
 * commitment alone (exact, or the labelled estimate with its interval: the same figures as
 * `orbitdraw inspect --probabilities`); and the members a follow-up draw replaces, read from the
 * original proof it carries, with the link to the original's commitment.
 *
 * @module
 */
import type { DisplaySection, RankedJson, TableDisplay } from '../core/kinds/kind.js'
import { panelProbabilities, probabilityMeaning, startPanelProbabilities, summaryText, type PanelProbabilities, type PanelProbabilityRun } from '../core/kinds/panel-probabilities.js'
export { probabilityOffer, type ProbabilityOffer } from '../core/kinds/panel-probabilities.js'
import type { PanelSpec } from '../core/kinds/panel.js'
import type { PanelReplacementSpec } from '../core/kinds/panel-replacement.js'

/** Computes the offered probabilities: exact, or the estimate from the commitment's CID alone. */
export function computeProbabilities(draw: unknown, cid: string, panels: number): PanelProbabilities {
  return panelProbabilities(draw as PanelSpec | PanelReplacementSpec, cid, panels)
}

/** Starts the offered probabilities, a few sample panels at a time (the page shows partial figures while they arrive). */
export function startProbabilities(draw: unknown, cid: string, panels: number): PanelProbabilityRun {
  return startPanelProbabilities(draw as PanelSpec | PanelReplacementSpec, cid, panels)
}

/** The probabilities as a table by type (the page splits the type into one column per feature). */
export function probabilitiesSection(p: PanelProbabilities): TableDisplay {
  const what = p.scope === 'panel' ? 'Selection probability by type' : 'Replacement probability by type'
  // With households, the rows are per type and household size: one more column after the type.
  const household = p.households ? [{ label: 'Household', align: 'right' as const }] : []
  const size = (t: { household?: number }): string[] => (p.households ? [String(t.household ?? '')] : [])
  if (p.kind === 'exact') {
    return {
      layout: 'table',
      title: `${what} (exact)`,
      note: `exact (${p.households ? 'counted with the household rule, per type and household size' : 'every feature is counted exactly'}): ${probabilityMeaning(p)}. Summary: ${summaryText(p.summary, 6)}.`,
      columns: [{ label: 'Type' }, ...household, { label: 'Respondents', align: 'right' }, { label: 'Probability', align: 'right' }, { label: 'Exact', align: 'right' }],
      rows: p.types.map((t) => [t.type, ...size(t), String(t.respondents), t.decimal, t.probability]),
    }
  }
  return {
    layout: 'table',
    title: `${what} — ESTIMATE`,
    note: `ESTIMATE from ${p.panels} sample panels drawn on a stream derived from the commitment ${p.cid} alone (never the beacon), with each figure's 95 % interval; 'orbitdraw inspect PROOF --probabilities' gives the same figures. ${probabilityMeaning(p)}. Summary (estimate): ${summaryText(p.summary, 4)}.`,
    columns: [{ label: 'Type' }, ...household, { label: 'Respondents', align: 'right' }, { label: 'Estimate', align: 'right' }, { label: '95 % interval', align: 'right' }],
    rows: p.types.map((t) => [t.type, ...size(t), String(t.respondents), t.estimate.toFixed(4), `${t.low.toFixed(4)} – ${t.high.toFixed(4)}`]),
  }
}

/** The ranked rows of an outcome (`{ rank, index, entry }` objects in any of its lists), by index, first seen. */
function rankedRows(outcome: unknown): Map<number, RankedJson> {
  const rows = new Map<number, RankedJson>()
  if (typeof outcome !== 'object' || outcome === null) return rows
  for (const v of Object.values(outcome)) {
    if (!Array.isArray(v)) continue
    for (const r of v as unknown[]) {
      const x = r as { rank?: unknown; index?: unknown; entry?: unknown }
      if (typeof x === 'object' && x !== null && Number.isSafeInteger(x.rank) && Number.isSafeInteger(x.index) && typeof x.entry === 'string' && !rows.has(x.index as number)) rows.set(x.index as number, { rank: x.rank as number, index: x.index as number, entry: x.entry })
    }
  }
  return rows
}

/**
 * A follow-up draw's link (a commitment whose draw names `follows`): the original's commitment CID and
 * target, and who dropped out, read from the original proof the proof carries (its outcome's rows).
 * Undefined for any other draw.
 */
export function followUpSection(draw: unknown, proof: unknown): DisplaySection | undefined {
  const f = (draw as { follows?: { commitment?: unknown; target?: unknown; dropped?: unknown } } | undefined)?.follows
  if (typeof f !== 'object' || f === null || typeof f.commitment !== 'string' || !Array.isArray(f.dropped)) return undefined
  const original = rankedRows((proof as { original?: { outcome?: unknown } } | undefined)?.original?.outcome)
  const dropped = (f.dropped as unknown[]).filter((i): i is number => Number.isSafeInteger(i))
  const rows = dropped.map((i) => original.get(i)).filter((r): r is RankedJson => r !== undefined)
  return {
    layout: 'ranked',
    title: `Declined or dropped out (${dropped.length})`,
    note: `members of the original draw, commitment ${f.commitment}${Number.isSafeInteger(f.target) ? ` (target block ${String(f.target)})` : ''}; this proof carries the original proof, which verify checks as a proof of its own (follow-up-original) and against this draw (follow-up-link). The rank is the original position.`,
    rows,
  }
}
