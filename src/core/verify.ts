/**
 * Offline verification of a proof bundle. `verify` never throws on a bad proof: it returns every
 * check it ran, by name, with what was wrong. It is a short list of steps (src/core/verify-steps/),
 * each over the evidence and the verifier's policy, each returning its checks and what later steps
 * need: the proven target block, the seed of the proven sources...
 *
 * @module
 */
import { check, type Check } from './check.js'
import { InvalidInputError } from './errors.js'
import { DEFAULT_DRAW_KINDS } from './kinds/registry.js'
import type { DrawKinds } from './kinds/kind.js'
import { createTrust, type VerifierTrust, type VerifyTrust } from './trust.js'
import { verifyResult, type VerifyResult } from './verify-result.js'
import { checkBeaconChain } from './verify-steps/chain.js'
import { checkBeaconTrusted, checkCommitmentIdentity } from './verify-steps/commitment.js'
import { checkDraw } from './verify-steps/draw.js'
import { checkParticipantsStep } from './verify-steps/participants.js'
import { readEvidence } from './verify-steps/read.js'
import { checkSources } from './verify-steps/sources.js'
import { errorText, type Found, type Policy, type StepResult } from './verify-steps/step.js'
import { checkCommitmentTimeStep } from './verify-steps/time.js'
import type { ParticipantsDigest } from './verify-participants.js'
import { checkFollowUp } from './follow-up-verify.js'
export type { ParticipantsDigest } from './verify-participants.js'
export type { VerifyResult } from './verify-result.js'
export type { VerifierTrust, VerifyTrust } from './trust.js'

/**
 * Options for {@link verify}. The defaults are the strict policy.
 * @category Verify
 */
export interface VerifyOptions {
  /** The time at which record expiry is reported (default: none; expiry never fails a proof). */
  now?: Date
  /**
   * The verifier's trust material: a value from {@link createTrust} (built once, reused for every proof),
   * or its input, which `verify` builds on each call. Default: Orbitport's beacons, the public
   * time-stamping authorities, drand's quicknet. Never taken from the proof.
   */
  trust?: VerifierTrust | VerifyTrust
  /**
   * Accept a proof whose blocks are not vouched for by a valid signed IPNS record (integrity only).
   * Default false: such a proof fails `beacon-authenticity`. When used, the verdict says so.
   */
  allowUnsigned?: boolean
  /**
   * Accept a proof whose commitment carries no time-stamp that a trusted authority dated before the
   * target block. Default false: such a proof fails `commitment-time`. When used, the verdict tells
   * the reader to check that the commitment CID was published before the target block's time.
   */
  allowUntimestamped?: boolean
  /**
   * The commitment CID the organizer announced (any multibase). When given, a proof of any other
   * commitment fails `commitment-pinned`. Without it, every verdict asks the reader to compare the CID.
   */
  commitment?: string
  /**
   * The draw kinds this verifier knows (default: the built-in kinds). A proof of a kind it does not
   * know fails `format`. Pass `withKinds([myKind])` to verify draws of your own kind.
   */
  kinds?: DrawKinds
  /**
   * The verifier's own participants digest for a full disclosure, in place of {@link participantsRoot}
   * (which it must equal byte for byte, errors included): the Node entry's `verify` passes
   * `participantsRootParallel` here, to hash large lists on two threads. It is your code, never
   * the proof's: the root it returns is compared with the committed one like `participantsRoot`'s.
   */
  participantsDigest?: ParticipantsDigest
}

