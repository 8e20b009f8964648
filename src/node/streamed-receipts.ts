/**
 * The types of streamed receipts of a participants file (`receipts-stream.ts` for a file of lines,
 * `weighted-receipts.ts` for a weighted CSV), and what both do with the first pass and each block read
 * again: the checks against the commitment, and a block's receipts.
 *
 * @module
 */
import { bytesToHex } from '../core/bytes.js'
import type { ParticipantsCommitment } from '../core/commitment.js'
import { MerkleTree } from '../core/merkle.js'
import { checkReceiptCount, checkReceiptRoot, RECEIPT_TYPE, type Receipt, type ReceiptInputs } from '../core/receipt.js'
import type { DrawKinds } from '../core/kinds/kind.js'
import { fileChanged } from './file-errors.js'

/**
 * Options of `streamReceiptsFile`.
 * @category Node
 */
export interface StreamReceiptsOptions {
  /** The registry of draw kinds (default: the built-in kinds). */
  readonly kinds?: DrawKinds
  /**
   * A weighted list (a `weighted` draw): the file is a CSV with a header row, and this column (a header
   * name or a 1-based number) holds the integer weights, as `commitFile`'s `weightColumn` read it.
   */
  readonly weightColumn?: string
  /** With `weightColumn`: the column holding the entries (default: the first). */
  readonly column?: string
  /** Called after each chunk of the first pass: bytes read so far and the file's size. */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void
  /** Threads for the first pass's hashes (default 2). */
  readonly threads?: 1 | 2
  /** Stops the first pass once aborted, as `streamParticipantsFile`'s `signal`. */
  readonly signal?: AbortSignal
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
  /**
   * Entries `[from, to)`, read again from the file (a file of lines: one byte range; a weighted CSV: the
   * whole file, so prefer {@link StreamedReceipts.rescan} for them all).
   */
  entries(from: number, to: number): Promise<string[]>
  /**
   * Reads every entry again, in order, by batches (`first`: the list position of `entries[0]`; `visit`
   * may be async, the reading waits for it), e.g. to name the receipts' files before writing any.
   * @throws `MismatchError` `PARTICIPANTS_MISMATCH` when the file changed since the first pass.
   */
  rescan(visit: (entries: readonly string[], first: number) => void | Promise<void>): Promise<void>
}

/** What the first pass kept for receipts: the count and the root of every aligned block. */
interface BlockRoots {
  readonly count: number
  readonly blockRoots: readonly Uint8Array[]
}

/**
 * The first pass checked against the commitment, as `makeReceipts` checks a list (its count, then the
 * root of the tree over its block roots): that tree, which gives the upper part of every path.
 */
export function blockRootsTree(committed: ParticipantsCommitment, list: BlockRoots): MerkleTree {
  checkReceiptCount(committed, list.count)
  const upper = MerkleTree.fromLeafHashes(list.blockRoots)
  checkReceiptRoot(committed, upper.root(), list.count)
  return upper
}

/** One block read again: its number `b`, its first list position, its entries (and a weighted list's weights) and their tree. */
export interface BlockRead {
  readonly b: number
  readonly first: number
  readonly entries: readonly string[]
  readonly weights: readonly number[] | null
  readonly tree: MerkleTree
}

/**
 * The receipts of one block read again, in order: its tree's root must be the one the first pass found
 * for it (else `PARTICIPANTS_MISMATCH`: the file at `path` changed); each path is the path inside the
 * block, then the block's path in `upper` (the tree over the block roots).
 */
export function* blockReceipts(check: Omit<ReceiptInputs, 'participants'>, path: string, list: BlockRoots, upper: MerkleTree, block: BlockRead): Generator<Receipt, void, undefined> {
  const { c, cid, json, secret: key } = check
  const { b, first, entries, weights, tree } = block
  if (bytesToHex(tree.root()) !== bytesToHex(list.blockRoots[b]!)) throw fileChanged(path)
  const above = upper.inclusionProof(b)
  for (let k = 0; k < entries.length; k++) {
    const index = first + k
    const proofPath = [...tree.inclusionProof(k), ...above].map(bytesToHex)
    yield { type: RECEIPT_TYPE, version: c.version, commitmentCid: cid, commitment: json, index, entry: entries[k]!, ...(weights === null ? {} : { weight: weights[k]! }), salt: bytesToHex(key.saltOf(index)), path: proofPath }
  }
}
