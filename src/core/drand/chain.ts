/**
 * drand chains: the chain information a verifier pins (chain hash, public key, genesis, period, scheme),
 * drand's own chain-hash definition, and round-time arithmetic. Pure: no network, no clock.
 *
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, concatBytes, hexToBytes, uintToBytesBE, utf8Encode } from '../bytes.js'
import { InvalidInputError } from '../errors.js'

/**
 * The one drand signature scheme orbitdraw verifies: unchained BLS12-381 signatures on G1 (public key on
 * G2), hash-to-curve per RFC 9380 with DST `BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_`; the message of
 * round R is SHA-256 of R as 8 bytes big-endian. drand's quicknet uses it.
 * @category Drand
 */
export const DRAND_SCHEME = 'bls-unchained-g1-rfc9380'

/**
 * A drand chain as a verifier trusts it. Every field is pinned: drand's chain hash covers the public
 * key, genesis and period (and the group hash and beacon ID) but not the scheme.
 * @category Drand
 */
export interface DrandChainInfo {
  /** drand's chain hash, 64 lowercase hex digits. */
  readonly hash: string
  /** The group public key: a compressed BLS12-381 G2 point, 192 lowercase hex digits. */
  readonly publicKey: string
  /** Unix time (seconds) of round 1. */
  readonly genesis: number
  /** Seconds between rounds. */
  readonly period: number
  /** The signature scheme; only {@link DRAND_SCHEME} is supported. */
  readonly scheme: typeof DRAND_SCHEME
  /** drand's group hash (64 hex digits), when known: then {@link chainHashOf} must give `hash`. */
  readonly groupHash?: string
  /** drand's beacon ID (`metadata.beaconID`), when known (it enters the chain hash unless `default`). */
  readonly beaconId?: string
  /** A label for people (never trusted from a proof). */
  readonly label?: string
}

/**
 * drand's quicknet on the League of Entropy mainnet (3-second rounds since 2023-08-23), as its `/info`
 * serves it. Its chain hash is recomputed from the other fields by the tests ({@link chainHashOf}).
 * @category Drand
 */
export const DRAND_QUICKNET: DrandChainInfo = Object.freeze({
  hash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  genesis: 1692803367,
  period: 3,
  scheme: DRAND_SCHEME,
  groupHash: 'f477d5c89f21a17c863a7f937c6a6d15859414d2be09cd448d4279af331c5d3e',
  beaconId: 'quicknet',
  label: 'drand quicknet (League of Entropy)',
})

/**
 * The drand chains a verifier trusts by default: quicknet only.
 * @category Drand
 */
export const DEFAULT_DRAND_CHAINS: readonly DrandChainInfo[] = Object.freeze([DRAND_QUICKNET])

/** The largest round orbitdraw accepts (2^53 - 1: a safe integer; quicknet reaches it in about 850 million years). */
export const MAX_DRAND_ROUND = Number.MAX_SAFE_INTEGER

const HEX64 = /^[0-9a-f]{64}$/
const HEX192 = /^[0-9a-f]{192}$/

/**
 * drand's chain hash: `SHA-256(u32be(period) || i64be(genesis) || publicKey || groupHash || beaconId)`,
 * the beacon ID omitted when it is empty or `default` (drand's `Info.Hash`).
 * @throws {@link InvalidInputError} `INVALID_DRAND_INFO` without a group hash.
 * @category Drand
 */
export function chainHashOf(info: Pick<DrandChainInfo, 'publicKey' | 'genesis' | 'period' | 'groupHash' | 'beaconId'>): string {
  if (info.groupHash === undefined) throw new InvalidInputError('INVALID_DRAND_INFO', 'the chain hash needs the group hash', 'pass the chain info with its groupHash, as drand /info serves it')
  const id = info.beaconId === undefined || info.beaconId === '' || info.beaconId === 'default' ? new Uint8Array(0) : utf8Encode(info.beaconId)
  const genesis = new Uint8Array(8)
  new DataView(genesis.buffer).setBigInt64(0, BigInt(info.genesis))
  return bytesToHex(sha256(concatBytes(uintToBytesBE(info.period, 4), genesis, hexToBytes(info.publicKey), hexToBytes(info.groupHash), id)))
}

/**
 * Checks and freezes a trusted chain: hex fields, positive integer period, non-negative genesis, the
 * supported scheme, and (with a group hash) the chain hash recomputed from the other fields.
 * @throws {@link InvalidInputError} `INVALID_DRAND_INFO` naming the bad field.
 * @category Drand
 */
