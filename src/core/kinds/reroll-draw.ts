/**
 * The spec of a re-roll made from the proof it follows (docs/spec.md, Re-rolls): {@link rerollDraw},
 * and what a followed draw says (its winners, earlier declined winners and ranking seed), which the
 * link rule (./reroll-link.ts) reads the same way.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import type { FollowUpLink } from '../follow-up.js'
import type { RankedJson } from './kind.js'

/**
 * A `reroll` or `weighted-reroll` spec as {@link rerollDraw} makes it (the kinds' declared spec types,
 * `RerollSpec` and `WeightedRerollSpec`, are this shape).
 * @category Draw kinds
 */
export interface RerollDrawSpec {
  /** `reroll` for a pick (or a re-roll of one), `weighted-reroll` for a weighted draw (or a re-roll of one). */
  readonly kind: 'reroll' | 'weighted-reroll'
  /** `next`: the next entries of the committed ranking; `fresh`: a fresh draw at the new block. */
  readonly rule: 'next' | 'fresh'
  /** The followed draw: its CID, seed, target and the declined winners. */
  readonly follows: FollowUpLink
  /** The first draw's seed (its ranking). */
  readonly ranking: string
  /** The followed draw's winners in rank order (committed indices). */
  readonly winners: readonly number[]
  /** Winners who declined before the followed draw (committed indices, ascending). */
  readonly past: readonly number[]
}

/** The kind a re-roll of `kind` is, or undefined when `kind` cannot be re-rolled. */
export function rerollKindOf(kind: unknown): 'reroll' | 'weighted-reroll' | undefined {
  if (kind === 'pick' || kind === 'reroll') return 'reroll'
  if (kind === 'weighted' || kind === 'weighted-reroll') return 'weighted-reroll'
  return undefined
}

/** What a followed draw says: its winners in rank order, its earlier declined winners, its ranking's seed. */
export function followedState(draw: { readonly kind: string }, seed: string, outcome: unknown): { winners: number[]; past: number[]; ranking: string } {
  const winners = ((outcome as { winners?: readonly RankedJson[] }).winners ?? []).map((w) => w.index)
  if (draw.kind === 'pick' || draw.kind === 'weighted') return { winners, past: [], ranking: seed }
  const r = draw as unknown as Pick<RerollDrawSpec, 'past' | 'follows' | 'ranking'>
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
export function rerollDraw(original: { readonly commitment: object; readonly seed: string; readonly outcome: unknown }, dropped: readonly number[], originalCid: string, rule: 'next' | 'fresh'): RerollDrawSpec {
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

