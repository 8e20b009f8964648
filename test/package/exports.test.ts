// The public surface is deliberate: each package entry's runtime export names are pinned here, sorted,
// so adding, renaming or dropping one is a visible change to this file (and a CHANGELOG line). Each
// entry is one subpath by task; a name is listed in one entry file only (an entry may re-export a whole
// area with `export *` from that area's index), and `orbitdraw` is all of `orbitdraw/core` plus the Node
// names a draw starts from (Node's commit, commitAsync, makeReceiptsAsync and verify in place of the core's).
// The rule for placing a new name: docs/architecture.md, "Public surface".
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as beacon from '../../src/beacon/index.js'
import * as core from '../../src/core/index.js'
import * as formats from '../../src/core/formats.js'
import * as kinds from '../../src/core/kinds/index.js'
import * as sortition from '../../src/core/sortition/index.js'
import * as drand from '../../src/drand/index.js'
import * as emulator from '../../src/emulator/index.js'
import * as errors from '../../src/errors.js'
import * as root from '../../src/index.js'
import * as node from '../../src/node/index.js'
import * as rest from '../../src/rest/index.js'
import * as timestamp from '../../src/timestamp/index.js'

const ROOT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

// <pinned>
/** `orbitdraw/core`: the pure names a draw starts from. */
const CORE = [
  'OrbitdrawError', 'checkReceipt', 'commit', 'commitAsync', 'commitmentFile', 'createTrust', 'describeVerdict', 'drawFromBlock',
  'drawPrepared', 'failureReason', 'makeReceipts', 'makeReceiptsAsync', 'parseCommitment', 'parseCommitmentFile',
  'parseProof', 'parseReceipt', 'prepareDraw', 'prepareDrawAsync', 'serializeProof', 'serializeReceipt', 'verify',
]
/** `orbitdraw`: the core's names, and these Node names (commit, commitAsync, makeReceiptsAsync, verify replace the core's). */
const ROOT_NODE = [
  'BeaconClient', 'DrandClient', 'OrbitportClient', 'commit', 'commitAsync', 'commitTimestamped', 'draw',
  'makeReceiptsAsync', 'planTarget', 'timestampCommitment', 'verify',
]
const KINDS = [
  'ALLOCATION_LIMITS', 'BUILT_IN_KINDS', 'DEFAULT_DRAW_KINDS', 'DRAW_KINDS', 'MAX_FOLLOW_UP_DEPTH', 'MAX_TIEBREAK_ENTRIES', 'REROLL_CHECK_NAMES',
  'REROLL_LIMITS', 'SEED_DOMAIN_V1', 'boolean', 'computeOutcome', 'defineKind', 'deriveSeed', 'described', 'drawKinds',
  'intFlagValue', 'integer', 'kindOf', 'list', 'outcomeToJson', 'panelKind', 'panelLotteryKind', 'panelReplacementKind',
  'parsePreferencesFlag', 'pattern', 'pickIndices', 'pickKind', 'preferenceLotteryDraw', 'preferenceLotteryKind',
  'privateKindNames', 'rangeKind', 'rangeValues', 'rerollDraw', 'rerollKind', 'shuffle', 'shuffleIndices', 'shuffleKind',
  'stagesDraw', 'stagesKind', 'streamFromSeed', 'strictObject', 'text', 'tiebreakKind', 'tiebreakOrder', 'uniformBigInt',
  'uniformIndex', 'usesParticipants', 'validateDrawSpec', 'weightedKind', 'weightedPick', 'weightedRerollKind', 'withKinds',
  'withOriginal',
]
const SORTITION = [
  'DEFAULT_ESTIMATE_PANELS', 'HOUSEHOLD_EXACT_BUDGET', 'INFEASIBLE_QUOTAS_ERROR_CODES', 'InfeasibleQuotasError', 'LOTTERY_CHECK_NAMES',
  'MAX_LOTTERY_PANELS', 'PANEL_CHECK_NAMES', 'PLAN_METHODS', 'SORTITION_LIMITS', 'alternatesCost', 'buildCounter', 'checkAlternatesCost',
  'checkLotteryPanels', 'checkPanelClaim', 'checkPanelShape', 'checkPlanCost', 'checkQuotas', 'drawAlternates',
  'drawLottery', 'drawPanel', 'estimateSeed', 'estimateSelectionProbabilities', 'formatPanelProbabilities', 'householdGroupsOf',
  'householdProbabilities', 'makePool', 'meetsQuotas', 'normalizeHousehold', 'panelDraw', 'panelLotteryDraw', 'panelProbabilities', 'panelReplacementDraw',
  'planCost', 'planPanel', 'relaxedPanel', 'replacementFor', 'selectionProbabilities', 'sortitionEntry',
]
const FORMATS = [
  'BlockShape', 'CHECK_NAMES', 'COMMITMENT_FILE_TYPE', 'CommitmentFileShape', 'CommitmentShape', 'LEAF_SALT_DOMAIN_V1',
  'LIMITS', 'OrganizerSecret', 'PROOF_TYPE', 'PROTOCOL_VERSION', 'ProofShape', 'RECEIPT_CHECK_NAMES', 'RECEIPT_TYPE',
  'ReceiptShape', 'SECRET_BYTES', 'SECRET_FILE_TYPE', 'SUPPORTED_VERSIONS', 'base64ToBytes', 'bytesToBase64',
  'bytesToHex', 'commitmentCid', 'commitmentShapeOf', 'describeCommitment', 'encodeCommitment', 'encodeLeaf',
  'encodeSaltedLeaf', 'encodeWeightedLeaf',
  'hexToBytes', 'inclusionProof', 'inclusionProofs', 'leafHash', 'leafSalt',
  'merkleRoot', 'nodeHash', 'parseSecretFile', 'parseShape', 'parseTimestamps', 'participantsRoot',
  'participantsTree', 'proofShapeOf', 'serializeSecretFile', 'validateBeaconName', 'validateEntries', 'validateEntry',
  'validateWeightedEntries', 'verifyInclusion',
]
const BEACON = [
  'AllGatewaysFailedError', 'BEACON_ERROR_CODES', 'BadResponseError', 'BeaconError', 'ChainBrokenError',
  'DEFAULT_GATEWAYS', 'ForkError', 'GatewayHttpError', 'LegacyBlockError', 'NotYetPublishedError', 'ORBITPORT_BEACONS',
  'ORBITPORT_BEACON_NAME', 'ORBITPORT_OLD_BEACON_NAME', 'RedirectRefusedError', 'StaleResponseError', 'WaitTimeoutError',
  'blockCid', 'checkChain', 'checkRecordSignature', 'encodeBlock', 'genesisIntervalMs', 'identifyBeacon', 'ipnsNameOfKey',
  'normalizeTrustedBeacons', 'parseBlock', 'parseCid', 'parseIpnsName', 'parseIpnsRecord', 'planCommitment',
  'recordKeyForName', 'sameContent', 'shortName', 'verifyIpnsRecord', 'verifyOnline', 'waitFor',
]
const REST = [
  'AuthError', 'BrowserSecretError', 'DEFAULT_AUTH_URL', 'DEFAULT_BASE_URL', 'DERIVED_METHODS', 'DERIVED_SEED_BYTES',
  'DERIVED_VALUE_BYTES', 'DerivedSource', 'FallbackError', 'InsufficientCreditsError', 'InvalidResponseError',
  'MemoryTokenStore', 'ORBITPORT_ERROR_CODES', 'OrbitportError', 'RedirectError', 'SATELLITE_WIRE_NAMES', 'SOURCE_NAMES',
  'ServerError', 'ServiceNotFoundError', 'SignatureError', 'TokenError', 'UnknownSourceError', 'UnsignedValueError',
  'beaconFallbackFrom', 'createSignatureVerifier', 'defaultFallbackOn', 'derivedPublicKey', 'derivedValue',
  'derivedValues', 'verifyValueSignature',
]
const TIMESTAMP = [
  'BUILT_IN_ROOT_FINGERPRINTS', 'DEFAULT_TIMESTAMP_AUTHORITIES', 'DEFAULT_TSA_URLS', 'PUBLIC_TIMESTAMP_AUTHORITIES', 'TIMESTAMP_FAILURE_CODES',
  'TimestampMarginError', 'TimestampUnavailableError', 'TokenProblem', 'checkCommitmentTime', 'commitmentDigest',
  'earliestTargetTimeMs', 'parseTimestampToken', 'parseTrustAnchor', 'parseTrustAnchors', 'timestampMarginMs',
]
const DRAND = [
  'DEFAULT_DRAND_CHAINS', 'DEFAULT_DRAND_URLS', 'DRAND_DST', 'DRAND_ERROR_CODES', 'DRAND_QUICKNET', 'DRAND_SCHEME',
  'DrandError', 'SEED_DOMAIN_V2', 'chainHashOf', 'checkChainInfo', 'deriveMixedSeed', 'drandInfoJson', 'parseDrandInfo',
  'planRound', 'publicKeyOf', 'roundAt', 'roundMessage', 'roundRandomness', 'roundTime', 'signRound',
  'verifyRoundSignature',
]
const ERRORS = [
  'AbortedError', 'INTEGRITY_ERROR_CODES', 'INVALID_INPUT_ERROR_CODES', 'IntegrityError', 'InvalidInputError',
  'LIMIT_EXCEEDED_ERROR_CODES', 'LimitExceededError', 'MISMATCH_ERROR_CODES', 'MismatchError', 'NET_ERROR_CODES',
  'NetError', 'NetworkError', 'PARSE_ERROR_CODES', 'ParseError', 'RateLimitedError', 'TimeoutError',
  'UNSUPPORTED_VERSION_ERROR_CODES', 'UnsupportedVersionError',
]
const NODE = [
  'MAX_CSV_ROW_BYTES', 'MAX_PARTICIPANTS_FILE_BYTES', 'MAX_SORTITION_FILE_BYTES', 'MAX_SORTITION_ROW_BYTES', 'NODE_INPUT_ERROR_CODES', 'PARALLEL_MIN_ENTRIES',
  'PROOF_FIELD_ORDER', 'commitFile', 'describeRelaxation', 'drawFile', 'explainQuotaError', 'findConfusableEntries',
  'generateSecret', 'isStreamedRanking', 'parseHouseholdPoolCsv', 'parseLotteryCsv', 'parsePoolCsv', 'parseQuotasCsv',
  'parseSortitionAlgorithmsCsv', 'participantsRootParallel', 'participantsTreeParallel', 'readHouseholdPoolCsv',
  'readLotteryCsv', 'readPoolCsv', 'readQuotasCsv', 'readSortitionAlgorithmsCsv', 'skeleton',
  'smallestQuotaRelaxation', 'streamDrawFile', 'streamParticipantsFile', 'streamReceiptsFile', 'streamWeightedCsv', 'writeProof',
  'writeProofFile',
]
const EMULATOR = [
  'GATEWAY_ERROR_STATUS', 'createBeaconService', 'createDrandService', 'createIpnsRecord', 'createRestService',
  'createTestTsa', 'createTsaService', 'gatewayError', 'generateBeaconKey', 'serveBeaconEmulator', 'startBeaconEmulator',
  'startEmulator', 'startHttpServer',
]
// </pinned>

