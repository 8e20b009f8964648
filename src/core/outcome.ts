/**
 * Computes a draw's outcome from its seed: the draw's kind (looked up in the registry) consumes one
 * stream, started fresh from the seed.
 *
 * @module
 */
import { kindOf } from './draw-spec.js'
import { DEFAULT_DRAW_KINDS, type DrawSpec, type Outcome } from './kinds/registry.js'
import { type DrawKinds } from './kinds/kind.js'
import { streamFromSeed } from './random/stream.js'

export type { Outcome } from './kinds/registry.js'

/**
 * Computes the outcome of `spec` from `seed`.
 *
 * @param count - number of committed participants (ignored by kinds without participants).
 * @param weights - the participants' weights in committed order (`weighted` only).
 * @param kinds - the registry to find the spec's kind in (default: the built-in kinds).
 * @throws {@link InvalidInputError} `INVALID_DRAW` for an unknown kind; `MISSING_WEIGHTS`.
 * @category Draw
 */
export function computeOutcome(seed: Uint8Array, spec: DrawSpec, count: number, weights?: readonly number[], kinds: DrawKinds = DEFAULT_DRAW_KINDS): Outcome {
  const kind = kindOf(spec, kinds)
  return kind.compute(streamFromSeed(seed), spec, weights === undefined ? { count } : { count, weights }) as Outcome
}
