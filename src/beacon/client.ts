/**
 * Trustless beacon client: reads the Orbitport beacon through any IPFS trustless gateways and trusts
 * none of them. Every block is checked against its CID, the head against the beacon's signed IPNS
 * record, and every `previous` link by hash; gateways fail over on error, timeout, 429 and bad bytes.
 *
 * @module
 */
import { blockCid, parseBlock, parseCid, type BeaconBlock } from '../core/block.js'
import { bytesToHex } from '../core/bytes.js'
import { linkProblem } from '../core/chain.js'
import { InvalidInputError, OrbitdrawError, ParseError } from '../core/errors.js'
import { LIMITS } from '../core/limits.js'
import { MAX_IPNS_RECORD_BYTES, parseIpnsName, verifyIpnsRecord, type VerifiedIpnsRecord } from '../core/ipns/index.js'
import {
  AbortedError,
  AllGatewaysFailedError,
  BadResponseError,
  ChainBrokenError,
  ForkError,
  GatewayHttpError,
  LegacyBlockError,
  NotYetPublishedError,
  RateLimitedError,
  StaleResponseError,
  WaitTimeoutError,
  type GatewayFailure,
} from './errors.js'
import { DEFAULT_MAX_REDIRECTS, normalizeOrigins, type RedirectPolicy } from '../net/redirect.js'
import { DEFAULT_GATEWAYS, gatewayGet, normalizeGateway, ORBITPORT_BEACON_NAME, sleep, type FetchLike, type GatewayAnswer } from './gateway.js'

/** Extra sleep past a gateway's Retry-After deadline, covering timer and clock drift (ms). */
const RETRY_AFTER_MARGIN_MS = 50

/** Options of {@link BeaconClient}. */
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
  onRequest?: (info: { gateway: string; path: string; kind: 'record' | 'block' | 'head-json' }) => void
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

/** The beacon's head as the client accepted it. */
export interface BeaconHead {
  /** The head block (bytes checked against its CID). */
  readonly block: BeaconBlock
  /** The marshalled IPNS record naming it, when signed. */
  readonly record: Uint8Array | undefined
  /** The verified record fields, when signed. */
  readonly recordInfo: VerifiedIpnsRecord | undefined
  /** True when the head comes from a record signed by the beacon's key. */
  readonly authenticated: boolean
  /** False when every gateway answered with something older than already seen (the known head is returned). */
  readonly fresh: boolean
  /** The gateway that served the record (or JSON), if this call fetched one. */
  readonly gateway: string | undefined
}

/** Common per-call options. */
export interface CallOptions {
  /** Cancels the call (rejects with {@link AbortedError}). */
  signal?: AbortSignal
}

/** Progress of {@link BeaconClient.waitFor}. */
export interface WaitProgress {
  /** Latest sequence seen. */
  readonly sequence: number
  /** The awaited sequence. */
  readonly target: number
  /** Blocks still to come (0 when reached). */
  readonly remaining: number
  /** The publication interval in use, in ms. */
  readonly intervalMs: number
  /** Estimated local time the target appears. */
  readonly estimatedTime: Date
  /** Whether the latest head was authenticated by a signed record. */
  readonly authenticated: boolean
}

/** Options of {@link BeaconClient.waitFor}. */
export interface WaitOptions extends CallOptions {
  /** Called after each poll. */
  onProgress?: (p: WaitProgress) => void
  /** Give up after this many ms with {@link WaitTimeoutError} (default: never). */
  timeoutMs?: number
}

/** Result of {@link BeaconClient.waitFor}. */
export interface WaitResult {
  /** The awaited block. */
  readonly block: BeaconBlock
  /** Blocks from the head down to the awaited one, newest first (`chain[0]` is the head, last is `block`). */
  readonly chain: readonly BeaconBlock[]
  /** The head the chain starts from (with its record when signed). */
  readonly head: BeaconHead
}

const RECORD_ACCEPT = 'application/vnd.ipfs.ipns-record'
const RAW_ACCEPT = 'application/vnd.ipld.raw'

/**
 * A client of the beacon over trustless gateways.
 *
 * @example
 * const client = new BeaconClient()                  // Orbitport beacon, public gateways
 * const head = await client.latest()                 // signed head, verified
 * const block = await client.bySequence(head.block.sequence - 3)
 */
