/**
 * The `panel` engine: a panel drawn uniformly at random among all size-k subsets of the pool that meet
 * every quota, exactly (docs/spec.md, Sortition). One module per concern, gathered here:
 * `round.ts` (the draw), `plan.ts` (work bound, exact features, gate), `infeasible.ts` (relaxations),
 * `probabilities.ts` (exact per-type probabilities), `claim.ts` (a verifier's checks).
 *
 * @module
 */
export { uniformBelow, meetsQuotas, relaxedPanel, drawPanel, otherFeatures, type PanelPlan, type PanelDraw } from './round.js'
export { checkPlanCost } from './cost.js'
export { planPanel, dpOrder, acceptanceStream, type PanelPlanOptions } from './plan.js'
export { selectionProbabilities, decimalString, type TypeProbability } from './probabilities.js'
export { checkPanelClaim, checkPanelShape, PANEL_CHECK_NAMES, type PanelCheck, type PanelClaimResult } from './claim.js'
