/**
 * Trustless beacon client: reads the Orbitport beacon through any IPFS trustless gateways and trusts
 * none of them. Every block is checked against its CID, the head against the beacon's signed IPNS
 * record, and every `previous` link by hash; gateways fail over on error, timeout, 429 and bad bytes.
 *
 * The client is a thin composition of single-purpose pieces: {@link GatewaySource} (one gateway),
 * {@link FailoverSource} (failover and rate-limit pauses), {@link CachedSource} (CID-keyed cache),
 * {@link ChainIndex} (chain walking, fork detection), {@link HeadTracker} (the head, shared polls),
 * {@link estimateInterval} and {@link waitFor}.
 *
 * @module
 */
import type { BeaconBlock } from '../core/block.js'
import { InvalidInputError } from '../core/errors.js'
import { LIMITS } from '../core/limits.js'
import { parseIpnsName } from '../core/ipns/name.js'
import { allowedOriginsOption, DEFAULT_MAX_REDIRECTS } from '../net/redirect.js'
import { CachedSource } from './cache.js'
import { ChainIndex } from './chain-index.js'
import { NotYetPublishedError } from './errors.js'
import { FailoverSource } from './failover.js'
import { DEFAULT_GATEWAYS, GatewaySource, normalizeGateway, ORBITPORT_BEACON_NAME, type FetchLike, type GatewayRequestKind } from './gateway.js'
import { HeadTracker, type BeaconHead } from './head.js'
import { estimateInterval, RELIABLE_SPAN_SECONDS } from './interval.js'
import { waitFor, type WaitOptions, type WaitResult, type WaitSource } from './wait.js'

export type { BeaconHead } from './head.js'
export { genesisIntervalMs } from './interval.js'
export type { WaitOptions, WaitProgress, WaitResult } from './wait.js'

/**
 * Options of {@link BeaconClient}.
 * @category Beacon
 */
export interface BeaconClientOptions {
  /** Gateway base URLs, tried in order (the last one that worked goes first). Default {@link DEFAULT_GATEWAYS}. */
  gateways?: readonly string[]
  /** Beacon IPNS name. Default: the current Orbitport beacon ({@link ORBITPORT_BEACON_NAME}). */
  name?: string
  /** `fetch` to use (default: the global one). */
  fetch?: FetchLike
  /** Timeout of each request in ms (default 10 000). */
  timeoutMs?: number
  /**
   * When no gateway serves a verifiable IPNS record, fall back to the unsigned `/ipns/<name>` JSON.
   * Heads obtained that way say `authenticated: false`. Default false.
   */
  allowUnsignedHead?: boolean
  /** Extra rounds over all gateways after every gateway failed once (default 1). */
  retries?: number
  /** Longest `Retry-After` (ms) the client waits for on its own before giving up (default 30 000). */
  maxRetryWaitMs?: number
  /** Base pause between rounds in ms (default 250). */
  retryDelayMs?: number
  /** Known publication interval in ms; default: learned from the chain's timestamps. */
  intervalMs?: number
  /** Most blocks kept in the CID-keyed cache (default 10 000). */
  cacheSize?: number
  /** `waitFor` keeps polling through this many consecutive polls where every gateway failed (default 5). */
  maxFailedPolls?: number
  /** Called before every HTTP request (for counting or logging). */
  onRequest?: (info: { gateway: string; path: string; kind: GatewayRequestKind }) => void
  /** Clock in ms (default `Date.now`). */
  now?: () => number
  /**
   * Origins a gateway may redirect to besides its own (for example its CDN). Default none: a
   * redirect to another origin is refused ({@link RedirectRefusedError}) and never requested.
   */
  allowedRedirectOrigins?: readonly string[]
  /** Most same-origin (or allow-listed) redirect hops followed per request (default 3, 0 follows none). */
  maxRedirects?: number
}

/**
 * Common per-call options.
 * @category Beacon
 */
export interface CallOptions {
  /** Cancels the call (rejects with {@link AbortedError}). */
  signal?: AbortSignal
}

/**
 * A client of the beacon over trustless gateways.
 *
 * @example
 * const client = new BeaconClient()                  // Orbitport beacon, public gateways
 * const head = await client.latest()                 // signed head, verified
 * const block = await client.bySequence(head.block.sequence - 3)
 * @category Beacon
 */
export class BeaconClient implements WaitSource {
  /** The beacon's canonical IPNS name. */
  readonly name: string
  /** The gateways, in their configured order. */
  readonly gateways: readonly string[]
  readonly #intervalHint: number | undefined
  readonly #maxFailedPolls: number
  readonly #maxRetryWaitMs: number
  readonly #now: () => number
  readonly #blocks: CachedSource
  readonly #chain: ChainIndex
  readonly #head: HeadTracker
  #requests = 0