/**
 * Verifies a proof bundle offline, under the verifier's policy (strict by default).
 *
 * Checks, in order: `version`, `format`, `commitment-cid`, `commitment-pinned` (with
 * `options.commitment`), `beacon-trusted`, `participants` (and `distinct-winners` for a winners-only
 * proof), `block-content`, `chain-links`, `chain-target`, `after-block`, `ipns-record-signature`,
 * `ipns-record-name`, `ipns-record-value` (with a record), `beacon-authenticity`, `commitment-time`, for a
 * mixed (version 2) draw `drand-chain-trusted`, `drand-round`, `drand-signature` and `source-order`,
 * `randomness`, `seed`, `outcome`, the kind's own checks (`panel-*`, `lottery-*`) and `revealed-winners`
 * for a winners-only proof. See docs/spec.md. When a check stops verification, the checks it makes
 * meaningless are listed in `notes`, never as passes; the checks after `outcome` are always reported
 * with it, failed "not checked: <why>" when the outcome was not recomputed. Never throws on a bad proof;
 * its work is bounded by the proof's own size.
 *
 * @example
 * ```ts
 * const result = await verify(proofBytes)                      // strict: Orbitport's beacons, signed head
 * if (result.verdict === 'verified') show(result.outcome)
 * else for (const c of result.checks) if (!c.ok) console.log(c.name, c.detail)
 * await verify(proofBytes, { commitment: 'bagu…' })             // pin the CID the organizer announced
 * const trust = await createTrust({ beacons: [...ORBITPORT_BEACONS, 'k51…'] })   // once
 * for (const p of proofs) await verify(p, { trust })
 * ```
 *
 * Steps, in order, over the evidence (the proof read once) and the policy (the trust material built
 * once): read, commitment identity, beacon trust, participants, beacon chain, commitment time, sources,
 * draw. Each returns its checks and what later steps need; a step that throws ends verification with a
 * failed `internal` check.
 *
 * @param proof - the proof as bytes (preferred: the spec's byte-level rules apply), JSON text, or a parsed value. Untrusted.
 * @category Verify
 */
export async function verify(proof: unknown, options: VerifyOptions = {}): Promise<VerifyResult> {
  const checks: Check[] = []
  const notes: string[] = []
  const found: Found = {}
  let policy: Policy
  try {
    policy = await resolvePolicy(options)
  } catch (err) {
    checks.push(check('policy', false, `the verification options are invalid: ${errorText(err)}`))
    return verifyResult(checks, notes, found)
  }
  /** Records a step's checks, notes and findings; returns what later steps need (undefined: stop). */
  const take = <T>(r: StepResult<T>): T | undefined => {
    checks.push(...r.checks)
    notes.push(...(r.notes ?? []))
    Object.assign(found, r.found)
    return r.next
  }
  try {
    await runSteps(proof, policy, take, options)
    return verifyResult(checks, notes, found)
  } catch (err) {
    checks.push(check('internal', false, `verification stopped unexpectedly: ${errorText(err)}`))
    return verifyResult(checks, notes, found, false)
  }
}

/** The steps, in the order of their checks; each stops the run by returning no `next`. */
async function runSteps(proof: unknown, policy: Policy, take: <T>(r: StepResult<T>) => T | undefined, options: VerifyOptions): Promise<void> {
  const evidence = take(readEvidence(proof, policy))
  if (evidence === undefined) return
  const identity = take(checkCommitmentIdentity(evidence, policy))
  if (identity === undefined || take(checkBeaconTrusted(evidence, policy)) === undefined) return
  const participants = take(await checkParticipantsStep(evidence, policy))
  const chain = take(await checkBeaconChain(evidence, policy))
  if (participants === undefined || chain === undefined) return
  if (take(await checkCommitmentTimeStep(evidence, identity.cid, chain.target, policy)) === undefined) return
  const sources = take(await checkSources(evidence, chain.target, policy))
  if (sources === undefined) return
  take(checkDraw(evidence, identity.cid, chain.target, sources.seedOf, participants.entry, policy))
  // A follow-up draw (a panel replacement): its carried original proof and the link (src/core/follow-up-verify.ts).
  const followUp: Check[] = []
  await checkFollowUp(evidence.proof, evidence.commitment, followUp, options, verify)
  take({ checks: followUp, next: true })
}

/** The verifier's policy from the options: the kinds, the trust material (built once here when given as input), the rules. */
async function resolvePolicy(options: VerifyOptions): Promise<Policy> {
  return {
    kinds: options.kinds === undefined ? DEFAULT_DRAW_KINDS : checkKinds(options.kinds),
    trust: await createTrust(options.trust),
    ...(options.commitment === undefined ? {} : { commitment: options.commitment }),
    allowUnsigned: options.allowUnsigned === true,
    allowUntimestamped: options.allowUntimestamped === true,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.participantsDigest === undefined ? {} : { participantsDigest: options.participantsDigest }),
  }
}

/** `options.kinds`, checked to be a registry (from `withKinds` or `drawKinds`). */
function checkKinds(kinds: DrawKinds): DrawKinds {
  if (typeof kinds !== 'object' || kinds === null || typeof kinds.get !== 'function' || !Array.isArray(kinds.list) || !Array.isArray(kinds.names)) {
    throw new InvalidInputError('INVALID_DRAW_KIND', 'kinds must be a registry of draw kinds', 'pass withKinds([myKind]) (or omit kinds for the built-in ones)', { path: '$.kinds' })
  }
  return kinds
}
