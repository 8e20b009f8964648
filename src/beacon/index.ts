/**
 * The beacon edge: trustless gateway client, planning, network draws and online re-checks.
 *
 * Every name is listed on purpose (no `export *`); the `orbitdraw` entry re-exports them by name.
 *
 * @module
 */
// The client and its options, gateways and beacon names.
export { BeaconClient, type BeaconClientOptions, type CallOptions } from './client.js'
export type { BeaconHead } from './head.js'
export { genesisIntervalMs } from './interval.js'
export { DEFAULT_GATEWAYS, ORBITPORT_BEACON_NAME, ORBITPORT_OLD_BEACON_NAME, type FetchLike, type GatewayRequestKind } from './gateway.js'
export type { SourceCallOptions } from './source.js'
// Waiting for a block.
export { waitFor, type WaitSource, type WaitForOptions, type WaitOptions, type WaitProgress, type WaitResult } from './wait.js'
// Planning a draw's target block; the network draw and the online re-check.
export { planTarget, planCommitment, type PlanOptions, type TargetPlan } from './plan.js'
export { draw, verifyOnline, type NetworkDrawOptions, type VerifyOnlineOptions, type VerifyOnlineResult } from './draw.js'
// The beacon edge's errors, the shared network family's classes among them (one class per name on every edge).
export { NetError, NetworkError, TimeoutError, RateLimitedError, AbortedError, type NetEdge } from '../net/errors.js'
export {
  BeaconError,
  GatewayHttpError,
  GatewayNetworkError,
  GatewayTimeoutError,
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
