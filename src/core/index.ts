/**
 * The pure core of orbitdraw: everything a third party needs to verify a draw. No network, no
 * clock; runs in browsers and Node alike. Import it alone as `orbitdraw/core`.
 *
 * Start here:
 *
 * 1. {@link commit} fixes a draw before its randomness exists (returns the commitment to publish);
 * 2. {@link drawFromBlock} computes the draw and its proof from the committed beacon block you hold
 *    (the Node entry's `draw` fetches and waits for that block for you);
 * 3. {@link verify} re-checks a proof offline, naming every failed check ({@link describeVerdict} words the result).
 *
 * This {@link verify} is offline and browser-safe: it checks the proof against what it carries and the
 * trust anchors ({@link ORBITPORT_BEACONS} by default), never the network; the verifier page runs it. The
 * `verify` of the Node entry `orbitdraw` is this one plus an optional `online` re-check that asks the
 * beacon whether the proof's blocks are still served and still in its signed chain.
 *
 * @module orbitdraw/core
 */
/** @category Errors */
export {
  OrbitdrawError,
  InvalidInputError,
  ParseError,
  IntegrityError,
  MismatchError,
  LimitExceededError,
  UnsupportedVersionError,
  type OrbitdrawErrorOptions,
} from './errors.js'
/** @category Formats */
export { PROTOCOL_VERSION, SUPPORTED_VERSIONS, PROOF_TYPE } from './version.js'
/** @category Formats */
export { LIMITS } from './limits.js'
/** @category Verify */
export type { Check, RelaxableRule } from './check.js'
/** @category Verify */
export { ORBITPORT_BEACONS, identifyBeacon, normalizeTrustedBeacons, shortName, type TrustedBeacon, type BeaconIdentity } from './trust.js'
/** @category Verify */
export { describeVerdict, failureReason, formatUnixTime, type VerdictText } from './verdict.js'
/** @category Formats */
export {
  expectObject,
  expectArray,
  expectString,
  expectInteger,
  expectBoolean,
  expectOnlyKeys,
  field,
  optionalField,
  type JsonObject,
} from './json.js'
/** @category Formats */
export { bytesToHex, hexToBytes, bytesToBase64, base64ToBytes } from './bytes.js'
/** @category Formats */
export { parseBlock, blockCid, encodeBlock, parseCid, sameContent, type BeaconBlock } from './block.js'
/** @category Draw kinds */
export {
  type DrawSpec,
  type ShuffleSpec,
  type PickSpec,
  type RangeSpec,
  type WeightedSpec,
  DRAW_KINDS,
  validateDrawSpec,
  usesParticipants,
  kindOf,
} from './draw-spec.js'
/** @category Draw kinds */
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
/** @category Draw */
export { commit, validateBeaconName, type CommitOptions, type CommitResult } from './commitment.js'
/** @category Formats */
export {
  parseCommitment,
  encodeCommitment,
  commitmentCid,
  describeCommitment,
  type Commitment,
  type BlockRef,
  type ParticipantsCommitment,
} from './commitment.js'
/** @category Draw */
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
/** @category Draw */
export { OrganizerSecret, leafSalt, SECRET_BYTES, LEAF_SALT_DOMAIN_V1 } from './secret.js'
/** @category Formats */
export { serializeSecretFile, parseSecretFile, SECRET_FILE_TYPE, type SecretFile } from './secret.js'
/** @category Draw */
export { makeReceipts, type ReceiptBook } from './receipt.js'
/** @category Formats */
export { parseReceipt, serializeReceipt, RECEIPT_TYPE, type Receipt } from './receipt.js'
/** @category Verify */
export { checkReceipt, type CheckReceiptOptions, type ReceiptCheckResult } from './receipt.js'
/** @category Verify */
export { leafHash, nodeHash, merkleRoot, inclusionProof, inclusionProofs, verifyInclusion, type InclusionCheck } from './merkle.js'
/** @category Sampling */
export { deriveSeed, SEED_DOMAIN_V1 } from './seed.js'
/** @category Sampling */
export {
  streamFromSeed,
  uniformIndex,
  uniformBigInt,
  shuffleIndices,
  shuffle,
  pickIndices,
  rangeValues,
  weightedPick,
  type RandomStream,
} from './random/index.js'
/** @category Draw */
export { computeOutcome } from './outcome.js'
/** @category Draw kinds */
export { type Outcome } from './outcome.js'
/** @category Formats */
export {
  parseProof,
  parseTimestamps,
  serializeProof,
  type ParseProofOptions,
  type Proof,
  type ParticipantsDisclosure,
  type FullDisclosure,
  type WinnersDisclosure,
  type RevealedEntry,
  type ChainJson,
  type BlockJson,
  type WeightedEntryJson,
} from './proof.js'
/** @category Draw kinds */
export { type OutcomeJson, type RankedJson } from './proof.js'
/** @category Draw */
export {
  drawFromBlock,
  prepareDraw,
  drawPrepared,
  outcomeToJson,
  privateKindNames,
  type PreparedDraw,
  type DrawFromBlockOptions,
  type Participants,
} from './draw.js'
/** @category Verify */
export { verify, type ParticipantsDigest, type VerifyOptions, type VerifyResult, type VerifyTrust } from './verify.js'
/** @category Verify */
export { checkChain, CHAIN_CHECK_NAMES, type ChainCheckInput, type ChainCheckResult } from './chain.js'
/** @category Beacon */
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
/** @category Formats */
export {
  COMMITMENT_FILE_TYPE,
  commitmentFile,
  parseCommitmentFile,
  type CommitmentFile,
  type CommitmentFileJson,
} from './commitment-file.js'
/** @category Verify */
export { checkCommitmentTime, type CommitmentTimeInput, type CommitmentTimeResult } from './timestamp/index.js'
/** @category Time-stamping */
export {
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
  type TimestampTokenResult,
  type TimestampProblem,
  type TimestampTrustAnchor,
  type ParsedToken,
  type TstInfo,
} from './timestamp/index.js'
/** @category Sortition */
export {
  makePool,
  checkQuotas,
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
/** @category Errors */
export { InfeasibleQuotasError } from './sortition/index.js'
/**
 * The wire formats, each declared once (valibot shapes; the published JSON Schemas are generated from
 * them by `npm run schema`), and the document shapes built from a registry of draw kinds.
 * @category Formats
 */
export { parseShape, type Infer, type DeepReadonly, type Shape, type ShapeMessage } from './schema/kit.js'
/** @category Formats */
export { ProofShape, proofShapeOf } from './schema/proof.js'
/** @category Formats */
export { CommitmentShape, commitmentShapeOf } from './schema/commitment.js'
/** @category Formats */
export { CommitmentFileShape } from './schema/commitment-file.js'
/** @category Formats */
export { ReceiptShape } from './schema/receipt.js'
/** @category Formats */
export { BlockShape } from './schema/block.js'
