/**
 * Emulator of the authenticated Orbitport REST service and its identity provider, served on one
 * origin (so `authUrl = baseUrl` works): `POST /oauth/token` and `GET /api/v1/services/trng`.
 *
 * - Token endpoint: checks `client_id`, `client_secret`, `audience` (default: this origin + `/api`)
 *   and `grant_type`; answers `{ access_token, token_type, expires_in }` with a configurable lifetime.
 * - cTRNG endpoint: checks the bearer token (401 `{ message }` when missing, unknown or expired),
 *   follows the `src` order, falls back to `derived` during a simulated satellite outage, signs every
 *   value with a P-256 key (ECDSA over SHA-256 of the 32 data bytes, DER) whose public key tests get.
 * - The `derived` source is {@link DerivedSource} from `src/rest/derived.ts` over a seed that is the
 *   first satellite value (or a configured seed).
 * - Fault injection: persistent 500 with a `message`, one-shot faults (any status/body/headers, a
 *   delay, a dropped connection) for either endpoint, token revocation; {@link gatewayError} builds
 *   the real gateway's error answers (`{error, message?}` with its status) for `injectFault`.
 * - Real formats: errors carry the gateway's `error` codes (401 `authentication_failed` /
 *   `token_expired`, 500 `internal_error`); `signatureMode` serves unsigned values (`signature`
 *   null or absent, as the public gateway does today); `extraFields` adds fields such as `algo` and
 *   `bulk` to every value.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { randomBytes } from 'node:crypto'
import { p256 } from '@noble/curves/nist.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, concatBytes, uintToBytesBE } from '../core/bytes.js'
import { DerivedSource } from '../rest/derived.js'
import { readBody, sendJson, untilClosed, type RouteHandler } from './http.js'

/** Satellite source names the emulator understands. */
export const EMULATOR_SATELLITE_NAMES = ['vendororbital', 'aptosorbital'] as const

/**
 * Options of {@link createRestService}. All optional.
 * @category REST
 */
export interface RestServiceOptions {
  /** Accepted client id; default `emulator-client`. */
  clientId?: string
  /** Accepted client secret; default `emulator-secret`. */
  clientSecret?: string
  /** Accepted audience; default the request's origin followed by `/api`. */
  audience?: string
  /** Token lifetime reported and enforced, seconds; default 3600. */
  expiresIn?: number
  /** Clock for token expiry, ms since the epoch; default `Date.now`. */
  now?: () => number
  /** P-256 secret key (32 bytes) the "satellite" signs with; default random. */
  privateKey?: Uint8Array
  /** Makes satellite values deterministic: value n = SHA-256(seed ‖ n as 8 bytes BE). Default random values. */
  satelliteSeed?: Uint8Array
  /** Seed of the `derived` fallback; default the first satellite value. */
  derivedSeed?: Uint8Array
  /** Satellite name used in responses when the request names none; default `vendororbital`. */
  satelliteSourceName?: (typeof EMULATOR_SATELLITE_NAMES)[number]
  /** Satellite names accepted in `src`; default both `vendororbital` and `aptosorbital`. */
  acceptedSatelliteNames?: readonly string[]
  /** Put the public key (hex, compressed) in `signature.pk`; default false (the live service sends ""). */
  includePublicKey?: boolean
  /** Signature encoding; default `der` (as seen live). */
  signatureFormat?: 'der' | 'compact'
  /**
   * How values are signed: `signed` (default), `null` (`"signature": null`) or `absent` (no
   * `signature` field): the public gateway currently drops the satellite signature.
   */
  signatureMode?: SignatureMode
  /** Extra fields added to every cTRNG answer (for example `{ algo: '', bulk: [] }`). */
  extraFields?: Record<string, unknown>
}

/**
 * How the emulator signs values.
 * @category REST
 */
export type SignatureMode = 'signed' | 'null' | 'absent'

