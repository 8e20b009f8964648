/**
 * The wire formats and their encodings, as docs/spec.md defines them: versions and limits, the
 * documents' parts, encoders and declared shapes (from which the published JSON Schemas are generated),
 * the participants' leaves and Merkle tree, the organizer's secret and leaf salts, the check names, and
 * the byte and JSON helpers a reader of the formats needs. Pure and browser-safe.
 *
 * ```ts
 * import { commitmentCid, participantsRoot, verifyInclusion, LIMITS } from 'orbitdraw/formats'
 * ```
 *
 * The `orbitdraw/formats` entry: this file is the only list of its names (docs/architecture.md, "Public
 * surface"). The documents' parsers a user starts from (`parseProof`, `parseCommitment`, ...) are in
 * `orbitdraw/core`.
 *
 * @module orbitdraw/formats
 */
// Versions, document types and resource limits.
/** @category Formats */
export { PROTOCOL_VERSION, SUPPORTED_VERSIONS, PROOF_TYPE } from './version.js'
/** @category Formats */
export { LIMITS } from './limits.js'
/** @category Formats */
export { COMMITMENT_FILE_TYPE, type CommitmentFileJson } from './commitment-file.js'
/** @category Formats */
export { RECEIPT_TYPE } from './receipt.js'
// The commitment: canonical bytes, CID, a one-line description, its parts.
/** @category Formats */
export { encodeCommitment, commitmentCid, describeCommitment, validateBeaconName, type BlockRef, type ParticipantsCommitment } from './commitment.js'
// The proof's parts.
/** @category Formats */
export {
  parseTimestamps,
  type ParticipantsDisclosure,
  type FullDisclosure,
  type WinnersDisclosure,
  type RevealedEntry,
  type ChainJson,
  type BlockJson,
  type WeightedEntryJson,
} from './proof.js'
// The names of verify's and checkReceipt's checks.
/** @category Verify */
export { CHECK_NAMES, RECEIPT_CHECK_NAMES, type KindCheckName, type ReceiptCheckName } from './check-names.js'
// Participants: entry rules, leaf encodings, the committed root and tree (RFC 9162).
/** @category Formats */
export {
  validateEntry,
  validateEntries,
  validateWeightedEntries,
  encodeLeaf,
  encodeWeightedLeaf,
  encodeSaltedLeaf,
  participantsRoot,
  participantsTree,
  type ParticipantsTree,
  type ParticipantsTreeBuilder,
  type ParticipantsHashOptions,
} from './participants.js'
/** @category Formats */
export { leafHash, nodeHash, merkleRoot, inclusionProof, inclusionProofs, verifyInclusion, type InclusionCheck } from './merkle.js'
// A private list's secret, its leaf salts and the secret file.
/** @category Formats */
export { OrganizerSecret, leafSalt, SECRET_BYTES, LEAF_SALT_DOMAIN_V1, serializeSecretFile, parseSecretFile, SECRET_FILE_TYPE, type SecretFile } from './secret.js'
// The declared shapes (valibot): the published JSON Schemas are generated from them (`npm run schema`).
/**
 * The wire formats, each declared once (valibot shapes; the published JSON Schemas are generated from
 * them by `npm run schema`), and the document shapes built from a registry of draw kinds.
 * @category Formats
 */
export { parseShape, type Infer, type DeepReadonly, type Shape, type ShapeMessage } from './schema/kit.js'
/** @category Formats */
export { proofShapeOf } from './schema/proof.js'
/** @category Formats */
export { ProofShape, CommitmentShape } from './schema/published.js'
/** @category Formats */
export { commitmentShapeOf } from './schema/commitment.js'
/** @category Formats */
export { CommitmentFileShape } from './schema/commitment-file.js'
/** @category Formats */
export { ReceiptShape } from './schema/receipt.js'
/** @category Formats */
export { BlockShape } from './schema/block.js'
// The byte codecs, for readers of the formats and authors of draw kinds (fields are read by the shapes above).
/** @category Formats */
export type { JsonObject } from './json.js'
/** @category Formats */
export { bytesToHex, hexToBytes, bytesToBase64, base64ToBytes } from './bytes.js'