/** Each subpath, its module and its pinned runtime names (the root's: the core's and its own). */
const ENTRIES: [string, object, string[]][] = [
  ['.', root, [...new Set([...CORE, ...ROOT_NODE])]],
  ['./core', core, CORE],
  ['./kinds', kinds, KINDS],
  ['./sortition', sortition, SORTITION],
  ['./formats', formats, FORMATS],
  ['./beacon', beacon, BEACON],
  ['./rest', rest, REST],
  ['./timestamp', timestamp, TIMESTAMP],
  ['./drand', drand, DRAND],
  ['./errors', errors, ERRORS],
  ['./node', node, NODE],
  ['./emulator', emulator, EMULATOR],
]

const names = (ns: object): string[] => Object.keys(ns).sort()

/** The package.json `exports` map: subpath → { types, default }. */
const EXPORTS = (JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { exports: Record<string, { types: string; default: string }> }).exports
/** The source entry of a subpath: `./dist/x.js` → `src/x.ts`. */
const sourceOf = (subpath: string): string => EXPORTS[subpath]!.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')

/** The names an entry file lists itself (`export { a, type B } from …`, `export function/const/class/interface/type …`), not its `export *`. */
function listedNames(file: string): string[] {
  const text = readFileSync(join(ROOT_DIR, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '')
  const out: string[] = []
  for (const m of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const raw of m[1]!.split(',').map((s) => s.trim()).filter(Boolean)) out.push(raw.replace(/^type\s+/, '').split(/\s+as\s+/).at(-1)!)
  }
  for (const m of text.matchAll(/export\s+(?:declare\s+)?(?:async\s+)?(?:function|const|class|interface|type|let)\s+([A-Za-z_$][\w$]*)/g)) out.push(m[1]!)
  return out
}

