/**
 * What a verified draw trusts, in words: one source (Orbitport's operator) or two (either honest).
 * Static and small: the verdict of every proof uses it; the pairing code is elsewhere.
 *
 * @module
 */
import type { Check } from '../check.js'
import type { Commitment } from '../commitment.js'

/**
 * The randomness sources of a draw and whom its outcome trusts.
 * @category Verify
 */
export interface DrawSources {
  /** True for a mixed (version 2) draw: an Orbitport block and a drand round. */
  readonly mixed: boolean
  /**
   * True when the outcome is unbiased unless both Orbitport and drand are dishonest: a mixed draw whose
   * every check passed, `source-order` included, on its own evidence.
   */
  readonly eitherHonest: boolean
  /** One plain sentence: what the outcome trusts. */
  readonly statement: string
}

/**
 * The sources of a verified (or failed) draw, from whether `source-order` passed (undefined: it did not
 * run), every check and the verdict's `ok`. A single-source draw says plainly that it trusts
 * Orbitport's operator; a mixed draw is "either honest" only when `source-order` and every other check
 * passed on its own evidence.
 * @category Verify
 */
export function drawSources(commitment: Commitment, sourceOrder: boolean | undefined, checks: readonly Check[], ok: boolean): DrawSources {
  const d = commitment.drand
  if (d === undefined) {
    return { mixed: false, eitherHonest: false, statement: `One source: Orbitport's block ${commitment.target} alone decides the draw, so it trusts Orbitport's beacon operator.` }
  }
  const strict = ok && checks.every((c) => c.relaxedBy === undefined && c.notChecked !== true)
  if (strict && sourceOrder === true) {
    return { mixed: true, eitherHonest: true, statement: `Two sources: Orbitport block ${commitment.target} mixed with drand round ${d.round}, the block fixed before the round was public; unbiased unless both Orbitport and drand are dishonest.` }
  }
  const why = sourceOrder === false ? `block ${commitment.target} is not proven fixed before drand round ${d.round} was public` : 'the two sources are not both proven'
  return { mixed: true, eitherHonest: false, statement: `Two sources named (Orbitport block ${commitment.target}, drand round ${d.round}), but ${why}: the Orbitport operator is trusted.` }
}