  constructor(options: BeaconClientOptions = {}) {
    const gateways = options.gateways ?? DEFAULT_GATEWAYS
    if (!Array.isArray(gateways) || gateways.length === 0) {
      throw new InvalidInputError('INVALID_GATEWAYS', 'at least one gateway URL is needed', 'pass gateways: ["https://ipfs.io", ...]')
    }
    this.gateways = Object.freeze(
      (gateways as readonly string[]).map((g, i) => {
        try {
          return normalizeGateway(g)
        } catch (cause) {
          throw new InvalidInputError('INVALID_GATEWAY', `gateway ${JSON.stringify(g)} is not an http(s) URL`, 'pass base URLs such as https://ipfs.io', { path: `$.gateways[${i}]`, cause })
        }
      }),
    )
    this.name = parseIpnsName(options.name ?? ORBITPORT_BEACON_NAME, '$.name').name
    const f = options.fetch ?? (globalThis.fetch as FetchLike | undefined)
    if (typeof f !== 'function') throw new InvalidInputError('NO_FETCH', 'no fetch implementation available', 'pass options.fetch')
    const timeoutMs = positive(options.timeoutMs ?? LIMITS.gatewayTimeoutMs, 'timeoutMs')
    const policy = {
      retries: nonNegativeInt(options.retries ?? 1, 'retries'),
      maxRetryWaitMs: nonNegative(options.maxRetryWaitMs ?? 30_000, 'maxRetryWaitMs'),
      retryDelayMs: nonNegative(options.retryDelayMs ?? 250, 'retryDelayMs'),
    }
    this.#intervalHint = options.intervalMs === undefined ? undefined : positive(options.intervalMs, 'intervalMs')
    const cacheSize = nonNegativeInt(options.cacheSize ?? 10_000, 'cacheSize')
    this.#maxFailedPolls = nonNegativeInt(options.maxFailedPolls ?? 5, 'maxFailedPolls')
    this.#maxRetryWaitMs = policy.maxRetryWaitMs
    const now = options.now ?? Date.now
    this.#now = now
    const allowedOrigins = allowedOriginsOption(options.allowedRedirectOrigins, 'https://cdn.example.org')
    const redirects = { allowedOrigins, maxRedirects: nonNegativeInt(options.maxRedirects ?? DEFAULT_MAX_REDIRECTS, 'maxRedirects') }
    const onRequest = options.onRequest
    const http = {
      fetch: f,
      timeoutMs,
      now,
      redirects,
      onRequest: (info: { gateway: string; path: string; kind: GatewayRequestKind }) => {
        this.#requests++
        onRequest?.(info)
      },
    }
    const failover = new FailoverSource(
      this.gateways.map((g) => new GatewaySource(g, http)),
      { ...policy, now },
    )
    this.#blocks = new CachedSource(failover, { size: cacheSize, onEvict: (b) => this.#chain.forget(b, this.#head.known?.block) })
    this.#chain = new ChainIndex(this.#blocks)
    this.#head = new HeadTracker(failover, this.#blocks, this.#chain, { name: this.name, allowUnsigned: options.allowUnsignedHead === true, now })
  }

  /** HTTP requests made so far by this client. */
  get requestCount(): number {
    return this.#requests
  }

  /** The latest head accepted so far, without any request. */
  get knownHead(): BeaconHead | undefined {
    return this.#head.known
  }

  /** Highest IPNS record sequence seen (-1 before any signed head). */
  get highestRecordSequence(): bigint {
    return this.#head.highestRecordSequence
  }

  /**
   * The beacon's latest block, authenticated by its signed IPNS record. Never goes backwards: an
   * answer older than what was already seen is stale (another gateway is asked, else the known head
   * is returned with `fresh: false`). Concurrent callers share one poll.
   * @throws {@link ForkError}, {@link AllGatewaysFailedError}, {@link AbortedError}.
   */
  latest(options: CallOptions = {}): Promise<BeaconHead> {
    return this.#head.latest(options)
  }

  /**
   * A block by CID, verified against it (bytes hash to the CID). Cached: never fetched twice.
   * @throws {@link AllGatewaysFailedError} (no gateway served matching bytes), {@link AbortedError}.
   */
  block(cid: string, options: CallOptions = {}): Promise<BeaconBlock> {
    return this.#blocks.block(cid, options)
  }

