/**
 * Head tracking: the beacon's latest block as the client accepts it. A head comes from a signed IPNS
 * record (or, when allowed, unsigned JSON); it never goes backwards (an older answer is stale and
 * another source is asked), never forks the known chain, and concurrent callers share one poll.
 *
 * @module
 */
import type { BeaconBlock } from '../core/block.js'
import type { VerifiedIpnsRecord } from '../core/ipns/record.js'
import { abortedError, throwIfAborted } from '../net/abort.js'
import { AllGatewaysFailedError, StaleResponseError, type GatewayFailure } from './errors.js'
import type { CachedSource } from './cache.js'
import type { ChainIndex } from './chain-index.js'
import type { FailoverSource } from './failover.js'
import type { SeenHead } from './interval.js'
import type { BlockSource, SourceCallOptions } from './source.js'

/**
 * The beacon's head as the client accepted it.
 * @category Beacon
 */
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

/** Options of {@link HeadTracker}. */
export interface HeadTrackerOptions {
  /** The beacon's IPNS name. */
  readonly name: string
  /** Fall back to unsigned `/ipns/<name>` JSON when no source serves a verifiable record. */
  readonly allowUnsigned: boolean
  /** Clock in ms. */
  readonly now: () => number
}

/** How many first sightings of heads are kept for the interval estimate. */
const SEEN_KEPT = 64

/**
 * Tracks the head over a {@link FailoverSource} (records and unsigned heads, one source at a time)
 * and a {@link CachedSource} (the blocks they name), recording accepted heads in a {@link ChainIndex}.
 */
export class HeadTracker {
  readonly #sources: FailoverSource
  readonly #blocks: CachedSource
  readonly #chain: ChainIndex
  readonly #o: HeadTrackerOptions
  #head: BeaconHead | undefined
  #highestRecordSeq = -1n
  /** (sequence, local time first seen) of accepted heads, for the observed interval. */
  readonly #seen: SeenHead[] = []
  /** The in-flight poll shared by concurrent callers. */
  #shared: { promise: Promise<BeaconHead>; controller: AbortController; waiters: number } | undefined

  constructor(sources: FailoverSource, blocks: CachedSource, chain: ChainIndex, options: HeadTrackerOptions) {
    this.#sources = sources
    this.#blocks = blocks
    this.#chain = chain
    this.#o = options
  }

  /** The latest head accepted so far. */
  get known(): BeaconHead | undefined {
    return this.#head
  }

  /** Highest IPNS record sequence seen (-1 before any signed head). */
  get highestRecordSequence(): bigint {
    return this.#highestRecordSeq
  }

  /** Heads in the order first seen, with when (at most 64). */
  get seen(): readonly SeenHead[] {
    return this.#seen
  }

  /**
   * Polls for the head. Concurrent callers share one in-flight poll, which is aborted only when
   * every caller waiting on it has aborted.
   */
  async latest(options: SourceCallOptions = {}): Promise<BeaconHead> {
    const signal = options.signal
    const ctx = { edge: 'beacon' as const, what: 'signed head' }
    throwIfAborted(signal, ctx)
    let shared = this.#shared
    if (shared === undefined) {
      const controller = new AbortController()
      const promise = this.#poll(controller.signal).finally(() => {
        if (this.#shared === entry) this.#shared = undefined
      })
      promise.catch(() => undefined)
      const entry = { promise, controller, waiters: 0 }
      this.#shared = shared = entry
    }
    const entry = shared
    entry.waiters++
    let onAbort: (() => void) | undefined
    try {
      if (signal === undefined) return await entry.promise
      return await new Promise<BeaconHead>((resolve, reject) => {
        onAbort = () => {
          reject(abortedError(ctx, signal.reason))
          if (entry.waiters === 1) {
            // The last caller gave up: cancel the requests; later callers start a fresh poll.
            if (this.#shared === entry) this.#shared = undefined
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

  async #poll(signal: AbortSignal): Promise<BeaconHead> {
    const failures: GatewayFailure[] = []
    const signed = await this.#sources.firstOf('signed head', signal, failures, (s) => this.#signedHeadFrom(s, signal))
    if (signed !== undefined) return signed.value
    if (this.#o.allowUnsigned) {
      const unsigned = await this.#sources.firstOf('unsigned head', signal, failures, (s) => this.#unsignedHeadFrom(s, signal), 0)
      if (unsigned !== undefined) return unsigned.value
    }
    // Only stale (or otherwise failing) answers: the known head is still the best knowledge, not news.
    if (this.#head !== undefined && failures.some((f) => f.error instanceof StaleResponseError)) return { ...this.#head, fresh: false, gateway: undefined }
    throw new AllGatewaysFailedError(this.#o.allowUnsigned ? 'head (signed or unsigned)' : 'signed head (IPNS record)', failures)
  }

  async #signedHeadFrom(source: BlockSource, signal: AbortSignal): Promise<BeaconHead> {
    const { bytes, info } = await source.record(this.#o.name, { signal })
    const known = this.#head
    if (info.sequence < this.#highestRecordSeq) {
      throw new StaleResponseError(source.id, `record sequence ${info.sequence} is older than ${this.#highestRecordSeq} already seen`)
    }
    if (known?.recordInfo !== undefined && info.sequence === known.recordInfo.sequence && info.valueCid === known.recordInfo.valueCid) {
      return { ...known, fresh: true, gateway: source.id }
    }
    const block = await this.#blocks.block(info.valueCid, { signal })
    return this.#accept(block, source.id, bytes, info)
  }

  async #unsignedHeadFrom(source: BlockSource, signal: AbortSignal): Promise<BeaconHead> {
    const { block } = await source.unsignedHead(this.#o.name, { signal })
    this.#blocks.add(block)
    return this.#accept(block, source.id, undefined, undefined)
  }

  /** Accepts a verified head unless it is older than what is known (stale) or forks the known chain. */
  #accept(block: BeaconBlock, gw: string, record: Uint8Array | undefined, info: VerifiedIpnsRecord | undefined): BeaconHead {
    const known = this.#head
    this.#chain.checkFork(block)
    if (known !== undefined && block.sequence < known.block.sequence) {
      throw new StaleResponseError(gw, `head block ${block.sequence} is older than block ${known.block.sequence} already seen`)
    }
    if (known !== undefined && block.sequence === known.block.sequence && known.authenticated && info === undefined) {
      return { ...known, fresh: true, gateway: gw }
    }
    const head: BeaconHead = { block, record, recordInfo: info, authenticated: info !== undefined, fresh: true, gateway: gw }
    if (info !== undefined && info.sequence > this.#highestRecordSeq) this.#highestRecordSeq = info.sequence
    if (known === undefined || block.sequence > known.block.sequence) this.#seen.push({ sequence: block.sequence, at: this.#o.now() })
    if (this.#seen.length > SEEN_KEPT) this.#seen.splice(0, this.#seen.length - SEEN_KEPT)
    this.#head = head
    this.#chain.adopt(block)
    return head
  }
}
