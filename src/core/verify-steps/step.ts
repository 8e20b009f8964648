/**
 * What every step of `verify` shares: the verifier's policy (trust material and rules) it reads, and
 * the shape of what it returns: its checks, its notes, the facts the result reports, and what later
 * steps need (`next`), typed, so that no step looks for another's check by its name.
 *
 * @module
 */
import { CID } from 'multiformats/cid'
import type { BeaconBlock } from '../block.js'
import type { Check } from '../check.js'
import type { Commitment } from '../commitment.js'
import { OrbitdrawError } from '../errors.js'
import type { DrawKinds } from '../kinds/kind.js'
import type { OutcomeJson } from '../kinds/registry.js'
import { LIMITS } from '../limits.js'
import type { ParticipantsDigest } from '../participants.js'
import type { CommitmentTimeResult } from '../timestamp/result.js'
import type { BeaconIdentity, VerifierTrust } from '../trust.js'

/** The verifier's policy, resolved once before the first step: never taken from the proof. */
export interface Policy {
  readonly kinds: DrawKinds
  readonly trust: VerifierTrust
  /** The commitment CID the verifier pinned, as given. */
  readonly commitment?: string
  readonly allowUnsigned: boolean
  readonly allowUntimestamped: boolean
  readonly now?: Date
  readonly participantsDigest?: ParticipantsDigest
}

/**
 * The facts a result reports besides its checks. `commitment`, `outcome`, `target` and `authenticated`
 * are reported only when verification did not stop unexpectedly (an `internal` check); the others are
 * reported as soon as a step found them.
 */
export interface Found {
  pinned?: boolean
  beacon?: BeaconIdentity
  commitmentCid?: string
  commitmentTime?: CommitmentTimeResult
  commitment?: Commitment
  outcome?: OutcomeJson
  target?: { readonly sequence: number; readonly cid: string; readonly timestamp: number }
  authenticated?: boolean
  /** Whether `source-order` passed, in a mixed draw whose drand checks ran it: what the sources statement needs. */
  sourceOrder?: boolean
}

/**
 * What one step returns. `next` is what later steps need; undefined when verification stops after this
 * step (a note says which checks were not run and why).
 */
export interface StepResult<T> {
  readonly checks: readonly Check[]
  readonly notes?: readonly string[]
  readonly found?: Found
  readonly next: T | undefined
}

/** The target block proven to be in the chain: what the time, sources and draw steps need. */
export type ProvenTarget = BeaconBlock

/** An error's message, for a check's detail. */
export function errorText(err: unknown): string {
  if (err instanceof OrbitdrawError) return err.message
  return err instanceof Error ? err.message : String(err)
}

/** Two CIDs (any multibase) name the same content; false when either does not parse or is over the size limit. */
export function sameCid(a: string, b: string): boolean {
  if (a.length > LIMITS.maxCidChars || b.length > LIMITS.maxCidChars) return false
  try {
    return CID.parse(a).equals(CID.parse(b))
  } catch {
    return false
  }
}
