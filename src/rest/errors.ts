/**
 * Errors of the Orbitport REST client. Each is an {@link OrbitdrawError} with a stable `code`.
 * None of them ever carries the client secret or an access token: every server-provided text is
 * scrubbed of both before it is put into an error.
 *
 * | Class | Code | When |
 * |---|---|---|
 * | {@link NetworkError} | `ORBITPORT_NETWORK` | the request could not be sent or the connection failed |
 * | {@link TimeoutError} | `ORBITPORT_TIMEOUT` | one attempt or the whole call ran out of time |
 * | {@link ServerError} | `ORBITPORT_SERVER_ERROR` | the endpoint answered 5xx (or another unexpected status); `serverCode` says which (`internal_error`, `*_plugin_unavailable`, `service_timeout`) |
 * | {@link InsufficientCreditsError} | `ORBITPORT_INSUFFICIENT_CREDITS` | 402 `insufficient_credits` |
 * | {@link ServiceNotFoundError} | `ORBITPORT_SERVICE_NOT_FOUND` | 404 (`service_not_found`) |
 * | {@link RedirectError} | `ORBITPORT_REDIRECT_REFUSED` | a redirect to another origin (or too many): never followed |
 * | {@link UnsignedValueError} | `ORBITPORT_UNSIGNED_VALUE` | a value without a signature while `requireSignature` is on |
 * | {@link InvalidResponseError} | `ORBITPORT_INVALID_RESPONSE` | the body is not JSON or a field is wrong (`path` names it) |
 * | {@link AuthError} | `ORBITPORT_UNAUTHORIZED` | 401/403 from the API even after one token refresh; `serverCode` says which (`authentication_failed`, `token_expired`, `invalid_credential`, `service_authorization_denied`) |
 * | {@link TokenError} | `ORBITPORT_TOKEN_REJECTED` | the identity provider refused the client credentials |
 * | {@link RateLimitedError} | `ORBITPORT_RATE_LIMITED` | 429, and waiting `Retry-After` would exceed the retry budget (`retryAfterMs`) |
 * | {@link SignatureError} | `ORBITPORT_BAD_SIGNATURE` | a value's signature does not verify under the configured key |
 * | {@link UnknownSourceError} | `ORBITPORT_UNKNOWN_SOURCE` | a `src` name the client does not know (checked before sending) |
 * | {@link BrowserSecretError} | `ORBITPORT_SECRET_IN_BROWSER` | a client with a secret was constructed in a browser |
 * | {@link AbortedError} | `ORBITPORT_ABORTED` | the caller's `AbortSignal` fired |
 * | {@link FallbackError} | `ORBITPORT_FALLBACK_FAILED` | the endpoint failed and so did the beacon fallback |
 *
 *
 * Errors made from an HTTP answer carry `status`, the server's `{error, message}` body as
 * `serverCode` (only when it looks like a code: letters, digits, `_ . -`, at most 64 characters) and
 * `serverMessage` (secrets scrubbed, control and invisible characters escaped, at most 300
 * characters). The project `code` is stable; the server's code is a field, never the `code`.
 *
 * @module
 */
import { OrbitdrawError, type OrbitdrawErrorOptions } from '../core/errors.js'
import type { RedirectRefusal } from '../net/redirect.js'
import { claimNetErrors, serverSaidSuffix as said } from '../net/errors.js'

/**
 * Options of the errors made from an HTTP answer.
 * @category Errors
 */
export interface HttpErrorOptions extends OrbitdrawErrorOptions {
  /** The `error` field of the server's JSON error body, when it is a well-formed code. */
  serverCode?: string | undefined
}

function serverHint(status: number, serverCode: string | undefined): string {
  if (serverCode !== undefined && serverCode.endsWith('_plugin_unavailable')) return 'the service behind the gateway is down; it was retried within the budget, try again later'
  if (serverCode === 'service_timeout' || status === 504) return 'the service behind the gateway did not answer in time; it was retried within the budget, try again later'
  if (status >= 500) return 'the service failed; it was retried within the budget, try again later'
  return 'the request was refused; check the request parameters'
}