  /**
   * The chain's block with sequence `n`, found by walking `previous` links down from the nearest
   * block already proven to be in the chain (the head at first). Each link is checked by hash.
   * @throws {@link NotYetPublishedError}, {@link ForkError}, {@link ChainBrokenError}, {@link AllGatewaysFailedError}.
   */
  async bySequence(n: number, options: CallOptions = {}): Promise<BeaconBlock> {
    if (!Number.isSafeInteger(n) || n < 0) throw new InvalidInputError('INVALID_SEQUENCE', `sequence ${n} is not a non-negative integer`, 'pass a block sequence number')
    const known = this.#chain.get(n)
    if (known !== undefined) return known
    if (this.#head.known === undefined || this.#head.known.block.sequence < n) await this.latest(options)
    const head = this.#head.known!
    if (head.block.sequence < n) throw new NotYetPublishedError(n, head.block.sequence)
    const walked = await this.#chain.walk(this.#chain.nearestAbove(n, head.block), n, options)
    return walked[walked.length - 1]!
  }

  /**
   * Blocks from `from` (a block already in the chain, e.g. a head) down to sequence `to`, newest first,
   * each link checked. Blocks already known are not fetched again.
   */
  async chainDown(from: BeaconBlock, to: number, options: CallOptions = {}): Promise<BeaconBlock[]> {
    if (!Number.isSafeInteger(to) || to < 0 || to > from.sequence) {
      throw new InvalidInputError('INVALID_SEQUENCE', `cannot walk from ${from.sequence} down to ${to}`, 'pass a sequence at or below the starting block')
    }
    if (from.sequence - to + 1 > LIMITS.maxChainBlocks) {
      throw new InvalidInputError('CHAIN_TOO_LONG', `a chain from ${from.sequence} down to ${to} has ${from.sequence - to + 1} blocks, over maxChainBlocks = ${LIMITS.maxChainBlocks}`, 'commit to a more recent block, or draw sooner after it')
    }
    this.#chain.adopt(from)
    return this.#chain.walk(from, to, options)
  }

  /**
   * The publication interval in ms: the configured one, else learned from the chain's timestamps
   * (walking back a few blocks from the head if needed, each fetched once and cached), else from
   * when heads were seen.
   */
  async intervalMs(options: CallOptions = {}): Promise<number> {
    if (this.#intervalHint !== undefined) return this.#intervalHint
    const head = this.#head.known ?? (await this.latest(options))
    let est = this.#estimate()
    if (est.spanSeconds >= RELIABLE_SPAN_SECONDS || head.block.sequence === 0) return est.ms
    // Walk back until the timestamps span RELIABLE_SPAN_SECONDS (timestamps are whole seconds: over 2 s
    // the estimate could be off by half, and a target planned with it came seconds early) or 64 blocks;
    // reaching genesis gives its configured interval, preferred over a short span it agrees with. Each
    // block is fetched once and cached; a beacon of one block a minute needs one.
    let cur = head.block
    for (let i = 0; i < 64 && cur.sequence > 0; i++) {
      cur = await this.bySequence(cur.sequence - 1, options)
      est = this.#estimate()
      if (est.spanSeconds >= RELIABLE_SPAN_SECONDS) break
    }
    return est.ms
  }

  /** The publication interval as known now, without requests: the configured one, else the current estimate. */
  currentIntervalMs(): number {
    return this.#intervalHint ?? this.#estimate().ms
  }

  /**
   * Waits until block `n` is published (see the {@link waitFor} function, which this calls with the
   * client's clock, `maxFailedPolls` and `maxRetryWaitMs`).
   * @throws {@link AbortedError}, {@link WaitTimeoutError}, {@link ForkError}, {@link AllGatewaysFailedError}.
   */
  waitFor(n: number, options: WaitOptions = {}): Promise<WaitResult> {
    return waitFor(this, n, { ...options, now: this.#now, maxFailedPolls: this.#maxFailedPolls, maxRetryWaitMs: this.#maxRetryWaitMs })
  }

  #estimate(): { ms: number; spanSeconds: number } {
    return estimateInterval(this.#chain.values(), this.#head.seen, this.#intervalHint)
  }
}

function positive(x: number, name: string): number {
  if (typeof x !== 'number' || !Number.isFinite(x) || x <= 0) throw new InvalidInputError('INVALID_OPTION', `${name} must be a positive number, got ${String(x)}`, `pass a positive ${name}`, { path: `$.${name}` })
  return x
}

function nonNegative(x: number, name: string): number {
  if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) throw new InvalidInputError('INVALID_OPTION', `${name} must be a non-negative number, got ${String(x)}`, `pass a non-negative ${name}`, { path: `$.${name}` })
  return x
}

function nonNegativeInt(x: number, name: string): number {
  if (!Number.isSafeInteger(x) || x < 0) throw new InvalidInputError('INVALID_OPTION', `${name} must be a non-negative integer, got ${String(x)}`, `pass a non-negative integer ${name}`, { path: `$.${name}` })
  return x
}
