/**
 * Orbitport REST client: client-credentials tokens (cached, shared, refreshed early), the cTRNG
 * endpoint with a caller-chosen source order, strict response validation, optional signature
 * verification, bounded retries, and an optional fallback to the public beacon.
 *
 * Server-side only: it holds the client secret. See `docs/rest.md`.
 *
 * @module
 */
import { readBodyLimited } from '../net/body.js'
import { DEFAULT_MAX_REDIRECTS, describeRefusal, fetchNoSteer, normalizeOrigins, type RedirectPolicy } from '../net/redirect.js'
import { escapeServerText, serverCodeOf } from '../net/text.js'
import { InvalidInputError, OrbitdrawError } from '../core/errors.js'
import { bytesToHex, hexToBytes } from '../core/bytes.js'
import { LIMITS } from '../core/limits.js'
import {
  AbortError,
  AuthError,
  BrowserSecretError,
  FallbackError,
  InsufficientCreditsError,
  InvalidResponseError,
  NetworkError,
  OrbitportError,
  RateLimitedError,
  RedirectError,
  ServerError,
  ServiceNotFoundError,
  TimeoutError,
  TokenError,
  UnknownSourceError,
  UnsignedValueError,
} from './errors.js'
import { createSignatureVerifier, type SignatureOptions, type SignatureVerifier } from './signature.js'
import { MemoryTokenStore, type StoredToken, type TokenStore } from './token.js'

/** Production REST base URL. */
export const DEFAULT_BASE_URL = 'https://op.spacecomputer.io'
/** Production identity provider (the token endpoint is `{authUrl}/oauth/token`). */
export const DEFAULT_AUTH_URL = 'https://auth.spacecomputer.io'
/** Path of the cTRNG endpoint under the base URL. */
export const TRNG_PATH = '/api/v1/services/trng'
/** Path of the token endpoint under the auth URL. */
export const TOKEN_PATH = '/oauth/token'

/** Wire names the satellite source has had: the spec's `vendororbital` and the live `aptosorbital`. */
export const SATELLITE_WIRE_NAMES = ['vendororbital', 'aptosorbital'] as const
/** A wire name of the satellite source. */
export type SatelliteWireName = (typeof SATELLITE_WIRE_NAMES)[number]

/**
 * Source names accepted in `random({ src })`. `satellite`, `vendororbital` and `aptosorbital` all
 * mean the satellite source and are sent as the client's `satelliteSourceName`.
 */
export const SOURCE_NAMES = ['satellite', 'vendororbital', 'aptosorbital', 'derived'] as const
/** A source name accepted in `random({ src })`. */
export type SourceName = (typeof SOURCE_NAMES)[number]

/** Which kind of source a returned value came from. */
export type ValueSource = 'satellite' | 'derived' | 'beacon'

/** Optional logger; `console` works. Messages and fields never contain the secret or a token. */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void
  info?(message: string, fields?: Record<string, unknown>): void
  warn?(message: string, fields?: Record<string, unknown>): void
  error?(message: string, fields?: Record<string, unknown>): void
}

/** Retry policy for what is safe to retry (network errors, timeouts, 5xx, 429). */
export interface RetryOptions {
  /** Retries after the first attempt; default 2 (so at most 3 attempts). */
  retries?: number
  /** First backoff ceiling in ms; doubles each retry; default 200. */
  baseDelayMs?: number
  /** Largest backoff ceiling in ms; default 5000. */
  maxDelayMs?: number
  /** Budget for a whole call including retries and waits, in ms; default 30000. */
  deadlineMs?: number
  /** Random source in [0, 1) for the full jitter; default `Math.random`. */
  random?: () => number
}

/** The latest values of the public beacon, as a fallback provider gives them. */
export interface BeaconValues {
  /** The block's cTRNG values (32 bytes each). */
  values: Uint8Array[]
  /** The block's sequence number. */
  sequence: number
  /** The block's CID. */
  cid: string
  /** Whether the provider verified the block (IPNS record signature and content address). */
  authenticated: boolean
}

/** A provider of the public beacon's latest verified block (the beacon client implements it). */
export interface BeaconFallback {
  latestValues(signal?: AbortSignal): Promise<BeaconValues>
}

/** The part of a beacon client {@link beaconFallbackFrom} needs (structural: `BeaconClient` fits). */
export interface BeaconHeadSource {
  latest(options?: { signal?: AbortSignal }): Promise<{
    readonly block: { readonly cid: string; readonly sequence: number; readonly values: readonly Uint8Array[] }
    readonly authenticated: boolean
  }>
}

/**
 * Adapts a beacon client (anything with `latest({ signal })` returning a verified head) into a
 * {@link BeaconFallback}: the values of the latest block, labelled with its sequence, CID and
 * whether a signed record authenticated it.
 */
export function beaconFallbackFrom(beacon: BeaconHeadSource): BeaconFallback {
  return {
    async latestValues(signal?: AbortSignal): Promise<BeaconValues> {
      const head = await beacon.latest(signal === undefined ? {} : { signal })
      return { values: [...head.block.values], sequence: head.block.sequence, cid: head.block.cid, authenticated: head.authenticated }
    },
  }
}

