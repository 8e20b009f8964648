/**
 * The registry of draw kinds: the ONLY list of the kinds this release implements. Adding a kind is
 * writing its module (`src/core/kinds/<name>.ts`, one {@link DrawKind} object), adding it to
 * `BUILT_IN_KINDS` below and its names to `src/core/kinds/index.ts` (the `orbitdraw/kinds` list);
 * nothing else switches over kinds. Users add their own kinds without editing the library with
 * {@link withKinds}. See docs/draw-kinds.md.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { drawKinds, type AnyDrawKind, type DrawKinds, type OutcomeJsonOf, type OutcomeOf, type SpecOf } from './kind.js'
import { panelLotteryKind } from './panel-lottery.js'
import { panelKind } from './panel.js'
import { pickKind } from './pick.js'
import { rangeKind } from './range.js'
import { shuffleKind } from './shuffle.js'
import { weightedKind } from './weighted.js'
import { tiebreakKind } from './tiebreak.js'
import { panelReplacementKind } from './panel-replacement.js'
import { preferenceLotteryKind } from './preference-lottery.js'
import { stagesKind } from './stages.js'
import { rerollKind, weightedRerollKind } from './reroll.js'

/**
 * The built-in kinds, in the order their names are listed in messages.
 * @category Draw kinds
 */
// Typed by name, so that the published declarations say `typeof pickKind` rather than spelling out every
// kind's declared fields (that spelling made this file's .d.ts 172 KB).
export const BUILT_IN_KINDS: readonly [
  typeof shuffleKind, typeof pickKind, typeof rangeKind, typeof weightedKind, typeof panelKind, typeof panelLotteryKind,
  typeof panelReplacementKind, typeof tiebreakKind, typeof stagesKind, typeof preferenceLotteryKind, typeof rerollKind, typeof weightedRerollKind,
] = [shuffleKind, pickKind, rangeKind, weightedKind, panelKind, panelLotteryKind, panelReplacementKind, tiebreakKind, stagesKind, preferenceLotteryKind, rerollKind, weightedRerollKind] as const

/**
 * The built-in registry: what every core function uses unless given `kinds`.
 * @category Draw kinds
 */
export const DEFAULT_DRAW_KINDS: DrawKinds = drawKinds(BUILT_IN_KINDS)

/**
 * The built-in kinds plus `extra` (or `base` plus `extra`), as a registry to pass as the `kinds`
 * option of `commit`, `parseCommitment`, `drawFromBlock`, `parseProof`, `verify`, …
 *
 * @example
 * ```ts
 * const kinds = withKinds([diceKind])
 * const { commitment } = commit({ ...options, draw: { kind: 'dice', rolls: 3, sides: 6 }, kinds })
 * const proof = drawFromBlock(commitment, undefined, block, { kinds })
 * const result = await verify(proof, { kinds })
 * ```
 * @throws {@link InvalidInputError} `DUPLICATE_DRAW_KIND` when a name is taken (built-in kinds cannot
 *   be replaced), `INVALID_DRAW_KIND` for a kind without a valid name.
 * @category Draw kinds
 */
export function withKinds(extra: readonly AnyDrawKind[], base: DrawKinds = DEFAULT_DRAW_KINDS): DrawKinds {
  if (!Array.isArray(extra)) throw new InvalidInputError('INVALID_DRAW_KIND', 'withKinds takes an array of draw kinds', 'pass e.g. withKinds([myKind])', { path: '$.kinds' })
  return drawKinds([...base.list, ...extra])
}

/**
 * The types of the registered kinds, by any key. The built-in kinds are `builtIn`; a program that
 * registers its own kind adds it by declaration merging, so that {@link DrawSpec}, `Outcome` and
 * `OutcomeJson` include it:
 *
 * ```ts
 * declare module 'orbitdraw/kinds' {
 *   interface DrawKindTypes { dice: typeof diceKind }
 * }
 * ```
 * @category Draw kinds
 */
export interface DrawKindTypes {
  builtIn: (typeof BUILT_IN_KINDS)[number]
}

/**
 * A draw spec of any registered kind.
 * @category Draw kinds
 */
export type DrawSpec = SpecOf<DrawKindTypes[keyof DrawKindTypes]>
/**
 * A computed outcome of any registered kind (indices into the committed participants, or values).
 * @category Draw kinds
 */
export type Outcome = OutcomeOf<DrawKindTypes[keyof DrawKindTypes]>
/**
 * A claimed outcome in a proof, of any registered kind.
 * @category Draw kinds
 */
export type OutcomeJson = OutcomeJsonOf<DrawKindTypes[keyof DrawKindTypes]>
