/**
 * A CID-keyed cache in front of a {@link BlockSource}: a verified block is fetched once, concurrent
 * requests for the same CID share one fetch, and the oldest entries are evicted past `size`.
 * Blocks are immutable (their CID is their hash), so a cached block is never stale.
 *
 * @module
 */
import { parseCid, type BeaconBlock } from '../core/block.js'
import { bytesToHex } from '../core/bytes.js'
import type { BlockSource, HeadAnswer, RecordAnswer, SourceCallOptions } from './source.js'

/** Options of {@link CachedSource}. */
export interface CacheOptions {
  /** Most blocks kept (at least 16). */
  readonly size: number
  /** Called with each block evicted. */
  readonly onEvict?: ((block: BeaconBlock) => void) | undefined
}

/** The cache key of a CID: its multihash (a CIDv0 and a CIDv1 of the same bytes share it). */
function keyOf(cid: string): string {
  return bytesToHex(parseCid(cid, '$.cid').multihash.bytes)
}

/**
 * Caches `block()`; `record()` and `unsignedHead()` (which change over time) pass through.
 *
 * @example
 * const cached = new CachedSource(source, { size: 10_000 })
 */
export class CachedSource implements BlockSource {
  readonly id: string
  readonly #inner: BlockSource
  readonly #size: number
  readonly #onEvict: CacheOptions['onEvict']
  /** Multihash hex → block, insertion-ordered for eviction. */
  readonly #blocks = new Map<string, BeaconBlock>()
  readonly #inflight = new Map<string, Promise<BeaconBlock>>()

  constructor(inner: BlockSource, options: CacheOptions) {
    this.#inner = inner
    this.id = inner.id
    this.#size = Math.max(16, options.size)
    this.#onEvict = options.onEvict
  }

  /** Blocks held. */
  get size(): number {
    return this.#blocks.size
  }

  /** The cached block with this CID, without any request. */
  peek(cid: string): BeaconBlock | undefined {
    return this.#blocks.get(keyOf(cid))
  }

  async block(cid: string, options: SourceCallOptions = {}): Promise<BeaconBlock> {
    const key = keyOf(cid)
    const hit = this.#blocks.get(key)
    if (hit !== undefined) return hit
    const pending = this.#inflight.get(key)
    if (pending !== undefined) return pending
    const run = (async () => {
      const got = await this.#inner.block(cid, options)
      this.add(got)
      return got
    })()
    this.#inflight.set(key, run)
    try {
      return await run
    } finally {
      this.#inflight.delete(key)
    }
  }

  record(name: string, options?: SourceCallOptions): Promise<RecordAnswer> {
    return this.#inner.record(name, options)
  }

  unsignedHead(name: string, options?: SourceCallOptions): Promise<HeadAnswer> {
    return this.#inner.unsignedHead(name, options)
  }

  /** Adds a block verified elsewhere (an unsigned head, a block a caller holds). */
  add(block: BeaconBlock): void {
    const key = keyOf(block.cid)
    if (this.#blocks.has(key)) return
    this.#blocks.set(key, block)
    while (this.#blocks.size > this.#size) {
      const oldest = this.#blocks.keys().next().value as string
      const evicted = this.#blocks.get(oldest)!
      this.#blocks.delete(oldest)
      this.#onEvict?.(evicted)
    }
  }
}
