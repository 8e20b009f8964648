/**
 * `commitTimestamped`: plan a target, commit and time-stamp, keeping the commitment only when its
 * time-stamps leave the target block its margin (the rule of `orbitdraw commit`; docs/spec.md, Commitment time).
 *
 * @module
 */
import type { BeaconClient } from './beacon/client.js'
import { planFixedTarget, planTarget, type TargetPlan } from './beacon/plan.js'
import { commit, type NodeCommitOptions } from './commit.js'
import type { CommitResult } from './core/commitment.js'
import { timestampCommitment, type TimestampOptions, type TimestampResult } from './timestamp/client.js'
import { stampBeforeTarget, type Retarget } from './timestamp/margin.js'

/**
 * Options of {@link commitTimestamped}: the commitment's own options without `beacon`, `target` and
 * `after` (planned here), and how to plan and stamp.
 * @category Draw
 */
export interface CommitTimestampedOptions extends Omit<NodeCommitOptions, 'beacon' | 'target' | 'after'> {
  /** The beacon client (its name is the committed beacon). */
  client: BeaconClient
  /** The target is published at least this many seconds from now (default 0: the next block that leaves the time-stamp its margin). */
  delaySeconds?: number
  /**
   * Commit to exactly this block instead (it must not be published yet). A fixed target is never moved:
   * when the time-stamps leave it too little time, the call fails with `TIMESTAMP_MARGIN_TOO_SMALL`.
   */
  sequence?: number
  /** Refuse to plan on an unauthenticated head (default true). */
  requireAuthenticated?: boolean
  /** Options of `timestampCommitment` (authorities, anchors…). */
  timestamp?: Omit<TimestampOptions, 'signal'>
  /** Commitments tried at most when the target has to move (default 3). */
  maxAttempts?: number
  signal?: AbortSignal
}

/**
 * Result of {@link commitTimestamped}.
 * @category Draw
 */
export interface CommitTimestampedResult extends CommitResult {
  /** The target kept. */
  readonly plan: TargetPlan
  /** The tokens kept (each leaves the target its margin); pass `tokens.map((t) => t.base64)` to `draw`. */
  readonly timestamps: TimestampResult
  /** Targets given up because the time-stamps came too late for them (empty in the usual case). */
  readonly retargeted: readonly Retarget[]
}

/**
 * Plans a target, commits and time-stamps the commitment, and keeps it only when a token's genTime plus
 * its accuracy leaves the target block's earliest expected timestamp (its expected time less one interval
 * and 1 s): otherwise a proof drawn from it would fail `commitment-time` (`TIMESTAMP_LATE`). A target too
 * close is moved later and the new commitment (a new CID) stamped again: nothing is published yet and the
 * block is still in the future, so nobody can choose the outcome by it. A target fixed with `sequence`
 * is refused instead. Publish the returned `cid` only.
 *
 * @example
 * ```ts
 * const c = await commitTimestamped({ client, delaySeconds: 300, participants, draw: { kind: 'pick', count: 2 }, label: 'Raffle' })
 * const proof = await draw(c.commitment, participants, { client, timestamps: c.timestamps.tokens.map((t) => t.base64) })
 * ```
 * @throws `TimestampMarginError` (`TIMESTAMP_MARGIN_TOO_SMALL`) when no commitment got its margin;
 *   `TimestampUnavailableError`, the planner's, the beacon client's and `commit`'s errors.
 * @category Draw
 */
export async function commitTimestamped(options: CommitTimestampedOptions): Promise<CommitTimestampedResult> {
  const { client, delaySeconds, sequence, requireAuthenticated, timestamp, maxAttempts, signal, ...commitOptions } = options
  const call = signal === undefined ? {} : { signal }
  const kept = await stampBeforeTarget({
    fixedTarget: sequence !== undefined,
    ...(maxAttempts === undefined ? {} : { maxAttempts }),
    plan: async (extraMs) => (sequence === undefined ? planTarget({ client, delaySeconds: (delaySeconds ?? 0) + extraMs / 1000, ...(requireAuthenticated === undefined ? {} : { requireAuthenticated }), ...call }) : planFixedTarget(client, sequence, { ...(requireAuthenticated === undefined ? {} : { requireAuthenticated }), ...call })),
    build: (plan) => commit({ ...commitOptions, beacon: plan.beacon, target: plan.target, after: plan.after }),
    stamp: (cid) => timestampCommitment(cid, { ...timestamp, ...call }),
  })
  return { ...kept.result, plan: kept.plan, timestamps: kept.stamped, retargeted: kept.retargeted }
}
