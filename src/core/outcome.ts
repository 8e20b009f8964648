/**
 * Computes a draw's outcome from its seed: the single place where a draw kind maps to the
 * sampling primitives. Every kind reads one stream, started fresh from the seed.
 *
 * @module
 */
import type { DrawSpec } from './draw-spec.js'
import { InvalidInputError } from './errors.js'
import { pickIndices, rangeValues, shuffleIndices, streamFromSeed, weightedPick } from './random/index.js'

/** A computed outcome: indices into the committed participants, or range values. */
export type Outcome =
  | { readonly kind: 'shuffle'; readonly indices: readonly number[] }
  | { readonly kind: 'pick'; readonly indices: readonly number[] }
  | { readonly kind: 'weighted'; readonly indices: readonly number[] }
  | { readonly kind: 'range'; readonly values: readonly bigint[] }

/**
 * Computes the outcome of `spec` from `seed`.
 *
 * @param count - number of committed participants (ignored for `range`).
 * @param weights - the participants' weights in committed order (`weighted` only).
 */
export function computeOutcome(seed: Uint8Array, spec: DrawSpec, count: number, weights?: readonly number[]): Outcome {
  const stream = streamFromSeed(seed)
  switch (spec.kind) {
    case 'shuffle':
      return { kind: 'shuffle', indices: Array.from(shuffleIndices(stream, count)) }
    case 'pick':
      return { kind: 'pick', indices: pickIndices(stream, count, spec.count) }
    case 'weighted':
      if (weights === undefined || weights.length !== count) {
        throw new InvalidInputError('MISSING_WEIGHTS', `a weighted outcome needs one weight per participant (${count}), got ${weights?.length ?? 'none'}`, 'pass the committed weights, in committed order')
      }
      return { kind: 'weighted', indices: weightedPick(stream, weights, spec.count) }
    case 'range':
      return { kind: 'range', values: rangeValues(stream, spec.min, spec.max, spec.count, spec.distinct) }
  }
}