describe('public surface', () => {
  for (const [subpath, mod, pinned] of ENTRIES) {
    it(`orbitdraw${subpath === '.' ? '' : subpath.slice(1)} exports exactly the pinned runtime names`, () => {
      expect(names(mod)).toEqual([...pinned].sort())
    })
  }

  it('orbitdraw is orbitdraw/core (the same values, but Node\'s commit, commitAsync, makeReceiptsAsync and verify) and the Node names', () => {
    const r = root as Record<string, unknown>
    const c = core as Record<string, unknown>
    expect(Object.keys(c).filter((k) => r[k] !== c[k]).sort()).toEqual(['commit', 'commitAsync', 'makeReceiptsAsync', 'verify'])
  })

  it('no runtime name is exported by two subpaths (besides orbitdraw ⊇ orbitdraw/core): one import per name', () => {
    const seen = new Map<string, string[]>()
    for (const [subpath, mod] of ENTRIES) if (subpath !== '.') for (const n of names(mod)) seen.set(n, [...(seen.get(n) ?? []), subpath])
    const rootOnly = ROOT_NODE.filter((n) => !CORE.includes(n))
    for (const n of rootOnly) seen.set(n, [...(seen.get(n) ?? []), '.'])
    expect([...seen].filter(([, where]) => where.length > 1)).toEqual([])
  })

  it('no name (value or type) is listed in two entry files; only the root lists Node\'s versions of four core names', () => {
    const listed = new Map<string, string[]>()
    const files = [...new Set([...Object.keys(EXPORTS).map(sourceOf), 'src/core/ipns/index.ts', 'src/core/random/index.ts', 'src/core/timestamp/index.ts', 'src/core/drand/index.ts'])]
    for (const file of files) for (const n of listedNames(file)) listed.set(n, [...(listed.get(n) ?? []), file])
    const twice = [...listed].filter(([, where]) => where.length > 1).map(([n]) => n).sort()
    expect(twice).toEqual(['commit', 'commitAsync', 'makeReceiptsAsync', 'verify'])
  })

  it('the package.json exports map: one subpath per entry, each with its types and its default, built from the pinned source', () => {
    expect(Object.keys(EXPORTS)).toEqual(ENTRIES.map(([subpath]) => subpath))
    for (const [subpath, v] of Object.entries(EXPORTS)) {
      expect(Object.keys(v), subpath).toEqual(['types', 'default'])
      expect(v.types, subpath).toBe(v.default.replace(/\.js$/, '.d.ts'))
    }
    expect(sourceOf('.')).toBe('src/index.ts')
    expect(sourceOf('./core')).toBe('src/core/index.ts')
  })

  it('TypeDoc documents every entry', () => {
    const typedoc = JSON.parse(readFileSync(join(ROOT_DIR, 'typedoc.json'), 'utf8')) as { entryPoints: string[] }
    expect(typedoc.entryPoints).toEqual(Object.keys(EXPORTS).map(sourceOf))
  })

  it('the pre-release aliases are gone', () => {
    const all = ENTRIES.flatMap(([, mod]) => names(mod))
    for (const alias of ['OrbitportRateLimitedError', 'AbortError', 'parseRetryAfter', 'GatewayNetworkError', 'GatewayTimeoutError']) expect(all).not.toContain(alias)
  })

  it('the root keeps about forty names (values and types) a user starts from', () => {
    const rootFile = listedNames('src/index.ts').length + listedNames('src/core/index.ts').length - 4
    expect(rootFile).toBeLessThanOrEqual(70)
  })
})
