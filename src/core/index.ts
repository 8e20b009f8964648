/**
 * The pure core of orbitdraw: the names a draw starts from, with no network and no clock; runs in
 * browsers and Node alike. Import it alone as `orbitdraw/core`; the Node entry `orbitdraw` exports all
 * of it (with Node's `commit`, `commitAsync`, `makeReceiptsAsync` and `verify` in place of these).
 *
 * Start here:
 *
 * 1. {@link commit} fixes a draw before its randomness exists (returns the commitment to publish);
 * 2. {@link drawFromBlock} computes the draw and its proof from the committed beacon block you hold
 *    (the Node entry's `draw` fetches and waits for that block for you);
 * 3. {@link verify} re-checks a proof offline, naming every failed check ({@link describeVerdict} words the result).
 *
 * ```ts
 * import { verify, describeVerdict, parseProof } from 'orbitdraw/core'
 * const result = await verify(parseProof(text))
 * console.log(describeVerdict(result).headline)
 * ```
 *
 * This {@link verify} is offline and browser-safe: it checks the proof against what it carries and the
 * verifier's trust anchors (Orbitport's beacons by default), never the network; the verifier page runs
 * it. The `verify` of the Node entry `orbitdraw` is this one plus an optional `online` re-check that asks
 * the beacon whether the proof's blocks are still served and still in its signed chain.
 *
 * Everything else is on a subpath named after its task (`orbitdraw/kinds`, `/sortition`, `/formats`,
 * `/beacon`, `/timestamp`, `/drand`, `/errors`, ...: docs/architecture.md, "Public surface").
 *
 * @module orbitdraw/core
 */
// The public surface of `orbitdraw/core`: this file is the only list of its names (no name is listed in
// two entries). test/package/exports.test.ts pins them; docs/architecture.md (Public surface) gives the
// rule for adding one.

// The base class of every error orbitdraw throws (its subclasses and code lists: `orbitdraw/errors`).
/** @category Errors */
export { OrbitdrawError } from './errors.js'
// Commit: fix a draw before its randomness exists, and read a commitment back.
/** @category Draw */
export { commit, commitAsync, type CommitOptions, type CommitResult } from './commitment.js'
/** @category Draw */
export { parseCommitment, type Commitment } from './commitment.js'
/** @category Draw */
export { commitmentFile, parseCommitmentFile, type CommitmentFile } from './commitment-file.js'
/** @category Draw kinds */
export type { DrawSpec } from './kinds/registry.js'
/** @category Draw */
export type { WeightedEntry } from './participants.js'
// Draw: the outcome and its proof from the committed block (in one step, or prepared first for large lists).
/** @category Draw */
export {
  drawFromBlock,
  prepareDraw,
  prepareDrawAsync,
  drawPrepared,
  type DrawFromBlockOptions,
  type PreparedDraw,
  type PrepareDrawOptions,
  type Participants,
} from './draw.js'
/** @category Draw */
export { parseProof, serializeProof, type Proof, type ParseProofOptions } from './proof.js'
// Verify: the offline verify, its result and the words for it.
/** @category Verify */
export { verify, type ParticipantsDigest, type VerifyOptions, type VerifyResult, type VerifyTrust } from './verify.js'
/** @category Verify */
export { createTrust, type VerifierTrust, type TimestampAuthority, type TimestampAuthorityInput } from './trust.js'
/** @category Verify */
export type { Check, RelaxableRule } from './check.js'
/** @category Verify */
export type { CheckName } from './check-names.js'
/** @category Verify */
export { describeVerdict, failureReason, type VerdictText } from './verdict.js'
// Receipts: each participant's proof of inclusion in a private list, and its check.
/** @category Draw */
export { makeReceipts, makeReceiptsAsync, type MakeReceiptsOptions, type ReceiptBook } from './receipt.js'
/** @category Verify */
export { checkReceipt, parseReceipt, serializeReceipt, type Receipt, type CheckReceiptOptions, type ReceiptCheckResult } from './receipt.js'