/**
 * The gateway's error codes and their HTTP statuses (beacon-facts: "Authenticated REST endpoint").
 * @category REST
 */
export const GATEWAY_ERROR_STATUS = {
  authentication_failed: 401,
  token_expired: 401,
  invalid_credential: 401,
  insufficient_credits: 402,
  service_authorization_denied: 403,
  service_not_found: 404,
  rate_limit_exceeded: 429,
  internal_error: 500,
  trng_plugin_unavailable: 503,
  service_timeout: 504,
} as const

/**
 * A gateway error code the emulator can answer with.
 * @category REST
 */
export type GatewayErrorCode = keyof typeof GATEWAY_ERROR_STATUS

/**
 * A one-shot fault answering like the real gateway: the code's status and `{ error, message? }`.
 * @example service.injectFault('trng', gatewayError('insufficient_credits', 'no credits left'))
 * @category REST
 */
export function gatewayError(code: GatewayErrorCode, message?: string, headers?: Record<string, string>): RestFault {
  return { status: GATEWAY_ERROR_STATUS[code], body: message === undefined ? { error: code } : { error: code, message }, ...(headers === undefined ? {} : { headers }) }
}

/**
 * A one-shot fault: the next request to the endpoint gets this instead of the normal answer.
 * @category REST
 */
export interface RestFault {
  /** HTTP status; default 500. */
  status?: number
  /** Body: a string is sent as-is, anything else as JSON; default `{ message: "injected fault" }`. */
  body?: unknown
  /** Extra response headers (e.g. `retry-after`). */
  headers?: Record<string, string>
  /** Wait this long before answering (to provoke client timeouts). */
  delayMs?: number
  /** Close the connection without answering (a network error). */
  drop?: boolean
  /**
   * Never answer: hold the request open until the client closes the connection or the emulator
   * stops (a client timeout fires whatever its length).
   */
  hang?: boolean
  /** When set, answer normally but only after `delayMs` (no status/body override). */
  passThrough?: boolean
}

/**
 * Counters, for tests.
 * @category REST
 */
export interface RestServiceStats {
  tokenRequests: number
  tokensIssued: number
  trngRequests: number
  /** `src` values of the last cTRNG request (empty when none were sent). */
  lastSrc: string[]
  /** How many values each source produced. */
  served: { satellite: number; derived: number }
}

/**
 * A running REST emulator service; mount `handler` with `startHttpServer`.
 * @category REST
 */
export interface RestService {
  readonly handler: RouteHandler
  /** The signing key's public key, compressed SEC1 (33 bytes). */
  readonly publicKey: Uint8Array
  /** The same key uncompressed (65 bytes). */
  readonly publicKeyUncompressed: Uint8Array
  /** The public key as hex (compressed). */
  readonly publicKeyHex: string
  /** The seed of the `derived` fallback. */
  readonly derivedSeed: Uint8Array
  /** Accepted client id and audience override (the secret is not exposed here). */
  readonly clientId: string
  /** A snapshot of the counters. */
  stats(): RestServiceStats
  /** Simulates a satellite outage: satellite sources fail, `derived` answers. */
  setSatelliteOutage(on: boolean): void
  /** Makes every cTRNG request answer 500 `{ message }` until called with null. */
  inject500(message: string | null): void
  /** Queues a one-shot fault for the next `times` requests to an endpoint. */
  injectFault(endpoint: 'trng' | 'token', fault: RestFault, times?: number): void
  /** Changes the lifetime of tokens issued from now on, seconds. */
  setExpiresIn(seconds: number): void
  /** Invalidates every issued token (requests with them get 401). */
  revokeTokens(): void
  /** Changes how values are signed from now on. */
  setSignatureMode(mode: SignatureMode): void
  /** Clears faults, outage, 500 injection and counters. */
  reset(): void
}

const TOKEN_PATH = '/oauth/token'
const TRNG_PATH = '/api/v1/services/trng'

/**
 * Creates the REST + token emulator service.
 * @category REST
 */
