/**
 * The types of a streamed draw of a participants file (`draw-stream.ts` for a file of lines,
 * `weighted-draw.ts` for a weighted CSV), and the entries an outcome names (the winners both read again).
 *
 * @module
 */
import type { BeaconBlock } from '../core/block.js'
import type { Commitment } from '../core/commitment.js'
import type { DrandEvidence, PreparedDraw } from '../core/draw.js'
import type { AnyDrawKind, DrawKinds, OutcomeBase } from '../core/kinds/kind.js'
import type { OrganizerSecret } from '../core/secret.js'
import type { ProofSink, StreamedProof } from './proof-writer.js'

/**
 * Options of `streamDrawFile`.
 * @category Node
 */
export interface StreamDrawOptions {
  /**
   * A weighted list: the file is a CSV with a header row, and this column (a header name or a 1-based
   * number) holds the integer weights (as `orbitdraw commit --weight-column`). Omit for a file of lines.
   */
  weightColumn?: string
  /** With `weightColumn`: the column holding the entries (default: the first). */
  column?: string
  /**
   * `'winners'`: a winners-only proof (a salted list); `'full'`: every entry (and, for a salted list,
   * every salt). Default: `'winners'` with a `secret` (a private list stays private unless a full
   * disclosure is asked for by name), else `'full'`. A salted list of a kind without a winners-only
   * proof (`shuffle`, `weighted`) needs `'full'` said explicitly.
   */
  disclosure?: 'full' | 'winners'
  /** The organizer secret of a salted list. */
  secret?: OrganizerSecret
  /** The registry (default: the built-in kinds). */
  kinds?: DrawKinds
  /** Bytes read at a time (default 1 MiB; tests use tiny chunks). */
  chunkBytes?: number
  /** Progress of the first read (the hashing), as `streamParticipantsFile`'s `onProgress`. */
  onProgress?: (bytesRead: number, totalBytes: number) => void
  /** Stops the first read once aborted, as `streamParticipantsFile`'s `signal`. */
  signal?: AbortSignal
  /** Threads for the hashes (default 2). */
  threads?: 1 | 2
  /** @internal Smallest file hashed on two threads (default 1 MiB). */
  parallelFromBytes?: number
  /** @internal log2 of the block size of both passes (default 14; tests use small blocks). */
  blockLog?: number
  /** @internal false: the passes wait for the worker's blocks at the end instead of hashing them here too (tests). */
  steal?: boolean
  /** @internal Entry bytes gathered per window of a ranking written from the file (default 16 MiB; tests use tiny windows). */
  rankingWindowBytes?: number
}

/**
 * A participants file read for a draw (its first pass done): the checks before the block, the proof
 * from the block, and the writing of that proof with the file's list streamed into it.
 * @category Node
 */
export interface StreamedDraw {
  /** Number of entries. */
  readonly count: number
  /** Their digest (salted with the secret for a salted list). */
  readonly root: Uint8Array
  /** A floor of the entries' UTF-8 bytes (their UTF-16 length), for the proof's size checks. */
  readonly entryBytes: number
  /** How the proof discloses the list. */
  readonly disclosure: 'full' | 'winners'
  /** The checks made before waiting: `prepareDraw`'s, on the count and digest. */
  prepare(commitment: Commitment): PreparedDraw
  /**
   * The proof from the target block: every field but a full disclosure's `participants` (absent here,
   * written from the file by {@link StreamedDraw.write}); a winners-only proof is complete.
   */
  prove(prepared: PreparedDraw, block: BeaconBlock, drand?: DrandEvidence): Promise<StreamedProof>
  /**
   * Writes `proof` (from {@link StreamedDraw.prove}, its chain and time-stamps added as `draw` adds
   * them) to `sink` as `serializeProof` would write the in-memory draw's proof, reading the list again
   * for a full disclosure. A proof over `LIMITS.maxProofBytes` is refused before its first byte.
   * @throws `LimitExceededError` `LIMIT_EXCEEDED`; `MismatchError` `PARTICIPANTS_MISMATCH` when
   *   the file changed since the first pass (the sink then has an incomplete proof).
   */
  write(proof: StreamedProof, sink: ProofSink): Promise<void>
}


/** The list positions `outcome` names (its winners: at most the kind's limit), as the kind's proof JSON names them. */
export function namedEntries(kind: AnyDrawKind, outcome: OutcomeBase): Set<number> {
  const named = new Set<number>()
  kind.toJson(outcome, (i) => {
    named.add(i)
    return ''
  })
  return named
}
