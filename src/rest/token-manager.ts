/**
 * Access tokens for the REST client (OAuth client credentials): cached in a {@link TokenStore},
 * shared by concurrent calls (one request in flight), refreshed before they expire, and dropped when
 * the API rejects them. Every token obtained is handed to the scrubber at once.
 *
 * @module
 */
import { raceAbort } from '../net/abort.js'
import { escapeServerText } from '../net/text.js'
import { InvalidResponseError, TokenError } from './errors.js'
import type { RestHttp } from './http.js'
import { describeValue, parseJson, statusError, tryJson } from './response.js'
import { withRetries, type RetryPolicy } from './retry.js'
import type { SecretScrubber } from './scrub.js'
import type { StoredToken, TokenStore } from './token.js'

/** RFC 6750 section 2.1 `b64token`, the only characters a bearer token may have. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/

/**
 * The shortest access token accepted, in characters. RFC 6749 section 10.10 asks that a token be
 * guessed with probability at most 2^-128; a `b64token` character carries at most about 6 bits, so no
 * shorter token can (16 random bytes in base64url are 22 characters; real OAuth tokens are JWTs of
 * hundreds). A shorter one is refused: the scrubber could not keep it out of messages without
 * redacting every occurrence of its characters (a one-character token, every such letter).
 */
export const MIN_ACCESS_TOKEN_CHARS = 22

/**
 * The longest a token is cached, ms (24 hours): a longer `expires_in` (1e308 would be for ever) is
 * cached this long, then a new token is fetched. A cache policy, not a correction of the server.
 */
export const MAX_TOKEN_CACHE_MS = 24 * 3600 * 1000

/**
 * The shortest lifetime worth caching, ms (1 second): a token that lives less serves the calls
 * waiting for it and is not stored, so the next call fetches its own (as the server asked).
 */
export const MIN_TOKEN_CACHE_MS = 1000

/** Why `token` cannot be a bearer token here, or undefined when it can (never says its value). */
function accessTokenProblem(token: string): string | undefined {
  const size = `${token.length} character${token.length === 1 ? '' : 's'}`
  if (token.length < MIN_ACCESS_TOKEN_CHARS) return `access_token (${size}) is too short to be a credential: at least ${MIN_ACCESS_TOKEN_CHARS} characters (RFC 6749 section 10.10: a token must not be guessable)`
  // It goes into an Authorization header: only the RFC 6750 b64token characters. A token with a line
  // break or a control character would fail every request as a "network error", retried in vain.
  if (!BEARER_TOKEN.test(token)) return `access_token (${size}) is not a bearer token: only letters, digits and - . _ ~ + / (then =) may appear in one (RFC 6750)`
  return undefined
}

/** What a {@link TokenManager} needs. */
export interface TokenManagerOptions {
  /** Token endpoint URL. */
  readonly url: string
  readonly clientId: string
  readonly clientSecret: string
  readonly audience: string
  readonly store: TokenStore
  /** Key of this client's token in the store (never the secret). */
  readonly storeKey: string
  /** Refresh this long before expiry, ms (capped at half the token's lifetime). */
  readonly refreshBufferMs: number
  /** Lifetime assumed when the response has no `expires_in`, ms. */
  readonly defaultLifetimeMs: number
  readonly now: () => number
  readonly http: RestHttp
  readonly retry: RetryPolicy
  readonly scrubber: SecretScrubber
  /** Logs (already scrubbed by the caller's logger). */
  readonly log: (level: 'debug' | 'info' | 'warn', message: string, fields: Record<string, unknown>) => void
}

/** Gets, caches and refreshes access tokens. */
export class TokenManager {
  readonly #o: TokenManagerOptions
  #inflight: Promise<StoredToken> | undefined

  constructor(options: TokenManagerOptions) {
    this.#o = options
  }

  /** A fresh token: the cached one, or a new one (one request shared by concurrent callers). */
  async get(signal: AbortSignal | undefined): Promise<StoredToken> {
    const cached = await this.#o.store.get(this.#o.storeKey)
    if (this.#isFresh(cached)) {
      this.#o.scrubber.remember(cached.accessToken)
      return cached
    }
    if (this.#inflight === undefined) {
      const p = this.#fetch().finally(() => {
        if (this.#inflight === p) this.#inflight = undefined
      })
      p.catch(() => undefined)
      this.#inflight = p
    }
    return raceAbort(this.#inflight, signal, { edge: 'rest' })
  }

  /** Drops `token` from the store if it is still the stored one (the API rejected it). */
  async invalidate(token: StoredToken): Promise<void> {
    const current = await this.#o.store.get(this.#o.storeKey)
    if (current !== undefined && current.accessToken === token.accessToken) await this.#o.store.delete(this.#o.storeKey)
  }

  /** Forgets the cached token. */
  async clear(): Promise<void> {
    await this.#o.store.delete(this.#o.storeKey)
  }

