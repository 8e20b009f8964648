/**
 * The blocks proven to be in the beacon's chain (reached from an accepted head by checked `previous`
 * links), by sequence: fork detection (two blocks for one sequence) and walking down the chain.
 *
 * @module
 */
import { parseCid, type BeaconBlock } from '../core/block.js'
import { linkProblem } from '../core/chain.js'
import { ChainBrokenError, ForkError, LegacyBlockError } from './errors.js'
import type { CachedSource } from './cache.js'
import type { SourceCallOptions } from './source.js'

/**
 * The chain as far as it is known. Blocks it holds are also in `blocks` (the cache); when the cache
 * evicts one, {@link ChainIndex.forget} drops it here too (the head excepted).
 */
export class ChainIndex {
  readonly #blocks: CachedSource
  readonly #chain = new Map<number, BeaconBlock>()

  constructor(blocks: CachedSource) {
    this.#blocks = blocks
  }

  /** The chain's block with this sequence, if known. */
  get(sequence: number): BeaconBlock | undefined {
    return this.#chain.get(sequence)
  }

  /** Every known block (in the order adopted). */
  values(): IterableIterator<BeaconBlock> {
    return this.#chain.values()
  }

  /** Throws {@link ForkError} when another block is known for `block`'s sequence. */
  checkFork(block: BeaconBlock): void {
    const existing = this.#chain.get(block.sequence)
    if (existing !== undefined && existing.cid !== block.cid) throw new ForkError(block.sequence, [existing.cid, block.cid])
  }

  /** Records a block as part of the chain (fork check by sequence) and caches it. */
  adopt(block: BeaconBlock): void {
    this.checkFork(block)
    this.#blocks.add(block)
    this.#chain.set(block.sequence, block)
  }

  /** Drops an evicted block, unless it is `keep` (the head). */
  forget(block: BeaconBlock, keep: BeaconBlock | undefined): void {
    if (this.#chain.get(block.sequence) === block && block !== keep) this.#chain.delete(block.sequence)
  }

  /** The known block closest above `n`, starting from `from` (a head). */
  nearestAbove(n: number, from: BeaconBlock): BeaconBlock {
    let start = from
    for (const [seq, b] of this.#chain) if (seq > n && seq < start.sequence) start = b
    return start
  }

  /**
   * Blocks from `from` down to sequence `to`, newest first, each `previous` link checked by hash;
   * known blocks are not fetched again, fetched ones are adopted.
   */
  async walk(from: BeaconBlock, to: number, options: SourceCallOptions = {}): Promise<BeaconBlock[]> {
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
          parent = await this.#blocks.block(cur.previous, options.signal ? { signal: options.signal } : {})
        } catch (err) {
          if (err instanceof LegacyBlockError && err.linkedFrom === undefined) throw new LegacyBlockError(err.cid, cur.sequence, { cause: err.cause })
          throw err
        }
        const problem = linkProblem(cur, parent)
        if (problem !== undefined) throw new ChainBrokenError(problem)
        this.adopt(parent)
      }
      out.push(parent)
      cur = parent
    }
    return out
  }
}

function canonical(cid: string): string {
  try {
    return parseCid(cid).toV1().toString()
  } catch {
    return cid
  }
}
