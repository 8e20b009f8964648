/**
 * The beacon's blocks and who published them: `block-content`, the chain checks of {@link checkChain}
 * (`chain-links`, `chain-target`, `after-block`, `ipns-record-*`) and `beacon-authenticity`. Returns
 * the target block when the chain proves it.
 *
 * @module
 */
import { parseBlock, type BeaconBlock } from '../block.js'
import { base64ToBytes } from '../bytes.js'
import { check, relaxedCheck, type Check } from '../check.js'
import { checkChain } from '../chain.js'
import { OrbitdrawError } from '../errors.js'
import type { Evidence } from './read.js'
import { errorText, type Policy, type ProvenTarget, type StepResult } from './step.js'

/** The blocks, the chain and its record; `next` is the target block, proven to be in the chain. */
export async function checkBeaconChain({ proof, commitment }: Evidence, policy: Pick<Policy, 'allowUnsigned' | 'now'>): Promise<StepResult<{ readonly target: ProvenTarget }>> {
  const checks: Check[] = []
  const notes: string[] = []
  const blocks: BeaconBlock[] = []
  const bad: string[] = []
  proof.chain.blocks.forEach((b, i) => {
    try {
      blocks.push(parseBlock(base64ToBytes(b.bytes), b.cid))
    } catch (err) {
      bad.push(`block ${i} (${b.cid}): ${err instanceof OrbitdrawError ? err.detail : errorText(err)}`)
    }
  })
  checks.push(check('block-content', bad.length === 0, bad.length === 0 ? `${blocks.length} block(s) match their content addresses` : bad.join('; ')))
  if (bad.length > 0) return { checks, notes: ['chain, seed and outcome checks were not run because a carried block is corrupt'], next: undefined }
  const chain = await checkChain({
    beacon: commitment.beacon,
    target: commitment.target,
    after: commitment.after,
    blocks,
    ipnsRecord: proof.chain.ipnsRecord === undefined ? undefined : base64ToBytes(proof.chain.ipnsRecord),
    now: policy.now,
  })
  checks.push(...chain.checks)
  notes.push(...chain.notes)
  const authenticated = chain.authenticated
  if (authenticated) checks.push(check('beacon-authenticity', true, `the beacon's signed IPNS record vouches for the chain down to block ${commitment.target}`))
  else if (policy.allowUnsigned && proof.chain.ipnsRecord === undefined) {
    checks.push(relaxedCheck('beacon-authenticity', 'allowUnsigned', 'no signed IPNS record: the blocks are intact (they hash to their CIDs) but nothing shows that the beacon published them; accepted because you allowed unsigned proofs'))
  } else {
    checks.push(
      check(
        'beacon-authenticity',
        false,
        proof.chain.ipnsRecord === undefined
          ? 'the proof carries no signed IPNS record, so nothing shows that the beacon published these blocks: anyone can make blocks that hash to their own CIDs. Ask for a proof with the record, or accept integrity only knowingly (allowUnsigned / --allow-unsigned)'
          : 'the carried IPNS record does not vouch for this chain (see the failed ipns-record and chain checks)',
      ),
    )
  }
  const target = chain.target
  if (target === undefined) {
    notes.push('the commitment-time, randomness, seed and outcome checks were not run because the target block is not proven to be in the chain')
    return { checks, notes, found: { authenticated }, next: undefined }
  }
  return { checks, notes, found: { authenticated, target: { sequence: target.sequence, cid: target.cid, timestamp: target.timestamp } }, next: { target } }
}
