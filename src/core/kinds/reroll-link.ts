/**
 * The link between a re-roll and the draw it follows (docs/spec.md, Re-rolls): {@link rerollLink} is the
 * rule `verify` checks
 * (`follow-up-link`): the followed draw is a `pick` (`weighted`) or a re-roll of the same kind; every
 * declined index was one of its winners; `winners`, `past` and `ranking` are what it says. (That both
 * are over the same committed participants is checked for every follow-up: `follow-up-verify.ts`.)
 *
 * @module
 */
import type { Commitment } from '../commitment.js'
import type { Proof } from '../proof.js'
import { followedState, rerollKindOf } from './reroll-draw.js'
import type { RerollSpec, WeightedRerollSpec } from './reroll.js'

/** The first problem of the link between a re-roll and the draw it follows, or undefined. */
export function rerollLink(spec: RerollSpec | WeightedRerollSpec, _follow: { commitment: Commitment; proof: Proof }, original: { commitment: Commitment; proof: Proof }): string | undefined {
  const o = original.commitment.draw as { readonly kind: string }
  if (rerollKindOf(o.kind) !== spec.kind) return `a ${spec.kind} cannot follow a ${o.kind} draw`
  const state = followedState(o, original.proof.seed, original.proof.outcome)
  const strangers = spec.follows.dropped.filter((i) => !state.winners.includes(i))
  if (strangers.length > 0) return `declined participant(s) ${strangers.join(', ')} were not winners of the draw it follows`
  const same = (x: readonly number[], y: readonly number[]): boolean => x.length === y.length && x.every((v, i) => v === y[i])
  if (!same(spec.winners, state.winners)) return 'the committed winners are not the followed draw\'s winners in rank order'
  if (!same(spec.past, state.past)) return `the committed earlier declined winners (${spec.past.length}) are not those of the draw it follows (${state.past.length})`
  if (spec.ranking !== state.ranking) return `the committed ranking seed is not the first draw's (${state.ranking})`
  return undefined
}
