/**
 * orbitdraw: publicly verifiable draws from Orbitport's cosmic randomness beacon. The Node entry:
 * the pure core plus the beacon client, the REST client and the time-stamping client.
 *
 * Start here:
 *
 * 1. {@link commit} fixes a draw (participants, kind, target block) before its randomness exists;
 * 2. {@link draw} waits for the committed block and returns a proof carrying the beacon's signed head
 *    (or {@link drawFromBlock}, the pure version, when you already hold the block);
 * 3. {@link verify} re-checks a proof, naming every failed check ({@link describeVerdict} words the result).
 *
 * Two `verify` functions: this entry's {@link verify} is the core's `verify` plus one option, `online`
 * ({@link NodeVerifyOptions}): given gateways, it also asks the beacon whether the proof's blocks are
 * still served and still in its signed chain (checks `online-blocks`, `online-chain`). Without `online`
 * it is exactly the core's `verify` (from `orbitdraw/core`): offline, no network, no clock, browser-safe,
 * the one the verifier page runs. Both never throw on a bad proof; every problem is a named failed check.
 *
 * Entry points: `orbitdraw` (this one, for Node), `orbitdraw/core` (the pure, browser-safe core alone)
 * and `orbitdraw/emulator` (the local emulator of the service, for tests).
 *
 * @module orbitdraw
 */
import { RateLimitedError } from './net/errors.js'

// The public surface of `orbitdraw`: every name listed here on purpose, grouped by task (no `export *`).
// test/package/exports.test.ts pins the runtime names; docs/architecture.md (Public surface) gives the
// rule for adding one.

// ---- The pure core: everything `orbitdraw/core` exports (src/core/index.ts), but its commit and verify ----

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
} from './core/index.js'
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
} from './core/index.js'
// Versions, document types and resource limits.
/** @category Formats */
export { PROTOCOL_VERSION, SUPPORTED_VERSIONS, PROOF_TYPE } from './core/index.js'
/** @category Formats */
export { LIMITS } from './core/index.js'
// drand, the second source of a mixed (protocol v2) draw.
export { chainHashOf, checkChainInfo, DEFAULT_DRAND_CHAINS, deriveMixedSeed, DRAND_DST, DRAND_QUICKNET, DRAND_SCHEME, drandInfoJson, parseDrandInfo, planRound, publicKeyOf, roundAt, roundMessage, roundRandomness, roundTime, SEED_DOMAIN_V2, signRound, verifyRoundSignature, type DrandChainInfo, type DrandCommitment, type DrandEvidence, type DrandRound, type DrawSources } from './core/index.js'
export { DEFAULT_DRAND_URLS, DrandClient, DrandError, DRAND_ERROR_CODES, type DrandClientOptions, type DrandErrorCode } from './drand/index.js'
// The verification result's pieces: checks, trust anchors, words for the verdict.
/** @category Verify */
export type { Check, RelaxableRule } from './core/index.js'
/** @category Verify */
export { CHECK_NAMES, RECEIPT_CHECK_NAMES, type CheckName, type KindCheckName, type ReceiptCheckName } from './core/index.js'
/** @category Verify */
export { ORBITPORT_BEACONS, identifyBeacon, normalizeTrustedBeacons, shortName, type TrustedBeacon, type BeaconIdentity } from './core/index.js'
/** @category Verify */
export { describeVerdict, failureReason, type VerdictText } from './core/index.js'
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
} from './core/index.js'
/** @category Formats */
export { bytesToHex, hexToBytes, bytesToBase64, base64ToBytes } from './core/index.js'
// Beacon blocks.
/** @category Formats */
export { parseBlock, blockCid, encodeBlock, parseCid, sameContent, type BeaconBlock } from './core/index.js'
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
} from './core/index.js'
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
} from './core/index.js'
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
} from './core/index.js'
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
} from './core/index.js'
// Commitments: read one (`commit` is Node's, below).
/** @category Draw */
export { validateBeaconName, type CommitOptions, type CommitResult } from './core/index.js'
/** @category Formats */
export {
  parseCommitment,
  encodeCommitment,
  commitmentCid,
  describeCommitment,
  type Commitment,
  type BlockRef,
  type ParticipantsCommitment,
} from './core/index.js'
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
} from './core/index.js'
/** @category Draw */
export { OrganizerSecret, leafSalt, SECRET_BYTES, LEAF_SALT_DOMAIN_V1 } from './core/index.js'
/** @category Formats */
export { serializeSecretFile, parseSecretFile, SECRET_FILE_TYPE, type SecretFile } from './core/index.js'
/** @category Draw */
export { makeReceipts, type MakeReceiptsOptions, type ReceiptBook } from './core/index.js'
/** @category Formats */
export { parseReceipt, serializeReceipt, RECEIPT_TYPE, type Receipt } from './core/index.js'
/** @category Verify */
export { checkReceipt, type CheckReceiptOptions, type ReceiptCheckResult } from './core/index.js'
// The Merkle tree of the participants (RFC 9162).
/** @category Verify */
export { leafHash, nodeHash, merkleRoot, inclusionProof, inclusionProofs, verifyInclusion, type InclusionCheck } from './core/index.js'
// The seed and the sampling primitives (for users' own draw kinds).
/** @category Sampling */
export { deriveSeed, SEED_DOMAIN_V1 } from './core/index.js'
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
} from './core/index.js'
// Draw: the outcome from a block, and proofs.
/** @category Draw */
export { computeOutcome } from './core/index.js'
/** @category Draw kinds */
export { type Outcome } from './core/index.js'
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
} from './core/index.js'
/** @category Draw kinds */
export { type OutcomeJson, type RankedJson } from './core/index.js'
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
} from './core/index.js'
// Verify: the pieces of verify (Node's `verify`, below, adds the online re-check).
/** @category Verify */
export { type VerifyOptions, type VerifyResult, type VerifyTrust, type ParticipantsDigest } from './core/index.js'
/** @category Verify */
export { checkChain, type ChainCheckInput, type ChainCheckResult } from './core/index.js'
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
} from './core/index.js'
// The commitment file (commitment, CID and time-stamp tokens).
/** @category Formats */
export {
  COMMITMENT_FILE_TYPE,
  commitmentFile,
  parseCommitmentFile,
  type CommitmentFile,
  type CommitmentFileJson,
} from './core/index.js'
/** @category Verify */
export { checkCommitmentTime, type CommitmentTimeInput, type CommitmentTimeResult } from './core/index.js'
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
} from './core/index.js'
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
} from './core/index.js'
/** @category Errors */
export { InfeasibleQuotasError } from './core/index.js'
// The wire formats' declared shapes (valibot), from which the published JSON Schemas are generated.
/**
 * The wire formats, each declared once (valibot shapes; the published JSON Schemas are generated from
 * them by `npm run schema`), and the document shapes built from a registry of draw kinds.
 * @category Formats
 */
