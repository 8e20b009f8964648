/**
 * When the commitment was made: `commitment-time`, from the RFC 3161 tokens over the commitment,
 * checked against the verifier's time-stamping authorities and dated before the proven target block.
 * The time-stamp checks (DER, certificates, RSA/ECDSA) load only when the proof carries tokens: an
 * untimestamped proof does not pay for them (docs/performance.md, Start-up).
 *
 * @module
 */
import { CID } from 'multiformats/cid'
import { base64ToBytes } from '../bytes.js'
import { check, relaxedCheck, uncheckableCheck, type Check } from '../check.js'
import type { CommitmentTimeResult } from '../timestamp/result.js'
import { timestampRoots } from '../trust.js'
import { formatUnixTime } from '../unix-time.js'
import type { Evidence } from './read.js'
import type { Policy, ProvenTarget, StepResult } from './step.js'

/** `commitment-time`: the commitment existed before the target block (or the rule was relaxed). */
export async function checkCommitmentTimeStep({ proof }: Evidence, cid: string, target: ProvenTarget, policy: Pick<Policy, 'trust' | 'allowUntimestamped'>): Promise<StepResult<true>> {
  const tokens = proof.timestamps ?? []
  if (tokens.length === 0) {
    return {
      checks: [
        policy.allowUntimestamped
          ? relaxedCheck('commitment-time', 'allowUntimestamped', `no time-stamp token: nothing shows that the commitment existed before block ${target.sequence}; accepted because you allowed commitments without a time-stamp`)
          : check('commitment-time', false, `the proof carries no time-stamp token, so nothing shows that the commitment existed before block ${target.sequence} was published (${formatUnixTime(target.timestamp)}): the organizer could have committed after seeing the randomness. Ask for a time-stamped proof (orbitdraw commit time-stamps by default), or accept it knowingly (allowUntimestamped / --allow-untimestamped) after checking when the CID was published`),
      ],
      next: true,
    }
  }
  const { checkCommitmentTime } = await import('../timestamp/check.js')
  const commitmentTime = await checkCommitmentTime({ tokens: tokens.map((t) => base64ToBytes(t)), digest: CID.parse(cid).multihash.digest, deadline: target.timestamp, anchors: timestampRoots(policy.trust) })
  return { checks: [commitmentTimeCheck(commitmentTime, target.sequence, policy.allowUntimestamped)], found: { commitmentTime }, next: true }
}

/** Seconds as "4 min 12 s" (or "2 h 3 min", "3 d 4 h"). */
function formatMargin(seconds: number): string {
  const s = Math.floor(seconds)
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`
}

function commitmentTimeCheck(r: CommitmentTimeResult, targetSequence: number, allowUntimestamped: boolean): Check {
  const others = (skip: number): string => {
    const rest = r.tokens.filter((t) => t.index !== skip)
    return rest.length === 0 ? '' : `; other token(s): ${rest.map((t) => `#${t.index + 1} ${t.ok ? 'also valid' : t.detail}`).join('; ')}`
  }
  if (r.status === 'ok') {
    const best = r.tokens.filter((t) => t.ok).sort((a, b) => (b.marginSeconds ?? 0) - (a.marginSeconds ?? 0))[0]!
    return check('commitment-time', true, `time-stamped by ${best.authority ?? 'a trusted authority'} at ${best.time?.slice(0, 19).replace('T', ' ')} UTC, ${formatMargin(best.marginSeconds ?? 0)} before block ${targetSequence}${others(best.index)}`)
  }
  if (r.status === 'uncheckable' && !allowUntimestamped) return uncheckableCheck('commitment-time', `could not be checked on this host: ${r.detail}`)
  const why = r.tokens.map((t) => `token #${t.index + 1}: ${t.detail}`).join('; ') || r.detail
  if (allowUntimestamped) return relaxedCheck('commitment-time', 'allowUntimestamped', `no carried time-stamp proves the commitment existed before block ${targetSequence} (${why}); accepted because you allowed commitments without a valid time-stamp`)
  return check('commitment-time', false, `no carried time-stamp proves that the commitment existed before block ${targetSequence}: ${why}. If the authority is one you trust, add its root knowingly (trust.timestampAuthorities / --trust-tsa FILE)`)
}
