/**
 * orbitdraw: publicly verifiable draws from Orbitport's cosmic randomness beacon. The Node entry:
 * the pure core plus the beacon client, the REST client and the time-stamping client.
 *
 * Start here:
 *
 * 1. {@link commit} fixes a draw (participants, kind, target block) before its randomness exists;
 * 2. {@link draw} waits for the committed block and returns a proof carrying the beacon's signed head
 *    (or {@link drawFromBlock}, the pure version, when you already hold the block);
 * 3. {@link verify} re-checks a proof, naming every failed check ({@link describeVerdict} words the result).
 *
 * Two `verify` functions: this entry's {@link verify} is the core's `verify` plus one option, `online`
 * ({@link NodeVerifyOptions}): given gateways, it also asks the beacon whether the proof's blocks are
 * still served and still in its signed chain (checks `online-blocks`, `online-chain`). Without `online`
 * it is exactly the core's `verify` (from `orbitdraw/core`): offline, no network, no clock, browser-safe,
 * the one the verifier page runs. Both never throw on a bad proof; every problem is a named failed check.
 *
 * Entry points: `orbitdraw` (this one, for Node), `orbitdraw/core` (the pure, browser-safe core alone)
 * and `orbitdraw/emulator` (the local emulator of the service, for tests).
 *
 * @module orbitdraw
 */
import { RateLimitedError } from './net/errors.js'
export * from './core/index.js'
export * from './beacon/index.js'
export * from './rest/index.js'
// Node's commit adds private: true (a secret from node:crypto) to the core's commit.
export { commit, generateSecret, type NodeCommitOptions } from './commit.js'
export * from './timestamp/index.js'
// Node's verify adds the optional online re-check to the core's offline verify.
export { verify, type NodeVerifyOptions } from './verify.js'
// One network error family for every edge (beacon, REST, time-stamping): `edge` says which.
export { NetError, NetworkError, TimeoutError, RateLimitedError, AbortedError, NET_ERROR_CODES, type NetEdge, type NetErrorInit, type RateLimitedInit } from './net/errors.js'
/**
 * The REST client's rate-limit error: since the edges share one {@link RateLimitedError}, the same class.
 * @deprecated use {@link RateLimitedError} (check `edge === 'rest'` or `code === 'ORBITPORT_RATE_LIMITED'`).
 * @category Errors
 */
export const OrbitportRateLimitedError = RateLimitedError
/**
 * @deprecated use {@link RateLimitedError}.
 * @category Errors
 */
export type OrbitportRateLimitedError = RateLimitedError
// Look-alike entries (UTS #39 skeletons): Node entry only, kept out of the core and the verifier page.
export { findConfusableEntries, skeleton, type ConfusableGroup } from './confusables.js'
export { parsePoolCsv, parseQuotasCsv, parseLotteryCsv, parseSortitionAlgorithmsCsv, readPoolCsv, readQuotasCsv, readLotteryCsv, readSortitionAlgorithmsCsv, MAX_SORTITION_FILE_BYTES, type SortitionAlgorithmsSelection } from './sortition/csv.js'
// The participants digest on two threads (worker_threads): Node entry only; equal to participantsRoot.
export { participantsRootParallel, PARALLEL_MIN_ENTRIES, type ParallelHashOptions } from './node/parallel-hash.js'