/** Options of {@link OrbitportClient}. */
export interface OrbitportClientOptions {
  /** Client id from the access form. */
  clientId: string
  /** Client secret from the access form. Never logged or serialized. */
  clientSecret: string
  /** REST base URL; default {@link DEFAULT_BASE_URL}. */
  baseUrl?: string
  /** Identity provider URL; default {@link DEFAULT_AUTH_URL}. */
  authUrl?: string
  /** Token audience; default `{baseUrl}/api`. */
  audience?: string
  /** Wire name sent for the satellite source; default `vendororbital` (the live service has used `aptosorbital`). */
  satelliteSourceName?: SatelliteWireName
  /** Refresh the token this many seconds before it expires; default 300 (capped at half the token's lifetime). */
  refreshBufferSeconds?: number
  /** Lifetime assumed when the token response has no `expires_in`; default 3600. */
  defaultExpiresInSeconds?: number
  /** Token cache; default an in-process {@link MemoryTokenStore}. */
  tokenStore?: TokenStore
  /** Timeout of one HTTP attempt (including reading the body), ms; default 10000. */
  timeoutMs?: number
  /** Retry policy. */
  retry?: RetryOptions
  /** Verify every value's signature with these options; a bad signature is a {@link SignatureError}. */
  verify?: SignatureOptions
  /**
   * Reject values that come without a signature (`signature` null or absent) with
   * {@link UnsignedValueError}. Default: true when `verify` is set, else false (the public gateway
   * currently sends unsigned values; they are returned with `signatureVerified: false`). Needs `verify`:
   * a signature nobody checks proves nothing.
   */
  requireSignature?: boolean
  /**
   * Origins the endpoints may redirect to besides their own. Default none: a redirect to another
   * origin is a {@link RedirectError} and is never requested. Requests there carry the bearer token
   * (cTRNG) or the client secret (token endpoint): list only origins you trust with them.
   */
  allowedRedirectOrigins?: readonly string[]
  /** Most same-origin (or allow-listed) redirect hops per request; default 3 (0 follows none). */
  maxRedirects?: number
  /** Fall back to the public beacon's latest verified block when the endpoint fails. */
  beaconFallback?: BeaconFallback
  /** Which endpoint errors trigger the beacon fallback; default network, timeout, 5xx, 429, invalid response. */
  fallbackOn?: (error: unknown) => boolean
  /** `fetch` implementation; default the global `fetch`. */
  fetch?: typeof fetch
  /** Clock for token expiry, ms since the epoch; default `Date.now`. */
  now?: () => number
  /** Logger; default none. */
  logger?: Logger
  /** Largest response body accepted, bytes; default 65536. */
  maxResponseBytes?: number
  /** Allow construction in a browser despite holding a secret (spec section 5, rule 3). Default false. */
  dangerouslyAllowBrowser?: boolean
}

/** Options of {@link OrbitportClient.random}. */
export interface RandomOptions {
  /** Sources to try, in order. A single name or a list; none (or an empty list) lets the server choose. */
  src?: SourceName | readonly SourceName[]
  /** Aborts the call (including retries and waits). */
  signal?: AbortSignal
  /** Use the beacon fallback if the endpoint fails; default true when a fallback is configured. */
  fallback?: boolean
}

/** A value's signature as received (`algo` only when the server sent one). */
export interface ValueSignature {
  value: string
  pk: string
  algo?: string
}

/**
 * The cTRNG response body as received (section 2.1), after validation. `signature` is absent when
 * the server sent none or `null` (the public gateway's current behaviour). Other fields the server
 * adds (`bulk`, …) are not copied: `bulk`'s element format is unpublished, so its values are not
 * handed out.
 */
export interface CtrngResponse {
  service: 'trng'
  src: string
  data: string
  signature?: ValueSignature
  /** Top-level `algo`, when the server sent one. */
  algo?: string
}

/** A random value with where it came from. */
export interface RandomValue {
  /** `satellite`, `derived` (the server's derived fallback) or `beacon` (the public beacon fallback). */
  source: ValueSource
  /** The `src` as received (`vendororbital`, `aptosorbital`, `derived`), or `beacon`. */
  src: string
  /** The 32 random bytes. */
  data: Uint8Array
  /** The 32 bytes as lowercase hex. */
  hex: string
  /** The signature as received; absent for beacon values and unsigned values. */
  signature?: ValueSignature
  /** True when the signature was verified under a configured key. */
  signatureVerified: boolean
  /** Hex of the configured key that verified the signature. */
  verifiedBy?: string
  /** The validated response body; absent for beacon values. */
  response?: CtrngResponse
  /** For beacon values: the block and the position of the value in it. */
  beacon?: { sequence: number; cid: string; index: number; authenticated: boolean }
  /** For beacon values: why the endpoint was not used. */
  fallbackReason?: { code: string; message: string }
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom')
const RESPONSE_SATELLITE = new Set<string>(SATELLITE_WIRE_NAMES)
const REDACTED = '[REDACTED]'

interface Secrets {
  clientSecret: string
  tokens: string[]
}

/** True in a browser main thread or web worker (not in Node, Deno 2, Bun). */
export function isBrowserContext(): boolean {
  const g = globalThis as { window?: { document?: unknown }; document?: unknown; importScripts?: unknown; WorkerGlobalScope?: unknown }
  if (typeof g.window === 'object' && g.window !== null && typeof g.window.document === 'object' && g.window.document !== null) return true
  return typeof g.importScripts === 'function' && typeof g.WorkerGlobalScope !== 'undefined'
}

function checkUrl(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new InvalidInputError('INVALID_URL', `${name} must be a string`, `pass an http(s) URL such as ${DEFAULT_BASE_URL}`, { path: `$.${name}` })
  let u: URL
  try {
    u = new URL(value)
  } catch (cause) {
    throw new InvalidInputError('INVALID_URL', `${name} is not a valid URL`, `pass an http(s) URL such as ${DEFAULT_BASE_URL}`, { path: `$.${name}`, cause })
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new InvalidInputError('INVALID_URL', `${name} must use http or https`, 'use an https URL', { path: `$.${name}` })
  if (u.username !== '' || u.password !== '') throw new InvalidInputError('INVALID_URL', `${name} must not contain credentials`, 'pass credentials as clientId/clientSecret', { path: `$.${name}` })
  if (u.search !== '' || u.hash !== '') throw new InvalidInputError('INVALID_URL', `${name} must not have a query or fragment`, 'pass the base URL only', { path: `$.${name}` })
  return u.href.replace(/\/+$/, '')
}

function checkNonNegative(value: unknown, name: string, fallback: number, integer = false): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new InvalidInputError('INVALID_OPTION', `${name} must be a non-negative ${integer ? 'integer' : 'number'}`, `omit it for the default (${fallback})`, { path: `$.${name}` })
  }
  return value
}