/**
 * Base class of the REST client's errors (an {@link OrbitdrawError}). `instanceof OrbitportError`
 * also holds for the shared network errors ({@link NetworkError}, {@link TimeoutError},
 * {@link RateLimitedError}, {@link AbortedError}) the REST edge reports (`edge: 'rest'`).
 * @category Errors
 */
export class OrbitportError extends OrbitdrawError<OrbitportErrorCode> {
  static {
    Object.defineProperty(this, 'name', { value: 'OrbitportError' })
  }
}

/**
 * The codes of the REST edge's own errors ({@link OrbitportError} and its subclasses, table above);
 * its network errors have the network family's codes (`NET_ERROR_CODES`, edge `rest`).
 * @category Errors
 */
export const ORBITPORT_ERROR_CODES = [
  'ORBITPORT_BAD_SIGNATURE',
  'ORBITPORT_BEACON_EXHAUSTED',
  'ORBITPORT_BEACON_INVALID',
  'ORBITPORT_FALLBACK_FAILED',
  'ORBITPORT_INSUFFICIENT_CREDITS',
  'ORBITPORT_INVALID_RESPONSE',
  'ORBITPORT_REDIRECT_REFUSED',
  'ORBITPORT_SECRET_IN_BROWSER',
  'ORBITPORT_SERVER_ERROR',
  'ORBITPORT_SERVICE_NOT_FOUND',
  'ORBITPORT_TOKEN_REJECTED',
  'ORBITPORT_UNAUTHORIZED',
  'ORBITPORT_UNKNOWN_SOURCE',
  'ORBITPORT_UNSIGNED_VALUE',
] as const

/**
 * A code of {@link ORBITPORT_ERROR_CODES}.
 * @category Errors
 */
export type OrbitportErrorCode = (typeof ORBITPORT_ERROR_CODES)[number]
claimNetErrors(OrbitportError, 'rest')

export { NetError, NetworkError, TimeoutError, RateLimitedError, AbortedError, type NetEdge } from '../net/errors.js'


/**
 * The endpoint answered with a server error (5xx, or a status the interface does not describe).
 * @category Errors
 */
export class ServerError extends OrbitportError {
  static {
    Object.defineProperty(this, 'name', { value: 'ServerError' })
  }

  /** HTTP status. */
  readonly status: number
  /** The server's `message` field (section 2.4), scrubbed of secrets and escaped, when there was one. */
  readonly serverMessage: string | undefined
  /** The server's `error` code (`internal_error`, `trng_plugin_unavailable`, `service_timeout`…), when given. */
  readonly serverCode: string | undefined
  constructor(url: string, status: number, serverMessage: string | undefined, options: HttpErrorOptions = {}, code: OrbitportErrorCode = 'ORBITPORT_SERVER_ERROR', hint?: string) {
    super(code, `${url} answered HTTP ${status}${said(options.serverCode, serverMessage)}`, hint ?? serverHint(status, options.serverCode), options)
    this.status = status
    this.serverMessage = serverMessage
    this.serverCode = options.serverCode
  }
}

/**
 * 402 `insufficient_credits`: the account has no credits left for this service. Not retried.
 * @category Errors
 */
export class InsufficientCreditsError extends ServerError {
  static {
    Object.defineProperty(this, 'name', { value: 'InsufficientCreditsError' })
  }

  constructor(url: string, serverMessage: string | undefined, options: HttpErrorOptions = {}) {
    super(url, 402, serverMessage, options, 'ORBITPORT_INSUFFICIENT_CREDITS', 'the account has no credits left for this service; top it up with Orbitport, then retry')
  }
}

/**
 * 404 (`service_not_found`): the gateway does not know the service at this URL. Not retried.
 * @category Errors
 */
export class ServiceNotFoundError extends ServerError {
  static {
    Object.defineProperty(this, 'name', { value: 'ServiceNotFoundError' })
  }

  constructor(url: string, serverMessage: string | undefined, options: HttpErrorOptions = {}) {
    super(url, 404, serverMessage, options, 'ORBITPORT_SERVICE_NOT_FOUND', 'check baseUrl (the path /api/v1/services/trng is added by the client) and that the service is enabled for this client')
  }
}

