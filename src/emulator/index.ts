/**
 * The local emulator of the whole Orbitport service on one loopback origin: beacon publisher,
 * trustless IPFS gateway (`/ipfs/…`, `/ipns/…`), token endpoint (`/oauth/token`) and cTRNG endpoint
 * (`/api/v1/services/trng`) and an RFC 3161 time-stamping authority (`POST /tsa`). Tests, examples and users' own test suites start it in-process.
 *
 * @module orbitdraw/emulator
 */
// The public surface of `orbitdraw/emulator`: this file is the only list of its names; pinned by
// test/package/exports.test.ts.
import { createBeaconService, serveBeaconEmulator, type BeaconServiceOptions, type ServedBeaconEmulator } from './beacon.js'
import type { HttpServerOptions } from './http.js'
// The emulator's own InvalidInputError codes, merged into the class's code type (errors.ts).
import './errors.js'
import { createRestService, type RestService, type RestServiceOptions } from './rest.js'
import { createTsaService, type TsaService, type TestTsaOptions } from './tsa.js'
import { createDrandService, type DrandService, type DrandServiceOptions } from './drand.js'

/**
 * Options of {@link startEmulator}.
 * @category Emulator
 */
export interface EmulatorOptions extends HttpServerOptions {
  /** Beacon options (key type, interval, initial blocks, record lifetime…). */
  beacon?: BeaconServiceOptions
  /** REST options (client id and secret, token lifetime, signing key…). */
  rest?: RestServiceOptions
  /** Time-stamping authority options (key seed, certificate validity, EKU variant, accuracy, clock). */
  tsa?: TestTsaOptions
  /** The emulated drand chain's options (key, period, genesis, clock). */
  drand?: DrandServiceOptions
}

/**
 * A running emulator: the served beacon ({@link ServedBeaconEmulator}) plus REST and time-stamping.
 * @category Emulator
 */
export interface RunningEmulator extends ServedBeaconEmulator {
  /** The REST service (public key, outage switch, fault injection). */
  readonly rest: RestService
  /** The RFC 3161 authority's URL (`<url>/tsa`). */
  readonly tsaUrl: string
  /** The authority's root certificate, PEM: trust it (`trust.timestampAuthorities`, `--trust-tsa`) to accept its tokens. */
  readonly tsaRootPem: string
  /** The time-stamping service (certificates, token factory, request count). */
  readonly tsa: TsaService
  /**
   * The emulated drand chain, served on the same origin (`<url>/{chainhash}/info`, `/public/{round}`,
   * `/public/latest`). Trust its `info` (`trust.drandChains`, `--trust-drand INFO.json`) to verify mixed draws.
   */
  readonly drand: DrandService
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
 * @category Emulator
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const beacon = await createBeaconService(options.beacon)
  const rest = createRestService(options.rest)
  const tsa = createTsaService({ ...options.tsa, faults: beacon.faults })
  const drand = createDrandService(options.drand)
  const served = await serveBeaconEmulator(beacon, [rest.handler, tsa.handler, drand.handler, beacon.handler], options)
  return { ...served, rest, tsaUrl: `${served.url}/tsa`, tsaRootPem: tsa.rootPem, tsa, drand }
}

// The pieces `startEmulator` composes, for tests that need one service alone or their own mix.
export { createBeaconService, startBeaconEmulator, serveBeaconEmulator, type ServedBeaconEmulator, type BeaconService, type BeaconServiceOptions, type BeaconEmulatorOptions, type BeaconRequestStats } from './beacon.js'
export { createRestService, gatewayError, GATEWAY_ERROR_STATUS, type GatewayErrorCode, type SignatureMode, type RestService, type RestServiceOptions, type RestFault, type RestServiceStats } from './rest.js'
export { createDrandService, type DrandService, type DrandServiceOptions } from './drand.js'
export { createTsaService, createTestTsa, type TsaService, type TsaServiceOptions, type TestTsa, type TestTsaOptions, type IssueOptions, type TsaKeyUsageVariant } from './tsa.js'
export { startHttpServer, type RouteHandler, type RunningHttpServer, type HttpServerOptions } from './http.js'
// Fault injection (`emu.faults`).
export type { FaultController, Fault, FaultSpec, BeaconRoute, AddFaultOptions } from './faults.js'
// Keys and signed IPNS records for a test beacon.
export { generateBeaconKey, type BeaconKey, type GenerateBeaconKeyOptions } from './keys.js'
/** @category Beacon */
export { createIpnsRecord, type IpnsSigner, type IpnsRecordContent } from '../core/ipns/encode.js'
