/**
 * Receipts for Node: the core's `makeReceiptsAsync` with the salted list's tree built on two threads.
 *
 * @module
 */
import type { Commitment, CommitResult } from './core/commitment.js'
import type { WeightedEntry } from './core/participants.js'
import { makeReceiptsAsync as makeReceiptsWith, type MakeReceiptsOptions, type ReceiptBook } from './core/receipt.js'
import type { OrganizerSecret } from './core/secret.js'
import { participantsTreeParallel } from './node/parallel-hash.js'

/**
 * The receipts of a private (salted) list, as `makeReceipts` gives them (the same bytes, checks and
 * errors), with the tree built on two threads (`participantsTreeParallel`) for lists of
 * `PARALLEL_MIN_ENTRIES` entries or more. Use it in Node for large lists; the synchronous `makeReceipts`
 * builds the tree on the calling thread (and runs in browsers). A caller's own `participantsTree` wins.
 *
 * @example
 * ```ts
 * const result = commit({ ...options, participants, private: true })
 * const book = await makeReceiptsAsync(result, participants, result.secret!)
 * for (const r of book.receipts()) await send(r.entry, serializeReceipt(r))
 * ```
 * @throws (the promise rejects with) `makeReceipts`'s errors: `NOT_SALTED`, `INVALID_SECRET`, `PARTICIPANTS_MISMATCH`, the entry rules.
 * @category Draw
 */
export function makeReceiptsAsync(commitment: CommitResult | Commitment, participants: readonly string[] | readonly WeightedEntry[], secret: OrganizerSecret | Uint8Array, options: MakeReceiptsOptions = {}): Promise<ReceiptBook> {
  return makeReceiptsWith(commitment, participants, secret, { participantsTree: participantsTreeParallel, ...options })
}
