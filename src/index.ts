/**
 * orbitdraw: publicly verifiable draws from Orbitport's cosmic randomness beacon. The Node entry: the
 * names a draw starts from.
 *
 * Start here:
 *
 * 1. {@link commit} fixes a draw (participants, kind, target block) before its randomness exists, or
 *    {@link commitTimestamped} plans, commits and time-stamps it in one call;
 * 2. {@link draw} waits for the committed block and returns a proof carrying the beacon's signed head
 *    (or {@link drawFromBlock}, the pure version, when you already hold the block);
 * 3. {@link verify} re-checks a proof, naming every failed check ({@link describeVerdict} words the result).
 *
 * ```ts
 * import { commit, draw, verify, describeVerdict, BeaconClient } from 'orbitdraw'
 * ```
 *
 * This entry is all of `orbitdraw/core` (the pure names, browser-safe) with Node's {@link commit},
 * {@link commitAsync}, {@link makeReceiptsAsync} and {@link verify} in their place, plus Node's
 * {@link draw}, {@link commitTimestamped} and the clients ({@link BeaconClient}, {@link OrbitportClient},
 * {@link DrandClient}, {@link timestampCommitment}).
 *
 * Two `verify` functions: this entry's {@link verify} is the core's `verify` plus one option, `online`
 * ({@link NodeVerifyOptions}): given gateways, it also asks the beacon whether the proof's blocks are
 * still served and still in its signed chain (checks `online-blocks`, `online-chain`). Without `online`
 * it is exactly the core's `verify` (from `orbitdraw/core`): offline, no network, no clock, browser-safe,
 * the one the verifier page runs. Both never throw on a bad proof; every problem is a named failed check.
 *
 * Everything else is on a subpath named after its task: `orbitdraw/core` (the pure names alone),
 * `orbitdraw/kinds`, `/sortition`, `/formats`, `/beacon`, `/rest`, `/timestamp`, `/drand`, `/errors`,
 * `/node` and `/emulator` (docs/architecture.md, "Public surface").
 *
 * @module orbitdraw
 */
// The public surface of `orbitdraw`: the pure core's names (src/core/index.ts, the only list of them),
// and below the only list of the Node names a draw starts from. A name listed here explicitly replaces
// the core's of the same name (Node's commit, commitAsync, makeReceiptsAsync and verify).
// test/package/exports.test.ts pins them; docs/architecture.md (Public surface) gives the rule for adding one.
export * from './core/index.js'

// Commit: Node's commit adds `private: true` (a secret from node:crypto) to the core's.
/** @category Draw */
export { commit, commitAsync, type NodeCommitOptions } from './commit.js'
// Plan a target block a few minutes ahead (and the `after` block the commitment names).
/** @category Draw */
export { planTarget, type PlanOptions, type TargetPlan } from './beacon/plan.js'
// Plan, commit and time-stamp, keeping the commitment only when its tokens leave the target its margin.
/** @category Draw */
export { commitTimestamped, type CommitTimestampedOptions, type CommitTimestampedResult } from './commit-timestamped.js'
// Draw: wait for the committed block, fetch it and its signed chain, and prove the outcome (hashing on two threads).
/** @category Draw */
export { draw } from './draw.js'
/** @category Draw */
export type { NetworkDrawOptions } from './beacon/draw.js'
// Receipts: the core's makeReceiptsAsync with the tree built on two threads.
/** @category Draw */
export { makeReceiptsAsync } from './receipts.js'
// Verify: the core's offline verify, with the optional online re-check.
/** @category Verify */
export { verify, type NodeVerifyOptions } from './verify.js'
// The clients: the beacon's gateways, Orbitport's REST API, drand relays, time-stamping authorities.
export { BeaconClient, type BeaconClientOptions } from './beacon/client.js'
export { OrbitportClient } from './rest/client.js'
export type { OrbitportClientOptions } from './rest/options.js'
export { DrandClient, type DrandClientOptions } from './drand/client.js'
export { timestampCommitment, type TimestampOptions, type TimestampResult } from './timestamp/client.js'
