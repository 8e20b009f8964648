/**
 * Receipts of a private weighted list in a CSV (`streamReceiptsFile` with `weightColumn`), read as a
 * stream: the first pass (`weighted-stream.ts`) checks the file and keeps the weights and the root of
 * every aligned block of 2^14 entries; then the file is read again once, in order (a CSV row has no
 * byte offset to jump to), and each block, as it completes, is hashed as a whole tree (its root must be
 * the first pass's) and gives its entries' receipts (`{ entry, weight }`): the path inside the block,
 * then the block's path in the tree over the block roots. The reading waits while the receipts of the
 * block before are taken, so at most two blocks are held; the receipts are the bytes `makeReceipts`
 * gives for the list read whole.
 *
 * @module
 */
import { MerkleTree } from '../core/merkle.js'
import { leafWords } from '../core/participants.js'
import type { ReceiptInputs } from '../core/receipt.js'
import { definedFields } from './defined-fields.js'
import { fileChanged } from './file-errors.js'
import { blockReceipts, blockRootsTree, type StreamedReceipts, type StreamReceiptsOptions } from './streamed-receipts.js'
import { streamWeightedCsv } from './weighted-stream.js'

/** One block of rows read again: its first list position, its entries and weights. */
interface Rows {
  readonly first: number
  readonly entries: string[]
  readonly weights: number[]
}

/** Thrown into a rescan whose reader stopped (the receipts' loop left early). */
const STOPPED = Symbol('stopped')

/**
 * Hands the blocks of a rescan (a callback, the producer) to an async generator (the consumer), one at a
 * time: `put` resolves once the block is taken, so the reading is at most one block ahead.
 */
class Handoff<T> {
  #item: { readonly value: T; readonly taken: () => void; readonly fail: (e: unknown) => void } | null = null
  #end: { readonly error: unknown } | null = null
  #stopped = false
  #wake: (() => void) | null = null

  put(value: T): Promise<void> {
    if (this.#stopped) return Promise.reject(STOPPED)
    return new Promise<void>((taken, fail) => {
      this.#item = { value, taken, fail }
      this.#signal()
    })
  }

  /** No more blocks: `error` (a failed reading) or `undefined`. */
  end(error: unknown): void {
    this.#end = { error }
    this.#signal()
  }

  /** The next block, or null at the end. @throws the reading's error. */
  async take(): Promise<T | null> {
    while (this.#item === null && this.#end === null) await new Promise<void>((wake) => (this.#wake = wake))
    if (this.#item !== null) {
      const { value, taken } = this.#item
      this.#item = null
      taken()
      return value
    }
    if (this.#end!.error !== undefined) throw this.#end!.error
    return null
  }

  /** The consumer stopped: a waiting or later `put` rejects with {@link STOPPED}. */
  stop(): void {
    this.#stopped = true
    this.#item?.fail(STOPPED)
    this.#item = null
  }

  #signal(): void {
    const wake = this.#wake
    this.#wake = null
    wake?.()
  }
}

/** {@link StreamedReceipts} of a weighted CSV (see the module comment); the commitment already checked. */
export async function streamWeightedReceipts(check: Omit<ReceiptInputs, 'participants'>, path: string, weightColumn: string, options: StreamReceiptsOptions): Promise<StreamedReceipts> {
  const { cid, committed, secret: key } = check
  const list = await streamWeightedCsv(path, { weightColumn, secret: key, blockRoots: true, ...definedFields(options, ['column', 'threads', 'onProgress', 'chunkBytes', 'blockLog', 'signal']) })
  const upper = blockRootsTree(committed, list)
  const size = list.blockSize
  /** The file read again, in blocks of `size` rows, each given to `visit` (awaited). */
  const blocks = (visit: (rows: Rows) => Promise<void>): Promise<void> => {
    let rows: Rows = { first: 0, entries: [], weights: [] }
    return list.rescan(async (entries, weights, first) => {
      for (let k = 0; k < entries.length; k++) {
        rows.entries.push(entries[k]!)
        rows.weights.push(weights[k]!)
        if (rows.entries.length === size || first + k + 1 === list.count) {
          const full = rows
          rows = { first: first + k + 1, entries: [], weights: [] }
          await visit(full)
        }
      }
    })
  }
  return {
    cid,
    count: list.count,
    async entries(from, to) {
      const out: string[] = []
      await list.rescan((entries, _w, first) => {
        for (let k = Math.max(from, first); k < Math.min(to, first + entries.length); k++) out.push(entries[k - first]!)
      })
      return out
    },
    rescan: (visit) => list.rescan((entries, _w, first) => visit(entries, first)),
    async *receipts() {
      const handoff = new Handoff<Rows>()
      const reading = blocks((rows) => handoff.put(rows)).then(
        () => handoff.end(undefined),
        (error: unknown) => handoff.end(error),
      )
      try {
        for (let rows = await handoff.take(); rows !== null; rows = await handoff.take()) {
          const b = rows.first / size
          if (list.blockRoots[b] === undefined) throw fileChanged(path) // more rows than the first pass read
          let tree: MerkleTree
          try {
            tree = MerkleTree.fromLeafWords(leafWords(rows.entries, rows.weights, key, rows.first), rows.entries.length)
          } catch (cause) {
            throw fileChanged(path, cause)
          }
          yield* blockReceipts(check, path, list, upper, { ...rows, b, tree })
        }
      } finally {
        handoff.stop()
        await reading
      }
    },
  }
}
