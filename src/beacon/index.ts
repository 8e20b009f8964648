/**
 * The beacon edge: trustless gateway client, planning, network draws and online re-checks.
 *
 * @module
 */
export { BeaconClient, genesisIntervalMs, type BeaconClientOptions, type BeaconHead, type CallOptions, type WaitOptions, type WaitProgress, type WaitResult } from './client.js'
export { waitFor, type WaitSource, type WaitForOptions } from './wait.js'
export type { SourceCallOptions } from './source.js'
export { DEFAULT_GATEWAYS, ORBITPORT_BEACON_NAME, ORBITPORT_OLD_BEACON_NAME, type FetchLike, type GatewayRequestKind } from './gateway.js'
export { planTarget, planCommitment, type PlanOptions, type TargetPlan } from './plan.js'
export { draw, verifyOnline, type NetworkDrawOptions, type VerifyOnlineOptions, type VerifyOnlineResult } from './draw.js'
export {
  BeaconError,
  NetError,
  NetworkError,
  TimeoutError,
  GatewayHttpError,
  GatewayNetworkError,
  GatewayTimeoutError,
  RateLimitedError,
  BadResponseError,
  RedirectRefusedError,
  StaleResponseError,
  AllGatewaysFailedError,
  ForkError,
  ChainBrokenError,
  LegacyBlockError,
  NotYetPublishedError,
  AbortedError,
  WaitTimeoutError,
  type NetEdge,
  type GatewayFailure,
} from './errors.js'
