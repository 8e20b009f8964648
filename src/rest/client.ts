/**
 * Orbitport REST client: client-credentials tokens (cached, shared, refreshed early), the cTRNG
 * endpoint with a caller-chosen source order, strict response validation, optional signature
 * verification, bounded retries, and an optional fallback to the public beacon.
 *
 * The client composes single-purpose modules: options (`options.ts`), the token manager
 * (`token-manager.ts`), the retry policy (`retry.ts`), requests (`http.ts`), response parsing
 * (`response.ts`), the beacon fallback (`fallback.ts`) and secret scrubbing (`scrub.ts`).
 *
 * Server-side only: it holds the client secret. See `docs/rest.md`.
 *
 * @module
 */
import { InvalidInputError, OrbitdrawError } from '../core/errors.js'
import { throwIfAborted } from '../net/abort.js'
import { AbortedError } from '../net/errors.js'
import { AuthError, UnknownSourceError } from './errors.js'
import { BeaconValueDispenser, defaultFallbackOn } from './fallback.js'
import { RestHttp } from './http.js'
import { resolveOptions, TOKEN_PATH, TRNG_PATH, type OrbitportClientOptions, type ResolvedOptions } from './options.js'
import { parseCtrng, serverSaid, statusError, type RandomValue, type SatelliteWireName } from './response.js'
import { withRetries, type RetryPolicy } from './retry.js'
import { REDACTED, SecretScrubber, type Logger } from './scrub.js'
import { TokenManager } from './token-manager.js'

/**
 * Source names accepted in `random({ src })`. `satellite`, `vendororbital` and `aptosorbital` all
 * mean the satellite source and are sent as the client's `satelliteSourceName`.
 * @category REST
 */
export const SOURCE_NAMES = ['satellite', 'vendororbital', 'aptosorbital', 'derived'] as const
/**
 * A source name accepted in `random({ src })`.
 * @category REST
 */
export type SourceName = (typeof SOURCE_NAMES)[number]

/**
 * Options of {@link OrbitportClient.random}.
 * @category REST
 */
export interface RandomOptions {
  /** Sources to try, in order. A single name or a list; none (or an empty list) lets the server choose. */
  src?: SourceName | readonly SourceName[]
  /** Aborts the call (including retries and waits). */
  signal?: AbortSignal
  /** Use the beacon fallback if the endpoint fails; default true when a fallback is configured. */
  fallback?: boolean
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom')

/**
 * Client of the authenticated Orbitport REST endpoint.
 *
 * @example
 * ```ts
 * const client = new OrbitportClient({ clientId: process.env.OP_CLIENT_ID!, clientSecret: process.env.OP_CLIENT_SECRET! })
 * const v = await client.random({ src: ['satellite', 'derived'] })
 * console.log(v.source, v.hex)
 * ```
 * @category REST
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

  readonly #o: ResolvedOptions
  readonly #scrubber: SecretScrubber
  readonly #retry: RetryPolicy
  readonly #http: RestHttp
  readonly #tokens: TokenManager
  readonly #beacon: BeaconValueDispenser | undefined
  readonly #fallbackOn: (error: unknown) => boolean

  constructor(options: OrbitportClientOptions) {
    const o = resolveOptions(options)
    this.#o = o
    this.baseUrl = o.baseUrl
    this.authUrl = o.authUrl
    this.audience = o.audience
    this.clientId = o.clientId
    this.satelliteSourceName = o.satelliteSourceName
    const scrubber = new SecretScrubber(o.clientSecret)
    this.#scrubber = scrubber
    const scrub = (text: string): string => scrubber.scrub(text)
    this.#retry = { ...o.retry, timeoutMs: o.timeoutMs }
    this.#http = new RestHttp({ fetch: o.fetch, redirects: o.redirects, maxResponseBytes: o.maxResponseBytes, timeoutMs: o.timeoutMs, deadlineMs: o.retry.deadlineMs, scrub })
    this.#tokens = new TokenManager({
      url: this.tokenUrl,
      clientId: o.clientId,
      clientSecret: o.clientSecret,
      audience: o.audience,
      store: o.tokenStore,
      storeKey: `orbitport-token|${o.authUrl}|${o.clientId}|${o.audience}`,
      refreshBufferMs: o.refreshBufferMs,
      defaultLifetimeMs: o.defaultLifetimeMs,
      now: o.now,
      http: this.#http,
      retry: this.#retry,
      scrubber,
      log: (level, message, fields) => this.#log(level, message, fields),
    })
    this.#beacon = o.beaconFallback === undefined ? undefined : new BeaconValueDispenser(o.beaconFallback, scrub, (message, fields) => this.#log('warn', message, fields))
    this.#fallbackOn = o.fallbackOn ?? defaultFallbackOn
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
    throwIfAborted(signal, { edge: 'rest' })
    try {
      return await this.#randomFromEndpoint(query, signal)
    } catch (err) {
      const wantFallback = this.#beacon !== undefined && options.fallback !== false && !(err instanceof AbortedError) && this.#fallbackOn(err)
      if (!wantFallback) throw err
      this.#log('warn', 'cTRNG endpoint failed; falling back to the public beacon', { code: err instanceof OrbitdrawError ? err.code : 'UNKNOWN' })
      return await this.#beacon!.next(err, signal)
    }
  }

  /** Forgets the cached token (the next call fetches a new one). */
  async clearToken(): Promise<void> {
    await this.#tokens.clear()
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

  async #randomFromEndpoint(sources: string[], signal: AbortSignal | undefined): Promise<RandomValue> {
    const params = new URLSearchParams()
    for (const s of sources) params.append('src', s)
    const qs = params.toString()
    const url = qs === '' ? this.trngUrl : `${this.trngUrl}?${qs}`
    const scrub = (text: string): string => this.#scrubber.scrub(text)
    let refreshed = false
    const body = await withRetries(
      this.#retry,
      this.trngUrl,
      signal,
      async (begin) => {
        const token = await this.#tokens.get(signal)
        const ctx = begin()
        const res = await this.#http.send(url, { method: 'GET', headers: { authorization: `Bearer ${token.accessToken}`, accept: 'application/json' } }, ctx)
        const text = await this.#http.readBody(url, res, ctx)
        if (res.status === 401 || res.status === 403) {
          const said = serverSaid(text, scrub)
          if (refreshed) throw new AuthError(this.trngUrl, res.status, said.message, { serverCode: said.code })
          refreshed = true
          this.#log('info', 'access token rejected; refreshing it once and retrying', { status: res.status, serverCode: said.code ?? null })
          await this.#tokens.invalidate(token)
          return { again: true as const }
        }
        if (res.status === 200) return { text }
        throw statusError(this.trngUrl, res, text, scrub, this.#o.now())
      },
      (r) => this.#log('warn', 'request failed; retrying', { url: this.trngUrl, code: r.error.code, retry: r.retry, delayMs: Math.round(r.delayMs) }),
    )
    const value = parseCtrng(body, { url: this.trngUrl, requested: sources, verifier: this.#o.verifier, requireSignature: this.#o.requireSignature })
    this.#log('debug', 'cTRNG value received', { src: value.src, signed: value.signature !== undefined, verified: value.verifiedBy !== undefined })
    return value
  }

  #log(level: keyof Logger, message: string, fields: Record<string, unknown>): void {
    this.#scrubber.log(this.#o.logger, level, message, fields)
  }
}
