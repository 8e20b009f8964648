/**
 * Draw kinds: the registry, the built-in kinds, what a kind author implements, and the sampling
 * primitives a kind's outcome is drawn with. Pure and browser-safe. See docs/draw-kinds.md.
 *
 * ```ts
 * import { withKinds, type DrawKind, uniformIndex } from 'orbitdraw/kinds'
 * ```
 *
 * The `orbitdraw/kinds` entry: this file is the only list of its names (docs/architecture.md, "Public
 * surface"). The built-in kinds themselves are listed once, in `BUILT_IN_KINDS` (./registry.ts).
 *
 * @module orbitdraw/kinds
 */
// The registry: the built-in kinds, your own kinds beside them, the registered kinds' types.
/** @category Draw kinds */
export { BUILT_IN_KINDS, DEFAULT_DRAW_KINDS, withKinds, type DrawKindTypes, type Outcome, type OutcomeJson } from './registry.js'
/** @category Draw kinds */
export { DRAW_KINDS, validateDrawSpec, usesParticipants, kindOf } from '../draw-spec.js'
// The interface a kind implements, its parts and display layouts.
/** @category Draw kinds */
export {
  drawKinds,
  intFlagValue,
  type AnyDrawKind,
  type DrawKind,
  type DrawKinds,
  type DrawInput,
  type DrawSpecBase,
  type OutcomeBase,
  type NamedCheck,
  type KindCli,
  type KindFlags,
  type KindFileFormat,
  type KindFiles,
  type OutcomeDisplay,
  type ValuesDisplay,
  type RankedDisplay,
  type TableDisplay,
  type TableColumn,
  type TableCell,
  type DisplaySection,
  type SectionsDisplay,
  type RankedJson,
  type SpecOf,
  type OutcomeOf,
  type OutcomeJsonOf,
} from './kind.js'
// Declaring a kind: one `defineKind({...})` over fields built with the validation kit's shapes.
/** @category Draw kinds */
export { defineKind, type KindDeclaration, type KindRules, type KindView, type KindShape, type Declared, type Fields, type Listed } from './define.js'
/** @category Draw kinds */
export { integer, text, boolean, list, pattern, described, strictObject, type ShapeErrorCode } from '../schema/kit.js'
// The built-in kinds (the sortition kinds' helpers and types are in `orbitdraw/sortition`).
/** @category Draw kinds */
export { shuffleKind, type ShuffleSpec, type ShuffleOutcomeJson } from './shuffle.js'
/** @category Draw kinds */
export { pickKind, type PickSpec, type PickOutcomeJson } from './pick.js'
/** @category Draw kinds */
export { rangeKind, type RangeSpec, type RangeOutcome, type RangeOutcomeJson } from './range.js'
/** @category Draw kinds */
export { weightedKind, type WeightedSpec, type WeightedOutcomeJson } from './weighted.js'
/** @category Draw kinds */
export { tiebreakKind, tiebreakOrder, MAX_TIEBREAK_ENTRIES, type TiebreakSpec, type TiebreakOutcomeJson } from './tiebreak.js'
/** @category Allocation */
export { stagesKind, stagesDraw, ALLOCATION_LIMITS, type StagesSpec, type StageSpec, type StageInput, type StagesOutcome, type StagesOutcomeJson } from './stages.js'
/** @category Allocation */
export { preferenceLotteryKind, preferenceLotteryDraw, parsePreferencesFlag, type PreferenceLotterySpec, type PreferenceCategorySpec, type PreferenceCategoryInput, type PreferenceLotteryOutcome, type PreferenceLotteryOutcomeJson } from './preference-lottery.js'
/** @category Draw kinds */
export { rerollKind, weightedRerollKind, REROLL_LIMITS, REROLL_CHECK_NAMES, type RerollSpec, type WeightedRerollSpec, type RerollOutcome, type RerollOutcomeJson } from './reroll.js'
/** @category Draw kinds */
export { rerollDraw, type RerollDrawSpec } from './reroll-draw.js'
// Follow-up draws (a re-roll, a panel replacement): the followed proof carried in the new one.
/** @category Draw kinds */
export { withOriginal, MAX_FOLLOW_UP_DEPTH, type FollowUpLink } from '../follow-up.js'
/** @category Allocation */
export type { ColumnSpec, ColumnsSpec, WhereCondition } from './columns.js'
/** @category Allocation */
export type { StageRounding } from '../allocation/stages.js'
/** @category Draw kinds */
export type { RankedOutcome } from './ranked.js'
/** @category Sortition */
export { panelKind } from './panel.js'
/** @category Sortition */
export { panelLotteryKind } from './panel-lottery.js'
/** @category Sortition */
export { panelReplacementKind } from './panel-replacement.js'
// From the seed to an outcome and its JSON form in a proof.
/** @category Sampling */
export { deriveSeed, SEED_DOMAIN_V1 } from '../seed.js'
/** @category Draw kinds */
export { computeOutcome } from '../outcome.js'
/** @category Draw kinds */
export { outcomeToJson, privateKindNames } from '../draw.js'
// The sampling primitives (a stream from a seed, exact uniform integers, shuffles, picks, ranges, weights).
export * from '../random/index.js'
