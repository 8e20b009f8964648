/**
 * Follow-up draws (docs/spec.md, Follow-up draws): a new commitment, to a later block, that names an
 * earlier draw: its commitment CID, its seed, its target and the winners or members who dropped out
 * (`follows`). The follow-up proof carries the original proof (`original`), so it is self-contained:
 * `verify` checks the original proof as a proof of its own (pinned to the named CID), then the link
 * between the two (check `follow-up-link`, by the follow-up kind's own rule).
 *
 * @module
 */
import type { JsonObject } from './json.js'
import { badDraw } from './kinds/kind.js'
import { hash } from './schema/common.js'
import { described, integer, list, parseShape, requiredFields, strictObject, text } from './schema/kit.js'
import { SORTITION_LIMITS } from './sortition/pool.js'

/**
 * What a follow-up commitment says of the draw it follows (`draw.follows`).
 * @category Draw kinds
 */
export interface FollowUpLink {
  /** The original draw's commitment CID. */
  readonly commitment: string
  /** The original proof's seed (64 hex digits). */
  readonly seed: string
  /** The original draw's target block; the follow-up's target must be later. */
  readonly target: number
  /** Committed indices of the original winners (members) who declined or dropped out, ascending. */
  readonly dropped: readonly number[]
}

/**
 * Nesting of follow-ups a verifier follows: a proof, its original, the original's original, …
 * @category Draw kinds
 */
export const MAX_FOLLOW_UP_DEPTH = 8

/** The declared shape of `follows`. */
export const followsShape = described(
  strictObject({
    commitment: described(text(), 'The CID of the original draw\'s commitment.'),
    seed: described(hash, 'The original proof\'s seed, 64 lowercase hex digits.'),
    target: described(integer(1), 'The original draw\'s target block sequence (the follow-up\'s target is later).'),
    dropped: described(list(integer(0), SORTITION_LIMITS.maxPanelSize), 'Committed indices of the original winners who declined or dropped out, strictly ascending, at least one, each below participants.count.'),
  }),
  'The draw this one follows (a replacement or a re-roll): docs/spec.md, Follow-up draws.',
)

const HAS_FOLLOWS = requiredFields('follows')

/** Reads `follows` by its declared shape ({@link followsShape}): `ParseError` / `LimitExceededError` at the bad field. */
export function parseFollows(draw: JsonObject, path: string): FollowUpLink {
  parseShape(HAS_FOLLOWS, draw, path)
  return parseShape(followsShape, draw.follows, `${path}.follows`) as FollowUpLink
}

/**
 * Validates `follows` against `n` participants and the follow-up's own target. `builder` names the
 * function that builds this follow-up kind's spec (`panelReplacementDraw`, `rerollDraw`), for the hint.
 */
export function validateFollows(f: FollowUpLink, n: number, path: string, builder: string): void {
  const p = `${path}.follows`
  if (typeof f !== 'object' || f === null) badDraw(p, 'follows must name the original draw', `build the draw with ${builder}, which names the original draw`)
  if (typeof f.commitment !== 'string' || f.commitment.length === 0 || f.commitment.length > 200) badDraw(`${p}.commitment`, 'the original commitment CID is missing', 'name the original commitment\'s CID')
  if (typeof f.seed !== 'string' || !/^[0-9a-f]{64}$/.test(f.seed)) badDraw(`${p}.seed`, 'the original seed must be 64 lowercase hex digits', 'copy the original proof\'s seed')
  if (!Number.isSafeInteger(f.target) || f.target < 1) badDraw(`${p}.target`, 'the original target must be a block sequence', 'copy the original commitment\'s target')
  if (!Array.isArray(f.dropped) || f.dropped.length < 1) badDraw(`${p}.dropped`, 'at least one dropped winner is needed', 'name who dropped out')
  f.dropped.forEach((x, i) => {
    if (!Number.isSafeInteger(x) || x < 0 || x >= n) badDraw(`${p}.dropped[${i}]`, `index ${String(x)} is not one of the ${n} committed participants`, 'name committed indices')
    if (i > 0 && x <= f.dropped[i - 1]!) badDraw(`${p}.dropped[${i}]`, 'the dropped indices must be strictly ascending', 'sort them, each once')
  })
}

/** The canonical IPLD form of `follows`. */
export function encodeFollows(f: FollowUpLink): object {
  return { commitment: f.commitment, seed: f.seed, target: f.target, dropped: [...f.dropped] }
}

/**
 * The follow-up proof with its original carried (`original`), which makes it self-contained: `verify`
 * checks the original as a proof of its own and the link to it. For every follow-up kind: a re-roll
 * (`rerollDraw`) and a panel replacement (`panelReplacementDraw`, from `orbitdraw/sortition`).
 *
 * @example
 * ```ts
 * import { commit, drawFromBlock } from 'orbitdraw/core'
 * import { rerollDraw, withOriginal } from 'orbitdraw/kinds'
 *
 * const spec = rerollDraw(originalProof, [declinedIndex], originalCid, 'fresh')
 * const { commitment } = commit({ beacon, target, after, draw: spec, participants })
 * const proof = withOriginal(drawFromBlock(commitment, participants, block), originalProof)
 * ```
 * @category Draw kinds
 */
export function withOriginal<P extends object>(proof: P, original: unknown): P & { readonly original: unknown } {
  return { ...proof, original }
}
