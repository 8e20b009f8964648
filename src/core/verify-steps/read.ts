/**
 * The first step of `verify`: read the proof and its commitment (`version`, `format`, and the
 * commitment's own failure as `version` or `commitment-cid`).
 *
 * @module
 */
import { check, type Check } from '../check.js'
import { parseCommitment, type Commitment } from '../commitment.js'
import { UnsupportedVersionError } from '../errors.js'
import { checkProofVersion, parseProof, readProofJson, type Proof } from '../proof.js'
import { errorText, type Policy, type StepResult } from './step.js'

/** The proof and its commitment, read by the spec's rules: the evidence every later step checks. */
export interface Evidence {
  readonly proof: Proof
  readonly commitment: Commitment
}

/** `version`, `format`, then the commitment (same version as the proof). */
export function readEvidence(input: unknown, policy: Pick<Policy, 'kinds'>): StepResult<Evidence> {
  const checks: Check[] = []
  let proof: Proof
  try {
    const raw = readProofJson(input)
    checkProofVersion(raw)
    checks.push(check('version', true, `protocol version ${(raw as { version: number }).version}`))
    proof = parseProof(raw, { kinds: policy.kinds })
    checks.push(check('format', true, 'the proof is well-formed'))
  } catch (err) {
    checks.push(check(err instanceof UnsupportedVersionError ? 'version' : 'format', false, errorText(err)))
    return { checks, notes: ['the remaining checks were not run because the proof could not be read'], next: undefined }
  }
  let commitment: Commitment
  try {
    commitment = parseCommitment(proof.commitment, { kinds: policy.kinds })
  } catch (err) {
    checks.push(check(err instanceof UnsupportedVersionError ? 'version' : 'commitment-cid', false, `the commitment is invalid: ${errorText(err)}`))
    return { checks, notes: ['the remaining checks were not run because the commitment could not be read'], found: { outcome: proof.outcome }, next: undefined }
  }
  const found = { outcome: proof.outcome, commitment }
  if (commitment.version !== proof.version) {
    checks.push(check('version', false, `the proof is protocol version ${proof.version} but its commitment is version ${commitment.version}`))
    return { checks, found, next: undefined }
  }
  return { checks, found, next: { proof, commitment } }
}
