/**
 * Draw kind `panel-lottery`: the organizer commits candidate panels (from a fairness optimizer) with
 * integer weights, over a committed pool and its quotas; the seed picks one panel with probability
 * proportional to its weight (docs/spec.md, Sortition, Panel lottery). Participants as for `panel`.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { described, integer, list } from '../schema/kit.js'
import { checkLotteryPanels, drawLottery, LOTTERY_CHECK_NAMES, MAX_LOTTERY_PANELS, type LotteryPanelProblem } from '../sortition/lottery.js'
import { checkQuotas, SORTITION_LIMITS, type QuotaRow, type SortitionPool } from '../sortition/pool.js'
import { defineKind, type Declared } from './define.js'
import { badDraw, type NamedCheck, type OutcomeJsonOf, type SpecOf } from './kind.js'
import { lotteryDisplay } from './sortition-display.js'
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
  validateComposition,
  type QuotaRowJson,
  type SortitionCommitInput,
} from './sortition.js'

/** The fields of a `panel-lottery` spec: the composition, the candidate panels and their weights. */
const fields = {
  ...compositionFields,
  panels: described(list(list(integer(0), SORTITION_LIMITS.maxPanelSize), MAX_LOTTERY_PANELS), 'The candidate panels, each k committed indices in ascending order.'),
  weights: described(list(integer(1), MAX_LOTTERY_PANELS), 'One positive integer weight per panel (all 1 for a uniform lottery).'),
}

type Spec = Declared<'panel-lottery', typeof fields>

/**
 * A computed `panel-lottery` outcome.
 * @category Sortition
 */
export interface PanelLotteryOutcome {
  readonly kind: 'panel-lottery'
  /** Index of the chosen panel in the committed portfolio. */
  readonly panel: number
  /** Its members (committed indices, ascending). */
  readonly members: readonly number[]
  /** Every feature value with its quota and the members who have it. */
  readonly quotas: readonly QuotaRowJson[]
}

/**
 * Builds what `commit` needs for a `panel-lottery` draw: the spec (pool composition, quotas, the
 * candidate panels as committed indices, the weights) and the participants in (type, id) order.
 * Every candidate panel is checked first.
 *
 * @param panels - the candidate panels as lists of respondent ids.
 * @param weights - one positive integer weight per panel (default all 1).
 * @throws {@link InvalidInputError} with the code of the first problem (`PANEL_SIZE`,
 *   `PANEL_REPEATS_MEMBER`, `PANEL_UNKNOWN_MEMBER`, `PANEL_BREAKS_QUOTA`), every problem in its detail;
 *   {@link InfeasibleQuotasError} for quotas that no panel can meet.
 * @example
 * ```ts
 * const { panels, weights } = await readLotteryCsv('portfolio.csv')
 * const { draw, participants } = panelLotteryDraw(pool, quotaRows, panels, weights)
 * ```
 * @category Sortition
 */
export function panelLotteryDraw(pool: SortitionPool, quotaRows: readonly QuotaRow[], panels: readonly (readonly string[])[], weights?: readonly number[]): SortitionCommitInput<PanelLotterySpec> {
  if (panels.length === 0) throw new InvalidInputError('INVALID_ARGUMENT', 'the portfolio has no panel', 'commit at least one candidate panel')
  if (panels.length > MAX_LOTTERY_PANELS) throw new InvalidInputError('LIMIT_EXCEEDED', `the portfolio has ${panels.length} panels, over ${MAX_LOTTERY_PANELS}`, 'commit fewer candidate panels')
  const w = weights ?? panels.map(() => 1)
  if (w.length !== panels.length) throw new InvalidInputError('INVALID_ARGUMENT', `${w.length} weights for ${panels.length} panels`, 'give one weight per panel')
  const k = panels[0]!.length
  const table = checkQuotas(pool, quotaRows, k)
  const problems = checkLotteryPanels(pool, table, k, panels)
  if (problems.length > 0) throw lotteryProblems(problems.map((p) => ({ ...p, detail: p.detail })))
  const { types, entries, order } = poolParticipants(pool)
  const at = new Map<string, number>()
  order.forEach((poolIndex, i) => at.set(pool.respondents[poolIndex]!.id, i))
  const spec: PanelLotterySpec = { kind: 'panel-lottery', k, features: featureSpecs(pool, table), types, panels: panels.map((ids) => ids.map((id) => at.get(id)!).sort((a, b) => a - b)), weights: [...w] }
  return { draw: spec, participants: entries }
}

