/**
 * Emulated Orbitport beacon: a publisher of real-format blocks with signed IPNS records, and a
 * trustless gateway serving them (`/ipfs/<cid>`, `/ipns/<name>`, `/ipns/<name>?format=ipns-record`;
 * the routes are in `beacon-gateway.ts`), with per-route fault injection. Runs in-process; {@link startBeaconEmulator} binds it to a free
 * loopback port.
 *
 * @module
 */
import { randomBytes } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { blockCid, encodeBlock, parseBlock, parseCid, type BeaconBlock } from '../core/block.js'
import { bytesToHex } from '../core/bytes.js'
import { InvalidInputError } from '../core/errors.js'
import { createIpnsRecord } from '../core/ipns/encode.js'
import { ipnsNameOfKey } from '../core/ipns/key-format.js'
import { parseIpnsName } from '../core/ipns/name.js'
import { generateBeaconKey, type BeaconKey } from './keys.js'
import { serveBeacon } from './serve.js'
import { FaultController, type BeaconRoute, type FaultSpec } from './faults.js'
import { answerFault, recordValidity } from './gateway-responses.js'
import { gatewayHandler, type GatewayBeacon } from './beacon-gateway.js'
import type { HttpServerOptions, RouteHandler } from './http.js'

/**
 * Options of {@link createBeaconService}.
 * @category Beacon
 */
export interface BeaconServiceOptions {
  /** IPNS key type: `RSA` (default, like the real beacon: `k2k4r8…` names) or `Ed25519` (`k51…`). */
  keyType?: 'RSA' | 'Ed25519'
  /**
   * Use this key instead of generating one (keeps the beacon name stable across runs): see
   * {@link generateBeaconKey}. Any Ed25519 or RSA signer of the same shape works (`@libp2p/crypto` keys do).
   */
  privateKey?: BeaconKey
  /** RSA modulus size when generating (default 2048). */
  rsaBits?: number
  /** Publication interval in ms (minimum 100). `0` publishes only on {@link BeaconService.publishNow}. Default 1000. */
  intervalMs?: number
  /** Number of `ctrng` values per block (default 3, like the real beacon). */
  ctrngCount?: number
  /** Blocks published right away after genesis (default 0), so history exists from the start. */
  initialBlocks?: number
  /** Record lifetime in ms from its creation (default 48 h). Negative values make expired records. */
  recordLifetimeMs?: number
  /** Fixed end of validity for every record (RFC 3339 or Date); overrides `recordLifetimeMs`. */
  recordExpiresAt?: string | Date
  /** Record TTL in ms (how long gateways may cache it; default: the interval, or 60 s when manual). */
  recordTtlMs?: number
  /** Also sign a legacy V1 signature in each record (default true, like kubo). */
  v1Compatible?: boolean
  /** Extra or overriding fields of the genesis block's `metadata`. */
  genesisMetadata?: Record<string, unknown>
  /** Clock in ms (default `Date.now`), used for block timestamps. */
  clock?: () => number
}

/**
 * Request counters per route.
 * @category Beacon
 */
export interface BeaconRequestStats {
  block: number
  ipnsRecord: number
  ipnsJson: number
  total: number
}

/**
 * A running emulated beacon (publisher + gateway routes).
 * @category Beacon
 */
export interface BeaconService {
  /** Route handler for `startHttpServer` (faults from {@link BeaconService.faults}). */
  readonly handler: RouteHandler
  /** Another gateway serving the same beacon with its own faults (to test failover between gateways). */
  createGateway(): { handler: RouteHandler; faults: FaultController }
  /** The beacon's IPNS name (base36). */
  readonly name: string
  /** The IPNS key type. */
  readonly keyType: 'RSA' | 'Ed25519'
  /** Per-route fault injection. */
  readonly faults: FaultController
  /** Publishes the next block now (and a new record); resolves with it. */
  publishNow(): Promise<BeaconBlock>
  /** Publishes `n` blocks now, in order; resolves with the last. */
  publish(n: number): Promise<BeaconBlock>
  /**
   * A fault of the operator's: the timer does not publish block `sequence` before the clock reaches
   * `untilMs` (for example after a committed drand round is public, so `source-order` fails). Returns a
   * function that lifts the hold.
   */
  holdBack(sequence: number, untilMs: number): () => void
  /** The latest block. */
  head(): BeaconBlock
  /** The main-chain block with this sequence, if published. */
  bySequence(sequence: number): BeaconBlock | undefined
  /** Any stored block (main chain or fork) by CID (any version/base). */
  byCid(cid: string): BeaconBlock | undefined
  /** Every main-chain block, genesis first. */
  chain(): readonly BeaconBlock[]
  /** The latest marshalled IPNS record. */
  record(): Uint8Array
  /** Every record published, oldest first, with the block sequence it names. */
  records(): readonly { sequence: bigint; head: number; bytes: Uint8Array }[]
  /** Request counters since start or the last {@link BeaconService.resetStats}. */
  stats(): BeaconRequestStats
  /** Resets the request counters. */
  resetStats(): void
  /** The publication interval in ms (0 = manual). */
  readonly intervalMs: number
  /** Stops the publisher timer and pending fault delays. Idempotent. */
  stop(): void
}

