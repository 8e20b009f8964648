/**
 * The pure core of orbitdraw: everything a third party needs to verify a draw. No network, no
 * clock; runs in browsers and Node alike. Import it alone as `orbitdraw/core`.
 *
 * @module
 */
export { OrbitdrawError, InvalidInputError, ParseError, IntegrityError, MismatchError, LimitExceededError, UnsupportedVersionError, type OrbitdrawErrorOptions } from './errors.js'
export { PROTOCOL_VERSION, SUPPORTED_VERSIONS, PROOF_TYPE } from './version.js'
export { LIMITS } from './limits.js'
export type { Check, RelaxableRule } from './check.js'
export { ORBITPORT_BEACONS, identifyBeacon, normalizeTrustedBeacons, shortName, type TrustedBeacon, type BeaconIdentity } from './trust.js'
export { describeVerdict, formatUnixTime, type VerdictText } from './verdict.js'
export type { JsonObject } from './json.js'
export { bytesToHex, hexToBytes, bytesToBase64, base64ToBytes } from './bytes.js'
export { parseBlock, blockCid, encodeBlock, parseCid, sameContent, type BeaconBlock } from './block.js'
export { type DrawSpec, type ShuffleSpec, type PickSpec, type RangeSpec, type WeightedSpec, DRAW_KINDS, validateDrawSpec, usesParticipants } from './draw-spec.js'
export {
  commit,
  parseCommitment,
  encodeCommitment,
  commitmentCid,
  describeCommitment,
  validateBeaconName,
  type Commitment,
  type CommitOptions,
  type CommitResult,
  type BlockRef,
  type ParticipantsCommitment,
} from './commitment.js'
export {
  validateEntry,
  validateEntries,
  validateWeightedEntries,
  encodeLeaf,
  encodeWeightedLeaf,
  encodeSaltedLeaf,
  participantsRoot,
  participantsTree,
  type WeightedEntry,
  type ParticipantsTree,
  type ParticipantsHashOptions,
} from './participants.js'
export { OrganizerSecret, leafSalt, serializeSecretFile, parseSecretFile, SECRET_BYTES, LEAF_SALT_DOMAIN_V1, SECRET_FILE_TYPE, type SecretFile } from './secret.js'
export { makeReceipts, parseReceipt, checkReceipt, serializeReceipt, RECEIPT_TYPE, type Receipt, type ReceiptBook, type CheckReceiptOptions, type ReceiptCheckResult } from './receipt.js'
export { leafHash, nodeHash, merkleRoot, inclusionProof, inclusionProofs, verifyInclusion, type InclusionCheck } from './merkle.js'
export { deriveSeed, SEED_DOMAIN_V1 } from './seed.js'
export { streamFromSeed, uniformIndex, uniformBigInt, shuffleIndices, shuffle, pickIndices, rangeValues, weightedPick, type RandomStream } from './random/index.js'
export { computeOutcome, type Outcome } from './outcome.js'
export { parseProof, parseTimestamps, serializeProof, type Proof, type ParticipantsDisclosure, type FullDisclosure, type WinnersDisclosure, type RevealedEntry, type ChainJson, type BlockJson, type OutcomeJson, type RankedJson, type WeightedEntryJson } from './proof.js'
export { drawFromBlock, prepareDraw, drawPrepared, type PreparedDraw, type DrawFromBlockOptions, type Participants } from './draw.js'
export { verify, type VerifyOptions, type VerifyResult, type VerifyTrust } from './verify.js'
export { checkChain, CHAIN_CHECK_NAMES, type ChainCheckInput, type ChainCheckResult } from './chain.js'
export { verifyIpnsRecord, parseIpnsRecord, parseIpnsName, checkRecordSignature, type IpnsRecordInfo, type VerifiedIpnsRecord, type IpnsName, type VerifyIpnsRecordOptions } from './ipns-record.js'
export { derivedValue, derivedValues, derivedPublicKey, DerivedSource, DERIVED_SEED_BYTES, DERIVED_VALUE_BYTES, type DerivedSeed } from './derived.js'
export { COMMITMENT_FILE_TYPE, commitmentFile, parseCommitmentFile, type CommitmentFile, type CommitmentFileJson } from './commitment-file.js'
export {
  checkCommitmentTime,
  parseTrustAnchor,
  parseTrustAnchors,
  DEFAULT_TIMESTAMP_AUTHORITIES,
  BUILT_IN_ROOT_FINGERPRINTS,
  parseTimestampToken,
  TokenProblem,
  type TokenSigner,
  type SignerCertId,
  type ParsedCertificate,
  type Der,
  type TagClass,
  type CommitmentTimeInput,
  type CommitmentTimeResult,
  type TimestampTokenResult,
  type TimestampProblem,
  type TimestampTrustAnchor,
  type ParsedToken,
  type TstInfo,
} from './timestamp/index.js'
export { parseShape, type Infer, type DeepReadonly, type Shape, type ShapeMessage } from './schema/kit.js'
export { ProofShape } from './schema/proof.js'
export { CommitmentShape } from './schema/commitment.js'
export { CommitmentFileShape } from './schema/commitment-file.js'
export { ReceiptShape } from './schema/receipt.js'
export { BlockShape } from './schema/block.js'
