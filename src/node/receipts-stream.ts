/**
 * Receipts of a private list in a file of lines, read as a stream: the first pass (`participants-stream.ts`)
 * checks the file and keeps the root of every aligned block of 2^14 entries; then each block is read again
 * (one byte range), hashed as a whole tree (its root must be the first pass's), and gives its entries'
 * receipts: the path inside the block, then the block's path in the tree over the block roots. Memory
 * O(count) for the first pass (12 bytes an entry) and one block at a time after it; the receipts are the
 * bytes `makeReceipts` gives for the list read whole.
 *
 * @module
 */
import { bytesToHex } from '../core/bytes.js'
import type { Commitment, CommitResult } from '../core/commitment.js'
import { InvalidInputError } from '../core/errors.js'
import type { DrawKinds } from '../core/kinds/kind.js'
import { MerkleTree } from '../core/merkle.js'
import { leafWords } from '../core/participants.js'
import { checkReceiptCommitment, checkReceiptCount, checkReceiptRoot, RECEIPT_TYPE, type Receipt } from '../core/receipt.js'
import type { OrganizerSecret } from '../core/secret.js'
import { fileChanged } from './file-errors.js'
import { streamParticipantsFile } from './participants-stream.js'

/**
 * Options of {@link streamReceiptsFile}.
 * @category Node
 */
export interface StreamReceiptsOptions {
  /** The registry of draw kinds (default: the built-in kinds). */
  readonly kinds?: DrawKinds
  /** Called after each chunk of the first pass: bytes read so far and the file's size. */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void
  /** Threads for the first pass's hashes (default 2). */
  readonly threads?: 1 | 2
  /** @internal Bytes read at a time (default 1 MiB). */
  readonly chunkBytes?: number
  /** @internal log2 of the block size (default 14; tests use small blocks). */
  readonly blockLog?: number
}

/**
 * The receipts of a private list read from a file (the first pass done, the list checked against the
 * commitment): {@link StreamedReceipts.receipts} gives them in committed order, one block of the file at
 * a time.
 * @category Node
 */
export interface StreamedReceipts {
  /** The commitment's CID. */
  readonly cid: string
  /** Number of participants (= receipts). */
  readonly count: number
  /** Every receipt, in committed order. @throws `PARTICIPANTS_MISMATCH` when the file changed since the first pass. */
  receipts(): AsyncGenerator<Receipt, void, undefined>
  /** Entries `[from, to)`, read again from the file (e.g. to name the receipts' files before writing any). */
  entries(from: number, to: number): Promise<string[]>
}

/**
 * Checks a file of lines against a private (salted) commitment, as `makeReceipts` checks a list (the same
 * errors, and the file's own: its line), and gives the receipts as a stream.
 *
 * @example
 * ```ts
 * import { streamReceiptsFile } from 'orbitdraw/node'
 * import { serializeReceipt } from 'orbitdraw'
 *
 * const book = await streamReceiptsFile(commitment, 'entrants.txt', secret)
 * for await (const r of book.receipts()) await send(r.entry, serializeReceipt(r))
 * ```
 * @throws `InvalidInputError` `NOT_SALTED`, `INVALID_SECRET`, `INVALID_PARTICIPANTS` (a weighted
 *   draw: a file of lines has no weights); the streaming reader's errors (a bad file: its line);
 *   `MismatchError` `PARTICIPANTS_MISMATCH` when the file or the secret is not the committed one.
 * @category Node
 */
export async function streamReceiptsFile(commitment: CommitResult | Commitment, path: string, secret: OrganizerSecret | Uint8Array, options: StreamReceiptsOptions = {}): Promise<StreamedReceipts> {
  const { c, cid, json, kinds, committed, secret: key } = checkReceiptCommitment(commitment, secret, options.kinds)
  if (kinds.get(c.draw.kind)?.participants === 'weighted') {
    throw new InvalidInputError('INVALID_PARTICIPANTS', 'a weighted draw needs entries of the form { entry, weight }, and a file of lines has no weights', 'read the list with its weights and pass it to makeReceipts', { path: '$.participants' })
  }
  const list = await streamParticipantsFile(path, {
    secret: key,
    blockRoots: true,
    ...(options.threads === undefined ? {} : { threads: options.threads }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes }),
    ...(options.blockLog === undefined ? {} : { blockLog: options.blockLog }),
  })
  checkReceiptCount(committed, list.count)
  const upper = MerkleTree.fromLeafHashes(list.blockRoots)
  checkReceiptRoot(committed, upper.root(), list.count)
  const size = list.blockSize
  return {
    cid,
    count: list.count,
    entries: (from, to) => list.range(from, to),
    async *receipts() {
      for (let b = 0; b * size < list.count; b++) {
        const first = b * size
        let lines: string[]
        try {
          lines = await list.range(first, Math.min(list.count, first + size))
        } catch (cause) {
          throw fileChanged(path, cause)
        }
        const tree = MerkleTree.fromLeafWords(leafWords(lines, null, key, first), lines.length)
        if (bytesToHex(tree.root()) !== bytesToHex(list.blockRoots[b]!)) throw fileChanged(path)
        const above = upper.inclusionProof(b)
        for (let k = 0; k < lines.length; k++) {
          const index = first + k
          const path = [...tree.inclusionProof(k), ...above].map(bytesToHex)
          yield { type: RECEIPT_TYPE, version: c.version, commitmentCid: cid, commitment: json, index, entry: lines[k]!, salt: bytesToHex(key.saltOf(index)), path }
        }
      }
    },
  }
}