/**
 * The endpoint redirected somewhere the client does not go: another origin not in
 * `allowedRedirectOrigins`, more than `maxRedirects` hops, a non-http(s) target, or a method-changing
 * redirect of the token request. The request to the target was never made. Not retried.
 * @category Errors
 */
export class RedirectError extends OrbitportError {
  static {
    Object.defineProperty(this, 'name', { value: 'RedirectError' })
  }

  /** Why the redirect was refused. */
  readonly reason: RedirectRefusal
  /** Origin the server redirected to, when it named one. */
  readonly toOrigin: string | undefined
  constructor(detail: string, reason: RedirectRefusal, toOrigin: string | undefined, options: OrbitdrawErrorOptions = {}) {
    super(
      'ORBITPORT_REDIRECT_REFUSED',
      `refused a redirect: ${detail}`,
      reason === 'cross-origin'
        ? 'set baseUrl/authUrl to the final URL directly, or list its origin in allowedRedirectOrigins if you trust it with your token and secret'
        : 'set baseUrl/authUrl to the final URL directly',
      options,
    )
    this.reason = reason
    this.toOrigin = toOrigin
  }
}

/**
 * The response is not JSON, or a field is missing or malformed. `path` names the first bad field.
 * @category Errors
 */
export class InvalidResponseError extends OrbitportError {
  static {
    Object.defineProperty(this, 'name', { value: 'InvalidResponseError' })
  }

  constructor(url: string, detail: string, options: OrbitdrawErrorOptions = {}) {
    super('ORBITPORT_INVALID_RESPONSE', `invalid response from ${url}: ${detail}`, 'the service returned something this client does not understand; do not use it, and report it if it persists', options)
  }
}

/**
 * The API rejected the access token (401/403) even after one token refresh and one retry.
 * @category Errors
 */
export class AuthError extends OrbitportError {
  static {
    Object.defineProperty(this, 'name', { value: 'AuthError' })
  }

  /** HTTP status (401 or 403). */
  readonly status: number
  /** The server's `message`, scrubbed of secrets and escaped, when there was one. */
  readonly serverMessage: string | undefined
  /** The server's `error` code (`authentication_failed`, `token_expired`, `invalid_credential`, `service_authorization_denied`), when given. */
  readonly serverCode: string | undefined
  constructor(url: string, status: number, serverMessage: string | undefined, options: HttpErrorOptions = {}) {
    super(
      'ORBITPORT_UNAUTHORIZED',
      `${url} answered HTTP ${status} with a freshly issued token${said(options.serverCode, serverMessage)}`,
      options.serverCode === 'service_authorization_denied' || (status === 403 && options.serverCode === undefined)
        ? 'this client is not authorized for the cTRNG service; ask Orbitport to enable it for your client id (a token refresh was already tried)'
        : 'check that the client is allowed to use this API (audience, access form approval); a refresh was already tried',
      options,
    )
    this.status = status
    this.serverMessage = serverMessage
    this.serverCode = options.serverCode
  }
}

/**
 * The identity provider refused to issue a token (wrong client id/secret, audience, grant type).
 * @category Errors
 */
export class TokenError extends OrbitportError {
  static {
    Object.defineProperty(this, 'name', { value: 'TokenError' })
  }

  /** HTTP status of the token endpoint. */
  readonly status: number
  /** OAuth `error` code (e.g. `access_denied`), when given. */
  readonly oauthError: string | undefined
  constructor(url: string, status: number, oauthError: string | undefined, description: string | undefined, options: OrbitdrawErrorOptions = {}) {
    const what = [oauthError, description].filter((s) => s !== undefined).map((s) => JSON.stringify(s)).join(': ')
    super(
      'ORBITPORT_TOKEN_REJECTED',
      `the token endpoint ${url} refused the client credentials (HTTP ${status}${what === '' ? '' : `, ${what}`})`,
      'check the client id and secret, and that the audience is the base URL followed by /api',
      options,
    )
    this.status = status
    this.oauthError = oauthError
  }
}

/**
 * A value's signature does not verify: the value is rejected, never returned.
 * @category Errors
 */
export class SignatureError extends OrbitportError {
  static {
    Object.defineProperty(this, 'name', { value: 'SignatureError' })
  }

