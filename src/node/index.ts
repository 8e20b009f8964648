/**
 * `orbitdraw/node`: the Node-only part of the library. Participants files of millions of lines read as
 * a stream for a commit, a draw and receipts (memory O(count), never the list), and proofs written as a
 * stream. This list is the only list of its names. (The two-thread digest and tree of a list in
 * memory, `participantsRootParallel` and `participantsTreeParallel`, are exported at the root for now.)
 *
 * @module orbitdraw/node
 */
export { commitFile, type CommitFileOptions, type CommitFileResult } from './commit-file.js'
export { drawFile, type DrawFileOptions, type DrawnFile } from './draw-file.js'
export { streamDrawFile, type StreamDrawOptions, type StreamedDraw } from './draw-stream.js'
export { NODE_INPUT_ERROR_CODES, type NodeInputErrorCode } from './errors.js'
export { MAX_PARTICIPANTS_FILE_BYTES } from './file-errors.js'
export { streamParticipantsFile, type StreamedParticipants, type StreamParticipantsOptions } from './participants-stream.js'
export type { LinesVisitor } from './line-reader.js'
export { writeProofFile, type WriteProofFileOptions } from './proof-file.js'
export { PROOF_FIELD_ORDER, writeProof, type ArrayItems, type ProofSink, type StreamedFullDisclosure } from './proof-writer.js'
export { streamReceiptsFile, type StreamedReceipts, type StreamReceiptsOptions } from './receipts-stream.js'
