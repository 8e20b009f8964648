// The public surface is deliberate: each package entry's runtime export names are pinned here, sorted,
// so adding, renaming or dropping one is a visible change to this file (and a CHANGELOG line). The
// entries and the edge index files they re-export list every name (no `export *`), and `orbitdraw`
// re-exports the whole of `orbitdraw/core` (the same values, but Node's `commit` and `verify`).
// The rule for adding a name: docs/architecture.md, "Public surface".
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as core from '../../src/core/index.js'
import * as emulator from '../../src/emulator/index.js'
import * as root from '../../src/index.js'

const ROOT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

// <pinned>
const ROOT = [
  'ALLOCATION_LIMITS', 'AbortError', 'AbortedError', 'AllGatewaysFailedError', 'AuthError', 'BEACON_ERROR_CODES', 'BUILT_IN_KINDS',
  'BUILT_IN_ROOT_FINGERPRINTS', 'BadResponseError', 'BeaconClient', 'BeaconError', 'BlockShape',
  'BrowserSecretError', 'CHECK_NAMES', 'COMMITMENT_FILE_TYPE', 'ChainBrokenError', 'CommitmentFileShape',
  'CommitmentShape', 'DEFAULT_AUTH_URL', 'DEFAULT_BASE_URL', 'DEFAULT_DRAW_KINDS', 'DEFAULT_GATEWAYS',
  'DEFAULT_TIMESTAMP_AUTHORITIES', 'DEFAULT_TSA_URLS', 'DERIVED_SEED_BYTES', 'DERIVED_VALUE_BYTES',
  'DRAW_KINDS', 'DerivedSource', 'FallbackError', 'ForkError', 'GatewayHttpError', 'GatewayNetworkError',
  'GatewayTimeoutError', 'INFEASIBLE_QUOTAS_ERROR_CODES', 'INTEGRITY_ERROR_CODES', 'INVALID_INPUT_ERROR_CODES',
  'InfeasibleQuotasError', 'InsufficientCreditsError', 'IntegrityError', 'InvalidInputError',
  'InvalidResponseError', 'LEAF_SALT_DOMAIN_V1', 'LIMITS', 'LIMIT_EXCEEDED_ERROR_CODES', 'LOTTERY_CHECK_NAMES',
  'LegacyBlockError', 'LimitExceededError', 'MAX_LOTTERY_PANELS', 'MAX_SORTITION_FILE_BYTES',
  'MISMATCH_ERROR_CODES', 'MemoryTokenStore', 'MismatchError', 'NET_ERROR_CODES', 'NetError', 'NetworkError',
  'NotYetPublishedError', 'ORBITPORT_BEACONS', 'ORBITPORT_BEACON_NAME', 'ORBITPORT_ERROR_CODES',
  'ORBITPORT_OLD_BEACON_NAME', 'OrbitdrawError', 'OrbitportClient', 'OrbitportError',
  'OrbitportRateLimitedError', 'OrganizerSecret', 'PANEL_CHECK_NAMES', 'PARALLEL_MIN_ENTRIES',
  'PARSE_ERROR_CODES', 'PROOF_TYPE', 'PROTOCOL_VERSION', 'ParseError', 'ProofShape', 'RECEIPT_CHECK_NAMES',
  'RECEIPT_TYPE', 'RateLimitedError', 'ReceiptShape', 'RedirectError', 'RedirectRefusedError',
  'SATELLITE_WIRE_NAMES', 'SECRET_BYTES', 'SECRET_FILE_TYPE', 'SEED_DOMAIN_V1', 'SORTITION_LIMITS',
  'SOURCE_NAMES', 'SUPPORTED_VERSIONS', 'ServerError', 'ServiceNotFoundError', 'SignatureError',
  'StaleResponseError', 'TIMESTAMP_FAILURE_CODES', 'TimeoutError', 'TimestampMarginError', 'TimestampUnavailableError', 'TokenError',
  'TokenProblem', 'UNSUPPORTED_VERSION_ERROR_CODES', 'UnknownSourceError', 'UnsignedValueError',
  'UnsupportedVersionError', 'WaitTimeoutError', 'base64ToBytes', 'beaconFallbackFrom', 'blockCid',
  'buildCounter', 'bytesToBase64', 'bytesToHex', 'checkChain', 'checkCommitmentTime', 'checkLotteryPanels',
  'checkPanelClaim', 'checkPanelShape', 'checkPlanCost', 'checkQuotas', 'checkReceipt', 'checkRecordSignature', 'commit', 'commitAsync', 'commitTimestamped',
  'commitmentCid', 'commitmentDigest', 'commitmentFile', 'commitmentShapeOf', 'computeOutcome',
  'createSignatureVerifier', 'defaultFallbackOn', 'deriveSeed', 'derivedPublicKey', 'derivedValue',
  'derivedValues', 'describeCommitment', 'describeVerdict', 'draw', 'drawAlternates', 'drawFromBlock',
  'drawKinds', 'drawLottery', 'drawPanel', 'drawPrepared', 'earliestTargetTimeMs', 'encodeBlock', 'encodeCommitment', 'encodeLeaf',
  'encodeSaltedLeaf', 'encodeWeightedLeaf', 'estimateSeed', 'estimateSelectionProbabilities', 'expectArray', 'expectBoolean', 'expectInteger', 'expectObject',
  'expectOnlyKeys', 'expectString', 'failureReason', 'field', 'findConfusableEntries', 'generateSecret',
  'genesisIntervalMs', 'hexToBytes', 'identifyBeacon', 'inclusionProof', 'inclusionProofs', 'intFlagValue',
  'ipnsNameOfKey', 'kindOf', 'leafHash', 'leafSalt', 'makePool', 'makeReceipts', 'makeReceiptsAsync', 'meetsQuotas', 'merkleRoot',
  'nodeHash', 'normalizeTrustedBeacons', 'optionalField', 'outcomeToJson', 'panelDraw', 'panelKind',
  'panelLotteryDraw', 'panelLotteryKind', 'parseBlock', 'parseCid', 'parseCommitment', 'parseCommitmentFile',
  'parseIpnsName', 'parseIpnsRecord', 'parseLotteryCsv', 'parsePoolCsv', 'parseProof', 'parseQuotasCsv',
  'parseReceipt', 'parseRetryAfter', 'parseSecretFile', 'parseShape', 'parseSortitionAlgorithmsCsv', 'parseTimestampToken', 'parseTimestamps',
  'parseTrustAnchor', 'parseTrustAnchors', 'participantsRoot', 'participantsRootParallel', 'participantsTree', 'participantsTreeParallel',
  'pickIndices', 'pickKind', 'planCommitment', 'planCost', 'planPanel', 'planTarget', 'preferenceLotteryDraw', 'preferenceLotteryKind', 'prepareDraw', 'prepareDrawAsync', 'privateKindNames',
  'proofShapeOf', 'rangeKind', 'rangeValues', 'readLotteryCsv', 'readPoolCsv', 'readQuotasCsv', 'readSortitionAlgorithmsCsv',
  'recordKeyForName', 'relaxedPanel', 'replacementFor', 'sameContent', 'selectionProbabilities',
  'serializeProof', 'serializeReceipt', 'serializeSecretFile', 'shortName', 'shuffle', 'shuffleIndices',
  'shuffleKind', 'skeleton', 'sortitionEntry', 'stagesDraw', 'stagesKind', 'streamFromSeed', 'timestampCommitment', 'timestampMarginMs', 'uniformBigInt',
  'uniformIndex', 'usesParticipants', 'validateBeaconName', 'validateDrawSpec', 'validateEntries',
  'validateEntry', 'validateWeightedEntries', 'verify', 'verifyInclusion', 'verifyIpnsRecord', 'verifyOnline',
  'verifyValueSignature', 'waitFor', 'weightedKind', 'weightedPick', 'withKinds',
]
const CORE = [
  'ALLOCATION_LIMITS', 'BUILT_IN_KINDS', 'BUILT_IN_ROOT_FINGERPRINTS', 'BlockShape', 'CHECK_NAMES', 'COMMITMENT_FILE_TYPE',
  'CommitmentFileShape', 'CommitmentShape', 'DEFAULT_DRAW_KINDS', 'DEFAULT_TIMESTAMP_AUTHORITIES', 'DRAW_KINDS',
  'INFEASIBLE_QUOTAS_ERROR_CODES', 'INTEGRITY_ERROR_CODES', 'INVALID_INPUT_ERROR_CODES',
  'InfeasibleQuotasError', 'IntegrityError', 'InvalidInputError', 'LEAF_SALT_DOMAIN_V1', 'LIMITS',
  'LIMIT_EXCEEDED_ERROR_CODES', 'LOTTERY_CHECK_NAMES', 'LimitExceededError', 'MAX_LOTTERY_PANELS',
  'MISMATCH_ERROR_CODES', 'MismatchError', 'ORBITPORT_BEACONS', 'OrbitdrawError', 'OrganizerSecret',
  'PANEL_CHECK_NAMES', 'PARSE_ERROR_CODES', 'PROOF_TYPE', 'PROTOCOL_VERSION', 'ParseError', 'ProofShape',
  'RECEIPT_CHECK_NAMES', 'RECEIPT_TYPE', 'ReceiptShape', 'SECRET_BYTES', 'SECRET_FILE_TYPE', 'SEED_DOMAIN_V1',
  'SORTITION_LIMITS', 'SUPPORTED_VERSIONS', 'TokenProblem', 'UNSUPPORTED_VERSION_ERROR_CODES',
  'UnsupportedVersionError', 'base64ToBytes', 'blockCid', 'buildCounter', 'bytesToBase64', 'bytesToHex',
  'checkChain', 'checkCommitmentTime', 'checkLotteryPanels', 'checkPanelClaim', 'checkPanelShape', 'checkPlanCost',
  'checkQuotas', 'checkReceipt', 'checkRecordSignature', 'commit', 'commitAsync', 'commitmentCid', 'commitmentFile',
  'commitmentShapeOf', 'computeOutcome', 'deriveSeed', 'describeCommitment', 'describeVerdict',
  'drawAlternates', 'drawFromBlock', 'drawKinds', 'drawLottery', 'drawPanel', 'drawPrepared', 'encodeBlock',
  'encodeCommitment', 'encodeLeaf', 'encodeSaltedLeaf', 'encodeWeightedLeaf', 'estimateSeed', 'estimateSelectionProbabilities', 'expectArray', 'expectBoolean',
  'expectInteger', 'expectObject', 'expectOnlyKeys', 'expectString', 'failureReason', 'field', 'hexToBytes',
  'identifyBeacon', 'inclusionProof', 'inclusionProofs', 'intFlagValue', 'ipnsNameOfKey', 'kindOf', 'leafHash',
  'leafSalt', 'makePool', 'makeReceipts', 'makeReceiptsAsync', 'meetsQuotas', 'merkleRoot', 'nodeHash', 'normalizeTrustedBeacons',
  'optionalField', 'outcomeToJson', 'panelDraw', 'panelKind', 'panelLotteryDraw', 'panelLotteryKind',
  'parseBlock', 'parseCid', 'parseCommitment', 'parseCommitmentFile', 'parseIpnsName', 'parseIpnsRecord',
  'parseProof', 'parseReceipt', 'parseSecretFile', 'parseShape', 'parseTimestampToken', 'parseTimestamps',
  'parseTrustAnchor', 'parseTrustAnchors', 'participantsRoot', 'participantsTree', 'pickIndices', 'pickKind',
  'planCost', 'planPanel', 'preferenceLotteryDraw', 'preferenceLotteryKind', 'prepareDraw', 'prepareDrawAsync', 'privateKindNames', 'proofShapeOf', 'rangeKind', 'rangeValues',
  'recordKeyForName', 'relaxedPanel', 'replacementFor', 'sameContent', 'selectionProbabilities',
  'serializeProof', 'serializeReceipt', 'serializeSecretFile', 'shortName', 'shuffle', 'shuffleIndices',
  'shuffleKind', 'sortitionEntry', 'stagesDraw', 'stagesKind', 'streamFromSeed', 'uniformBigInt', 'uniformIndex', 'usesParticipants',
  'validateBeaconName', 'validateDrawSpec', 'validateEntries', 'validateEntry', 'validateWeightedEntries',
  'verify', 'verifyInclusion', 'verifyIpnsRecord', 'weightedKind', 'weightedPick', 'withKinds',
]
const EMULATOR = [
  'GATEWAY_ERROR_STATUS', 'createBeaconService', 'createIpnsRecord', 'createRestService', 'createTestTsa',
  'createTsaService', 'gatewayError', 'generateBeaconKey', 'serveBeaconEmulator', 'startBeaconEmulator',
  'startEmulator', 'startHttpServer',
]
// </pinned>
// drand, the second source of a mixed (protocol v2) draw (issue 24): in orbitdraw and orbitdraw/core.
const DRAND = [
  'DEFAULT_DRAND_CHAINS', 'DRAND_DST', 'DRAND_QUICKNET', 'DRAND_SCHEME', 'SEED_DOMAIN_V2', 'chainHashOf',
  'checkChainInfo', 'deriveMixedSeed', 'drandInfoJson', 'parseDrandInfo', 'planRound', 'publicKeyOf', 'roundAt',
  'roundMessage', 'roundRandomness', 'roundTime', 'signRound', 'verifyRoundSignature',
]