export function checkChainInfo(info: DrandChainInfo, path = '$'): DrandChainInfo {
  const bad = (field: string, detail: string, hint: string): never => {
    throw new InvalidInputError('INVALID_DRAND_INFO', detail, hint, { path: `${path}.${field}` })
  }
  if (typeof info !== 'object' || info === null) throw new InvalidInputError('INVALID_DRAND_INFO', 'a drand chain must be an object', 'pass { hash, publicKey, genesis, period, scheme } or drand /info JSON', { path })
  if (typeof info.hash !== 'string' || !HEX64.test(info.hash)) bad('hash', 'the chain hash must be 64 lowercase hex digits', 'copy "hash" from the chain\'s /info')
  if (typeof info.publicKey !== 'string' || !HEX192.test(info.publicKey)) bad('publicKey', 'the public key must be a compressed G2 point (192 lowercase hex digits)', 'copy "public_key" from the chain\'s /info')
  if (!Number.isSafeInteger(info.genesis) || info.genesis < 0) bad('genesis', 'genesis must be a non-negative integer of unix seconds', 'copy "genesis_time" from the chain\'s /info')
  if (!Number.isSafeInteger(info.period) || info.period < 1 || info.period > 86_400) bad('period', 'period must be an integer number of seconds from 1 to 86400', 'copy "period" from the chain\'s /info')
  if (info.scheme !== DRAND_SCHEME) bad('scheme', `scheme ${JSON.stringify(String(info.scheme).slice(0, 40))} is not supported`, `orbitdraw verifies ${DRAND_SCHEME} chains only (drand's quicknet)`)
  if (info.groupHash !== undefined && (typeof info.groupHash !== 'string' || !HEX64.test(info.groupHash))) bad('groupHash', 'the group hash must be 64 lowercase hex digits', 'copy "groupHash" from the chain\'s /info')
  if (info.beaconId !== undefined && (typeof info.beaconId !== 'string' || info.beaconId.length > 64)) bad('beaconId', 'the beacon ID must be a string of at most 64 characters', 'copy metadata.beaconID from the chain\'s /info')
  if (info.label !== undefined && (typeof info.label !== 'string' || info.label.length > 200)) bad('label', 'the label must be a string of at most 200 characters', 'use a short label')
  if (info.groupHash !== undefined && chainHashOf(info) !== info.hash) bad('hash', `the chain hash ${info.hash} is not the hash of the chain's info (${chainHashOf(info)})`, 'the info was altered, or copied from another chain')
  return Object.freeze({ ...info })
}

/**
 * Reads a chain's info JSON as drand's `/info` (and `/v2/beacons/{id}/info`) serves it:
 * `{ public_key, period, genesis_time, hash, groupHash, schemeID, metadata: { beaconID } }`.
 * The chain hash is recomputed and must match.
 * @throws {@link InvalidInputError} `INVALID_DRAND_INFO`.
 * @category Drand
 */
export function parseDrandInfo(json: unknown, label?: string): DrandChainInfo {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new InvalidInputError('INVALID_DRAND_INFO', 'drand chain info must be a JSON object', 'pass the JSON that the chain\'s /info serves')
  const o = json as Record<string, unknown>
  const metadata = o.metadata
  const beaconId = typeof metadata === 'object' && metadata !== null && typeof (metadata as Record<string, unknown>).beaconID === 'string' ? ((metadata as Record<string, unknown>).beaconID as string) : undefined
  if (typeof o.groupHash !== 'string') throw new InvalidInputError('INVALID_DRAND_INFO', 'the chain info has no groupHash, so its chain hash cannot be recomputed', 'pass the complete JSON that the chain\'s /info serves', { path: '$.groupHash' })
  return checkChainInfo({
    hash: o.hash as string,
    publicKey: o.public_key as string,
    genesis: o.genesis_time as number,
    period: o.period as number,
    scheme: o.schemeID as typeof DRAND_SCHEME,
    groupHash: o.groupHash,
    ...(beaconId === undefined ? {} : { beaconId }),
    ...(label === undefined ? {} : { label }),
  })
}

/**
 * The chain's info in drand's `/info` JSON form (what {@link parseDrandInfo} reads).
 * @category Drand
 */
export function drandInfoJson(info: DrandChainInfo): Record<string, unknown> {
  return {
    public_key: info.publicKey,
    period: info.period,
    genesis_time: info.genesis,
    hash: info.hash,
    ...(info.groupHash === undefined ? {} : { groupHash: info.groupHash }),
    schemeID: info.scheme,
    ...(info.beaconId === undefined ? {} : { metadata: { beaconID: info.beaconId } }),
  }
}

/**
 * The unix time (seconds) at which round `round` is due: `genesis + (round - 1) x period`.
 * @throws {@link InvalidInputError} `INVALID_DRAND_ROUND` for a round that is not an integer from 1.
 * @category Drand
 */
export function roundTime(info: Pick<DrandChainInfo, 'genesis' | 'period'>, round: number): number {
  checkRound(round)
  const t = info.genesis + (round - 1) * info.period
  if (!Number.isSafeInteger(t)) throw new InvalidInputError('INVALID_DRAND_ROUND', `round ${round} is too far in the future`, 'use a round within the chain\'s lifetime', { path: '$.round' })
  return t
}

/**
 * The latest round due at unix time `seconds` (0 before genesis).
 * @category Drand
 */
export function roundAt(info: Pick<DrandChainInfo, 'genesis' | 'period'>, seconds: number): number {
  if (seconds < info.genesis) return 0
  return Math.floor((seconds - info.genesis) / info.period) + 1
}

/**
 * The committed round for a target block expected at `expected` (unix seconds): the first round due
 * at least `margin` seconds after it, so the block can be time-stamped before the round is public.
 * @category Drand
 */
export function planRound(info: Pick<DrandChainInfo, 'genesis' | 'period'>, expected: number, margin: number): number {
  if (!Number.isFinite(expected) || !Number.isFinite(margin) || margin < 0) throw new InvalidInputError('INVALID_ARGUMENT', 'the expected time and margin must be finite, the margin non-negative', 'pass unix seconds')
  const at = expected + margin
  if (at <= info.genesis) return 1
  return Math.ceil((at - info.genesis) / info.period) + 1
}

/** @throws {@link InvalidInputError} `INVALID_DRAND_ROUND` unless `round` is an integer from 1 to {@link MAX_DRAND_ROUND}. */
export function checkRound(round: unknown, path = '$.round'): asserts round is number {
  if (typeof round !== 'number' || !Number.isSafeInteger(round) || round < 1) {
    throw new InvalidInputError('INVALID_DRAND_ROUND', `a drand round must be an integer from 1, got ${JSON.stringify(round)?.slice(0, 40)}`, 'rounds count from 1 at the chain\'s genesis', { path })
  }
}
