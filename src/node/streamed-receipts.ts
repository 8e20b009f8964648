/**
 * The types of streamed receipts of a participants file (`receipts-stream.ts` for a file of lines,
 * `weighted-receipts.ts` for a weighted CSV).
 *
 * @module
 */
import type { Receipt } from '../core/receipt.js'
import type { DrawKinds } from '../core/kinds/kind.js'

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