// The drand relay client (an edge, so the root entry only).
const DRAND_EDGE = ['DEFAULT_DRAND_URLS', 'DRAND_ERROR_CODES', 'DrandClient', 'DrandError']
// A kind declared once (issue 25 item 2): defineKind and the validation kit's builders of its fields, in orbitdraw and orbitdraw/core.
const KIND_AUTHORING = ['boolean', 'defineKind', 'described', 'integer', 'list', 'pattern', 'strictObject', 'text']

const names = (ns: object): string[] => Object.keys(ns).sort()

describe('public surface', () => {
  it('orbitdraw exports exactly the pinned runtime names', () => {
    expect(names(root)).toEqual([...ROOT, ...DRAND, ...DRAND_EDGE, ...KIND_AUTHORING, 'DERIVED_METHODS'].sort())
  })

  it('orbitdraw/core exports exactly the pinned runtime names', () => {
    expect(names(core)).toEqual([...CORE, ...DRAND, ...KIND_AUTHORING].sort())
  })

  it('orbitdraw/emulator exports exactly the pinned runtime names', () => {
    expect(names(emulator)).toEqual([...EMULATOR, 'createDrandService'].sort())
  })

  it('orbitdraw re-exports every name of orbitdraw/core, the same value but Node\'s commit, commitAsync, makeReceiptsAsync and verify', () => {
    const r = root as Record<string, unknown>
    const c = core as Record<string, unknown>
    const differ = Object.keys(c).filter((k) => r[k] !== c[k])
    expect(differ.sort()).toEqual(['commit', 'commitAsync', 'makeReceiptsAsync', 'verify'])
  })

  it('the package.json exports map has the three entries, each built from the pinned source', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { exports: Record<string, { default: string }> }
    expect(Object.fromEntries(Object.entries(pkg.exports).map(([k, v]) => [k, v.default]))).toEqual({
      '.': './dist/index.js',
      './core': './dist/core/index.js',
      './emulator': './dist/emulator/index.js',
    })
  })

  const files = ['src/index.ts', 'src/core/index.ts', 'src/emulator/index.ts', 'src/beacon/index.ts', 'src/rest/index.ts', 'src/timestamp/index.ts']
  for (const file of files) {
    it(`${file} lists its names (no export *)`, () => {
      const text = readFileSync(join(ROOT_DIR, file), 'utf8')
      expect(text).not.toMatch(/^\s*export\s+(type\s+)?\*/m)
    })
  }
})