export class BeaconClient {
  /** The beacon's canonical IPNS name. */
  readonly name: string
  /** The gateways, in their configured order. */
  readonly gateways: readonly string[]
  readonly #fetch: FetchLike
  readonly #timeoutMs: number
  readonly #allowUnsigned: boolean
  readonly #retries: number
  readonly #maxRetryWaitMs: number
  readonly #retryDelayMs: number
  readonly #intervalHint: number | undefined
  readonly #cacheSize: number
  readonly #maxFailedPolls: number
  readonly #onRequest: BeaconClientOptions['onRequest']
  readonly #now: () => number
  readonly #redirects: RedirectPolicy
  /** CID-keyed cache of verified blocks (multihash hex -> block), insertion-ordered for eviction. */
  readonly #blocks = new Map<string, BeaconBlock>()
  /** Blocks proven to be in the beacon's chain (reached from an accepted head), by sequence. */
  readonly #chain = new Map<number, BeaconBlock>()
  readonly #blockedUntil = new Map<string, number>()
  readonly #inflight = new Map<string, Promise<BeaconBlock>>()
  #preferred = 0
  #head: BeaconHead | undefined
  #highestRecordSeq = -1n
  /** (sequence, local time first seen) of accepted heads, for the observed interval. */
  readonly #seen: { sequence: number; at: number }[] = []
  #requests = 0
  /** The in-flight `latest()` poll shared by concurrent callers. */
  #latestShared: { promise: Promise<BeaconHead>; controller: AbortController; waiters: number } | undefined