/** Default fallback policy: the endpoint is unavailable or misbehaving (not a config or trust problem). */
export function defaultFallbackOn(error: unknown): boolean {
  if (error instanceof ServerError) return error.status >= 500
  return error instanceof NetworkError || error instanceof TimeoutError || error instanceof RateLimitedError || error instanceof InvalidResponseError
}

/** One HTTP attempt's signals. */
interface AttemptContext {
  /** Aborts on the attempt timeout, the deadline, or the caller's signal. */
  signal: AbortSignal
  callerSignal: AbortSignal | undefined
  /** True when the attempt was cut short by the whole-call deadline rather than its own timeout. */
  deadlineHit: () => boolean
}

/** Internal signal that an attempt may be retried. */
class Retryable {
  constructor(
    readonly error: OrbitdrawError,
    readonly retryAfterMs?: number,
  ) {}
}

/**
 * Client of the authenticated Orbitport REST endpoint.
 *
 * ```ts
 * const client = new OrbitportClient({ clientId: process.env.OP_CLIENT_ID!, clientSecret: process.env.OP_CLIENT_SECRET! })
 * const v = await client.random({ src: ['satellite', 'derived'] })
 * console.log(v.source, v.hex)
 * ```
 */
export class OrbitportClient {
  /** REST base URL (no trailing slash). */
  readonly baseUrl: string
  /** Identity provider URL (no trailing slash). */
  readonly authUrl: string
  /** Token audience. */
  readonly audience: string
  /** Client id (not secret). */
  readonly clientId: string
  /** Wire name sent for the satellite source. */
  readonly satelliteSourceName: SatelliteWireName

  readonly #secrets: Secrets
  readonly #store: TokenStore
  readonly #storeKey: string
  readonly #fetch: typeof fetch
  readonly #now: () => number
  readonly #logger: Logger | undefined
  readonly #bufferMs: number
  readonly #defaultLifetimeMs: number
  readonly #timeoutMs: number
  readonly #retries: number
  readonly #baseDelayMs: number
  readonly #maxDelayMs: number
  readonly #deadlineMs: number
  readonly #random: () => number
  readonly #maxBytes: number
  readonly #verifier: SignatureVerifier | undefined
  readonly #requireSignature: boolean
  readonly #redirects: RedirectPolicy
  readonly #beacon: BeaconFallback | undefined
  readonly #fallbackOn: (error: unknown) => boolean
  readonly #beaconUsed = new Map<string, number>()
  #inflight: Promise<StoredToken> | undefined

