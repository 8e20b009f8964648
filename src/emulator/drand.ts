/**
 * An emulated drand chain served over drand's HTTP API (`/{chainhash}/info`, `/{chainhash}/public/latest`,
 * `/{chainhash}/public/{round}`), with its own BLS12-381 key, the real quicknet scheme
 * (`bls-unchained-g1-rfc9380`) and a 3-second period by default. A round is served once it is due on the
 * service's clock, never before (drand answers a future round with an error too).
 *
 * @module
 */
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8Encode } from '../core/bytes.js'
import { chainHashOf, checkChainInfo, DRAND_SCHEME, drandInfoJson, roundAt, roundTime, type DrandChainInfo } from '../core/drand/chain.js'
import { publicKeyOf, roundRandomness, signRound } from '../core/drand/beacon.js'
import { InvalidInputError } from '../core/errors.js'
import { sendJson, type RouteHandler } from './http.js'

/**
 * Options of {@link createDrandService}.
 * @category Emulator
 */
export interface DrandServiceOptions {
  /** The chain's BLS12-381 secret key (32 bytes, below the group order); default: a fresh random one. */
  secretKey?: Uint8Array
  /** Seconds between rounds (default 3, as quicknet). */
  period?: number
  /** Unix seconds of round 1 (default: 1000 periods before now, so rounds already exist). */
  genesis?: number
  /** Clock in ms (default `Date.now`): decides which rounds are public. */
  clock?: () => number
  /** The beacon ID in the chain info (default `orbitdraw-emulator`). */
  beaconId?: string
}

/**
 * The emulated drand chain.
 * @category Emulator
 */
export interface DrandService {
  /** The chain's info, as a verifier pins it (`trust.drandChains`, `--trust-drand INFO.json`). */
  readonly info: DrandChainInfo
  /** The chain's info JSON as `/{chainhash}/info` serves it. */
  readonly infoJson: Record<string, unknown>
  /** The latest round due now on the service's clock. */
  latest(): number
  /** The round's signature (whether or not it is due yet: tests only). */
  signature(round: number): string
  /** Requests answered, by route. */
  stats(): { readonly info: number; readonly round: number; readonly latest: number }
  /** The route handler (mounted by `startEmulator` on its origin). */
  readonly handler: RouteHandler
}

/**
 * Creates an emulated drand chain.
 * @category Emulator
 */
export function createDrandService(options: DrandServiceOptions = {}): DrandService {
  const clock = options.clock ?? Date.now
  const period = options.period ?? 3
  if (!Number.isSafeInteger(period) || period < 1 || period > 3600) throw new InvalidInputError('INVALID_INTERVAL', `drand period ${period} s is out of range`, 'use 1 to 3600 seconds')
  const secretKey = options.secretKey ?? bls12_381.utils.randomSecretKey()
  const publicKey = publicKeyOf(secretKey)
  const genesis = options.genesis ?? Math.floor(clock() / 1000) - 1000 * period
  const beaconId = options.beaconId ?? 'orbitdraw-emulator'
  // The emulator has no distributed key generation: its "group" is this one key.
  const groupHash = bytesToHex(sha256(utf8Encode(`orbitdraw emulator drand group ${publicKey}`)))
  const info = checkChainInfo({ hash: chainHashOf({ publicKey, genesis, period, groupHash, beaconId }), publicKey, genesis, period, scheme: DRAND_SCHEME, groupHash, beaconId, label: 'orbitdraw emulator drand chain' })
  const infoJson = drandInfoJson(info)
  const signatures = new Map<number, string>()
  const signature = (round: number): string => {
    let s = signatures.get(round)
    if (s === undefined) {
      s = signRound(secretKey, round)
      if (signatures.size > 10_000) signatures.clear()
      signatures.set(round, s)
    }
    return s
  }
  const latest = (): number => roundAt(info, Math.floor(clock() / 1000))
  const stats = { info: 0, round: 0, latest: 0 }
  const beacon = (round: number) => {
    const sig = signature(round)
    return { round, randomness: bytesToHex(roundRandomness(sig)), signature: sig }
  }
  const prefix = `/${info.hash}/`
  const handler: RouteHandler = (req, res, url) => {
    if (!url.pathname.startsWith(prefix)) return false
    if (req.method !== 'GET') {
      sendJson(res, 405, { message: 'method not allowed' })
      return true
    }
    const rest = url.pathname.slice(prefix.length)
    if (rest === 'info') {
      stats.info++
      sendJson(res, 200, infoJson, { 'cache-control': 'public, max-age=604800, immutable' })
      return true
    }
    if (rest === 'public/latest') {
      stats.latest++
      const r = latest()
      if (r < 1) sendJson(res, 425, { message: 'no round yet' })
      else sendJson(res, 200, beacon(r), { 'cache-control': `public, max-age=${period}` })
      return true
    }
    const m = /^public\/([1-9][0-9]{0,15})$/.exec(rest)
    if (m !== null) {
      stats.round++
      const round = Number(m[1])
      const now = latest()
      if (!Number.isSafeInteger(round) || round > now) {
        const due = Number.isSafeInteger(round) ? roundTime(info, round) : Infinity
        sendJson(res, 425, { message: `round ${m[1]} is not public yet (due ${Number.isFinite(due) ? new Date(due * 1000).toISOString() : 'never'})` }, Number.isFinite(due) ? { 'retry-after': String(Math.max(1, Math.ceil(due - clock() / 1000))) } : {})
      } else sendJson(res, 200, beacon(round), { 'cache-control': 'public, max-age=604800, immutable' })
      return true
    }
    sendJson(res, 404, { message: `no drand route ${url.pathname}` })
    return true
  }
  return { info, infoJson, latest, signature, stats: () => ({ ...stats }), handler }
}
