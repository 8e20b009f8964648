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
// The public surface of `orbitdraw/core`: every name listed here on purpose, grouped by task (no
// `export *`). test/package/exports.test.ts pins the runtime names; docs/architecture.md (Public
// surface) gives the rule for adding one. `orbitdraw` (src/index.ts) re-exports all of it.

// Errors: the base class and the kinds of failure every function throws.
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
// Each error class's codes: a const list and its union (the type of the class's `code`).
/** @category Errors */
export {
  INVALID_INPUT_ERROR_CODES,
  PARSE_ERROR_CODES,
  INTEGRITY_ERROR_CODES,
  MISMATCH_ERROR_CODES,
  LIMIT_EXCEEDED_ERROR_CODES,
  UNSUPPORTED_VERSION_ERROR_CODES,
  INFEASIBLE_QUOTAS_ERROR_CODES,
  type InvalidInputErrorCode,
  type EdgeInvalidInputErrorCodes,
  type ParseErrorCode,
  type IntegrityErrorCode,
  type MismatchErrorCode,
  type LimitExceededErrorCode,
  type UnsupportedVersionErrorCode,
  type InfeasibleQuotasErrorCode,
} from './error-codes.js'
// Versions, document types and resource limits.
/** @category Formats */
export { PROTOCOL_VERSION, SUPPORTED_VERSIONS, PROOF_TYPE } from './version.js'
/** @category Formats */
export { LIMITS } from './limits.js'
// The verification result's pieces: checks, trust anchors, words for the verdict.
/** @category Verify */
export type { Check, RelaxableRule } from './check.js'
/** @category Verify */
export { CHECK_NAMES, RECEIPT_CHECK_NAMES, type CheckName, type KindCheckName, type ReceiptCheckName } from './check-names.js'
/** @category Verify */
export { ORBITPORT_BEACONS, identifyBeacon, normalizeTrustedBeacons, shortName, type TrustedBeacon, type BeaconIdentity } from './trust.js'
/** @category Verify */
export { describeVerdict, failureReason, type VerdictText } from './verdict.js'
// The JSON validation kit and byte codecs, for readers of the formats and authors of draw kinds.
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
// Beacon blocks.
/** @category Formats */
export { parseBlock, blockCid, encodeBlock, parseCid, sameContent, type BeaconBlock } from './block.js'
// Draw kinds: the registry, the built-in kinds and the types a kind author needs.
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
  defineKind,
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
  type ValuesDisplay,
  type RankedDisplay,
  type TableDisplay,
  type TableColumn,
  type TableCell,
  type DisplaySection,
  type SectionsDisplay,
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
  type NamedCheck,
  type KindFileFormat,
  type KindFiles,
  type KindDeclaration,
  type KindRules,
  type KindView,
  type KindShape,
  type Declared,
  type Fields,
} from './kinds/index.js'
/** @category Sortition */
export {
  panelKind,
  panelLotteryKind,
  panelDraw,
  panelLotteryDraw,
  sortitionEntry,
  type PanelSpec,
  type PanelOutcome,
  type PanelOutcomeJson,
  type PanelDrawOptions,
  type TypeProbabilityJson,
  type PanelLotterySpec,
  type PanelLotteryOutcome,
  type PanelLotteryOutcomeJson,
  type SortitionComposition,
  type SortitionFeatureSpec,
  type QuotaRowJson,
  type SortitionCommitInput,
} from './kinds/index.js'
/** @category Allocation */
export {
  stagesKind,
  stagesDraw,
  preferenceLotteryKind,
  preferenceLotteryDraw,
  ALLOCATION_LIMITS,
  type StagesSpec,
  type StageSpec,
  type StageInput,
  type StagesOutcome,
  type StagesOutcomeJson,
  type PreferenceLotterySpec,
  type PreferenceCategorySpec,
  type PreferenceCategoryInput,
  type PreferenceLotteryOutcome,
  type PreferenceLotteryOutcomeJson,
  type ColumnSpec,
  type ColumnsSpec,
  type WhereCondition,
} from './kinds/index.js'
// Commitments: make one (the first step of a draw) and read one.
/** @category Draw */
export { commit, commitAsync, validateBeaconName, type CommitOptions, type CommitResult } from './commitment.js'
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
// Participants: entry rules, leaf encodings, the committed root; private lists' secrets and receipts.
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
  type ParticipantsTreeBuilder,
  type ParticipantsHashOptions,
} from './participants.js'
/** @category Draw */
export { OrganizerSecret, leafSalt, SECRET_BYTES, LEAF_SALT_DOMAIN_V1 } from './secret.js'
/** @category Formats */
export { serializeSecretFile, parseSecretFile, SECRET_FILE_TYPE, type SecretFile } from './secret.js'
/** @category Draw */
export { makeReceipts, makeReceiptsAsync, type MakeReceiptsOptions, type ReceiptBook } from './receipt.js'
/** @category Formats */
export { parseReceipt, serializeReceipt, RECEIPT_TYPE, type Receipt } from './receipt.js'
/** @category Verify */
export { checkReceipt, type CheckReceiptOptions, type ReceiptCheckResult } from './receipt.js'
// The Merkle tree of the participants (RFC 9162).
/** @category Verify */
export { leafHash, nodeHash, merkleRoot, inclusionProof, inclusionProofs, verifyInclusion, type InclusionCheck } from './merkle.js'
// The seed and the sampling primitives (for users' own draw kinds).
/** @category Sampling */
export { deriveSeed, SEED_DOMAIN_V1 } from './seed.js'

