/**
 * The draw's second source, for a mixed (version 2) draw: `drand-chain-trusted`, `drand-round`,
 * `drand-signature` and `source-order` (src/core/drand/verify-step.ts, loaded only for a mixed proof:
 * it brings the BLS12-381 pairing). Returns how the seed is derived from the proven sources.
 *
 * @module
 */
import type { BeaconBlock } from '../block.js'
import { deriveSeed } from '../seed.js'
import { timestampRoots } from '../trust.js'
import type { Evidence } from './read.js'
import type { Policy, ProvenTarget, StepResult } from './step.js'

/** The seed of the proven sources: the commitment and the target block, with the drand round in a mixed draw. */
export type SeedOf = (cid: string, target: BeaconBlock) => Uint8Array

/** Nothing to check for a single-source draw; the drand checks for a mixed one, which stops when the round is not proven. */
export async function checkSources({ proof, commitment }: Evidence, target: ProvenTarget, policy: Pick<Policy, 'trust'>): Promise<StepResult<{ readonly seedOf: SeedOf }>> {
  const drand = commitment.drand
  if (drand === undefined) return { checks: [], next: { seedOf: deriveSeed } }
  const [step, { deriveMixedSeed }] = await Promise.all([import('../drand/verify-step.js'), import('../drand/seed.js')])
  const r = await step.checkDrandSources({ commitment: { ...commitment, drand }, proof, target, chains: policy.trust.drandChains, anchors: timestampRoots(policy.trust) })
  const round = r.round
  const found = r.sourceOrder === undefined ? {} : { sourceOrder: r.sourceOrder }
  if (round === undefined) return { checks: r.checks, notes: [...r.notes, 'seed and outcome checks were not run because the drand round is not proven'], found, next: undefined }
  return { checks: r.checks, notes: r.notes, found, next: { seedOf: (cid, block) => deriveMixedSeed(cid, block, round) } }
}
