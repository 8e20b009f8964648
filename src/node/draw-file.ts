/**
 * The network draw of a participants file of lines, streamed: the beacon edge's `draw` (wait for the
 * committed block, the chain from the signed head, the time-stamps) with the list never held
 * (`draw-stream.ts`), and the proof written to a sink or a file.
 *
 * @module
 */
import { drawWith, type NetworkDrawOptions } from '../beacon/draw.js'
import type { Commitment } from '../core/commitment.js'
import { OrganizerSecret } from '../core/secret.js'
import { streamDrawFile } from './draw-stream.js'
import type { ProofSink, StreamedProof } from './proof-writer.js'

/**
 * Options of {@link drawFile}: the network `draw`'s (beacon client, wait, time-stamps, drand), without
 * the hashing functions (the file is hashed as it is read), and the reader's own.
 * @category Node
 */
export interface DrawFileOptions extends Omit<NetworkDrawOptions, 'participantsDigest' | 'participantsTree'> {
  /** A weighted list: the CSV column of the weights (see `StreamDrawOptions.weightColumn`). */
  weightColumn?: string
  /** With `weightColumn`: the CSV column of the entries (default: the first). */
  column?: string
  /** Progress of the first read of the file (the hashing): bytes read so far and the file's size. */
  onHashProgress?: (bytesRead: number, totalBytes: number) => void
  /** Threads for the hashes, the calling one included (default 2). */
  threads?: 1 | 2
}

/**
 * A drawn file: its proof, all but a full disclosure's list, which {@link DrawnFile.write} streams.
 * @category Node
 */
export interface DrawnFile {
  /**
   * The proof without a full disclosure's `participants` (a winners-only proof is complete); the outcome
   * of a ranking of every entry (`shuffle`, `tiebreak`) is a `StreamedRanking` (its permutation, its first
   * rows on demand), written in full by {@link DrawnFile.write}.
   */
  readonly proof: StreamedProof
  /** How the proof discloses the list. */
  readonly disclosure: 'full' | 'winners'
  /**
   * Writes the whole proof, as `serializeProof` writes the in-memory `draw`'s, the list read again from
   * the file. Give it to `writeProofFile` for a file written all or nothing.
   */
  write(sink: ProofSink): Promise<void>
}

/**
 * The network `draw` of a participants file of lines, never holding the list: the file is read and
 * checked against the commitment before the wait (`prepareDraw`'s errors), the outcome and the winners
 * come from the committed block, and the proof is written from the file again. Every kind with a list
 * and no rule over the whole list: `pick`, `shuffle`, `tiebreak`, and `weighted` from a CSV (`weightColumn`);
 * the sortition kinds need the list (`draw`).
 *
 * @example
 * ```ts
 * import { drawFile, writeProofFile } from 'orbitdraw/node'
 *
 * const drawn = await drawFile(commitment, 'entrants.txt', { timestamps })
 * await writeProofFile('proof.json', (sink) => drawn.write(sink))
 * console.log(drawn.proof.outcome)
 * ```
 * @throws the streaming reader's errors (a bad file, by line); `prepareDraw`'s (`PARTICIPANTS_MISMATCH`,
 *   `INVALID_OPTION` for a kind that needs the list…) before any request; then the network `draw`'s.
 * @category Node
 */
export async function drawFile(commitment: Commitment, path: string, options: DrawFileOptions = {}): Promise<DrawnFile> {
  const { onHashProgress, threads, weightColumn, column, ...network } = options
  const list = await streamDrawFile(path, {
    ...(weightColumn === undefined ? {} : { weightColumn }),
    ...(column === undefined ? {} : { column }),
    ...(options.disclosure === undefined ? {} : { disclosure: options.disclosure }),
    ...(options.secret === undefined ? {} : { secret: OrganizerSecret.from(options.secret) }),
    ...(options.kinds === undefined ? {} : { kinds: options.kinds }),
    ...(onHashProgress === undefined ? {} : { onProgress: onHashProgress }),
    ...(threads === undefined ? {} : { threads }),
  })
  const proof = await drawWith(commitment, network, () => list.prepare(commitment), (prepared, block, drand) => list.prove(prepared, block, drand))
  return { proof, disclosure: list.disclosure, write: (sink) => list.write(proof, sink) }
}