export { parseShape, integer, text, boolean, list, pattern, described, strictObject, type Infer, type DeepReadonly, type Shape, type ShapeMessage } from './core/index.js'
/** @category Formats */
export { ProofShape, proofShapeOf } from './core/index.js'
/** @category Formats */
export { CommitmentShape, commitmentShapeOf } from './core/index.js'
/** @category Formats */
export { CommitmentFileShape } from './core/index.js'
/** @category Formats */
export { ReceiptShape } from './core/index.js'
/** @category Formats */
export { BlockShape } from './core/index.js'

// ---- The Node edges ----

// Node's commit adds `private: true` (a secret from node:crypto) to the core's commit.
/** @category Draw */
export { commit, commitAsync, generateSecret, type NodeCommitOptions } from './commit.js'
// Plan, commit and time-stamp, keeping the commitment only when its tokens leave the target its margin.
/** @category Draw */
export { commitTimestamped, type CommitTimestampedOptions, type CommitTimestampedResult } from './commit-timestamped.js'
// Node's verify adds the optional online re-check to the core's offline verify.
/** @category Verify */
export { verify, type NodeVerifyOptions } from './verify.js'

// Node's draw: the beacon edge's network draw with the participants hashed on two threads.
/** @category Draw */
export { draw } from './draw.js'
// Node's receipts: the core's makeReceiptsAsync with the tree built on two threads.
/** @category Draw */
export { makeReceiptsAsync } from './receipts.js'

// The beacon edge: the gateway client, waiting, planning, the network draw and the online re-check.
export {
  BeaconClient,
  genesisIntervalMs,
  DEFAULT_GATEWAYS,
  ORBITPORT_BEACON_NAME,
  ORBITPORT_OLD_BEACON_NAME,
  waitFor,
  planTarget,
  planCommitment,
  verifyOnline,
  type BeaconClientOptions,
  type CallOptions,
  type BeaconHead,
  type FetchLike,
  type GatewayRequestKind,
  type SourceCallOptions,
  type WaitSource,
  type WaitForOptions,
  type WaitOptions,
  type WaitProgress,
  type WaitResult,
  type PlanOptions,
  type TargetPlan,
  type NetworkDrawOptions,
  type VerifyOnlineOptions,
  type VerifyOnlineResult,
} from './beacon/index.js'
// The beacon edge's errors.
export {
  BeaconError,
  GatewayHttpError,
  GatewayNetworkError,
  GatewayTimeoutError,
  BadResponseError,
  RedirectRefusedError,
  StaleResponseError,
  AllGatewaysFailedError,
  ForkError,
  ChainBrokenError,
  LegacyBlockError,
  NotYetPublishedError,
  WaitTimeoutError,
  BEACON_ERROR_CODES,
  type BeaconErrorCode,
  type GatewayFailure,
} from './beacon/index.js'

