/**
 * How the sortition kinds (`panel`, `panel-lottery`) show their outcome, in the `sections` layout
 * (the CLI prints it, the verifier page draws it): the members, the quota table (each feature value:
 * its min, max, how many members have it, and whether the quota is met), the alternates, and the
 * exact selection probability of each respondent type when the plan counted every feature exactly.
 *
 * @module
 */
import type { DisplaySection, RankedJson, SectionsDisplay, TableDisplay } from './kind.js'
import type { QuotaRowJson } from './sortition.js'

/** One respondent type's selection probability, as a `panel` outcome carries it. */
interface TypeProbabilityRow {
  readonly type: string
  readonly respondents: number
  readonly probability: string
  readonly decimal: string
}

/** The members: ranked rows in committed order (the rank is a position, not a preference). */
function membersSection(members: readonly RankedJson[], note: string): DisplaySection {
  return { layout: 'ranked', title: `Members (${members.length})`, note, rows: members }
}

/** The quota table: feature, value, min, max, selected, and `ok`/`bad` for a quota met or not. */
export function quotaSection(quotas: readonly QuotaRowJson[], note?: string): TableDisplay {
  const met = quotas.filter((q) => q.selected >= q.min && q.selected <= q.max).length
  return {
    layout: 'table',
    title: `Quotas (${met} of ${quotas.length} met)`,
    ...(note === undefined ? {} : { note }),
    columns: [{ label: 'Feature' }, { label: 'Value' }, { label: 'Min', align: 'right' }, { label: 'Max', align: 'right' }, { label: 'Selected', align: 'right' }, { label: 'OK' }],
    rows: quotas.map((q) => [q.feature, q.value, String(q.min), String(q.max), String(q.selected), q.selected >= q.min && q.selected <= q.max ? { text: 'yes', tone: 'ok' } : { text: 'no', tone: 'bad' }]),
  }
}

/**
 * The comparison line of probabilities by type: the lowest and highest type, their ratio, and the
 * equal share k/n a maximin tool aims at (docs/sortition.md).
 */
export function comparisonText(rows: readonly { readonly type: string; readonly value: number; readonly respondents: number }[], k: number, digits: number): string {
  if (rows.length === 0) return ''
  let lo = rows[0]!
  let hi = rows[0]!
  for (const r of rows) {
    if (r.value < lo.value) lo = r
    if (r.value > hi.value) hi = r
  }
  const n = rows.reduce((a, r) => a + r.respondents, 0)
  return `lowest ${lo.value.toFixed(digits)} (${lo.type}), highest ${hi.value.toFixed(digits)} (${hi.type}), highest/lowest ${lo.value === 0 ? '∞' : (hi.value / lo.value).toFixed(2)}; equal share k/n ${(k / n).toFixed(digits)} (what a maximin tool aims at for everyone)`
}

/** The selection probability of each respondent type: the decimal (rounded down) and the exact fraction. */
function probabilitySection(rows: readonly TypeProbabilityRow[], k: number): TableDisplay {
  return {
    layout: 'table',
    title: 'Selection probability by type',
    note: `the chance that a given respondent of the type is on the panel, exact (every feature is counted exactly); ${comparisonText(rows.map((p) => ({ type: p.type, value: Number(p.decimal), respondents: p.respondents })), k, 6)}`,
    columns: [{ label: 'Type' }, { label: 'Respondents', align: 'right' }, { label: 'Probability', align: 'right' }, { label: 'Exact', align: 'right' }],
    rows: rows.map((p) => [p.type, String(p.respondents), p.decimal, p.probability]),
  }
}

/** A `panel` outcome: members, quotas, alternates (when any), probabilities by type (when exact). */
export function panelDisplay(o: { readonly members: readonly RankedJson[]; readonly alternates: readonly RankedJson[]; readonly rounds: number; readonly quotas: readonly QuotaRowJson[]; readonly probabilities?: readonly TypeProbabilityRow[] }): SectionsDisplay {
  const sections: DisplaySection[] = [
    membersSection(o.members, `in committed order (the rank is the position, not a preference); drawn in ${o.rounds} round${o.rounds === 1 ? '' : 's'}`),
    quotaSection(o.quotas, o.probabilities === undefined ? 'selection probabilities by type are not in the proof (the plan does not count every feature exactly, or the draw has a household rule): \'orbitdraw inspect PROOF --probabilities\' and the verifier page estimate them from the commitment (docs/sortition.md)' : undefined),
  ]
  if (o.alternates.length > 0) sections.push({ layout: 'ranked', title: `Alternates (${o.alternates.length})`, note: 'asked in this order when a member drops out (the replacement rule: docs/sortition.md)', rows: o.alternates })
  if (o.probabilities !== undefined) sections.push(probabilitySection(o.probabilities, o.members.length))
  return { layout: 'sections', title: `Panel of ${o.members.length}`, sections }
}

/**
 * A `panel-replacement` outcome: the replacements, the remaining members (the new panel but the
 * replacements) and the new panel's quota table.
 */
export function replacementDisplay(o: { readonly members: readonly RankedJson[]; readonly replacements: readonly RankedJson[]; readonly rounds: number; readonly quotas: readonly QuotaRowJson[] }): SectionsDisplay {
  const fresh = new Set(o.replacements.map((r) => r.index))
  const remaining = o.members.filter((m) => !fresh.has(m.index))
  return {
    layout: 'sections',
    title: `Replacements (${o.replacements.length}) in a panel of ${o.members.length}`,
    sections: [
      { layout: 'ranked', title: `Replacements (${o.replacements.length})`, note: `drawn uniformly among the valid panels that keep the remaining members, in committed order; drawn in ${o.rounds} round${o.rounds === 1 ? '' : 's'}`, rows: o.replacements },
      { layout: 'ranked', title: `Remaining members (${remaining.length})`, note: 'the members of the original panel who stay (committed in the replacement draw), in committed order', rows: remaining },
      quotaSection(o.quotas, 'the new panel: remaining members and replacements'),
    ],
  }
}

/** A `panel-lottery` outcome: the winning candidate panel's members and its quota table. */
export function lotteryDisplay(o: { readonly panel: number; readonly members: readonly RankedJson[]; readonly quotas: readonly QuotaRowJson[] }): SectionsDisplay {
  return {
    layout: 'sections',
    title: `Panel ${o.panel} of the portfolio`,
    sections: [membersSection(o.members, `candidate panel ${o.panel} (0-based, in the committed portfolio), members in committed order`), quotaSection(o.quotas)],
  }
}