  constructor(detail: string, hint = 'do not use this value; check the configured public key, curve and message construction', options: OrbitdrawErrorOptions = {}, code: OrbitportErrorCode = 'ORBITPORT_BAD_SIGNATURE') {
    super(code, detail, hint, options)
  }
}

/**
 * A value came without a signature (`signature` null or absent) while the client requires one
 * (`requireSignature`, on by default when `verify` is set). A {@link SignatureError}: the value is
 * rejected, never returned.
 * @category Errors
 */
export class UnsignedValueError extends SignatureError {
  static {
    Object.defineProperty(this, 'name', { value: 'UnsignedValueError' })
  }

  constructor(url: string, options: OrbitdrawErrorOptions = {}) {
    super(
      `${url} returned a value without a signature, and this client requires signed values`,
      'the public gateway currently sends unsigned values; pass requireSignature: false to accept them (they are then marked signatureVerified: false), or wait until the service signs values again',
      options,
      'ORBITPORT_UNSIGNED_VALUE',
    )
  }
}

/**
 * A `src` name the client does not know; raised before any request is sent.
 * @category Errors
 */
export class UnknownSourceError extends OrbitportError {
  static {
    Object.defineProperty(this, 'name', { value: 'UnknownSourceError' })
  }

  /** The offending name. */
  readonly source: string
  constructor(source: string, allowed: readonly string[], options: OrbitdrawErrorOptions = {}) {
    super('ORBITPORT_UNKNOWN_SOURCE', `unknown cTRNG source ${JSON.stringify(source)}`, `use one of ${allowed.map((s) => JSON.stringify(s)).join(', ')}`, options)
    this.source = source
  }
}

/**
 * A client holding a client secret was constructed in a browser (spec section 5, rule 3).
 * @category Errors
 */
export class BrowserSecretError extends OrbitportError {
  static {
    Object.defineProperty(this, 'name', { value: 'BrowserSecretError' })
  }

  constructor() {
    super(
      'ORBITPORT_SECRET_IN_BROWSER',
      'refusing to create an Orbitport client with a client secret in a browser: the secret would be visible to every visitor (interface section 5, rule 3: credentials stay server-side)',
      'call Orbitport from your server and pass the values to the page; if this really is a trusted environment, pass `dangerouslyAllowBrowser: true`',
    )
  }
}

/**
 * The endpoint failed and the beacon fallback failed too. Both errors are attached.
 * @category Errors
 */
export class FallbackError extends OrbitportError {
  static {
    Object.defineProperty(this, 'name', { value: 'FallbackError' })
  }

  /** Why the REST endpoint failed. */
  readonly endpointError: unknown
  /** Why the beacon fallback failed. */
  readonly fallbackError: unknown
  constructor(endpointError: unknown, fallbackError: unknown) {
    super(
      'ORBITPORT_FALLBACK_FAILED',
      `the cTRNG endpoint failed (${describe(endpointError)}) and the beacon fallback failed too (${describe(fallbackError)})`,
      'try again later',
      { cause: endpointError },
    )
    this.endpointError = endpointError
    this.fallbackError = fallbackError
  }
}

function describe(err: unknown): string {
  if (err instanceof OrbitdrawError) return `${err.code}: ${err.detail}`
  if (err instanceof Error) return err.message
  return String(err)
}

/**
 * The codes of `InvalidInputError` that only the Orbitport REST client throws (the core's own are `INVALID_INPUT_ERROR_CODES`).
 * @category Errors
 */
export const ORBITPORT_INPUT_ERROR_CODES = ['INVALID_DERIVED_COUNT', 'INVALID_DERIVED_INDEX', 'INVALID_DERIVED_SEED', 'INVALID_MESSAGE_CONSTRUCTION', 'INVALID_SIGNATURE_OPTIONS', 'INVALID_URL', 'ORBITPORT_DUPLICATE_SOURCE'] as const
/**
 * A code of {@link ORBITPORT_INPUT_ERROR_CODES}.
 * @category Errors
 */
export type OrbitportInputErrorCode = (typeof ORBITPORT_INPUT_ERROR_CODES)[number]

declare module '../core/error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: adds this edge's codes
  interface EdgeInvalidInputErrorCodes extends Record<OrbitportInputErrorCode, true> {}
}
