/**
 * The verify bundle's registry of draw kinds. In `dist/bin/orbitdraw-verify.cjs` only, this module
 * stands in for `src/core/kinds/registry.ts` (scripts/build-cli.ts puts it in that module's place): the
 * same `DEFAULT_DRAW_KINDS`, the built-in kinds in the same order, but each kind's module (and what it
 * imports: the sortition engine, the allocation kinds, ...) runs the first time a proof of that kind is
 * read ({@link lazyDrawKinds}), so a strict `verify` of a `pick` proof runs the `pick` module only
 * (docs/performance.md, Start-up; docs/architecture.md, "Draw kinds").
 *
 * It loads with `require`, which the bundle (CommonJS) turns into a call of the kind's module init: it
 * runs only inside that bundle, never from `dist/cli/` (an ES module has no `require`). The library and
 * every other command keep the registry, whose kinds are loaded with it: the sync API (`parseCommitment`,
 * `drawFromBlock`, ...) needs them at hand. `test/cli/verify-kinds.test.ts` holds this list to the
 * registry's; `test/cli/bundle.test.ts` checks what a verify of each kind runs.
 *
 * @module
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the verify bundle's lazy loads (see above) */
import type { DrawKinds } from '../core/kinds/kind.js'
import { lazyDrawKinds, type LazyDrawKind } from '../core/kinds/lazy.js'

type Shuffle = typeof import('../core/kinds/shuffle.js')
type Pick = typeof import('../core/kinds/pick.js')
type Range = typeof import('../core/kinds/range.js')
type Weighted = typeof import('../core/kinds/weighted.js')
type Panel = typeof import('../core/kinds/panel.js')
type PanelLottery = typeof import('../core/kinds/panel-lottery.js')
type PanelReplacement = typeof import('../core/kinds/panel-replacement.js')
type Tiebreak = typeof import('../core/kinds/tiebreak.js')
type Stages = typeof import('../core/kinds/stages.js')
type PreferenceLottery = typeof import('../core/kinds/preference-lottery.js')
type Reroll = typeof import('../core/kinds/reroll.js')

/** The built-in kinds, in the registry's order (`BUILT_IN_KINDS`), each with its module's load. */
export const BUILT_IN_LAZY_KINDS: readonly LazyDrawKind[] = [
  { name: 'shuffle', load: () => (require('../core/kinds/shuffle.js') as Shuffle).shuffleKind },
  { name: 'pick', load: () => (require('../core/kinds/pick.js') as Pick).pickKind },
  { name: 'range', load: () => (require('../core/kinds/range.js') as Range).rangeKind },
  { name: 'weighted', load: () => (require('../core/kinds/weighted.js') as Weighted).weightedKind },
  { name: 'panel', load: () => (require('../core/kinds/panel.js') as Panel).panelKind },
  { name: 'panel-lottery', load: () => (require('../core/kinds/panel-lottery.js') as PanelLottery).panelLotteryKind },
  { name: 'panel-replacement', load: () => (require('../core/kinds/panel-replacement.js') as PanelReplacement).panelReplacementKind },
  { name: 'tiebreak', load: () => (require('../core/kinds/tiebreak.js') as Tiebreak).tiebreakKind },
  { name: 'stages', load: () => (require('../core/kinds/stages.js') as Stages).stagesKind },
  { name: 'preference-lottery', load: () => (require('../core/kinds/preference-lottery.js') as PreferenceLottery).preferenceLotteryKind },
  { name: 'reroll', load: () => (require('../core/kinds/reroll.js') as Reroll).rerollKind },
  { name: 'weighted-reroll', load: () => (require('../core/kinds/reroll.js') as Reroll).weightedRerollKind },
]

/** The built-in registry, as `src/core/kinds/registry.ts` exports it, with its kinds loaded on first use. */
export const DEFAULT_DRAW_KINDS: DrawKinds = lazyDrawKinds(BUILT_IN_LAZY_KINDS)
