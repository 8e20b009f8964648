/**
 * The participants digest of a list read as a stream, in aligned blocks of `2^blockLog` entries, in
 * order: each block goes to the hash pool's worker (`hash-pool.ts`) unless it already has
 * {@link MAX_IN_WORKER} blocks in hand, else it is hashed on the calling thread (so the split follows the
 * two threads' actual speeds: the calling thread also reads, decodes and checks the entries). Block roots
 * enter the compact range in list order (a block's root is the tree's node over it: RFC 9162 trees built
 * bottom-up have every aligned block as a subtree), and the last, partial block goes in leaf by leaf.
 * A worker that fails is replaced by the calling thread: the digest never depends on threads.
 *
 * @module
 */
import { MerkleWordsBuilder } from '../core/merkle.js'
import { leafWords } from '../core/participants.js'
import type { OrganizerSecret } from '../core/secret.js'
import { chunkRoots, type HashJob } from './hash-job.js'
import { HashPool } from './hash-pool.js'

/** @internal Blocks hashed by the worker thread, and blocks it handed back unhashed (read by tests). */
export const streamStats = { workerBlocks: 0, workerFailures: 0 }

/** Most blocks handed to the worker and not yet answered (bounds the memory held for it; replies are read between file reads). */
const MAX_IN_WORKER = 4

interface Block {
  readonly first: number
  lines: string[] | null
  /** A weighted list's weights of these lines, or null. */
  weights: number[] | null
  root: Int32Array | null
}

/** Options of {@link BlockHasher}. */
export interface BlockHasherOptions {
  /** Salts the leaves (a private list). */
  readonly secret: OrganizerSecret | null
  /** log2 of the block size in entries. */
  readonly blockLog: number
  /** Hand blocks to a worker thread. */
  readonly threads: boolean
  /** At the end, hash the blocks still queued for the worker here too (false: wait for it; tests). */
  readonly steal: boolean
  /** Keep the root of every block ({@link BlockHasher.roots}). */
  readonly keepRoots: boolean
}

/** @internal See the module comment. Always {@link BlockHasher.close} it. */
export class BlockHasher {
  readonly blockSize: number
  /** With `keepRoots`: the roots of the blocks taken into the tree so far, in list order (the last, partial one too once finished). */
  readonly roots: Int32Array[] | null
  readonly #builder = new MerkleWordsBuilder()
  readonly #secret: OrganizerSecret | null
  readonly #blockLog: number
  readonly #queue: Block[] = []
  readonly #pending: Promise<void>[] = []
  readonly #steal: boolean
  readonly #pool: HashPool | null
  #secretBytes: Uint8Array | null = null

  constructor(options: BlockHasherOptions) {
    this.roots = options.keepRoots ? [] : null
    this.#secret = options.secret
    this.#steal = options.steal
    this.#blockLog = options.blockLog
    this.blockSize = 2 ** options.blockLog
    this.#pool = options.threads ? HashPool.start() : null
  }

  /** Hands over the next block (exactly `blockSize` entries, starting at list position `first`; with their weights for a weighted list). */
  push(lines: string[], first: number, weights: number[] | null = null): void {
    const block: Block = { first, lines, weights, root: null }
    this.#queue.push(block)
    const pool = this.#pool
    if (pool !== null && pool.alive && pool.inHand < MAX_IN_WORKER) {
      this.#secretBytes ??= this.#secret === null ? null : this.#secret.exportBytes()
      const job: HashJob = { entries: lines.join('\n'), weights: weights === null ? null : Float64Array.from(weights), secret: this.#secretBytes === null ? null : this.#secretBytes.slice(), salts: null, firstIndex: first, chunk: this.blockSize }
      const settle = (roots: Int32Array | null): void => {
        const ok = roots !== null && roots.length === 8
        if (block.root === null) {
          // (Not already hashed here at the end, see finish.)
          if (ok) streamStats.workerBlocks++
          else streamStats.workerFailures++
          block.root = ok ? roots : this.#hashHere(block)
        }
      }
      this.#pending.push(pool.run<Int32Array>(job).then(settle, () => settle(null)))
    } else {
      block.root = this.#hashHere(block)
    }
    this.#drain()
  }

  /** The digest, once every block is in: `tail` holds the last entries (fewer than a block). */
  async finish(tail: string[], first: number, tailWeights: number[] | null = null): Promise<Uint8Array> {
    // This thread is done reading: rather than wait, it hashes the blocks still queued for the worker,
    // from the last one back, while the worker answers from the first (whichever hashes a block first wins).
    for (let k = this.#queue.length - 1; k >= 0 && this.#steal; k--) {
      const b = this.#queue[k]!
      if (b.root !== null) continue
      await new Promise((resolve) => setImmediate(resolve)) // take the worker's answers in between
      if (b.root === null) b.root = this.#hashHere(b)
    }
    await Promise.all(this.#pending)
    this.#drain()
    if (this.#queue.length > 0) throw new Error('block-hasher: a block was not hashed')
    if (tail.length > 0) {
      const words = leafWords(tail, tailWeights, this.#secret, first)
      this.#builder.addLeafWords(words, 0, tail.length)
      // The last, partial block is a node of the tree too.
      if (this.roots !== null) this.roots.push(chunkRoots(words, tail.length, this.blockSize))
    }
    return this.#builder.root()
  }

  close(): void {
    this.#secretBytes?.fill(0)
    this.#pool?.close()
  }

  #hashHere(block: Block): Int32Array {
    const lines = block.lines!
    return chunkRoots(leafWords(lines, block.weights, this.#secret, block.first), lines.length, this.blockSize)
  }

  #drain(): void {
    while (this.#queue.length > 0 && this.#queue[0]!.root !== null) {
      const b = this.#queue.shift()!
      this.#builder.addSubtreeWords(b.root!, 0, this.#blockLog)
      this.roots?.push(b.root!)
      b.lines = null
      b.weights = null
    }
  }
}

/** @internal A hash from the 8 big-endian words the tree code uses. */
export function hashOfWords(words: Int32Array): Uint8Array {
  const out = new Uint8Array(32)
  for (let k = 0; k < 8; k++) {
    const w = words[k]!
    out[4 * k] = w >>> 24
    out[4 * k + 1] = (w >>> 16) & 255
    out[4 * k + 2] = (w >>> 8) & 255
    out[4 * k + 3] = w & 255
  }
  return out
}