export function createRestService(options: RestServiceOptions = {}): RestService {
  const clientId = options.clientId ?? 'emulator-client'
  const clientSecret = options.clientSecret ?? 'emulator-secret'
  const now = options.now ?? Date.now
  let expiresIn = options.expiresIn ?? 3600
  const sk = options.privateKey ?? p256.utils.randomSecretKey()
  const publicKey = p256.getPublicKey(sk, true)
  const publicKeyUncompressed = p256.getPublicKey(sk, false)
  const satelliteName = options.satelliteSourceName ?? 'vendororbital'
  const accepted = new Set(options.acceptedSatelliteNames ?? EMULATOR_SATELLITE_NAMES)
  const sigFormat = options.signatureFormat ?? 'der'
  const satSeed = options.satelliteSeed
  let satCounter = 0n

  const nextSatellite = (): Uint8Array => {
    const v = satSeed === undefined ? new Uint8Array(randomBytes(32)) : sha256(concatBytes(satSeed, uintToBytesBE(satCounter, 8)))
    satCounter++
    return v
  }
  const derivedSeed = options.derivedSeed ?? nextSatellite()
  let derived = new DerivedSource(derivedSeed)

  const tokens = new Map<string, number>() // token -> expiresAt (ms)
  let outage = false
  let fail500: string | null = null
  const faults: Record<'trng' | 'token', RestFault[]> = { trng: [], token: [] }
  let stats: RestServiceStats = freshStats()
  let signatureMode: SignatureMode = options.signatureMode ?? 'signed'
  const extra = options.extraFields ?? {}

  function value(src: string, v: Uint8Array): Record<string, unknown> {
    const body: Record<string, unknown> = { service: 'trng', src, data: bytesToHex(v) }
    if (signatureMode === 'signed') body.signature = { value: sign(v), pk: options.includePublicKey === true ? bytesToHex(publicKey) : '' }
    else if (signatureMode === 'null') body.signature = null
    return { ...body, ...extra }
  }

  function freshStats(): RestServiceStats {
    return { tokenRequests: 0, tokensIssued: 0, trngRequests: 0, lastSrc: [], served: { satellite: 0, derived: 0 } }
  }

  function sign(data: Uint8Array): string {
    // ECDSA P-256 over SHA-256(data) (noble prehashes with SHA-256 by default).
    return bytesToHex(p256.sign(data, sk, { format: sigFormat }))
  }

  async function applyFault(endpoint: 'trng' | 'token', res: ServerResponse): Promise<boolean> {
    const fault = faults[endpoint].shift()
    if (fault === undefined) return false
    if (fault.delayMs !== undefined && fault.delayMs > 0) {
      await new Promise<void>((resolve) => setTimeout(resolve, fault.delayMs).unref())
    }
    if (res.destroyed || res.writableEnded) return true
    if (fault.hang === true) {
      await untilClosed(res)
      return true
    }
    if (fault.drop === true) {
      res.socket?.destroy()
      return true
    }
    if (fault.passThrough === true) return false
    const status = fault.status ?? 500
    const body = fault.body === undefined ? { message: 'injected fault' } : fault.body
    if (typeof body === 'string') {
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...fault.headers })
      res.end(body)
    } else {
      sendJson(res, status, body, fault.headers)
    }
    return true
  }

  async function token(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    stats.tokenRequests++
    const raw = await readBody(req)
    if (await applyFault('token', res)) return
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
    if (type !== 'application/json') {
      sendJson(res, 400, { error: 'invalid_request', error_description: 'content-type must be application/json' })
      return
    }
    let body: Record<string, unknown>
    try {
      const parsed: unknown = JSON.parse(Buffer.from(raw).toString('utf8'))
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object')
      body = parsed as Record<string, unknown>
    } catch {
      sendJson(res, 400, { error: 'invalid_request', error_description: 'body must be a JSON object' })
      return
    }
    if (body.grant_type !== 'client_credentials') {
      sendJson(res, 400, { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' })
      return
    }
    if (body.client_id !== clientId || body.client_secret !== clientSecret) {
      sendJson(res, 401, { error: 'access_denied', error_description: 'Unauthorized' })
      return
    }
    const audience = options.audience ?? `http://${req.headers.host ?? url.host}/api`
    if (body.audience !== audience) {
      sendJson(res, 403, { error: 'access_denied', error_description: `Service not found: ${typeof body.audience === 'string' ? body.audience : '(none)'}` })
      return
    }
    const accessToken = `emu_${bytesToHex(new Uint8Array(randomBytes(24)))}`
    tokens.set(accessToken, now() + expiresIn * 1000)
    stats.tokensIssued++
    sendJson(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: expiresIn })
  }

  async function trng(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    stats.trngRequests++
    const auth = req.headers.authorization ?? ''
    const m = /^Bearer (\S+)$/.exec(auth)
    const exp = m === null ? undefined : tokens.get(m[1]!)
    if (exp === undefined || now() >= exp) {
      if (m !== null && exp !== undefined) tokens.delete(m[1]!)
      const expired = m !== null && exp !== undefined
      sendJson(res, 401, { error: expired ? 'token_expired' : 'authentication_failed', message: m === null ? 'Unauthorized: missing bearer token' : expired ? 'Unauthorized: token expired' : 'Unauthorized: invalid token' })
      return
    }
    const src = url.searchParams.getAll('src')
    stats.lastSrc = src
    if (await applyFault('trng', res)) return
    if (fail500 !== null) {
      sendJson(res, 500, { error: 'internal_error', message: fail500 })
      return
    }
    for (const s of src) {
      if (s !== 'derived' && !accepted.has(s)) {
        sendJson(res, 400, { message: `invalid src value: ${s}` })
        return
      }
    }
    const order = src.length === 0 ? [satelliteName, 'derived'] : src
    for (const s of order) {
      if (s === 'derived') {
        const { value: v } = derived.next()
        stats.served.derived++
        sendJson(res, 200, value('derived', v))
        return
      }
      if (!outage) {
        const v = nextSatellite()
        stats.served.satellite++
        sendJson(res, 200, value(s, v))
        return
      }
    }
    sendJson(res, 500, { error: 'internal_error', message: 'no source available: the satellites did not respond' })
  }

  /** True when `req` uses `method`; else answers 405 naming it. */
  const allowed = (req: IncomingMessage, res: ServerResponse, method: 'GET' | 'POST'): boolean => {
    if (req.method === method) return true
    sendJson(res, 405, { message: `use ${method}` }, { allow: method })
    return false
  }

  const handler: RouteHandler = async (req, res, url) => {
    if (url.pathname === TOKEN_PATH) {
      if (allowed(req, res, 'POST')) await token(req, res, url)
      return true
    }
    if (url.pathname === TRNG_PATH) {
      if (allowed(req, res, 'GET')) await trng(req, res, url)
      return true
    }
    return false
  }

  return {
    handler,
    publicKey,
    publicKeyUncompressed,
    publicKeyHex: bytesToHex(publicKey),
    derivedSeed,
    clientId,
    stats: () => ({ ...stats, lastSrc: [...stats.lastSrc], served: { ...stats.served } }),
    setSatelliteOutage(on) {
      outage = on
    },
    inject500(message) {
      fail500 = message
    },
    injectFault(endpoint, fault, times = 1) {
      for (let i = 0; i < times; i++) faults[endpoint].push({ ...fault })
    },
    setExpiresIn(seconds) {
      expiresIn = seconds
    },
    revokeTokens() {
      tokens.clear()
    },
    setSignatureMode(mode) {
      signatureMode = mode
    },
    reset() {
      outage = false
      fail500 = null
      faults.trng.length = 0
      faults.token.length = 0
      stats = freshStats()
      derived = new DerivedSource(derivedSeed)
    },
  }
}
