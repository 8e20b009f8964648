/**
 * Receipts of a private list in a file of lines (a weighted CSV: `weighted-receipts.ts`), read as a stream: the first pass (`participants-stream.ts`)
 * checks the file and keeps the root of every aligned block of 2^14 entries; then each block is read again
 * (one byte range), hashed as a whole tree (its root must be the first pass's), and gives its entries'
 * receipts: the path inside the block, then the block's path in the tree over the block roots. Memory
 * O(count) for the first pass (12 bytes an entry) and one block at a time after it; the receipts are the
 * bytes `makeReceipts` gives for the list read whole.
 *
 * @module
 */
import type { Commitment, CommitResult } from '../core/commitment.js'
import { InvalidInputError } from '../core/errors.js'
import { MerkleTree } from '../core/merkle.js'
import { leafWords } from '../core/participants.js'
import { checkReceiptCommitment } from '../core/receipt.js'
import type { OrganizerSecret } from '../core/secret.js'
import { definedFields } from './defined-fields.js'
import { fileChanged } from './file-errors.js'
import { streamParticipantsFile } from './participants-stream.js'
import { blockReceipts, blockRootsTree, type StreamedReceipts, type StreamReceiptsOptions } from './streamed-receipts.js'
import { streamWeightedReceipts } from './weighted-receipts.js'

export type { StreamedReceipts, StreamReceiptsOptions } from './streamed-receipts.js'

/**
 * Checks a file of lines against a private (salted) commitment, as `makeReceipts` checks a list (the same
 * errors, and the file's own: its line), and gives the receipts as a stream. A weighted draw reads a
 * CSV's weight column (`weightColumn`, and `column` for the entries), as `commitFile` does: its receipts
 * carry each entry's weight. Memory: the first pass's (12 bytes an entry for a file of lines; 16 for a
 * weighted CSV, whose weights stay), then one block of 16,384 entries at a time (two for a CSV).
 *
 * @example
 * ```ts
 * import { streamReceiptsFile } from 'orbitdraw/node'
 * import { serializeReceipt } from 'orbitdraw'
 *
 * const book = await streamReceiptsFile(commitment, 'entrants.txt', secret)
 * for await (const r of book.receipts()) await send(r.entry, serializeReceipt(r))
 *
 * // A weighted draw's list: a CSV with its weight column.
 * const tickets = await streamReceiptsFile(commitment, 'tickets.csv', secret, { column: 'name', weightColumn: 'tickets' })
 * for await (const r of tickets.receipts()) await send(r.entry, serializeReceipt(r)) // r.weight: its tickets
 * ```
 * @throws `InvalidInputError` `NOT_SALTED`, `INVALID_SECRET`, `INVALID_PARTICIPANTS` (a weighted
 *   draw without `weightColumn`: a file of lines has no weights; `weightColumn` for a draw of plain
 *   entries); the streaming readers' errors (a bad file: its line or row);
 *   `MismatchError` `PARTICIPANTS_MISMATCH` when the file or the secret is not the committed one.
 * @category Node
 */
export async function streamReceiptsFile(commitment: CommitResult | Commitment, path: string, secret: OrganizerSecret | Uint8Array, options: StreamReceiptsOptions = {}): Promise<StreamedReceipts> {
  const check = checkReceiptCommitment(commitment, secret, options.kinds)
  const { c, cid, kinds, committed, secret: key } = check
  const kind = kinds.get(c.draw.kind)
  if (kind?.participants === 'weighted') {
    if (options.weightColumn === undefined) throw new InvalidInputError('INVALID_PARTICIPANTS', 'a weighted draw needs entries of the form { entry, weight }, and a file of lines has no weights', 'give the weight column of a CSV (weightColumn), or read the list with its weights and pass it to makeReceipts', { path: '$.participants' })
    return streamWeightedReceipts(check, path, options.weightColumn, options)
  }
  if (options.weightColumn !== undefined) throw new InvalidInputError('INVALID_PARTICIPANTS', `a ${c.draw.kind} draw takes plain entries, not weights`, 'drop weightColumn', { path: '$.participants' })
  const list = await streamParticipantsFile(path, { secret: key, blockRoots: true, ...definedFields(options, ['threads', 'onProgress', 'chunkBytes', 'blockLog', 'signal']) })
  const upper = blockRootsTree(committed, list)
  const size = list.blockSize
  /** The lines of the block starting at `first`, read again; a file that changed since is `PARTICIPANTS_MISMATCH`. */
  const block = async (first: number): Promise<string[]> => {
    try {
      return await list.range(first, Math.min(list.count, first + size))
    } catch (cause) {
      throw fileChanged(path, cause)
    }
  }
  return {
    cid,
    count: list.count,
    entries: (from, to) => list.range(from, to),
    async rescan(visit) {
      for (let from = 0; from < list.count; from += size) await visit(await block(from), from)
    },
    async *receipts() {
      for (let b = 0; b * size < list.count; b++) {
        const first = b * size
        const lines = await block(first)
        const tree = MerkleTree.fromLeafWords(leafWords(lines, null, key, first), lines.length)
        yield* blockReceipts(check, path, list, upper, { b, first, entries: lines, weights: null, tree })
      }
    },
  }
}