  constructor(options: BeaconClientOptions = {}) {
    const gateways = options.gateways ?? DEFAULT_GATEWAYS
    if (!Array.isArray(gateways) || gateways.length === 0) {
      throw new InvalidInputError('INVALID_GATEWAYS', 'at least one gateway URL is needed', 'pass gateways: ["https://ipfs.io", ...]')
    }
    this.gateways = Object.freeze(
      gateways.map((g, i) => {
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
    this.#fetch = f
    this.#timeoutMs = positive(options.timeoutMs ?? LIMITS.gatewayTimeoutMs, 'timeoutMs')
    this.#allowUnsigned = options.allowUnsignedHead === true
    this.#retries = nonNegativeInt(options.retries ?? 1, 'retries')
    this.#maxRetryWaitMs = nonNegative(options.maxRetryWaitMs ?? 30_000, 'maxRetryWaitMs')
    this.#retryDelayMs = nonNegative(options.retryDelayMs ?? 250, 'retryDelayMs')
    this.#intervalHint = options.intervalMs === undefined ? undefined : positive(options.intervalMs, 'intervalMs')
    this.#cacheSize = Math.max(16, nonNegativeInt(options.cacheSize ?? 10_000, 'cacheSize'))
    this.#maxFailedPolls = nonNegativeInt(options.maxFailedPolls ?? 5, 'maxFailedPolls')
    this.#onRequest = options.onRequest
    this.#now = options.now ?? Date.now
    let allowedOrigins: readonly string[]
    try {
      allowedOrigins = normalizeOrigins(options.allowedRedirectOrigins)
    } catch (cause) {
      throw new InvalidInputError('INVALID_OPTION', 'allowedRedirectOrigins must list http(s) origins', 'pass origins such as ["https://cdn.example.org"]', { path: '$.allowedRedirectOrigins', cause })
    }
    this.#redirects = { allowedOrigins, maxRedirects: nonNegativeInt(options.maxRedirects ?? DEFAULT_MAX_REDIRECTS, 'maxRedirects') }
  }

  /** HTTP requests made so far by this client. */
  get requestCount(): number {
    return this.#requests
  }

  /** The latest head accepted so far, without any request. */
  get knownHead(): BeaconHead | undefined {
    return this.#head
  }

  /** Highest IPNS record sequence seen (-1 before any signed head). */
  get highestRecordSequence(): bigint {
    return this.#highestRecordSeq
  }

  /**
   * The beacon's latest block, authenticated by its signed IPNS record. Never goes backwards: an
   * answer older than what was already seen is stale (another gateway is asked, else the known head
   * is returned with `fresh: false`).
   * @throws {@link ForkError}, {@link AllGatewaysFailedError}, {@link AbortedError}.
   */
  async latest(options: CallOptions = {}): Promise<BeaconHead> {
    // Concurrent callers (many draws waiting on one client) share one in-flight poll. The shared
    // poll is aborted only when every caller waiting on it has aborted.
    const signal = options.signal
    if (signal?.aborted === true) throw new AbortedError('signed head', signal.reason)
    let shared = this.#latestShared
    if (shared === undefined) {
      const controller = new AbortController()
      const promise = this.#latestOnce(controller.signal).finally(() => {
        if (this.#latestShared === entry) this.#latestShared = undefined
      })
      promise.catch(() => undefined)
      const entry = { promise, controller, waiters: 0 }
      this.#latestShared = shared = entry
    }
    const entry = shared
    entry.waiters++
    let onAbort: (() => void) | undefined
    try {
      if (signal === undefined) return await entry.promise
      return await new Promise<BeaconHead>((resolve, reject) => {
        onAbort = () => {
          reject(new AbortedError('signed head', signal.reason))
          if (entry.waiters === 1) {
            // The last caller gave up: cancel the requests; later callers start a fresh poll.
            if (this.#latestShared === entry) this.#latestShared = undefined
            entry.controller.abort(signal.reason)
          }
        }
        signal.addEventListener('abort', onAbort, { once: true })
        entry.promise.then(resolve, reject)
      })
    } finally {
      entry.waiters--
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort)
    }
  }

  async #latestOnce(signal: AbortSignal): Promise<BeaconHead> {
    const failures: GatewayFailure[] = []
    const signed = await this.#rounds('signed head', signal, failures, (gw) => this.#signedHeadFrom(gw, signal))
    if (signed !== undefined) return signed
    if (this.#allowUnsigned) {
      const unsigned = await this.#rounds('unsigned head', signal, failures, (gw) => this.#unsignedHeadFrom(gw, signal), 0)
      if (unsigned !== undefined) return unsigned
    }
    // Only stale (or otherwise failing) answers: the known head is still the best knowledge, not news.
    if (this.#head !== undefined && failures.some((f) => f.error instanceof StaleResponseError)) return { ...this.#head, fresh: false, gateway: undefined }
    throw new AllGatewaysFailedError(this.#allowUnsigned ? 'head (signed or unsigned)' : 'signed head (IPNS record)', failures)
  }

  /**
   * A block by CID, verified against it (bytes hash to the CID). Cached: never fetched twice.
   * @throws {@link AllGatewaysFailedError} (no gateway served matching bytes), {@link AbortedError}.
   */
  async block(cid: string, options: CallOptions = {}): Promise<BeaconBlock> {
    const parsed = parseCid(cid, '$.cid')
    const key = bytesToHex(parsed.multihash.bytes)
    const hit = this.#blocks.get(key)
    if (hit !== undefined) return hit
    const pending = this.#inflight.get(key)
    if (pending !== undefined) return pending
    const run = (async () => {
      const failures: GatewayFailure[] = []
      const got = await this.#rounds(`block ${cid}`, options.signal, failures, async (gw) => {
        const ans = await this.#get(gw, `/ipfs/${parsed.toString()}?format=raw`, RAW_ACCEPT, `block ${cid}`, LIMITS.maxBlockBytes, 'block', options.signal)
        try {
          return parseBlock(ans.bytes, parsed)
        } catch (cause) {
          // The bytes hash to the CID: every gateway serves the same old-format block; do not fail over.
          if (cause instanceof ParseError && cause.code === 'LEGACY_BLOCK_FORMAT') throw new LegacyBlockError(parsed.toV1().toString(), undefined, { cause })
          throw new BadResponseError(gw, `block ${cid}`, cause instanceof OrbitdrawError ? cause.detail : String(cause), { cause })
        }
      })
      if (got === undefined) throw new AllGatewaysFailedError(`block ${cid}`, failures)
      this.#cache(got)
      return got
    })()
    this.#inflight.set(key, run)
    try {
      return await run
    } finally {
      this.#inflight.delete(key)
    }
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
    if (this.#head === undefined || this.#head.block.sequence < n) await this.latest(options)
    const head = this.#head!
    if (head.block.sequence < n) throw new NotYetPublishedError(n, head.block.sequence)
    let start = head.block
    for (const [seq, b] of this.#chain) if (seq > n && seq < start.sequence) start = b
    const walked = await this.#walk(start, n, options.signal)
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
    this.#adopt(from)
    return this.#walk(from, to, options.signal)
  }

  /**
   * The publication interval in ms: the configured one, else learned from the chain's timestamps
   * (walking back a few blocks from the head if needed, each fetched once and cached), else from
   * when heads were seen.
   */
  async intervalMs(options: CallOptions = {}): Promise<number> {
    if (this.#intervalHint !== undefined) return this.#intervalHint
    const head = this.#head ?? (await this.latest(options))
    let est = this.#estimateInterval()
    if (est.spanSeconds >= 2 || head.block.sequence === 0) return est.ms
    // Walk back until the timestamps span at least 2 s (timestamps are whole seconds) or 16 blocks;
    // reaching genesis gives its configured interval.
    let cur = head.block
    for (let i = 0; i < 16 && cur.sequence > 0; i++) {
      const lower = await this.bySequence(cur.sequence - 1, options)
      cur = lower
      est = this.#estimateInterval()
      if (est.spanSeconds >= 2) break
    }
    return est.ms
  }

  /**
   * Waits until block `n` is published, polling at a pace learned from the chain's timestamps and
   * the record TTL (about once per interval, a few re-polls when a block is late; never a busy loop).
   * Resolves with the verified block and the chain from the head down to it.
   * @throws {@link AbortedError}, {@link WaitTimeoutError}, {@link ForkError}, {@link AllGatewaysFailedError}.
   */
  async waitFor(n: number, options: WaitOptions = {}): Promise<WaitResult> {
    if (!Number.isSafeInteger(n) || n < 0) throw new InvalidInputError('INVALID_SEQUENCE', `sequence ${n} is not a non-negative integer`, 'pass a block sequence number')
    const started = this.#now()
    const deadline = options.timeoutMs === undefined ? Infinity : started + options.timeoutMs
    const signal = options.signal
    const call = signal ? { signal } : {}
    let interval: number | undefined
    let lastSeq = -1
    let lastChangeAt = this.#now()
    let failedPolls = 0
    for (;;) {
      if (signal?.aborted === true) throw new AbortedError(`waitFor(${n})`, signal.reason)
      let head: BeaconHead
      try {
        head = await this.latest(call)
        failedPolls = 0
      } catch (err) {
        // A poll that finds no gateway answering is retried at the next poll (a long wait should
        // survive a network blip); forks, aborts and repeated failures end the wait.
        if (!(err instanceof AllGatewaysFailedError) || ++failedPolls > this.#maxFailedPolls || this.#head === undefined) throw err
        if (interval === undefined) interval = await this.intervalMs(call).catch(() => undefined)
        // Exponential backoff from a quarter interval (1 s when the interval is not known).
        const base = interval === undefined ? 1000 : clamp(interval / 4, 100, 5000)
        const pause = Math.max(err.retryAfterMs ?? 0, Math.min(base * 2 ** (failedPolls - 1), Math.max(interval ?? 0, 30_000)))
        if (this.#now() + pause > deadline) throw err
        await sleep(pause, signal, `waitFor(${n})`)
        continue
      }
      if (head.block.sequence >= n) {
        const chain = await this.chainDown(head.block, n, call)
        options.onProgress?.({ sequence: head.block.sequence, target: n, remaining: 0, intervalMs: interval ?? this.#estimateInterval().ms, estimatedTime: new Date(this.#now()), authenticated: head.authenticated })
        return { block: chain[chain.length - 1]!, chain, head }
      }
      if (interval === undefined) interval = await this.intervalMs(call)
      const now = this.#now()
      if (head.block.sequence !== lastSeq) {
        // First sight: the head was published before we saw it; its timestamp (publisher clock,
        // whole seconds) says how long before, bounded by one interval against clock skew.
        const age = lastSeq === -1 ? clamp(now - head.block.timestamp * 1000, 0, interval) : 0
        lastSeq = head.block.sequence
        lastChangeAt = now - age
      }
      if (this.#intervalHint === undefined) interval = this.#estimateInterval().ms
      const remaining = n - head.block.sequence
      const eta = Math.max(now, lastChangeAt + remaining * interval)
      options.onProgress?.({ sequence: head.block.sequence, target: n, remaining, intervalMs: interval, estimatedTime: new Date(eta), authenticated: head.authenticated })
      if (now >= deadline) throw new WaitTimeoutError(n, head.block.sequence, options.timeoutMs!)
      // Next poll: when the next block is due (but at most one interval away so progress stays visible);
      // when it is late, re-poll at a quarter of min(interval, TTL). Never faster than 100 ms.
      const ttl = head.recordInfo?.ttlMs
      const repoll = clamp(Math.min(interval, ttl !== undefined && ttl > 0 ? ttl : interval) / 4, 100, interval)
      const due = lastChangeAt + interval - now
      let wait = due > 0 ? Math.min(due + Math.min(50, interval / 10), interval) : repoll
      wait = Math.max(100, Math.min(wait, deadline - now))
      await sleep(wait, signal, `waitFor(${n})`)
    }
  }

  // ------------------------------------------------------------------------------------------

  async #signedHeadFrom(gw: string, signal: AbortSignal | undefined): Promise<BeaconHead> {
    const what = `IPNS record of ${this.name}`
    const ans = await this.#get(gw, `/ipns/${this.name}?format=ipns-record`, RECORD_ACCEPT, what, MAX_IPNS_RECORD_BYTES, 'record', signal)
    let info: VerifiedIpnsRecord
    try {
      info = await verifyIpnsRecord(ans.bytes, this.name, { now: new Date(this.#now()) })
    } catch (cause) {
      const ct = ans.headers.get('content-type') ?? ''
      const why = ct !== '' && !ct.includes('ipns-record') ? `not an IPNS record (content-type ${ct}); the gateway may not support ?format=ipns-record` : cause instanceof OrbitdrawError ? cause.detail : String(cause)
      throw new BadResponseError(gw, 'IPNS record', why, { cause })
    }
    if (info.valueCid === undefined) throw new BadResponseError(gw, 'IPNS record', `its value ${info.value} is not an /ipfs/<cid> path`)
    const known = this.#head
    if (info.sequence < this.#highestRecordSeq) {
      throw new StaleResponseError(gw, `record sequence ${info.sequence} is older than ${this.#highestRecordSeq} already seen`)
    }
    if (known?.recordInfo !== undefined && info.sequence === known.recordInfo.sequence && info.valueCid === known.recordInfo.valueCid) {
      return { ...known, fresh: true, gateway: gw }
    }
    const block = await this.block(info.valueCid, signal ? { signal } : {})
    return this.#accept(block, gw, ans.bytes, info)
  }

  async #unsignedHeadFrom(gw: string, signal: AbortSignal | undefined): Promise<BeaconHead> {
    const what = `unsigned head of ${this.name}`
    const ans = await this.#get(gw, `/ipns/${this.name}`, 'application/json', what, LIMITS.maxBlockBytes, 'head-json', signal)
    const cid = blockCid(ans.bytes)
    let block: BeaconBlock
    try {
      block = parseBlock(ans.bytes, cid)
      const roots = ans.headers.get('x-ipfs-roots')
      const claimed = roots?.split(',').pop()?.trim()
      if (claimed !== undefined && claimed !== '' && bytesToHex(parseCid(claimed).multihash.bytes) !== bytesToHex(parseCid(cid).multihash.bytes)) {
        throw new BadResponseError(gw, 'head JSON', `its bytes hash to ${cid} but X-Ipfs-Roots says ${claimed}`)
      }
    } catch (cause) {
      if (cause instanceof BadResponseError) throw cause
      throw new BadResponseError(gw, 'head JSON', cause instanceof OrbitdrawError ? cause.detail : String(cause), { cause })
    }
    this.#cache(block)
    return this.#accept(block, gw, undefined, undefined)
  }

  /** Accepts a verified head unless it is older than what is known (stale) or forks the known chain. */
  #accept(block: BeaconBlock, gw: string, record: Uint8Array | undefined, info: VerifiedIpnsRecord | undefined): BeaconHead {
    const known = this.#head
    const sameSeq = this.#chain.get(block.sequence)
    if (sameSeq !== undefined && sameSeq.cid !== block.cid) throw new ForkError(block.sequence, [sameSeq.cid, block.cid])
    if (known !== undefined && block.sequence < known.block.sequence) {
      throw new StaleResponseError(gw, `head block ${block.sequence} is older than block ${known.block.sequence} already seen`)
    }
    if (known !== undefined && block.sequence === known.block.sequence && known.authenticated && info === undefined) {
      return { ...known, fresh: true, gateway: gw }
    }
    const head: BeaconHead = { block, record, recordInfo: info, authenticated: info !== undefined, fresh: true, gateway: gw }
    if (info !== undefined && info.sequence > this.#highestRecordSeq) this.#highestRecordSeq = info.sequence
    if (known === undefined || block.sequence > known.block.sequence) this.#seen.push({ sequence: block.sequence, at: this.#now() })
    if (this.#seen.length > 64) this.#seen.splice(0, this.#seen.length - 64)
    this.#head = head
    this.#adopt(block)
    return head
  }

  /** Records a block as part of the chain (fork check by sequence). */
  #adopt(block: BeaconBlock): void {
    const existing = this.#chain.get(block.sequence)
    if (existing !== undefined && existing.cid !== block.cid) throw new ForkError(block.sequence, [existing.cid, block.cid])
    this.#cache(block)
    this.#chain.set(block.sequence, block)
  }

  async #walk(from: BeaconBlock, to: number, signal: AbortSignal | undefined): Promise<BeaconBlock[]> {
    const out: BeaconBlock[] = [from]
    let cur = from
    while (cur.sequence > to) {
      if (cur.previous === null) throw new ChainBrokenError(`block ${cur.sequence} has no previous link but is not the genesis block`)
      const known = this.#chain.get(cur.sequence - 1)
      let parent: BeaconBlock
      if (known !== undefined) {
        if (linkProblem(cur, known) !== undefined) throw new ForkError(cur.sequence - 1, [known.cid, canonical(cur.previous)])
        parent = known
      } else {
        try {
          parent = await this.block(cur.previous, signal ? { signal } : {})
        } catch (err) {
          if (err instanceof LegacyBlockError && err.linkedFrom === undefined) throw new LegacyBlockError(err.cid, cur.sequence, { cause: err.cause })
          throw err
        }
        const problem = linkProblem(cur, parent)
        if (problem !== undefined) throw new ChainBrokenError(problem)
        this.#adopt(parent)
      }
      out.push(parent)
      cur = parent
    }
    return out
  }

  /** Interval from the widest span of chain timestamps known, else from heads seen, else the hint/default. */
  #estimateInterval(): { ms: number; spanSeconds: number } {
    let lo: BeaconBlock | undefined
    let hi: BeaconBlock | undefined
    for (const b of this.#chain.values()) {
      if (b.sequence === 0) continue // genesis may predate the first block by any time
      if (lo === undefined || b.sequence < lo.sequence) lo = b
      if (hi === undefined || b.sequence > hi.sequence) hi = b
    }
    const spanSeconds = lo !== undefined && hi !== undefined ? hi.timestamp - lo.timestamp : 0
    if (lo !== undefined && hi !== undefined && hi.sequence > lo.sequence && spanSeconds >= 2) {
      return { ms: Math.max(100, (spanSeconds * 1000) / (hi.sequence - lo.sequence)), spanSeconds }
    }
    const first = this.#seen[0]
    const last = this.#seen[this.#seen.length - 1]
    if (first !== undefined && last !== undefined && last.sequence > first.sequence && last.at > first.at) {
      return { ms: Math.max(100, (last.at - first.at) / (last.sequence - first.sequence)), spanSeconds }
    }
    // The genesis block's configured interval (Go time.Duration, nanoseconds), when it is known.
    const genesis = this.#chain.get(0)
    const configured = genesis === undefined ? undefined : genesisIntervalMs(genesis)
    if (configured !== undefined) return { ms: configured, spanSeconds }
    if (lo !== undefined && hi !== undefined && hi.sequence > lo.sequence) {
      // Whole-second timestamps over a short span: an upper bound, halved.
      return { ms: Math.max(100, ((spanSeconds + 1) * 1000) / (hi.sequence - lo.sequence) / 2), spanSeconds }
    }
    return { ms: this.#intervalHint ?? 60_000, spanSeconds }
  }

  #cache(block: BeaconBlock): void {
    const key = bytesToHex(parseCid(block.cid).multihash.bytes)
    if (this.#blocks.has(key)) return
    this.#blocks.set(key, block)
    while (this.#blocks.size > this.#cacheSize) {
      const oldest = this.#blocks.keys().next().value as string
      const evicted = this.#blocks.get(oldest)!
      this.#blocks.delete(oldest)
      if (this.#chain.get(evicted.sequence) === evicted && evicted !== this.#head?.block) this.#chain.delete(evicted.sequence)
    }
  }

  /** Runs `op` on each usable gateway (preferred first) until one succeeds; up to `rounds` extra rounds. */
  async #rounds<T>(what: string, signal: AbortSignal | undefined, failures: GatewayFailure[], op: (gw: string) => Promise<T>, retries = this.#retries): Promise<T | undefined> {
    for (let round = 0; round <= retries; round++) {
      if (round > 0) {
        // Wait for the earliest rate-limited gateway (if within maxRetryWaitMs) or a short backoff.
        const now = this.#now()
        const unblocks = this.gateways.map((g) => (this.#blockedUntil.get(g) ?? 0) - now)
        const soonest = Math.min(...unblocks)
        // Sleep a little past a Retry-After deadline: a timer may fire before the clock reaches it,
        // and the gateway must not still look blocked when the round starts.
        const wait = Math.max(this.#retryDelayMs * round, soonest > 0 ? soonest + RETRY_AFTER_MARGIN_MS : 0)
        if (wait > this.#maxRetryWaitMs) break
        const roundFailures = failures.slice(-this.gateways.length)
        if (roundFailures.length > 0 && roundFailures.every((f) => f.error instanceof StaleResponseError)) break
        await sleep(wait, signal, what)
      }
      const order = this.gateways.map((_, i) => this.gateways[(this.#preferred + i) % this.gateways.length]!)
      for (const gw of order) {
        if (signal?.aborted === true) throw new AbortedError(what, signal.reason)
        const blocked = this.#blockedUntil.get(gw) ?? 0
        if (blocked > this.#now()) {
          failures.push({ gateway: gw, error: new RateLimitedError(gw, blocked - this.#now(), what) })
          continue
        }
        try {
          const result = await op(gw)
          this.#preferred = this.gateways.indexOf(gw)
          return result
        } catch (err) {
          if (err instanceof AbortedError || err instanceof ForkError || err instanceof ChainBrokenError || err instanceof LegacyBlockError) throw err
          if (err instanceof AllGatewaysFailedError) {
            failures.push(...err.failures)
            continue
          }
          const e = err instanceof OrbitdrawError ? err : new BadResponseError(gw, what, String(err), { cause: err })
          if (e instanceof RateLimitedError) this.#blockedUntil.set(gw, this.#now() + e.retryAfterMs)
          failures.push({ gateway: gw, error: e })
        }
      }
    }
    return undefined
  }

  async #get(gw: string, path: string, accept: string, what: string, maxBytes: number, kind: 'record' | 'block' | 'head-json', signal: AbortSignal | undefined): Promise<GatewayAnswer> {
    this.#requests++
    this.#onRequest?.({ gateway: gw, path, kind })
    const ans = await gatewayGet({ fetch: this.#fetch, gateway: gw, path, accept, what, timeoutMs: this.#timeoutMs, maxBytes, signal, now: this.#now, redirects: this.#redirects })
    if (ans.bytes.length === 0) throw new GatewayHttpError(gw, ans.status, `${what} (empty body)`)
    return ans
  }
}

/** Shortest and longest genesis `metadata.interval` taken as plausible (100 ms, 1 day), in ns. */
const MIN_INTERVAL_NS = 100_000_000
const MAX_INTERVAL_NS = 86_400_000_000_000

/**
 * The publication interval a genesis block's `metadata.interval` states, in ms. The publisher writes
 * a Go `time.Duration`: integer **nanoseconds** (60 s = 60000000000). `undefined` when the block has
 * no such field, or a value that is not an integer between 100 ms and 1 day (a value in seconds or
 * ms, as some tools write, is thus ignored rather than misread). Chain timestamps, when they span
 * enough blocks, are preferred over it: the configured interval and the real pace differ.
 *
 * @example genesisIntervalMs(genesis) // 60000 for {"metadata":{"interval":60000000000}}
 */
export function genesisIntervalMs(block: Pick<BeaconBlock, 'sequence' | 'metadata'>): number | undefined {
  if (block.sequence !== 0) return undefined
  const v = block.metadata?.interval
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < MIN_INTERVAL_NS || v > MAX_INTERVAL_NS) return undefined
  return v / 1_000_000
}

function canonical(cid: string): string {
  try {
    return parseCid(cid).toV1().toString()
  } catch {
    return cid
  }
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(Math.max(x, lo), Math.max(lo, hi))
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
