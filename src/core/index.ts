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
export { describeVerdict, failureReason, formatUnixTime, type VerdictText } from './verdict.js'
export { expectObject, expectArray, expectString, expectInteger, expectBoolean, expectOnlyKeys, field, optionalField, type JsonObject } from './json.js'
export { bytesToHex, hexToBytes, bytesToBase64, base64ToBytes } from './bytes.js'
export { parseBlock, blockCid, encodeBlock, parseCid, sameContent, type BeaconBlock } from './block.js'
export { type DrawSpec, type ShuffleSpec, type PickSpec, type RangeSpec, type WeightedSpec, DRAW_KINDS, validateDrawSpec, usesParticipants, kindOf } from './draw-spec.js'
export {
  BUILT_IN_KINDS,
  DEFAULT_DRAW_KINDS,
  withKinds,
  drawKinds,
  intFlagValue,
  shuffleKind,
  pickKind,
  rangeKind,
  weightedKind,
  type DrawKind,
  type AnyDrawKind,
  type DrawKinds,
  type DrawKindTypes,
  type DrawSpecBase,
  type OutcomeBase,
  type OutcomeDisplay,
  type DrawInput,
  type KindCli,
  type KindFlags,
  type SpecOf,
  type OutcomeOf,
  type OutcomeJsonOf,
  type RankedOutcome,
  type RangeOutcome,
  type ShuffleOutcomeJson,
  type PickOutcomeJson,
  type RangeOutcomeJson,
  type WeightedOutcomeJson,
} from './kinds/index.js'
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
export { parseProof, parseTimestamps, serializeProof, type ParseProofOptions, type Proof, type ParticipantsDisclosure, type FullDisclosure, type WinnersDisclosure, type RevealedEntry, type ChainJson, type BlockJson, type OutcomeJson, type RankedJson, type WeightedEntryJson } from './proof.js'
export { drawFromBlock, prepareDraw, drawPrepared, outcomeToJson, privateKindNames, type PreparedDraw, type DrawFromBlockOptions, type Participants } from './draw.js'
export { verify, type VerifyOptions, type VerifyResult, type VerifyTrust } from './verify.js'
export { checkChain, CHAIN_CHECK_NAMES, type ChainCheckInput, type ChainCheckResult } from './chain.js'
export {
  verifyIpnsRecord,
  parseIpnsRecord,
  parseIpnsName,
  checkRecordSignature,
  recordKeyForName,
  ipnsNameOfKey,
  type IpnsRecordInfo,
  type VerifiedIpnsRecord,
  type IpnsName,
  type VerifyIpnsRecordOptions,
  type RecordKeyResult,
  type IpnsPublicKey,
  type IpnsKeyType,
} from './ipns/index.js'
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
export {
  makePool,
  checkQuotas,
  InfeasibleQuotasError,
  SORTITION_LIMITS,
  planPanel,
  drawPanel,
  selectionProbabilities,
  relaxedPanel,
  checkPanelClaim,
  type PanelCheck,
  type PanelClaimResult,
  meetsQuotas,
  dpOrder,
  acceptanceStream,
  buildCounter,
  drawAlternates,
  replacementFor,
  drawLottery,
  checkLotteryPanels,
  MAX_LOTTERY_PANELS,
  type Counter,
  type Cell,
  type CounterLayer,
  type AlternatesDraw,
  type LotteryPanelProblem,
  type SortitionPool,
  type SortitionFeature,
  type Respondent,
  type QuotaRow,
  type QuotaTable,
  type PanelPlan,
  type PanelDraw,
  type PanelPlanOptions,
  type TypeProbability,
} from './sortition/index.js'
export { parseShape, type Infer, type DeepReadonly, type Shape, type ShapeMessage } from './schema/kit.js'
export { ProofShape, proofShapeOf } from './schema/proof.js'
export { CommitmentShape, commitmentShapeOf } from './schema/commitment.js'
export { CommitmentFileShape } from './schema/commitment-file.js'
export { ReceiptShape } from './schema/receipt.js'
export { BlockShape } from './schema/block.js'