function lotteryProblems(problems: readonly { panel: number; check: LotteryPanelProblem['check']; detail: string }[]): InvalidInputError {
  const shown = problems.slice(0, 5).map((p) => p.detail).join('; ')
  return new InvalidInputError(problems[0]!.check, `${problems.length} problem(s) in the candidate panels: ${shown}${problems.length > 5 ? '; …' : ''}`, 'fix or drop the failing panels: every candidate must have k distinct respondents of the pool and meet every quota', { path: `$.draw.panels[${problems[0]!.panel}]` })
}

/** Problems of the candidate panels against the committed pool and quotas (ids = committed indices). */
function panelProblems(spec: Spec): ReturnType<typeof checkLotteryPanels> {
  return checkLotteryPanels(compositionPool(spec), compositionQuotas(spec), spec.k, spec.panels.map((p) => p.map(String)))
}

/**
 * The `panel-lottery` kind.
 * @category Sortition
 */
export const panelLotteryKind = defineKind({
  name: 'panel-lottery',
  draw: fields,
  outcome: {
    panel: described(integer(0), 'Index of the chosen panel in the committed portfolio.'),
    members: memberRowsShape(SORTITION_LIMITS.maxPanelSize, 'Its members in committed order (rank = position).'),
    quotas: quotaTableShape,
  },
  compute(stream, spec): PanelLotteryOutcome {
    const panel = drawLottery(stream, spec.weights)
    const members = spec.panels[panel]!
    return { kind: 'panel-lottery', panel, members, quotas: quotaTable(spec, compositionPool(spec), members) }
  },
  toJson: (o, entry) => ({ kind: 'panel-lottery', panel: o.panel, members: memberRows(o.members, entry), quotas: o.quotas }),
  winnersOnly: { count: (spec) => spec.k, winners: (o) => o.members },
  rules: {
    validate(spec, n, path) {
      validateComposition(spec, n, path)
      if (!Array.isArray(spec.panels) || spec.panels.length < 1 || spec.panels.length > MAX_LOTTERY_PANELS) badDraw(`${path}.panels`, `1 to ${MAX_LOTTERY_PANELS} candidate panels are needed`, 'commit the portfolio')
      if (!Array.isArray(spec.weights) || spec.weights.length !== spec.panels.length) badDraw(`${path}.weights`, `one weight per panel is needed (${spec.panels.length})`, 'give every panel a weight')
      spec.weights.forEach((w, i) => {
        if (!Number.isSafeInteger(w) || w < 1) badDraw(`${path}.weights[${i}]`, `a weight is a whole number >= 1, got ${String(w)}`, 'use positive integer weights')
      })
      spec.panels.forEach((p, i) => {
        if (!Array.isArray(p) || p.length > SORTITION_LIMITS.maxPanelSize) badDraw(`${path}.panels[${i}]`, `a panel lists at most ${SORTITION_LIMITS.maxPanelSize} committed indices`, 'list k indices')
        p.forEach((x, j) => {
          if (!Number.isSafeInteger(x) || x < 0 || x >= n) badDraw(`${path}.panels[${i}][${j}]`, `${String(x)} is not a committed index (0 to ${n - 1})`, 'use committed indices')
          if (j > 0 && p[j - 1]! >= x) badDraw(`${path}.panels[${i}][${j}]`, 'a panel lists its indices in ascending order, each once', 'sort the indices')
        })
      })
    },
    validateCommit(spec) {
      const problems = panelProblems(spec)
      if (problems.length > 0) throw lotteryProblems(problems)
    },
    checkEntries: (spec, rows, full) => entriesProblem(spec, rows, full),
    encode: (spec) => ({ kind: 'panel-lottery', ...encodeComposition(spec), panels: spec.panels.map((p) => [...p]), weights: [...spec.weights] }),
    compare(e, c) {
      if (e.panel !== c.panel) return `the seed picks panel ${e.panel}, the proof claims panel ${c.panel}`
      if (e.members.length !== c.members.length) return `${e.members.length} members expected, ${c.members.length} claimed`
      const i = e.members.findIndex((x, j) => x.rank !== c.members[j]!.rank || x.index !== c.members[j]!.index || x.entry !== c.members[j]!.entry)
      if (i >= 0) return `member ${i + 1} should be ${JSON.stringify(e.members[i]!.entry)} (index ${e.members[i]!.index}); the proof claims ${JSON.stringify(c.members[i]!.entry)} (index ${c.members[i]!.index})`
      return compareQuotaTables(e.quotas, c.quotas)
    },
    claimCheckNames: LOTTERY_CHECK_NAMES,
    claimChecks(spec, claimed, expected) {
      const problems = panelProblems(spec)
      const checks: Record<(typeof LOTTERY_CHECK_NAMES)[number], NamedCheck> = {
        'lottery-panels': {
          name: 'lottery-panels',
          ok: problems.length === 0,
          detail: problems.length === 0 ? `all ${spec.panels.length} candidate panels have ${spec.k} distinct committed respondents and meet every quota` : problems.slice(0, 10).map((p) => `${p.check}: ${p.detail}`).join('; '),
        },
        'lottery-winner': {
          name: 'lottery-winner',
          ok: claimed.panel === expected.panel,
          detail: claimed.panel === expected.panel ? `the seed picks panel ${expected.panel} of ${spec.panels.length} (weight ${spec.weights[expected.panel]} of ${spec.weights.reduce((a, b) => a + b, 0)})` : `the seed picks panel ${expected.panel}, the proof claims panel ${claimed.panel}`,
        },
      }
      return LOTTERY_CHECK_NAMES.map((name) => checks[name])
    },
  },
  view: {
    describeOutcome: (o) => `panel ${o.panel} (${o.members.slice(0, 5).map((w) => JSON.stringify(w.entry)).join(', ')}${o.members.length > 5 ? ', …' : ''}) follows from the seed`,
    describe: (spec, n) => `panel lottery: one of ${spec.panels.length} candidate panel(s) of ${spec.k}${n === undefined ? '' : ` from ${n} respondents`}, chances proportional to ${spec.weights.every((w) => w === 1) ? 'equal weights' : 'their weights'}`,
    display: (o) => lotteryDisplay(o),
  },
  cli: {
    flag: 'lottery',
    options: { lottery: 'string', pool: 'string', quotas: 'string' },
    usage: '--lottery FILE --pool FILE --quotas FILE',
    help: '  --lottery FILE --pool FILE --quotas FILE\n                           sortition: the beacon picks one of the candidate panels in FILE (one\n                           panel of ids per row; optional "weight" first column)',
    fromFlags: () => {
      throw new InvalidInputError('INVALID_FLAG', '--lottery needs --pool FILE and --quotas FILE', 'add --pool pool.csv --quotas quotas.csv')
    },
    files: { lottery: 'sortition-lottery', pool: 'sortition-pool', quotas: 'sortition-quotas' },
    build(_flags, files): SortitionCommitInput<Spec> {
      const pool = files.pool as SortitionPool | undefined
      const quotas = files.quotas as QuotaRow[] | undefined
      const lottery = files.lottery as { panels: string[][]; weights: number[] } | undefined
      if (pool === undefined || quotas === undefined || lottery === undefined) throw new InvalidInputError('INVALID_FLAG', '--lottery needs --pool FILE and --quotas FILE', 'add --pool pool.csv --quotas quotas.csv')
      return panelLotteryDraw(pool, quotas, lottery.panels, lottery.weights)
    },
  },
})

/**
 * A `panel-lottery` draw: the composition, the candidate panels (each `k` committed indices,
 * ascending) and one positive integer weight per panel (all 1 for a uniform lottery). Make one with
 * {@link panelLotteryDraw}.
 * @category Sortition
 */
export type PanelLotterySpec = SpecOf<typeof panelLotteryKind>

/**
 * A `panel-lottery` outcome as carried in a proof: the chosen panel's index in the portfolio, its
 * members as ranked rows and the quota table.
 * @category Sortition
 */
export type PanelLotteryOutcomeJson = OutcomeJsonOf<typeof panelLotteryKind>