const DAY_MS = 24 * 3600 * 1000

/**
 * Creates an emulated beacon: genesis is published (and `initialBlocks` more) before it resolves.
 * @category Beacon
 */
export async function createBeaconService(options: BeaconServiceOptions = {}): Promise<BeaconService> {
  const intervalMs = options.intervalMs ?? 1000
  if (!Number.isFinite(intervalMs) || (intervalMs !== 0 && intervalMs < 100)) {
    throw new InvalidInputError('INVALID_INTERVAL', `intervalMs ${intervalMs} is out of range`, 'use 0 (manual publishing) or at least 100 ms')
  }
  const ctrngCount = options.ctrngCount ?? 3
  if (!Number.isSafeInteger(ctrngCount) || ctrngCount < 0 || ctrngCount > 1024) {
    throw new InvalidInputError('INVALID_CTRNG_COUNT', `ctrngCount ${ctrngCount} is out of range`, 'use 0 to 1024 values per block')
  }
  const keyType = options.privateKey?.type === 'Ed25519' ? 'Ed25519' : options.privateKey?.type === 'RSA' ? 'RSA' : (options.keyType ?? 'RSA')
  if (options.privateKey !== undefined && options.privateKey.type !== keyType) {
    throw new InvalidInputError('INVALID_KEY', `privateKey is ${options.privateKey.type}`, 'pass an RSA or Ed25519 private key')
  }
  const key: BeaconKey = options.privateKey ?? (keyType === 'RSA' ? await generateBeaconKey('RSA', { bits: options.rsaBits ?? 2048 }) : await generateBeaconKey('Ed25519'))
  const name = ipnsNameOfKey(key.publicKey)
  const nameKey = bytesToHex(parseIpnsName(name).multihash)
  const clock = options.clock ?? Date.now
  const ttlMs = options.recordTtlMs ?? (intervalMs > 0 ? intervalMs : 60_000)
  const lifetimeMs = options.recordLifetimeMs ?? 2 * DAY_MS
  const v1Compatible = options.v1Compatible ?? true
  const faults = new FaultController()

  const main: BeaconBlock[] = []
  const store = new Map<string, BeaconBlock>() // multihash hex -> block
  const records: { sequence: bigint; head: number; bytes: Uint8Array }[] = []
  const forks = new Map<number, { block: BeaconBlock; record: Uint8Array }>()
  let recordSeq = 0n
  let stats: BeaconRequestStats = { block: 0, ipnsRecord: 0, ipnsJson: 0, total: 0 }
  let stopped = false
  const pendingDelays = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>()

  const mhKey = (cid: string): string => bytesToHex(parseCid(cid).multihash.bytes)

  async function sign(cid: string, seq: bigint): Promise<Uint8Array> {
    const validity = options.recordExpiresAt !== undefined ? recordValidity(options.recordExpiresAt) : new Date(Date.now() + lifetimeMs)
    return createIpnsRecord(key, { value: `/ipfs/${parseCid(cid).toString()}`, validity, sequence: seq, ttlNs: BigInt(ttlMs) * 1_000_000n, v1Compatible })
  }

  function makeBlock(previous: BeaconBlock | undefined, atMs = clock()): BeaconBlock {
    const sequence = previous === undefined ? 0 : previous.sequence + 1
    const timestamp = Math.floor(atMs / 1000)
    const ctrng = previous === undefined ? [] : Array.from({ length: ctrngCount }, () => randomBytes(32).toString('hex'))
    const metadata =
      previous === undefined
        ? {
            name: 'orbitdraw emulated beacon',
            public_key: bytesToHex(key.publicKey.raw),
            version: '1.0',
            encoding: 'json',
            batch_size: ctrngCount,
            message: 'Emulated cosmic randomness beacon (orbitdraw). Not real satellite randomness.',
            // Go time.Duration, as the real publisher writes it: nanoseconds (0 when publishing manually).
            interval: intervalMs * 1_000_000,
            ...options.genesisMetadata,
          }
        : undefined
    const bytes = encodeBlock({ previous: previous?.cid ?? null, sequence, timestamp, ctrng, ...(metadata === undefined ? {} : { metadata }) })
    return parseBlock(bytes, blockCid(bytes))
  }

  let queue: Promise<unknown> = Promise.resolve()
  function publishNow(atMs?: number): Promise<BeaconBlock> {
    const run = queue.then(async () => {
      const block = makeBlock(main[main.length - 1], atMs)
      const bytes = await sign(block.cid, ++recordSeq)
      main.push(block)
      store.set(mhKey(block.cid), block)
      records.push({ sequence: recordSeq, head: block.sequence, bytes })
      return block
    })
    queue = run.catch(() => undefined)
    return run
  }

  async function publish(n: number): Promise<BeaconBlock> {
    if (!Number.isSafeInteger(n) || n < 1) throw new InvalidInputError('INVALID_COUNT', `cannot publish ${n} blocks`, 'pass a positive integer')
    let last: BeaconBlock | undefined
    for (let i = 0; i < n; i++) last = await publishNow()
    return last!
  }

  // Genesis and the initial history are back-dated one interval apart, as if the beacon had been
  // running: chain timestamps then tell the real interval from the start.
  const initial = options.initialBlocks ?? 0
  if (!Number.isSafeInteger(initial) || initial < 0 || initial > 100_000) {
    throw new InvalidInputError('INVALID_COUNT', `initialBlocks ${initial} is out of range`, 'use 0 to 100000')
  }
  const t0 = clock()
  const step = intervalMs > 0 ? intervalMs : 60_000
  await publishNow(t0 - initial * step)
  for (let i = 1; i <= initial; i++) await publishNow(t0 - (initial - i) * step)

  let hold: { sequence: number; untilMs: number } | undefined
  let timer: NodeJS.Timeout | undefined
  if (intervalMs > 0) {
    timer = setInterval(() => {
      if (hold !== undefined && main.length === hold.sequence && clock() < hold.untilMs) return
      if (!stopped) void publishNow().catch(() => undefined)
    }, intervalMs)
    timer.unref()
  }

  /** A fork of the current head: same sequence and previous, other values, signed at a higher record sequence. */
  async function forkOfHead(): Promise<{ block: BeaconBlock; record: Uint8Array }> {
    const head = main[main.length - 1]!
    const existing = forks.get(head.sequence)
    if (existing !== undefined) return existing
    const parent = main[main.length - 2]
    let block = makeBlock(parent)
    if (block.cid === head.cid) block = makeBlock(parent)
    store.set(mhKey(block.cid), block)
    const record = await sign(block.cid, recordSeq + 1n)
    const fork = { block, record }
    forks.set(head.sequence, fork)
    return fork
  }

  function delay(ms: number): Promise<void> {
    if (ms <= 0 || stopped) return Promise.resolve()
    return new Promise((resolve) => {
      const entry = {
        resolve,
        timer: setTimeout(() => {
          pendingDelays.delete(entry)
          resolve()
        }, ms),
      }
      entry.timer.unref()
      pendingDelays.add(entry)
    })
  }

  /** The record and head block to serve on the IPNS routes, after stale/fork faults. */
  async function headFor(fault: FaultSpec | undefined): Promise<{ record: Uint8Array; block: BeaconBlock }> {
    if (fault?.kind === 'fork') {
      const f = await forkOfHead()
      return { record: f.record, block: f.block }
    }
    let idx = records.length - 1
    if (fault?.kind === 'stale-record') idx = Math.max(0, idx - (fault.back ?? 1))
    const r = records[idx]!
    return { record: r.bytes, block: main[r.head]! }
  }

  /** Counts the request, applies latency, then answers a fault that replaces the response; `answered` says whether it did. */
  async function preamble(faults: FaultController, route: BeaconRoute, res: ServerResponse, url: URL): Promise<{ answered: boolean; fault: FaultSpec | undefined }> {
    const counter = route === 'block' ? 'block' : route === 'ipns-record' ? 'ipnsRecord' : 'ipnsJson'
    stats = { ...stats, total: stats.total + 1, [counter]: stats[counter] + 1 }
    const { latencyMs, fault } = faults.take(route)
    await delay(latencyMs)
    if (stopped) {
      res.destroy()
      return { answered: true, fault }
    }
    return { answered: await answerFault(res, url, fault), fault }
  }

  const gateway: GatewayBeacon = {
    name,
    nameKey,
    ttlMs,
    block: (cid) => {
      let key: string
      try {
        key = mhKey(cid)
      } catch {
        return 'invalid'
      }
      return store.get(key)
    },
    preamble,
    headFor,
  }

  return {
    handler: gatewayHandler(gateway, faults),
    createGateway: () => {
      const own = new FaultController()
      return { handler: gatewayHandler(gateway, own), faults: own }
    },
    name,
    keyType,
    faults,
    intervalMs,
    publishNow: () => publishNow(),
    publish,
    holdBack: (sequence, untilMs) => {
      const h = { sequence, untilMs }
      hold = h
      return () => {
        if (hold === h) hold = undefined
      }
    },
    head: () => main[main.length - 1]!,
    bySequence: (sequence) => main[sequence],
    byCid: (cid) => {
      try {
        return store.get(mhKey(cid))
      } catch {
        return undefined
      }
    },
    chain: () => [...main],
    record: () => records[records.length - 1]!.bytes,
    records: () => [...records],
    stats: () => ({ ...stats }),
    resetStats: () => {
      stats = { block: 0, ipnsRecord: 0, ipnsJson: 0, total: 0 }
    },
    stop: () => {
      if (stopped) return
      stopped = true
      if (timer !== undefined) clearInterval(timer)
      for (const d of pendingDelays) {
        clearTimeout(d.timer)
        d.resolve()
      }
      pendingDelays.clear()
    },
  }
}

