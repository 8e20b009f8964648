/**
 * Sortition for citizens' assemblies: pools and quotas, feasibility, exact counting of quota-satisfying
 * panels and the uniform `panel` draw (docs/sortition.md for organizers, docs/spec.md, Sortition, for
 * implementers).
 *
 * @module
 */
export {
  makePool,
  checkQuotas,
  checkPanelSize,
  compareCodePoints,
  InfeasibleQuotasError,
  SORTITION_LIMITS,
  type SortitionPool,
  type SortitionFeature,
  type Respondent,
  type QuotaRow,
  type QuotaTable,
} from './pool.js'
export { planCost, COST_SATURATION, type PlanCost } from './cost.js'
export { estimateSelectionProbabilities, estimateSeed, MAX_ESTIMATE_PANELS, type SelectionEstimate, type TypeProbabilityEstimate } from './estimate.js'
export { buildCounter, makeCells, binomialRow, expectedCellCounts, type Counter, type Cell, type CounterLayer } from './count.js'
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
  decimalString,
  dpOrder,
  acceptanceStream,
  uniformBelow,
  type PanelPlan,
  type PanelDraw,
  type PanelPlanOptions,
  type TypeProbability,
  type PanelCheck,
  type PanelClaimResult,
} from './panel.js'
export { drawAlternates, replacementFor, type AlternatesDraw } from './alternates.js'
export { normalizeHousehold } from './household.js'
export { drawLottery, checkLotteryPanels, MAX_LOTTERY_PANELS, LOTTERY_CHECK_NAMES, type LotteryPanelProblem } from './lottery.js'