  constructor(options: OrbitportClientOptions) {
    if (options === null || typeof options !== 'object') {
      throw new InvalidInputError('INVALID_OPTION', 'OrbitportClient needs an options object', 'pass { clientId, clientSecret, ... }')
    }
    if (typeof options.clientSecret === 'string' && options.clientSecret !== '' && isBrowserContext() && options.dangerouslyAllowBrowser !== true) {
      throw new BrowserSecretError()
    }
    if (typeof options.clientId !== 'string' || options.clientId === '') {
      throw new InvalidInputError('INVALID_OPTION', 'clientId must be a non-empty string', 'pass the client id from the Orbitport access form', { path: '$.clientId' })
    }
    if (typeof options.clientSecret !== 'string' || options.clientSecret === '') {
      throw new InvalidInputError('INVALID_OPTION', 'clientSecret must be a non-empty string', 'pass the client secret from the Orbitport access form (for example from an environment variable)', { path: '$.clientSecret' })
    }
    this.baseUrl = checkUrl(options.baseUrl ?? DEFAULT_BASE_URL, 'baseUrl')
    this.authUrl = checkUrl(options.authUrl ?? DEFAULT_AUTH_URL, 'authUrl')
    this.audience = options.audience ?? `${this.baseUrl}/api`
    if (typeof this.audience !== 'string' || this.audience === '') {
      throw new InvalidInputError('INVALID_OPTION', 'audience must be a non-empty string', 'omit it to use the base URL followed by /api', { path: '$.audience' })
    }
    this.clientId = options.clientId
    const sat = options.satelliteSourceName ?? 'vendororbital'
    if (!RESPONSE_SATELLITE.has(sat)) throw new UnknownSourceError(String(sat), SATELLITE_WIRE_NAMES, { path: '$.satelliteSourceName' })
    this.satelliteSourceName = sat
    this.#secrets = { clientSecret: options.clientSecret, tokens: [] }
    this.#store = options.tokenStore ?? new MemoryTokenStore()
    this.#storeKey = `orbitport-token|${this.authUrl}|${this.clientId}|${this.audience}`
    const f = options.fetch ?? (globalThis.fetch as typeof fetch | undefined)
    if (typeof f !== 'function') throw new InvalidInputError('INVALID_OPTION', 'no fetch implementation available', 'pass one as the `fetch` option', { path: '$.fetch' })
    this.#fetch = f
    this.#now = options.now ?? Date.now
    this.#logger = options.logger
    this.#bufferMs = checkNonNegative(options.refreshBufferSeconds, 'refreshBufferSeconds', 300) * 1000
    this.#defaultLifetimeMs = checkNonNegative(options.defaultExpiresInSeconds, 'defaultExpiresInSeconds', 3600) * 1000
    this.#timeoutMs = checkNonNegative(options.timeoutMs, 'timeoutMs', LIMITS.restTimeoutMs)
    const r = options.retry ?? {}
    this.#retries = checkNonNegative(r.retries, 'retry.retries', 2, true)
    this.#baseDelayMs = checkNonNegative(r.baseDelayMs, 'retry.baseDelayMs', 200)
    this.#maxDelayMs = checkNonNegative(r.maxDelayMs, 'retry.maxDelayMs', 5000)
    this.#deadlineMs = checkNonNegative(r.deadlineMs, 'retry.deadlineMs', LIMITS.restDeadlineMs)
    this.#random = r.random ?? Math.random
    this.#maxBytes = checkNonNegative(options.maxResponseBytes, 'maxResponseBytes', LIMITS.maxRestResponseBytes, true)
    this.#verifier = options.verify === undefined ? undefined : createSignatureVerifier(options.verify)
    if (options.requireSignature !== undefined && typeof options.requireSignature !== 'boolean') {
      throw new InvalidInputError('INVALID_OPTION', 'requireSignature must be a boolean', 'omit it for the default (true when verify is set)', { path: '$.requireSignature' })
    }
    if (options.requireSignature === true && this.#verifier === undefined) {
      throw new InvalidInputError('INVALID_OPTION', 'requireSignature needs verify: a signature that is not checked proves nothing', 'pass verify: { publicKey } as well', { path: '$.requireSignature' })
    }
    this.#requireSignature = options.requireSignature ?? this.#verifier !== undefined
    let allowedOrigins: readonly string[]
    try {
      allowedOrigins = normalizeOrigins(options.allowedRedirectOrigins)
    } catch (cause) {
      throw new InvalidInputError('INVALID_OPTION', 'allowedRedirectOrigins must list http(s) origins', 'pass origins such as ["https://api.example.org"]', { path: '$.allowedRedirectOrigins', cause })
    }
    this.#redirects = { allowedOrigins, maxRedirects: checkNonNegative(options.maxRedirects, 'maxRedirects', DEFAULT_MAX_REDIRECTS, true) }
    this.#beacon = options.beaconFallback
    this.#fallbackOn = options.fallbackOn ?? defaultFallbackOn
  }

  /** URL of the cTRNG endpoint. */
  get trngUrl(): string {
    return `${this.baseUrl}${TRNG_PATH}`
  }

  /** URL of the token endpoint. */
  get tokenUrl(): string {
    return `${this.authUrl}${TOKEN_PATH}`
  }

  /**
   * Fetches one 32-byte cTRNG value. `src` lists the sources to try in order (sent as repeated `src`
   * parameters); without it no `src` is sent and the server's default order applies.
   */
  async random(options: RandomOptions = {}): Promise<RandomValue> {
    if (options === null || typeof options !== 'object') {
      throw new InvalidInputError('INVALID_OPTION', 'random() options must be an object', 'pass { src?, signal?, fallback? } or nothing')
    }
    const query = this.#sourceQuery(options.src)
    const signal = options.signal
    throwIfAborted(signal)
    try {
      return await this.#randomFromEndpoint(query, signal)
    } catch (err) {
      const wantFallback = this.#beacon !== undefined && options.fallback !== false && !(err instanceof AbortError) && this.#fallbackOn(err)
      if (!wantFallback) throw err
      this.#log('warn', 'cTRNG endpoint failed; falling back to the public beacon', { code: err instanceof OrbitdrawError ? err.code : 'UNKNOWN' })
      return await this.#fromBeacon(err, signal)
    }
  }

  /** Forgets the cached token (the next call fetches a new one). */
  async clearToken(): Promise<void> {
    await this.#store.delete(this.#storeKey)
  }

  /** Safe summary: never includes the secret or a token. */
  toJSON(): Record<string, string> {
    return { baseUrl: this.baseUrl, authUrl: this.authUrl, audience: this.audience, clientId: this.clientId, clientSecret: REDACTED, satelliteSourceName: this.satelliteSourceName }
  }

