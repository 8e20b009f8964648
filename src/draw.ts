/**
 * `draw` for Node: the beacon edge's network draw, with the participants hashed on two threads
 * (`participantsRootParallel` for a public list, `participantsTreeParallel` for a salted one) before
 * it waits for the block.
 *
 * @module
 */
import { draw as drawOverNetwork, type NetworkDrawOptions } from './beacon/draw.js'
import type { Commitment } from './core/commitment.js'
import type { Participants } from './core/draw.js'
import type { Proof } from './core/proof.js'
import { participantsRootParallel, participantsTreeParallel } from './node/parallel-hash.js'

/**
 * Waits for the committed block, draws, and returns a proof carrying the signed IPNS record and the
 * chain from the head down to the target: the beacon edge's `draw`, where a list of
 * `PARALLEL_MIN_ENTRIES` entries or more is hashed on two threads (the same bytes and errors as on one;
 * the result is compared with the commitment's root before any request). A caller's own
 * `participantsDigest` or `participantsTree` wins.
 *
 * @example
 * ```ts
 * const proof = await draw(commitment, participants, { secret, disclosure: 'winners' })
 * await writeFile('proof.json', serializeProof(proof))
 * ```
 * @throws the beacon edge's `draw` errors: `prepareDraw`'s (participants mismatch…) before any request,
 *   then the client's and `drawPrepared`'s.
 * @category Draw
 */
export function draw(commitment: Commitment, participants: Participants | undefined, options: NetworkDrawOptions = {}): Promise<Proof> {
  return drawOverNetwork(commitment, participants, { participantsDigest: participantsRootParallel, participantsTree: participantsTreeParallel, ...options })
}