// drand, the second source of a mixed (protocol v2) draw.
/** @category Drand */
export {
  chainHashOf,
  checkChainInfo,
  DEFAULT_DRAND_CHAINS,
  deriveMixedSeed,
  DRAND_DST,
  DRAND_QUICKNET,
  DRAND_SCHEME,
  drandInfoJson,
  parseDrandInfo,
  planRound,
  publicKeyOf,
  roundAt,
  roundMessage,
  roundRandomness,
  roundTime,
  SEED_DOMAIN_V2,
  signRound,
  verifyRoundSignature,
  type DrandChainInfo,
  type DrandRound,
} from './drand/index.js'
/** @category Drand */
export type { DrawSources } from './drand/sources.js'
/** @category Drand */
export type { DrandCommitment } from './commitment.js'
/** @category Drand */
export type { DrandEvidence } from './draw.js'
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
// Draw: the outcome from a block, and proofs.
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
  prepareDrawAsync,
  drawPrepared,
  outcomeToJson,
  privateKindNames,
  type PreparedDraw,
  type PrepareDrawOptions,
  type DrawFromBlockOptions,
  type Participants,
} from './draw.js'
// Verify: the offline verify and its pieces (chain, IPNS records, commitment time).
/** @category Verify */
export { verify, type ParticipantsDigest, type VerifyOptions, type VerifyResult, type VerifyTrust } from './verify.js'
/** @category Verify */
export { checkChain, type ChainCheckInput, type ChainCheckResult } from './chain.js'
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
// The commitment file (commitment, CID and time-stamp tokens).
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
// RFC 3161 time-stamp tokens and their trust anchors.
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
// Sortition: pools and quotas, the panel draw, alternates, panel lotteries.
/** @category Sortition */
export {
  makePool,
  checkQuotas,
  SORTITION_LIMITS,
  planPanel,
  planCost,
  checkPlanCost,
  type PlanCost,
  estimateSelectionProbabilities,
  estimateSeed,
  type SelectionEstimate,
  type TypeProbabilityEstimate,
  drawPanel,
  selectionProbabilities,
  relaxedPanel,
  checkPanelClaim,
  checkPanelShape,
  PANEL_CHECK_NAMES,
  LOTTERY_CHECK_NAMES,
  type PanelCheck,
  type PanelClaimResult,
  meetsQuotas,
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
// The wire formats' declared shapes (valibot), from which the published JSON Schemas are generated.
/**
 * The wire formats, each declared once (valibot shapes; the published JSON Schemas are generated from
 * them by `npm run schema`), and the document shapes built from a registry of draw kinds.
 * @category Formats
 */
export { parseShape, integer, text, boolean, list, pattern, described, strictObject, type Infer, type DeepReadonly, type Shape, type ShapeMessage } from './schema/kit.js'
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