  toString(): string {
    return `OrbitportClient { baseUrl: ${this.baseUrl}, clientId: ${this.clientId}, clientSecret: ${REDACTED} }`
  }

  [INSPECT](): string {
    return `OrbitportClient ${JSON.stringify(this.toJSON(), null, 2)}`
  }

  // ---- sources -------------------------------------------------------------------------------

  #sourceQuery(src: RandomOptions['src']): string[] {
    if (src === undefined) return []
    const list: readonly unknown[] = typeof src === 'string' ? [src] : Array.isArray(src) ? src : [src]
    const out: string[] = []
    list.forEach((name, i) => {
      if (typeof name !== 'string' || !(SOURCE_NAMES as readonly string[]).includes(name)) {
        throw new UnknownSourceError(typeof name === 'string' ? name : String(name), SOURCE_NAMES, { path: typeof src === 'string' ? '$.src' : `$.src[${i}]` })
      }
      const wire = name === 'derived' ? 'derived' : this.satelliteSourceName
      if (out.includes(wire)) {
        throw new InvalidInputError('ORBITPORT_DUPLICATE_SOURCE', `source ${JSON.stringify(name)} is listed twice (as ${JSON.stringify(wire)})`, 'list each source at most once', { path: `$.src[${i}]` })
      }
      out.push(wire)
    })
    return out
  }

  // ---- cTRNG ---------------------------------------------------------------------------------

  async #randomFromEndpoint(sources: string[], signal: AbortSignal | undefined): Promise<RandomValue> {
    const params = new URLSearchParams()
    for (const s of sources) params.append('src', s)
    const qs = params.toString()
    const url = qs === '' ? this.trngUrl : `${this.trngUrl}?${qs}`
    let refreshed = false
    const body = await this.#withRetries(this.trngUrl, signal, async (begin) => {
      const token = await this.#token(signal)
      const ctx = begin()
      const res = await this.#send(url, { method: 'GET', headers: { authorization: `Bearer ${token.accessToken}`, accept: 'application/json' } }, ctx)
      const text = await this.#readBody(url, res, ctx)
      if (res.status === 401 || res.status === 403) {
        const said = this.#serverSaid(text)
        if (refreshed) throw new AuthError(this.trngUrl, res.status, said.message, { serverCode: said.code })
        refreshed = true
        this.#log('info', 'access token rejected; refreshing it once and retrying', { status: res.status, serverCode: said.code ?? null })
        await this.#invalidate(token)
        return { again: true as const }
      }
      if (res.status === 200) return { text }
      throw this.#statusError(this.trngUrl, res, text)
    })
    return this.#parseCtrng(body, sources)
  }

  #parseCtrng(text: string, requested: string[]): RandomValue {
    const url = this.trngUrl
    const json = parseJson(url, text)
    if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new InvalidResponseError(url, 'the body is not a JSON object', { path: '$' })
    const o = json as Record<string, unknown>
    if (o.service !== 'trng') throw new InvalidResponseError(url, `service is ${describeValue(o.service)}, expected "trng"`, { path: '$.service' })
    if (typeof o.src !== 'string' || (o.src !== 'derived' && !RESPONSE_SATELLITE.has(o.src))) {
      throw new InvalidResponseError(url, `src is ${describeValue(o.src)}, expected one of "vendororbital", "aptosorbital", "derived"`, { path: '$.src' })
    }
    const source: ValueSource = o.src === 'derived' ? 'derived' : 'satellite'
    if (requested.length > 0 && !requested.some((r) => (r === 'derived' ? source === 'derived' : source === 'satellite'))) {
      throw new InvalidResponseError(url, `src is ${JSON.stringify(o.src)}, which was not among the requested sources ${JSON.stringify(requested)}`, { path: '$.src' })
    }
    if (typeof o.data !== 'string' || !/^[0-9a-fA-F]{64}$/.test(o.data)) {
      throw new InvalidResponseError(url, `data is ${describeValue(o.data)}, expected exactly 64 hexadecimal characters`, { path: '$.data' })
    }
    const algo = optionalAlgo(url, o.algo, '$.algo')
    const sig = o.signature
    // The public gateway currently drops the satellite signature: null or absent is an unsigned value.
    let signature: ValueSignature | undefined
    if (sig !== null && sig !== undefined) {
      if (typeof sig !== 'object' || Array.isArray(sig)) throw new InvalidResponseError(url, `signature is ${describeValue(sig)}, expected an object or null`, { path: '$.signature' })
      const s = sig as Record<string, unknown>
      if (typeof s.value !== 'string' || !/^(?:0x)?(?:[0-9a-fA-F]{2})*$/.test(s.value)) {
        throw new InvalidResponseError(url, `signature.value is ${describeValue(s.value)}, expected a hex string`, { path: '$.signature.value' })
      }
      if (s.pk !== undefined && typeof s.pk !== 'string') throw new InvalidResponseError(url, `signature.pk is ${describeValue(s.pk)}, expected a string (possibly empty)`, { path: '$.signature.pk' })
      const sigAlgo = optionalAlgo(url, s.algo, '$.signature.algo')
      signature = { value: s.value, pk: typeof s.pk === 'string' ? s.pk : '', ...(sigAlgo === undefined ? {} : { algo: sigAlgo }) }
      // An empty value is no signature either (seen while a key is pending).
      if (s.value === '' || s.value === '0x') signature = undefined
    }
    const data = hexToBytes(o.data, '$.data')
    const hex = bytesToHex(data)
    if (signature === undefined && this.#requireSignature) throw new UnsignedValueError(url)
    const response: CtrngResponse = { service: 'trng', src: o.src, data: o.data, ...(signature === undefined ? {} : { signature: { ...signature } }), ...(algo === undefined ? {} : { algo }) }
    let verifiedBy: string | undefined
    if (this.#verifier !== undefined && signature !== undefined) verifiedBy = this.#verifier.assert(data, signature.value)
    const out: RandomValue = { source, src: o.src, data, hex, signatureVerified: verifiedBy !== undefined, response }
    if (signature !== undefined) out.signature = signature
    if (verifiedBy !== undefined) out.verifiedBy = verifiedBy
    this.#log('debug', 'cTRNG value received', { src: o.src, signed: signature !== undefined, verified: verifiedBy !== undefined })
    return out
  }

  // ---- beacon fallback -----------------------------------------------------------------------

  async #fromBeacon(endpointError: unknown, signal: AbortSignal | undefined): Promise<RandomValue> {
    let latest: BeaconValues
    try {
      latest = await this.#beacon!.latestValues(signal)
    } catch (err) {
      if (signal?.aborted === true) throw new AbortError({ cause: err })
      throw new FallbackError(endpointError, err)
    }
    const problem = checkBeaconValues(latest)
    if (problem !== undefined) throw new FallbackError(endpointError, new OrbitportError('ORBITPORT_BEACON_INVALID', problem, 'the beacon fallback provider returned malformed values'))
    const used = this.#beaconUsed.get(latest.cid) ?? 0
    if (used >= latest.values.length) {
      throw new FallbackError(
        endpointError,
        new OrbitportError('ORBITPORT_BEACON_EXHAUSTED', `all ${latest.values.length} values of beacon block ${latest.sequence} were already used by this client`, 'wait for the next beacon block (one every 60 s) or for the endpoint to recover'),
      )
    }
    this.#beaconUsed.set(latest.cid, used + 1)
    while (this.#beaconUsed.size > 16) this.#beaconUsed.delete(this.#beaconUsed.keys().next().value!)
    const data = latest.values[used]!.slice()
    const reason = endpointError instanceof OrbitdrawError ? { code: endpointError.code, message: endpointError.message } : { code: 'UNKNOWN', message: this.#scrub(String(endpointError)) }
    this.#log('warn', 'value taken from the public beacon', { sequence: latest.sequence, cid: latest.cid, index: used, authenticated: latest.authenticated })
    return {
      source: 'beacon',
      src: 'beacon',
      data,
      hex: bytesToHex(data),
      signatureVerified: false,
      beacon: { sequence: latest.sequence, cid: latest.cid, index: used, authenticated: latest.authenticated },
      fallbackReason: reason,
    }
  }

  // ---- tokens --------------------------------------------------------------------------------

  #isFresh(t: StoredToken | undefined): t is StoredToken {
    if (t === undefined || typeof t.accessToken !== 'string' || t.accessToken === '') return false
    const lifetime = t.expiresAt - t.obtainedAt
    const buffer = Math.min(this.#bufferMs, lifetime / 2)
    return this.#now() < t.expiresAt - buffer
  }

  async #token(signal: AbortSignal | undefined): Promise<StoredToken> {
    const cached = await this.#store.get(this.#storeKey)
    if (this.#isFresh(cached)) {
      this.#remember(cached.accessToken)
      return cached
    }
    if (this.#inflight === undefined) {
      const p = this.#fetchToken().finally(() => {
        if (this.#inflight === p) this.#inflight = undefined
      })
      p.catch(() => undefined)
      this.#inflight = p
    }
    return raceAbort(this.#inflight, signal)
  }

  async #invalidate(token: StoredToken): Promise<void> {
    const current = await this.#store.get(this.#storeKey)
    if (current !== undefined && current.accessToken === token.accessToken) await this.#store.delete(this.#storeKey)
  }

  async #fetchToken(): Promise<StoredToken> {
    const url = this.tokenUrl
    const obtainedAt = this.#now()
    const body = JSON.stringify({ client_id: this.clientId, client_secret: this.#secrets.clientSecret, audience: this.audience, grant_type: 'client_credentials' })
    this.#log('debug', 'requesting an access token', { url, audience: this.audience })
    const text = await this.#withRetries(url, undefined, async (begin) => {
      const ctx = begin()
      const res = await this.#send(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body }, ctx)
      const t = await this.#readBody(url, res, ctx)
      if (res.status === 200) return { text: t }
      if (res.status === 400 || res.status === 401 || res.status === 403) {
        const j = tryJson(t)
        const err = j !== null && typeof j === 'object' ? (j as Record<string, unknown>) : {}
        const oauthError = typeof err.error === 'string' ? escapeServerText(this.#scrub(err.error), 200) : undefined
        const desc = typeof err.error_description === 'string' ? escapeServerText(this.#scrub(err.error_description), 300) : typeof err.message === 'string' ? escapeServerText(this.#scrub(err.message), 300) : undefined
        throw new TokenError(url, res.status, oauthError, desc)
      }
      throw this.#statusError(url, res, t)
    })
    const json = parseJson(url, text)
    if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new InvalidResponseError(url, 'the token response is not a JSON object', { path: '$' })
    const o = json as Record<string, unknown>
    if (typeof o.access_token !== 'string' || o.access_token === '') throw new InvalidResponseError(url, 'access_token is missing or not a non-empty string', { path: '$.access_token' })
    const accessToken = o.access_token
    this.#remember(accessToken)
    if (o.token_type !== undefined && (typeof o.token_type !== 'string' || o.token_type.toLowerCase() !== 'bearer')) {
      throw new InvalidResponseError(url, `token_type is ${describeValue(o.token_type)}, expected "Bearer"`, { path: '$.token_type' })
    }
    let lifetimeMs: number
    if (o.expires_in === undefined) {
      lifetimeMs = this.#defaultLifetimeMs
      this.#log('warn', 'token response has no expires_in; assuming the default lifetime', { seconds: lifetimeMs / 1000 })
    } else {
      const n = typeof o.expires_in === 'number' ? o.expires_in : typeof o.expires_in === 'string' && /^\d+$/.test(o.expires_in) ? Number(o.expires_in) : NaN
      if (!Number.isFinite(n) || n <= 0) throw new InvalidResponseError(url, `expires_in is ${describeValue(o.expires_in)}, expected a positive number of seconds`, { path: '$.expires_in' })
      lifetimeMs = n * 1000
    }
    const token: StoredToken = { accessToken, obtainedAt, expiresAt: obtainedAt + lifetimeMs }
    await this.#store.set(this.#storeKey, token)
    this.#log('info', 'access token obtained', { expiresInSeconds: lifetimeMs / 1000 })
    return token
  }

  #remember(token: string): void {
    const list = this.#secrets.tokens
    if (list.includes(token)) return
    list.push(token)
    if (list.length > 8) list.shift()
  }

  // ---- HTTP ----------------------------------------------------------------------------------

  /**
   * Runs `attempt` with bounded retries. `attempt` returns `{ text }` on success, `{ again: true }` to
   * repeat at once without counting a retry (the one 401 refresh), or throws; a thrown
   * {@link Retryable} is retried with backoff and jitter within the count and time budget.
   */
  async #withRetries(url: string, signal: AbortSignal | undefined, attempt: (begin: () => AttemptContext) => Promise<{ text: string } | { again: true }>): Promise<string> {
    const deadline = performance.now() + this.#deadlineMs
    let retry = 0
    for (;;) {
      throwIfAborted(signal)
      let timer: ReturnType<typeof setTimeout> | undefined
      let onAbort: (() => void) | undefined
      // The per-attempt timer starts when the request is sent (not while waiting for a token).
      const begin = (): AttemptContext => {
        const remaining = deadline - performance.now()
        if (remaining <= 0) throw new TimeoutError(url, this.#deadlineMs, 'deadline')
        const ctl = new AbortController()
        const limit = Math.min(this.#timeoutMs, remaining)
        let timedOut = false
        timer = setTimeout(() => {
          timedOut = true
          ctl.abort()
        }, limit)
        onAbort = (): void => ctl.abort()
        signal?.addEventListener('abort', onAbort, { once: true })
        return { signal: ctl.signal, callerSignal: signal, deadlineHit: () => timedOut && limit < this.#timeoutMs }
      }
      try {
        const r = await attempt(begin)
        if ('text' in r) return r.text
        continue
      } catch (err) {
        if (!(err instanceof Retryable)) throw err
        if (retry >= this.#retries) throw err.error
        const ceiling = Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** retry)
        let delay = this.#random() * ceiling
        if (err.retryAfterMs !== undefined) delay = Math.max(delay, err.retryAfterMs)
        if (performance.now() + delay >= deadline) throw err.error
        retry++
        this.#log('warn', 'request failed; retrying', { url, code: err.error.code, retry, delayMs: Math.round(delay) })
        await sleep(delay, signal)
      } finally {
        if (timer !== undefined) clearTimeout(timer)
        if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort)
      }
    }
  }

  async #send(url: string, init: RequestInit, ctx: AttemptContext): Promise<Response> {
    try {
      return await fetchNoSteer(this.#fetch, url, { ...init, signal: ctx.signal }, this.#redirects, (r) => new RedirectError(this.#scrub(describeRefusal(r)), r.reason, r.toOrigin))
    } catch (err) {
      if (err instanceof RedirectError) throw err
      throw this.#transportError(url, err, ctx)
    }
  }

  #transportError(url: string, err: unknown, ctx: AttemptContext): unknown {
    const bare = stripQuery(url)
    if (ctx.callerSignal?.aborted === true) return new AbortError({ cause: ctx.callerSignal.reason })
    if (ctx.signal.aborted) {
      if (ctx.deadlineHit()) return new TimeoutError(bare, this.#deadlineMs, 'deadline')
      return new Retryable(new TimeoutError(bare, this.#timeoutMs, 'attempt'))
    }
    const detail = err instanceof Error ? `${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ''}` : String(err)
    return new Retryable(new NetworkError(bare, this.#scrub(detail), { cause: err }))
  }

  async #readBody(url: string, res: Response, ctx: AttemptContext): Promise<string> {
    try {
      const bytes = await readBodyLimited(res, this.#maxBytes, (declared) =>
        new InvalidResponseError(stripQuery(url), declared === undefined ? `the body is over the ${this.#maxBytes}-byte limit` : `the body is ${declared} bytes, over the ${this.#maxBytes}-byte limit`),
      )
      return new TextDecoder('utf-8').decode(bytes)
    } catch (err) {
      if (err instanceof OrbitdrawError) throw err
      throw this.#transportError(url, err, ctx)
    }
  }

  /**
   * The typed error for a non-200 answer, from its status and the gateway's `{error, message?}` body:
   * 402 {@link InsufficientCreditsError}, 404 {@link ServiceNotFoundError}, 429
   * {@link RateLimitedError} (retried after Retry-After), 5xx {@link ServerError} (retried), other
   * statuses {@link ServerError} (not retried). Each carries the server's code as `serverCode`.
   */
  #statusError(url: string, res: Response, text: string): unknown {
    const said = this.#serverSaid(text)
    const opts = { serverCode: said.code }
    if (res.status === 429) {
      const retryAfter = parseRetryAfter(res.headers.get('retry-after'), this.#now())
      return new Retryable(new RateLimitedError(url, retryAfter, { ...opts, serverMessage: said.message }), retryAfter === undefined ? undefined : retryAfter * 1000)
    }
    if (res.status === 402) return new InsufficientCreditsError(url, said.message, opts)
    if (res.status === 404) return new ServiceNotFoundError(url, said.message, opts)
    const err = new ServerError(url, res.status, said.message, opts)
    return res.status >= 500 ? new Retryable(err) : err
  }

  /**
   * What the server said: the `error` code of a JSON error body (when it looks like a code) and its
   * `message` (section 2.4), or a short snippet of a non-JSON body; scrubbed of secrets, escaped and
   * capped.
   */
  #serverSaid(text: string): { code: string | undefined; message: string | undefined } {
    const j = tryJson(text)
    const o = j !== null && typeof j === 'object' && !Array.isArray(j) ? (j as Record<string, unknown>) : undefined
    if (o !== undefined) {
      const code = serverCodeOf(o.error)
      const m = o.message
      if (typeof m === 'string') return { code, message: escapeServerText(this.#scrub(m), 300) }
      // An `error` that is not a well-formed code is still shown, as text.
      if (code === undefined && typeof o.error === 'string') return { code, message: escapeServerText(this.#scrub(o.error), 300) }
      if (code !== undefined) return { code, message: undefined }
    }
    const t = text.trim()
    return { code: undefined, message: t === '' ? undefined : escapeServerText(this.#scrub(t), 200) }
  }

  /** Removes the secret and every token this client has seen from server-provided text. */
  #scrub(text: string): string {
    let out = text
    for (const s of [this.#secrets.clientSecret, ...this.#secrets.tokens]) {
      if (s.length > 0) out = out.split(s).join(REDACTED)
    }
    return out
  }

  #log(level: keyof Logger, message: string, fields: Record<string, unknown>): void {
    const fn = this.#logger?.[level]
    if (typeof fn !== 'function') return
    try {
      const safe = JSON.parse(this.#scrub(JSON.stringify(fields))) as Record<string, unknown>
      fn.call(this.#logger, `orbitport: ${this.#scrub(message)}`, safe)
    } catch {
      // a logger must never break a call
    }
  }
}

function stripQuery(url: string): string {
  const i = url.indexOf('?')
  return i < 0 ? url : url.slice(0, i)
}

function parseJson(url: string, text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (cause) {
    throw new InvalidResponseError(stripQuery(url), 'the body is not valid JSON', { path: '$', cause })
  }
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

function optionalAlgo(url: string, v: unknown, path: string): string | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string' || v.length > 64) throw new InvalidResponseError(url, `algo is ${describeValue(v)}, expected a short string`, { path })
  return v
}

function describeValue(v: unknown): string {
  if (v === undefined) return 'missing'
  if (typeof v === 'string') return v.length > 80 ? `a ${v.length}-character string` : JSON.stringify(v)
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  return `a ${typeof v}`
}

/** Parses `Retry-After` (delta-seconds or HTTP-date) into seconds, or undefined. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined
  const v = value.trim()
  if (/^\d+$/.test(v)) return Number(v)
  const t = Date.parse(v)
  if (Number.isNaN(t)) return undefined
  return Math.max(0, Math.ceil((t - nowMs) / 1000))
}

function checkBeaconValues(b: BeaconValues): string | undefined {
  if (b === null || typeof b !== 'object') return 'the fallback returned no block'
  if (!Array.isArray(b.values) || b.values.length === 0) return 'the fallback block has no values'
  for (const v of b.values) if (!(v instanceof Uint8Array) || v.length !== 32) return 'a fallback value is not 32 bytes'
  if (typeof b.cid !== 'string' || b.cid === '') return 'the fallback block has no CID'
  if (!Number.isSafeInteger(b.sequence)) return 'the fallback block has no sequence number'
  return undefined
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw new AbortError({ cause: signal.reason })
}

function raceAbort<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return p
  if (signal.aborted) return Promise.reject(new AbortError({ cause: signal.reason }))
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new AbortError({ cause: signal.reason }))
    signal.addEventListener('abort', onAbort, { once: true })
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort)
        resolve(v)
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(e)
      },
    )
  })
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(new AbortError({ cause: signal.reason }))
      return
    }
    const onAbort = (): void => {
      clearTimeout(t)
      reject(new AbortError({ cause: signal?.reason }))
    }
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
