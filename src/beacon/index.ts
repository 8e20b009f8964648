/**
 * The beacon: its blocks (content-addressed), its signed IPNS records and the chain from the head down
 * to a target (pure: `src/core/`), the trusted beacons, and the gateway side: waiting for a block,
 * planning a target, the online re-check, block sources, and the edge's errors.
 *
 * ```ts
 * import { waitFor, parseBlock, ORBITPORT_BEACONS } from 'orbitdraw/beacon'
 * ```
 *
 * The `orbitdraw/beacon` entry: this file and `src/core/ipns/index.ts` (re-exported whole) are the only
 * lists of its names; `BeaconClient`, `planTarget` and Node's `draw` are at the root (`orbitdraw`), the network error
 * family in `orbitdraw/errors`.
 *
 * @module orbitdraw/beacon
 */
// Blocks, the chain from the head to the target, and the beacons a verifier trusts.
/** @category Beacon */
export { parseBlock, blockCid, encodeBlock, parseCid, sameContent, type BeaconBlock } from '../core/block.js'
/** @category Beacon */
export { checkChain, type ChainCheckInput, type ChainCheckResult } from '../core/chain.js'
/** @category Beacon */
export { ORBITPORT_BEACONS, identifyBeacon, normalizeTrustedBeacons, shortName, type TrustedBeacon, type BeaconIdentity } from '../core/trust.js'
// Signed IPNS records and names.
export * from '../core/ipns/index.js'
// The gateway client's options, gateways and beacon names.
export type { CallOptions } from './client.js'
export type { BeaconHead } from './head.js'
export { genesisIntervalMs } from './interval.js'
export { DEFAULT_GATEWAYS, ORBITPORT_BEACON_NAME, ORBITPORT_OLD_BEACON_NAME, type FetchLike, type GatewayRequestKind } from './gateway.js'
export type { SourceCallOptions } from './source.js'
// Waiting for a block.
export { waitFor, type WaitSource, type WaitForOptions, type WaitOptions, type WaitProgress, type WaitResult } from './wait.js'
// Planning a commitment's target and `after` block from a client (`planTarget` is at the root); the online re-check.
export { planCommitment } from './plan.js'
export { verifyOnline, type VerifyOnlineOptions, type VerifyOnlineResult } from './draw.js'
// The beacon edge's errors (the shared network family's classes: `orbitdraw/errors`).
export {
  BeaconError,
  GatewayHttpError,
  BadResponseError,
  RedirectRefusedError,
  StaleResponseError,
  AllGatewaysFailedError,
  ForkError,
  ChainBrokenError,
  LegacyBlockError,
  NotYetPublishedError,
  WaitTimeoutError,
  BEACON_ERROR_CODES,
  type BeaconErrorCode,
  type GatewayFailure,
} from './errors.js'
