/**
 * What `verify` returns, and how a result is assembled from its steps' checks and findings (the
 * verdict: `verified`, `verified-relaxed`, `incomplete` or `failed`, and one sentence per relaxed rule).
 * Apart from `verify.ts` so that the words of a verdict (`verdict.ts`) need only this module.
 *
 * @module
 */
import type { Check } from './check.js'
import type { Commitment } from './commitment.js'
import { drawSources, type DrawSources } from './drand/sources.js'
import type { OutcomeJson } from './kinds/registry.js'
import type { CommitmentTimeResult } from './timestamp/result.js'
import type { BeaconIdentity } from './trust.js'
import { formatUnixTime } from './unix-time.js'
import type { Found } from './verify-steps/step.js'

/**
 * What `verify` found.
 * @category Verify
 */
export interface VerifyResult {
  /** True when every check passed (a check passed only through a relaxed rule counts; see `verdict`). */
  readonly ok: boolean
  /**
   * `verified`: every check passed on its evidence. `verified-relaxed`: every check passed, but at
   * least one only because the verifier relaxed its rule (`relaxed` says which). `incomplete`: nothing
   * failed, but this host could not perform some check (`uncheckable`), so nothing is proven. `failed`:
   * a check failed.
   */
  readonly verdict: 'verified' | 'verified-relaxed' | 'incomplete' | 'failed'
  /** One sentence per relaxed rule that a check relied on: what was not proven and what to check instead. */
  readonly relaxed: readonly string[]
  /** True when the blocks are proven to come from the committed beacon (valid signed IPNS record). */
  readonly authenticated: boolean
  /** The committed beacon as the verifier knows it (trusted or not), when the commitment could be read. */
  readonly beacon?: BeaconIdentity
  /** True when the caller pinned the commitment CID and it matched. */
  readonly pinned: boolean
  /** Every check that ran, in order. */
  readonly checks: readonly Check[]
  /** Remarks that are not failures: expired records, checks not run, what to compare. */
  readonly notes: readonly string[]
  /** What the time-stamp tokens prove, when the check ran (per token: authority, time, margin, problem). */
  readonly commitmentTime?: CommitmentTimeResult
  /** The parsed commitment, when it could be parsed. */
  readonly commitment?: Commitment
  /** The commitment's CID (canonical), when the commitment could be parsed. */
  readonly commitmentCid?: string
  /** The proof's claimed outcome, when the proof could be parsed. Trust it only when `ok`. */
  readonly outcome?: OutcomeJson
  /** The target block, when it was found and checked. */
  readonly target?: { readonly sequence: number; readonly cid: string; readonly timestamp: number }
  /** The draw's randomness sources and whom its outcome trusts, when the commitment could be read. */
  readonly sources?: DrawSources
}

/**
 * The result of the checks that ran and what the steps found. `complete` is false when verification
 * stopped unexpectedly: then the commitment, outcome, target and authentication are not reported.
 */
export function verifyResult(checks: readonly Check[], notes: readonly string[], found: Found, complete = true): VerifyResult {
  const commitment = complete ? found.commitment : undefined
  const target = complete ? found.target : undefined
  const ok = checks.length > 0 && checks.every((c) => c.ok)
  const relaxed = checks.flatMap((c) => (c.relaxedBy === undefined ? [] : [relaxedSentence(c, commitment, target)]))
  const onlyUncheckable = !ok && checks.length > 0 && checks.every((c) => c.ok || c.uncheckable === true)
  return {
    ok,
    verdict: ok ? (relaxed.length > 0 ? 'verified-relaxed' : 'verified') : onlyUncheckable ? 'incomplete' : 'failed',
    relaxed,
    authenticated: complete && found.authenticated === true,
    ...(found.beacon === undefined ? {} : { beacon: found.beacon }),
    pinned: found.pinned === true,
    checks,
    notes,
    ...(found.commitmentCid === undefined ? {} : { commitmentCid: found.commitmentCid }),
    ...(found.commitmentTime === undefined ? {} : { commitmentTime: found.commitmentTime }),
    ...(commitment === undefined ? {} : { commitment }),
    ...(complete && found.outcome !== undefined ? { outcome: found.outcome } : {}),
    ...(target === undefined ? {} : { target }),
    ...(commitment === undefined ? {} : { sources: drawSources(commitment, found.sourceOrder, checks, ok) }),
  }
}

function relaxedSentence(c: Check, commitment: Commitment | undefined, target: { readonly timestamp: number } | undefined): string {
  switch (c.relaxedBy) {
    case 'allowUnsigned':
      return 'unsigned blocks allowed: no signed beacon record proves that the beacon published the target block; check it by other means (for example `orbitdraw verify --online`, or the block on the beacon itself)'
    case 'allowUntimestamped':
      return `commitments without a valid time-stamp allowed: nothing here shows the commitment existed before the target block${target === undefined ? '' : ` (${formatUnixTime(target.timestamp)})`}; check that the organizer published the commitment CID before then${commitment === undefined ? '' : ` (block ${commitment.target})`}`
    default:
      return `${c.name} relaxed by ${String(c.relaxedBy)}`
  }
}

