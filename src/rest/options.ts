/**
 * Options of the REST client: their types, defaults and checks, resolved once into plain values.
 *
 * @module
 */
import { InvalidInputError } from '../core/errors.js'
import { LIMITS } from '../core/limits.js'
import { allowedOriginsOption, DEFAULT_MAX_REDIRECTS, type RedirectPolicy } from '../net/redirect.js'
import { BrowserSecretError, UnknownSourceError } from './errors.js'
import type { BeaconFallback } from './fallback.js'
import { SATELLITE_WIRE_NAMES, type SatelliteWireName } from './response.js'
import type { ResolvedRetry } from './retry.js'
import type { Logger } from './scrub.js'
import { createSignatureVerifier, type SignatureOptions, type SignatureVerifier } from './signature.js'
import { MemoryTokenStore, type TokenStore } from './token.js'

/**
 * Production REST base URL.
 * @category REST
 */
export const DEFAULT_BASE_URL = 'https://op.spacecomputer.io'
/**
 * Production identity provider (the token endpoint is `{authUrl}/oauth/token`).
 * @category REST
 */
export const DEFAULT_AUTH_URL = 'https://auth.spacecomputer.io'
/**
 * Path of the cTRNG endpoint under the base URL.
 * @category REST
 */
export const TRNG_PATH = '/api/v1/services/trng'
/**
 * Path of the token endpoint under the auth URL.
 * @category REST
 */
export const TOKEN_PATH = '/oauth/token'

/**
 * Retry policy for what is safe to retry (network errors, timeouts, 5xx, 429).
 * @category REST
 */
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

/**
 * Options of {@link OrbitportClient}.
 * @category REST
 */
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
  /**
   * Lifetime assumed when the token response has no `expires_in`; default 3600. A token endpoint's
   * `expires_in` must be a finite positive number of seconds (anything else is an
   * `InvalidResponseError` at `$.expires_in`). Either way a token is cached at most 24 hours, and one
   * that lives less than 1 second is not cached: it serves the requests waiting for it.
   */
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

/** Every option checked, with its default filled in. */
export interface ResolvedOptions {
  readonly clientId: string
  readonly clientSecret: string
  readonly baseUrl: string
  readonly authUrl: string
  readonly audience: string
  readonly satelliteSourceName: SatelliteWireName
  readonly tokenStore: TokenStore
  readonly fetch: typeof fetch
  readonly now: () => number
  readonly logger: Logger | undefined
  readonly refreshBufferMs: number
  readonly defaultLifetimeMs: number
  readonly timeoutMs: number
  readonly retry: ResolvedRetry
  readonly maxResponseBytes: number
  readonly verifier: SignatureVerifier | undefined
  readonly requireSignature: boolean
  readonly redirects: RedirectPolicy
  readonly beaconFallback: BeaconFallback | undefined
  readonly fallbackOn: ((error: unknown) => boolean) | undefined
}

/**
 * True in a browser main thread or web worker (not in Node, Deno 2, Bun).
 * @category REST
 */
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

/**
 * Checks `options` and fills in the defaults.
 * @throws {@link InvalidInputError} naming the bad option, {@link BrowserSecretError}, {@link UnknownSourceError}.
 */
export function resolveOptions(options: OrbitportClientOptions): ResolvedOptions {
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
  const baseUrl = checkUrl(options.baseUrl ?? DEFAULT_BASE_URL, 'baseUrl')
  const authUrl = checkUrl(options.authUrl ?? DEFAULT_AUTH_URL, 'authUrl')
  const audience = options.audience ?? `${baseUrl}/api`
  if (typeof audience !== 'string' || audience === '') {
    throw new InvalidInputError('INVALID_OPTION', 'audience must be a non-empty string', 'omit it to use the base URL followed by /api', { path: '$.audience' })
  }
  const sat = options.satelliteSourceName ?? 'vendororbital'
  if (!(SATELLITE_WIRE_NAMES as readonly string[]).includes(sat)) throw new UnknownSourceError(String(sat), SATELLITE_WIRE_NAMES, { path: '$.satelliteSourceName' })
  const f = options.fetch ?? (globalThis.fetch as typeof fetch | undefined)
  if (typeof f !== 'function') throw new InvalidInputError('INVALID_OPTION', 'no fetch implementation available', 'pass one as the `fetch` option', { path: '$.fetch' })
  const refreshBufferMs = checkNonNegative(options.refreshBufferSeconds, 'refreshBufferSeconds', 300) * 1000
  const defaultLifetimeMs = checkNonNegative(options.defaultExpiresInSeconds, 'defaultExpiresInSeconds', 3600) * 1000
  const timeoutMs = checkNonNegative(options.timeoutMs, 'timeoutMs', LIMITS.restTimeoutMs)
  const r = options.retry ?? {}
  const retry: ResolvedRetry = {
    retries: checkNonNegative(r.retries, 'retry.retries', 2, true),
    baseDelayMs: checkNonNegative(r.baseDelayMs, 'retry.baseDelayMs', 200),
    maxDelayMs: checkNonNegative(r.maxDelayMs, 'retry.maxDelayMs', 5000),
    deadlineMs: checkNonNegative(r.deadlineMs, 'retry.deadlineMs', LIMITS.restDeadlineMs),
    random: r.random ?? Math.random,
  }
  const maxResponseBytes = checkNonNegative(options.maxResponseBytes, 'maxResponseBytes', LIMITS.maxRestResponseBytes, true)
  const verifier = options.verify === undefined ? undefined : createSignatureVerifier(options.verify)
  if (options.requireSignature !== undefined && typeof options.requireSignature !== 'boolean') {
    throw new InvalidInputError('INVALID_OPTION', 'requireSignature must be a boolean', 'omit it for the default (true when verify is set)', { path: '$.requireSignature' })
  }
  if (options.requireSignature === true && verifier === undefined) {
    throw new InvalidInputError('INVALID_OPTION', 'requireSignature needs verify: a signature that is not checked proves nothing', 'pass verify: { publicKey } as well', { path: '$.requireSignature' })
  }
  const allowedOrigins = allowedOriginsOption(options.allowedRedirectOrigins, 'https://api.example.org')
  return {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    baseUrl,
    authUrl,
    audience,
    satelliteSourceName: sat,
    tokenStore: options.tokenStore ?? new MemoryTokenStore(),
    fetch: f,
    now: options.now ?? Date.now,
    logger: options.logger,
    refreshBufferMs,
    defaultLifetimeMs,
    timeoutMs,
    retry,
    maxResponseBytes,
    verifier,
    requireSignature: options.requireSignature ?? verifier !== undefined,
    redirects: { allowedOrigins, maxRedirects: checkNonNegative(options.maxRedirects, 'maxRedirects', DEFAULT_MAX_REDIRECTS, true) },
    beaconFallback: options.beaconFallback,
    fallbackOn: options.fallbackOn,
  }
}
