/**
 * A public pick-3 proof over `n` entries, built offline (in-memory chain, no time-stamps), for the
 * verify benchmarks. Not timed.
 */
import { commit } from '../src/core/commitment.js'
import { drawFromBlock } from '../src/core/draw.js'
import { serializeProof } from '../src/core/proof.js'
import { BEACON_NAME, buildChain } from '../test/helpers/chain.js'

/** The verify policy of these benchmarks: engine checks only (no signed head, no time-stamps to check). */
export const ENGINE_ONLY = { allowUnsigned: true, allowUntimestamped: true } as const

export function bigProof(n: number): { text: string; entries: string[] } {
  const chain = buildChain(12, 'bench')
  const entries = Array.from({ length: n }, (_, i) => `participant-${String(i).padStart(7, '0')}`)
  const { commitment } = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, participants: entries, draw: { kind: 'pick', count: 3 }, label: 'bench' })
  const proof = drawFromBlock(commitment, entries, chain[10]!)
  return { text: serializeProof(proof), entries }
}
