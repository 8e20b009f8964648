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
 * The sources of a verified (or failed) draw. A single-source draw says plainly that it trusts
 * Orbitport's operator; a mixed draw is "either honest" only when `source-order` and every other check
 * passed on its own evidence.
 * @category Verify
 */
export function drawSources(commitment: Commitment, checks: readonly Check[], ok: boolean): DrawSources {
  const d = commitment.drand
  if (d === undefined) {
    return { mixed: false, eitherHonest: false, statement: `One source: Orbitport's block ${commitment.target} alone decides the draw, so it trusts Orbitport's beacon operator.` }
  }
  const order = checks.find((c) => c.name === 'source-order')
  const strict = ok && checks.every((c) => c.relaxedBy === undefined && c.notChecked !== true)
  if (strict && order?.ok === true) {
    return { mixed: true, eitherHonest: true, statement: `Two sources: Orbitport block ${commitment.target} mixed with drand round ${d.round}, the block fixed before the round was public; unbiased unless both Orbitport and drand are dishonest.` }
  }
  const why = order !== undefined && !order.ok ? `block ${commitment.target} is not proven fixed before drand round ${d.round} was public` : 'the two sources are not both proven'
  return { mixed: true, eitherHonest: false, statement: `Two sources named (Orbitport block ${commitment.target}, drand round ${d.round}), but ${why}: the Orbitport operator is trusted.` }
}
