/**
 * Sortition for citizens' assemblies: pools and quotas, feasibility, exact counting of quota-satisfying
 * panels, the uniform `panel` draw, alternates and panel lotteries (docs/sortition.md for organizers,
 * docs/spec.md, Sortition, for implementers). Pure and browser-safe; the CSV readers of pool, quota and
 * lottery files are in `orbitdraw/node`.
 *
 * ```ts
 * import { makePool, checkQuotas, panelDraw } from 'orbitdraw/sortition'
 * ```
 *
 * The `orbitdraw/sortition` entry: this file is the only list of its names (docs/architecture.md,
 * "Public surface"); the kinds' objects (`panelKind`, `panelLotteryKind`) are in `orbitdraw/kinds`.
 *
 * @module orbitdraw/sortition
 */
// Pools and quotas.
/** @category Sortition */
export {
  makePool,
  checkQuotas,
  SORTITION_LIMITS,
  type SortitionPool,
  type SortitionFeature,
  type Respondent,
  type QuotaRow,
  type QuotaTable,
} from './pool.js'
/** @category Errors */
export { InfeasibleQuotasError } from './pool.js'
/** @category Errors */
export { INFEASIBLE_QUOTAS_ERROR_CODES, type InfeasibleQuotasErrorCode } from '../error-codes.js'
// Committing a panel or a panel lottery (the draw specs of the `panel` and `panel-lottery` kinds).
/** @category Sortition */
export { panelDraw, type PanelSpec, type PanelOutcome, type PanelOutcomeJson, type PanelDrawOptions, type TypeProbabilityJson } from '../kinds/panel.js'
/** @category Sortition */
export { panelLotteryDraw, type PanelLotterySpec, type PanelLotteryOutcome, type PanelLotteryOutcomeJson } from '../kinds/panel-lottery.js'
/** @category Sortition */
export { sortitionEntry, type SortitionComposition, type SortitionFeatureSpec, type QuotaRowJson, type SortitionCommitInput } from '../kinds/sortition.js'
// Planning, cost and estimates.
/** @category Sortition */
export { alternatesCost, checkAlternatesCost, planCost, type PlanCost } from './cost.js'
/** @category Sortition */
export { estimateSelectionProbabilities, estimateSeed, type EstimateOptions, type SelectionEstimate, type TypeProbabilityEstimate } from './estimate.js'
/** @category Sortition */
export { householdProbabilities, householdGroupsOf, HOUSEHOLD_EXACT_BUDGET, type HouseholdGroupProbability, type HouseholdGroups } from './household-probabilities.js'
/** @category Sortition */
export { buildCounter, type Counter, type Cell, type CounterLayer } from './count.js'
// The uniform panel draw and its checks.
/** @category Sortition */
export {
  planPanel,
  checkPlanCost,
  drawPanel,
  relaxedPanel,
  meetsQuotas,
  selectionProbabilities,
  checkPanelClaim,
  checkPanelShape,
  PANEL_CHECK_NAMES,
  type PanelPlan,
  type PanelDraw,
  type PanelPlanOptions,
  type TypeProbability,
  type PanelCheck,
  type PanelClaimResult,
} from './panel.js'
/** @category Sortition */
export { panelProbabilities, formatPanelProbabilities, DEFAULT_ESTIMATE_PANELS, type PanelProbabilityOptions, type PanelProbabilities, type PanelProbabilityScope, type PanelProbabilitySummary, type PanelTypeProbability } from '../kinds/panel-probabilities.js'
/** @category Sortition */
export { PLAN_METHODS, type PlanMethod, type PlanMethodSettings } from './gate.js'
// Alternates and panel lotteries.
/** @category Sortition */
export { drawAlternates, replacementFor, type AlternatesDraw } from './alternates.js'
/** @category Sortition */
export { normalizeHousehold } from './household.js'
/** @category Sortition */
export { panelReplacementDraw, type PanelReplacementDrawOptions, type PanelReplacementSpec, type PanelReplacementOutcome, type PanelReplacementOutcomeJson } from '../kinds/panel-replacement.js'
/** @category Sortition */
export { drawLottery, checkLotteryPanels, MAX_LOTTERY_PANELS, LOTTERY_CHECK_NAMES, type LotteryPanelProblem } from './lottery.js'
