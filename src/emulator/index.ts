/**
 * The local emulator of the whole Orbitport service on one loopback origin: beacon publisher,
 * trustless IPFS gateway (`/ipfs/…`, `/ipns/…`), token endpoint (`/oauth/token`) and cTRNG endpoint
 * (`/api/v1/services/trng`) and an RFC 3161 time-stamping authority (`POST /tsa`). Tests, examples and users' own test suites start it in-process.
 *
 * @module
 */
import { createBeaconService, type BeaconService, type BeaconServiceOptions } from './beacon.js'
import type { FaultController } from './faults.js'
import type { HttpServerOptions } from './http.js'
import { serveBeacon } from './serve.js'
import { createRestService, type RestService, type RestServiceOptions } from './rest.js'
import { createTsaService, type TsaService, type TestTsaOptions } from './tsa.js'
import type { BeaconBlock } from '../core/index.js'

/** Options of {@link startEmulator}. */
export interface EmulatorOptions extends HttpServerOptions {
  /** Beacon options (key type, interval, initial blocks, record lifetime…). */
  beacon?: BeaconServiceOptions
  /** REST options (client id and secret, token lifetime, signing key…). */
  rest?: RestServiceOptions
  /** Time-stamping authority options (key seed, certificate validity, EKU variant, accuracy, clock). */
  tsa?: TestTsaOptions
}

/** A running emulator. */
export interface RunningEmulator {
  /** Base URL of everything: use it as gateway, `baseUrl` and `authUrl`. */
  readonly url: string
  /** The beacon's IPNS name. */
  readonly beaconName: string
  /** The beacon service (chain, records, request counters). */
  readonly beacon: BeaconService
  /** The REST service (public key, outage switch, fault injection). */
  readonly rest: RestService
  /** Route fault injection (beacon routes and `tsa`). */
  readonly faults: FaultController
  /** The RFC 3161 authority's URL (`<url>/tsa`). */
  readonly tsaUrl: string
  /** The authority's root certificate, PEM: trust it (`trust.timestampAuthorities`, `--trust-tsa`) to accept its tokens. */
  readonly tsaRootPem: string
  /** The time-stamping service (certificates, token factory, request count). */
  readonly tsa: TsaService
  /** Publishes the next beacon block now. */
  publishNow(): Promise<BeaconBlock>
  /** Starts one more gateway (own port, own faults) serving the same beacon. */
  addGateway(): Promise<{ url: string; faults: FaultController; close(): Promise<void> }>
  /** Stops the publisher and every server. Idempotent. */
  stop(): Promise<void>
}

/**
 * Starts the emulator on a free loopback port.
 *
 * @example
 * ```ts
 * const emu = await startEmulator({ beacon: { intervalMs: 500 } })
 * const beacon = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
 * const rest = new OrbitportClient({ baseUrl: emu.url, authUrl: emu.url, clientId: 'emulator-client', clientSecret: 'emulator-secret' })
 * // …
 * await emu.stop()
 * ```
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const beacon = await createBeaconService(options.beacon)
  const rest = createRestService(options.rest)
  const tsa = createTsaService({ ...options.tsa, faults: beacon.faults })
  const served = await serveBeacon(beacon, [rest.handler, tsa.handler, beacon.handler], options)
  return {
    url: served.url,
    beaconName: beacon.name,
    beacon,
    rest,
    faults: beacon.faults,
    tsaUrl: `${served.url}/tsa`,
    tsaRootPem: tsa.rootPem,
    tsa,
    publishNow: () => beacon.publishNow(),
    addGateway: served.addGateway,
    stop: served.stop,
  }
}

export { createBeaconService, startBeaconEmulator, type BeaconService, type BeaconServiceOptions, type RunningBeaconEmulator, type BeaconEmulatorOptions, type BeaconRequestStats } from './beacon.js'
export { createRestService, gatewayError, GATEWAY_ERROR_STATUS, type GatewayErrorCode, type SignatureMode, type RestService, type RestServiceOptions, type RestFault, type RestServiceStats } from './rest.js'
export { startHttpServer, type RouteHandler, type RunningHttpServer, type HttpServerOptions } from './http.js'
export type { FaultController, Fault, FaultSpec, BeaconRoute, AddFaultOptions } from './faults.js'
export { createTsaService, createTestTsa, EMULATOR_TSA_POLICY, type TsaService, type TsaServiceOptions, type TestTsa, type TestTsaOptions, type IssueOptions, type TsaKeyUsageVariant } from './tsa.js'
export { generateBeaconKey, type BeaconKey, type GenerateBeaconKeyOptions } from './keys.js'
export { createIpnsRecord, type IpnsSigner, type IpnsRecordContent, type IpnsPublicKey, type IpnsKeyType } from '../core/ipns/index.js'
