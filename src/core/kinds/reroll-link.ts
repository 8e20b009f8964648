/**
 * The link between a re-roll and the draw it follows (docs/spec.md, Re-rolls): {@link rerollDraw} makes
 * the re-roll's spec from the followed proof, and {@link rerollLink} is the rule `verify` checks
 * (`follow-up-link`): the followed draw is a `pick` (`weighted`) or a re-roll of the same kind, over the
 * same committed participants; every declined index was one of its winners; `winners`, `past` and
 * `ranking` are what it says.
 *
 * @module
 */
import type { Commitment } from '../commitment.js'
import { InvalidInputError } from '../errors.js'
import type { Proof } from '../proof.js'
import type { RankedJson } from './kind.js'
import type { RerollSpec, WeightedRerollSpec } from './reroll.js'

/** The kind a re-roll of `kind` is, or undefined when `kind` cannot be re-rolled. */
function rerollKindOf(kind: unknown): 'reroll' | 'weighted-reroll' | undefined {
  if (kind === 'pick' || kind === 'reroll') return 'reroll'
  if (kind === 'weighted' || kind === 'weighted-reroll') return 'weighted-reroll'
  return undefined
}

/** What a followed draw says: its winners in rank order, its earlier declined winners, its ranking's seed. */
function followedState(draw: { readonly kind: string }, seed: string, outcome: unknown): { winners: number[]; past: number[]; ranking: string } {
  const winners = ((outcome as { winners?: readonly RankedJson[] }).winners ?? []).map((w) => w.index)
  if (draw.kind === 'pick' || draw.kind === 'weighted') return { winners, past: [], ranking: seed }
  const r = draw as unknown as Pick<RerollSpec, 'past' | 'follows' | 'ranking'>
  return { winners, past: [...new Set([...r.past, ...r.follows.dropped])].sort((a, b) => a - b), ranking: r.ranking }
}

/**
 * Builds the re-roll of the winners who declined in a `pick` or `weighted` draw (or in a re-roll of
 * one): the followed draw named (`follows`), its winners, the earlier declined winners, the first
 * draw's seed and the rule. Commit it to a later block over the same participants (a private list
 * with the same secret), then draw it and carry the followed proof with `withOriginal`.
 *
 * @param original - the followed proof (parsed or as JSON): a `pick`, `weighted`, `reroll` or `weighted-reroll` draw.
 * @param dropped - committed indices of its winners who declined or were disqualified.
 * @param originalCid - the followed commitment's CID (its verdict's `commitmentCid`).
 * @param rule - `'next'`: the next entries of the committed ranking; `'fresh'`: a fresh draw at the new block.
 * @throws {@link InvalidInputError} `INVALID_ARGUMENT` when the original cannot be re-rolled or a dropped
 *   index is not one of its winners.
 *
 * @example
 * ```ts
 * const spec = rerollDraw(originalProof, [declinedIndex], originalCid, 'fresh')
 * const { commitment } = commit({ beacon, target: later, after, draw: spec, participants })
 * const proof = withOriginal(drawFromBlock(commitment, participants, block), originalProof)
 * ```
 * @category Draw kinds
 */
export function rerollDraw(original: { readonly commitment: object; readonly seed: string; readonly outcome: unknown }, dropped: readonly number[], originalCid: string, rule: 'next' | 'fresh'): RerollSpec | WeightedRerollSpec {
  const c = original.commitment as { readonly target?: unknown; readonly draw?: { readonly kind?: unknown } }
  const kind = rerollKindOf(c.draw?.kind)
  if (typeof c.target !== 'number' || c.draw === undefined) throw new InvalidInputError('INVALID_ARGUMENT', 'the original proof has no commitment target or draw', 'pass an orbitdraw proof')
  if (kind === undefined) throw new InvalidInputError('INVALID_ARGUMENT', `a ${String(c.draw.kind)} draw cannot be re-rolled`, 're-roll a pick or weighted draw (or a re-roll of one)')
  if (rule !== 'next' && rule !== 'fresh') throw new InvalidInputError('INVALID_ARGUMENT', `the re-roll rule must be "next" or "fresh", got ${JSON.stringify(rule)}`, 'choose next (the committed ranking) or fresh (a new draw among those who never won)')
  const state = followedState(c.draw as { kind: string }, original.seed, original.outcome)
  const drop = [...new Set(dropped)].sort((a, b) => a - b)
  if (drop.length === 0) throw new InvalidInputError('INVALID_ARGUMENT', 'no declined winner named', 'name who declined')
  for (const i of drop) if (!state.winners.includes(i)) throw new InvalidInputError('INVALID_ARGUMENT', `participant ${i} is not one of the winners of the original draw`, 'name winners of the original draw')
  return { kind, rule, follows: { commitment: originalCid, seed: original.seed, target: c.target, dropped: drop }, ranking: state.ranking, winners: state.winners, past: state.past }
}

/** The first problem of the link between a re-roll and the draw it follows, or undefined. */
export function rerollLink(spec: RerollSpec | WeightedRerollSpec, follow: { commitment: Commitment; proof: Proof }, original: { commitment: Commitment; proof: Proof }): string | undefined {
  const o = original.commitment.draw as { readonly kind: string }
  if (rerollKindOf(o.kind) !== spec.kind) return `a ${spec.kind} cannot follow a ${o.kind} draw`
  const a = follow.commitment.participants
  const b = original.commitment.participants
  if (a?.root !== b?.root || a?.count !== b?.count || a?.salted !== b?.salted) return 'the re-roll is not over the same committed participants (root, count and salting) as the draw it follows'
  const state = followedState(o, original.proof.seed, original.proof.outcome)
  const strangers = spec.follows.dropped.filter((i) => !state.winners.includes(i))
  if (strangers.length > 0) return `declined participant(s) ${strangers.join(', ')} were not winners of the draw it follows`
  const same = (x: readonly number[], y: readonly number[]): boolean => x.length === y.length && x.every((v, i) => v === y[i])
  if (!same(spec.winners, state.winners)) return 'the committed winners are not the followed draw\'s winners in rank order'
  if (!same(spec.past, state.past)) return `the committed earlier declined winners (${spec.past.length}) are not those of the draw it follows (${state.past.length})`
  if (spec.ranking !== state.ranking) return `the committed ranking seed is not the first draw's (${state.ranking})`
  return undefined
}