// The REST edge: the cTRNG client, token storage, the beacon fallback, value signatures, the derived source.
export {
  OrbitportClient,
  SOURCE_NAMES,
  DEFAULT_AUTH_URL,
  DEFAULT_BASE_URL,
  SATELLITE_WIRE_NAMES,
  MemoryTokenStore,
  beaconFallbackFrom,
  defaultFallbackOn,
  createSignatureVerifier,
  verifyValueSignature,
  derivedValue,
  derivedValues,
  derivedPublicKey,
  DerivedSource,
  DERIVED_METHODS,
  type DerivedMethod,
  DERIVED_SEED_BYTES,
  DERIVED_VALUE_BYTES,
  type SourceName,
  type RandomOptions,
  type OrbitportClientOptions,
  type RetryOptions,
  type SatelliteWireName,
  type CtrngResponse,
  type RandomValue,
  type ValueSignature,
  type ValueSource,
  type Logger,
  type StoredToken,
  type TokenStore,
  type BeaconFallback,
  type BeaconHeadSource,
  type BeaconValues,
  type SignatureCurve,
  type SignatureEncoding,
  type MessageConstruction,
  type PublicKeyInput,
  type SignatureOptions,
  type SignatureCheck,
  type SignatureVerifier,
  type DerivedSeed,
} from './rest/index.js'
// The REST edge's errors, and its deprecated aliases (kept as they were).
export {
  OrbitportError,
  ServerError,
  InsufficientCreditsError,
  ServiceNotFoundError,
  RedirectError,
  InvalidResponseError,
  AuthError,
  TokenError,
  SignatureError,
  UnsignedValueError,
  UnknownSourceError,
  BrowserSecretError,
  FallbackError,
  ORBITPORT_ERROR_CODES,
  AbortError,
  parseRetryAfter,
  type OrbitportErrorCode,
  type HttpErrorOptions,
  type RedirectRefusal,
} from './rest/index.js'

// The time-stamping edge: RFC 3161 tokens over a commitment from public (or the emulator's) authorities.
export {
  timestampCommitment,
  commitmentDigest,
  DEFAULT_TSA_URLS,
  TimestampUnavailableError,
  TIMESTAMP_FAILURE_CODES,
  timestampMarginMs,
  earliestTargetTimeMs,
  TimestampMarginError,
  type MarginTarget,
  type Retarget,
  type TimestampOptions,
  type TimestampResult,
  type KeptTimestamp,
  type TimestampAuthorityFailure,
  type TimestampFailureCode,
} from './timestamp/index.js'

// One network error family for every edge (beacon, REST, time-stamping): `edge` says which.
export { NetError, NetworkError, TimeoutError, RateLimitedError, AbortedError, NET_ERROR_CODES, type NetErrorCode, type NetEdge, type NetErrorInit, type RateLimitedInit } from './net/errors.js'
/**
 * The REST client's rate-limit error: since the edges share one {@link RateLimitedError}, the same class.
 * @deprecated use {@link RateLimitedError} (check `edge === 'rest'` or `code === 'ORBITPORT_RATE_LIMITED'`).
 * @category Errors
 */
export const OrbitportRateLimitedError = RateLimitedError
/**
 * @deprecated use {@link RateLimitedError}.
 * @category Errors
 */
export type OrbitportRateLimitedError = RateLimitedError

// Look-alike entries (UTS #39 skeletons): Node entry only, kept out of the core and the verifier page.
export { findConfusableEntries, skeleton, type ConfusableGroup } from './confusables.js'
// Sortition input files (CSV): Node entry only.
export { parsePoolCsv, parseQuotasCsv, parseLotteryCsv, parseSortitionAlgorithmsCsv, readPoolCsv, readQuotasCsv, readLotteryCsv, readSortitionAlgorithmsCsv, MAX_SORTITION_FILE_BYTES, type SortitionAlgorithmsSelection } from './sortition/csv.js'
// The participants digest on two threads (worker_threads): Node entry only; equal to participantsRoot.
export { participantsRootParallel, participantsTreeParallel, PARALLEL_MIN_ENTRIES, type ParallelHashOptions } from './node/parallel-hash.js'
