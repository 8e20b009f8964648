/**
 * The commitment's identity and beacon: `commitment-cid`, `commitment-pinned` (when the verifier pinned
 * one) and `beacon-trusted`.
 *
 * @module
 */
import { check, type Check } from '../check.js'
import { commitmentCid } from '../commitment.js'
import { LIMITS } from '../limits.js'
import { identifyBeacon } from '../trust.js'
import type { Evidence } from './read.js'
import { sameCid, type Policy, type StepResult } from './step.js'

/** `commitment-cid` and `commitment-pinned`: returns the commitment's canonical CID. */
export function checkCommitmentIdentity({ proof, commitment }: Evidence, policy: Pick<Policy, 'kinds' | 'commitment'>): StepResult<{ readonly cid: string }> {
  const checks: Check[] = []
  const notes: string[] = []
  const cid = commitmentCid(commitment, policy.kinds)
  const same = sameCid(cid, proof.commitmentCid)
  checks.push(check('commitment-cid', same, same ? `the commitment encodes to ${cid}` : `the commitment encodes to ${cid}, not the claimed ${proof.commitmentCid}`))
  let pinned = false
  if (policy.commitment !== undefined) {
    pinned = sameCid(cid, String(policy.commitment))
    checks.push(check('commitment-pinned', pinned, pinned ? `the commitment is the one you pinned (${cid})` : `the proof is for commitment ${cid}, not the one you pinned (${String(policy.commitment).slice(0, LIMITS.maxCidChars)}): it is a different draw`))
  } else {
    notes.push(`compare the commitment CID ${cid} with the one the organizer announced before block ${commitment.target}: a proof of another commitment would verify just as well`)
  }
  return { checks, notes, found: { commitmentCid: cid, pinned }, next: { cid } }
}

/** `beacon-trusted`: the committed beacon is in the verifier's list. */
export function checkBeaconTrusted({ commitment }: Evidence, policy: Pick<Policy, 'trust'>): StepResult<true> {
  const beacon = identifyBeacon(commitment.beacon, policy.trust.beacons)
  const detail = beacon.trusted
    ? `the commitment names ${beacon.text}${beacon.source === 'caller' ? ', trusted by your settings' : ''}`
    : `the commitment names ${beacon.text}, which is not in your list of trusted beacons: whoever runs it could choose its values. If you know and trust it, add it knowingly (library: trust.beacons; CLI: --trust-beacon ${beacon.name}; page: trust settings)`
  return { checks: [check('beacon-trusted', beacon.trusted, detail)], found: { beacon }, next: true }
}