  /**
   * Whether a stored token may still be used: one this client would accept from the token endpoint
   * (a store is shared, and may hold what another version wrote), used at most {@link MAX_TOKEN_CACHE_MS}
   * after it was obtained, and refreshed `refreshBufferMs` (at most half its lifetime) before it expires.
   */
  #isFresh(t: StoredToken | undefined): t is StoredToken {
    if (t === undefined || typeof t.accessToken !== 'string' || accessTokenProblem(t.accessToken) !== undefined) return false
    if (!Number.isFinite(t.obtainedAt) || typeof t.expiresAt !== 'number' || Number.isNaN(t.expiresAt)) return false
    const expiresAt = Math.min(t.expiresAt, t.obtainedAt + MAX_TOKEN_CACHE_MS)
    const lifetime = expiresAt - t.obtainedAt
    const buffer = Math.min(this.#o.refreshBufferMs, lifetime / 2)
    return this.#o.now() < expiresAt - buffer
  }

  async #fetch(): Promise<StoredToken> {
    const o = this.#o
    const url = o.url
    const scrub = (s: string): string => o.scrubber.scrub(s)
    const obtainedAt = o.now()
    const body = JSON.stringify({ client_id: o.clientId, client_secret: o.clientSecret, audience: o.audience, grant_type: 'client_credentials' })
    o.log('debug', 'requesting an access token', { url, audience: o.audience })
    const text = await withRetries(
      o.retry,
      url,
      undefined,
      async (begin) => {
        const ctx = begin()
        const res = await o.http.send(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body }, ctx)
        const t = await o.http.readBody(url, res, ctx)
        if (res.status === 200) return { text: t }
        if (res.status === 400 || res.status === 401 || res.status === 403) {
          const j = tryJson(t)
          const err = j !== null && typeof j === 'object' ? (j as Record<string, unknown>) : {}
          const oauthError = typeof err.error === 'string' ? escapeServerText(scrub(err.error), 200) : undefined
          const desc = typeof err.error_description === 'string' ? escapeServerText(scrub(err.error_description), 300) : typeof err.message === 'string' ? escapeServerText(scrub(err.message), 300) : undefined
          throw new TokenError(url, res.status, oauthError, desc)
        }
        throw statusError(url, res, t, scrub, o.now())
      },
      (r) => o.log('warn', 'request failed; retrying', { url, code: r.error.code, retry: r.retry, delayMs: Math.round(r.delayMs) }),
    )
    const json = parseJson(url, text)
    if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new InvalidResponseError(url, 'the token response is not a JSON object', { path: '$' })
    const r = json as Record<string, unknown>
    if (typeof r.access_token !== 'string' || r.access_token === '') throw new InvalidResponseError(url, 'access_token is missing or not a non-empty string', { path: '$.access_token' })
    const accessToken = r.access_token
    // Scrubbed from here on, unless too short to scrub (then refused below, never used or shown).
    if (accessToken.length >= MIN_ACCESS_TOKEN_CHARS) o.scrubber.remember(accessToken)
    const problem = accessTokenProblem(accessToken)
    if (problem !== undefined) throw new InvalidResponseError(url, problem, { path: '$.access_token' })
    if (r.token_type !== undefined && (typeof r.token_type !== 'string' || r.token_type.toLowerCase() !== 'bearer')) {
      throw new InvalidResponseError(url, `token_type is ${describeValue(r.token_type)}, expected "Bearer"`, { path: '$.token_type' })
    }
    // The lifetime in ms (1e308 s is Infinity ms: capped below) and in seconds as the server said it.
    let lifetimeMs: number
    let seconds: number
    if (r.expires_in === undefined) {
      lifetimeMs = o.defaultLifetimeMs
      seconds = lifetimeMs / 1000
      o.log('warn', 'token response has no expires_in; assuming the default lifetime', { seconds })
    } else {
      // A finite positive number of seconds (JSON's 1e999 reads as Infinity: refused, like 0, -5, null or "soon").
      const n = typeof r.expires_in === 'number' ? r.expires_in : typeof r.expires_in === 'string' && /^\d+$/.test(r.expires_in) ? Number(r.expires_in) : NaN
      if (!Number.isFinite(n) || n <= 0) throw new InvalidResponseError(url, `expires_in is ${describeValue(r.expires_in)}, expected a positive number of seconds`, { path: '$.expires_in' })
      lifetimeMs = n * 1000
      seconds = n
    }
    // The cache policy: at most MAX_TOKEN_CACHE_MS; under MIN_TOKEN_CACHE_MS, only the calls waiting now use it.
    const cachedMs = Math.min(lifetimeMs, MAX_TOKEN_CACHE_MS)
    const token: StoredToken = { accessToken, obtainedAt, expiresAt: obtainedAt + cachedMs }
    if (cachedMs < MIN_TOKEN_CACHE_MS) {
      o.log('warn', 'the access token lives less than 1 s: used for the calls waiting for it, not cached', { expiresInSeconds: seconds })
      return token
    }
    await o.store.set(o.storeKey, token)
    o.log('info', 'access token obtained', { expiresInSeconds: seconds, ...(cachedMs < lifetimeMs ? { cachedForSeconds: cachedMs / 1000 } : {}) })
    return token
  }
}
