/**
 * Replacement plan-method vectors (test/vectors/replacements.json; docs/spec.md, Panel replacements):
 * per case the original panel's commitment (its `draw` and target), seed and members, the dropped
 * members and `exactFeatures`; then every intermediate value a stranger's implementation must reproduce:
 * the replacement spec `panelReplacementDraw` commits (its `plan` and `maxRounds`), the available
 * respondents, the reduced quotas, method 1's kept trials (refused), method 2's gate (12th kept trial,
 * or its kept count within 40,000 when it refuses), method 3's kept trials, the work bound with the
 * committed round cap, and the draw on a seed: its rounds, replacements, members and stream bytes read.
 * Shared by the generator (scripts/make-replacement-vectors.ts) and the test.
 */
import { hexToBytes } from '../../../src/core/bytes.js'
import { OrbitdrawError } from '../../../src/core/errors.js'
import { streamFromSeed } from '../../../src/core/random/index.js'
import { panelReplacementKind, subPool, type PanelReplacementOutcome } from '../../../src/core/kinds/panel-replacement.js'
import { methodOptions } from '../../../src/core/kinds/panel-method.js'
import { planCost, planPanel, type PanelReplacementSpec, type PanelSpec } from '../../../src/core/sortition/index.js'
import { acceptanceStream } from '../../../src/core/sortition/plan.js'
import { meetsQuotas, otherFeatures, relaxedPanel } from '../../../src/core/sortition/round.js'
import { panelReplacementDraw } from '../../../src/core/sortition/index.js'

/** The original as a replacement reads it: its commitment's target and draw, its seed and members. */
export interface ReplacementVectorInput {
  readonly name: string
  readonly original: { readonly commitment: { readonly target: number; readonly draw: PanelSpec }; readonly seed: string; readonly outcome: { readonly members: readonly { readonly index: number }[] } }
  readonly originalCid: string
  readonly dropped: readonly number[]
  readonly exactFeatures: readonly string[]
  /** The replacement draw's seed. */
  readonly seed: string
}

export interface ReplacementVector extends ReplacementVectorInput {
  readonly spec: PanelReplacementSpec
  readonly available: readonly number[]
  readonly reduced: { readonly min: readonly (readonly number[])[]; readonly max: readonly (readonly number[])[] }
  /** Method 1's gate on its stream: trials kept of 2,000 (fewer than 7: refused). */
  readonly method1Kept: number
  /** Method 2's gate stream (shared by method 3): the 1-based trials kept, up to the 12th or the 10th within method 3's trials. */
  readonly method2StreamKeptAt: readonly number[]
  readonly cost: { readonly round: number; readonly rounds: number; readonly draw: number }
  readonly rounds: number
  readonly replacements: readonly number[]
  readonly members: readonly number[]
  readonly consumed: number
}

/** Runs one case: the committed spec and every intermediate value. */
export function runReplacementVector(input: ReplacementVectorInput): ReplacementVector {
  const spec = panelReplacementDraw(input.original, input.dropped, input.originalCid, { exactFeatures: input.exactFeatures })
  const { sub, reduced, available } = subPool(spec)
  const r = spec.k - spec.keep.length
  const relaxed = planPanel(sub, reduced, r, { exactFeatures: spec.exact, explain: false, skipAcceptanceCheck: true })
  const others = otherFeatures(relaxed)
  const keptOn = (method: 1 | 2, trials: number, stop: (kept: number[]) => boolean): number[] => {
    const stream = acceptanceStream(method)
    const kept: number[] = []
    for (let t = 1; t <= trials && !stop(kept); t++) if (meetsQuotas(sub, reduced, relaxedPanel(relaxed.counter, stream).members, others)) kept.push(t)
    return kept
  }
  const method1Kept = keptOn(1, 2000, () => false).length
  const need = spec.plan === 3 ? 10 : 12
  const method2StreamKeptAt = keptOn(2, spec.plan === 3 ? spec.maxRounds! / 16 : 40_000, (kept) => kept.length >= need)
  const c = planCost(sub, reduced, r, relaxed.counter.exact, spec.plan === 3 ? spec.maxRounds! : spec.plan === 2 ? 400_000 : 100_000)
  const stream = streamFromSeed(hexToBytes(input.seed))
  const o = panelReplacementKind.compute(stream, spec, { count: spec.types.reduce((a, t) => a + t.at(-1)!, 0) }) as PanelReplacementOutcome
  // The committed method's plan replays: its options are the ones a verifier reads.
  planPanel(sub, reduced, r, { exactFeatures: spec.exact, explain: false, ...methodOptions(spec) })
  return {
    ...input,
    spec,
    available,
    reduced: { min: reduced.min, max: reduced.max },
    method1Kept,
    method2StreamKeptAt,
    cost: { round: c.round, rounds: c.rounds, draw: c.draw },
    rounds: o.rounds,
    replacements: o.replacements,
    members: o.members,
    consumed: stream.consumed,
  }
}

/** True when `f` throws SORTITION_ACCEPTANCE_TOO_LOW. */
export function refused(f: () => unknown): boolean {
  try {
    f()
    return false
  } catch (err) {
    if (err instanceof OrbitdrawError && err.code === 'SORTITION_ACCEPTANCE_TOO_LOW') return true
    throw err
  }
}