/**
 * Options of {@link startBeaconEmulator}.
 * @category Beacon
 */
export type BeaconEmulatorOptions = BeaconServiceOptions & HttpServerOptions

/**
 * A served beacon, as both start functions return it ({@link startBeaconEmulator}, and
 * `startEmulator`, which adds the REST and time-stamping services). One naming for both.
 * @category Beacon
 */
export interface ServedBeaconEmulator {
  /** Base URL (gateway, and for `startEmulator` every other service), e.g. `http://127.0.0.1:54321`. */
  readonly url: string
  /** The beacon's IPNS name. */
  readonly beaconName: string
  /** The beacon service (chain access, records, request counters). */
  readonly beacon: BeaconService
  /** Per-route fault injection. */
  readonly faults: FaultController
  /** Publishes the next block now. */
  publishNow(): Promise<BeaconBlock>
  /** Starts one more gateway (own port, own faults) serving the same beacon; stopped by `stop`. */
  addGateway(): Promise<{ url: string; faults: FaultController; close(): Promise<void> }>
  /** Stops the publisher and every server. Idempotent. */
  stop(): Promise<void>
}

/**
 * Serves `service` with `handlers` (which should include `service.handler`) on one loopback server:
 * the part both start functions share.
 * @category Beacon
 */
export async function serveBeaconEmulator(service: BeaconService, handlers: readonly RouteHandler[], options: HttpServerOptions = {}): Promise<ServedBeaconEmulator> {
  const served = await serveBeacon(service, handlers, options)
  return {
    url: served.url,
    beaconName: service.name,
    beacon: service,
    faults: service.faults,
    publishNow: () => service.publishNow(),
    addGateway: served.addGateway,
    stop: served.stop,
  }
}

/**
 * Starts an emulated beacon and trustless gateway on a free loopback port.
 * @example
 * const emu = await startBeaconEmulator({ intervalMs: 200, keyType: 'Ed25519' })
 * const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
 * await emu.stop()
 * @category Beacon
 */
export async function startBeaconEmulator(options: BeaconEmulatorOptions = {}): Promise<ServedBeaconEmulator> {
  const service = await createBeaconService(options)
  return serveBeaconEmulator(service, [service.handler], options)
}
