/**
 * Node-only helpers (each needs a Node module: `worker_threads`, `fs`, `crypto`, `module`): participants
 * files of millions of lines read as a stream for a commit, a draw and receipts (memory O(count), never
 * the list) and proofs written as a stream (docs/large-lists.md); the participants' digest and tree on
 * two threads, look-alike entries (UTS #39 skeletons, kept out of the
 * core and the verifier page), the sortition CSV files (pool, quotas, lottery, `sortition-algorithms`
 * selections), and a fresh organizer secret.
 *
 * ```ts
 * import { readPoolCsv, readQuotasCsv, findConfusableEntries } from 'orbitdraw/node'
 * ```
 *
 * The `orbitdraw/node` entry: this file is the only list of its names (docs/architecture.md, "Public
 * surface").
 *
 * @module orbitdraw/node
 */
// The participants digest and tree on two threads (worker_threads): equal to participantsRoot / participantsTree.
export { participantsRootParallel, participantsTreeParallel, PARALLEL_MIN_ENTRIES, type ParallelHashOptions } from './parallel-hash.js'
// Look-alike entries (UTS #39 skeletons).
export { findConfusableEntries, skeleton, type ConfusableGroup } from '../confusables.js'
// Sortition input files (CSV).
export {
  parsePoolCsv,
  parseQuotasCsv,
  parseLotteryCsv,
  parseSortitionAlgorithmsCsv,
  readPoolCsv,
  readQuotasCsv,
  readLotteryCsv,
  readSortitionAlgorithmsCsv,
  parseHouseholdPoolCsv,
  readHouseholdPoolCsv,
  MAX_SORTITION_FILE_BYTES,
  MAX_SORTITION_ROW_BYTES,
  type SortitionAlgorithmsSelection,
} from '../sortition/csv.js'
// The fewest quota seats to change when no panel meets every quota (the HiGHS solver, loaded on first use).
export { smallestQuotaRelaxation, describeRelaxation, explainQuotaError, type QuotaRelaxation, type QuotaChange } from '../sortition/relax.js'
// A fresh organizer secret (node:crypto), for a private list.
export { generateSecret } from '../commit.js'
// Participants files read as a stream, and proofs written as one.
export { commitFile, type CommitFileOptions, type CommitFileResult } from './commit-file.js'
export { drawFile, type DrawFileOptions, type DrawnFile } from './draw-file.js'
export { streamDrawFile } from './draw-stream.js'
export type { StreamDrawOptions, StreamedDraw } from './streamed-draw.js'
export { streamWeightedCsv, type StreamedWeighted, type StreamWeightedOptions } from './weighted-stream.js'
export { NODE_INPUT_ERROR_CODES, type NodeInputErrorCode } from './errors.js'
export { MAX_CSV_ROW_BYTES, MAX_PARTICIPANTS_FILE_BYTES } from './file-errors.js'
export { streamParticipantsFile, type StreamedParticipants, type StreamParticipantsOptions } from './participants-stream.js'
export type { LinesVisitor } from './line-reader.js'
export { writeProofFile, type WriteProofFileOptions } from './proof-file.js'
export { PROOF_FIELD_ORDER, writeProof, isStreamedRanking, type ArrayItems, type ProofSink, type StreamedFullDisclosure, type StreamedProof, type StreamedRanking } from './proof-writer.js'
export { streamReceiptsFile, type StreamedReceipts, type StreamReceiptsOptions } from './receipts-stream.js'
