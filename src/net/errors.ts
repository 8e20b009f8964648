/**
 * The one network error family every edge (beacon gateways, the REST client, time-stamping) throws:
 * {@link NetworkError}, {@link TimeoutError}, {@link RateLimitedError} and {@link AbortedError}, all
 * {@link NetError}s. `edge` says which edge made one; the `code` stays the edge's own stable code
 * (`GATEWAY_RATE_LIMITED` from the beacon, `ORBITPORT_RATE_LIMITED` from the REST client, ...) so
 * code-based handling keeps working.
 *
 * | Class | beacon code | REST code | time-stamping code |
 * |---|---|---|---|
 * | {@link NetworkError} | `GATEWAY_NETWORK_ERROR` | `ORBITPORT_NETWORK` | `TIMESTAMP_NETWORK_ERROR` |
 * | {@link TimeoutError} | `GATEWAY_TIMEOUT` | `ORBITPORT_TIMEOUT` | `TIMESTAMP_TIMEOUT` |
 * | {@link RateLimitedError} | `GATEWAY_RATE_LIMITED` | `ORBITPORT_RATE_LIMITED` | `TIMESTAMP_RATE_LIMITED` |
 * | {@link AbortedError} | `ABORTED` | `ORBITPORT_ABORTED` | `ABORTED` |
 *
 * @module
 */
import { OrbitdrawError, type OrbitdrawErrorOptions } from '../core/errors.js'

/**
 * Which edge made a {@link NetError}.
 * @category Errors
 */
export type NetEdge = 'beacon' | 'rest' | 'timestamp'

/**
 * The codes of the network error family, per edge.
 * @category Errors
 */
export const NET_ERROR_CODES = {
  network: { beacon: 'GATEWAY_NETWORK_ERROR', rest: 'ORBITPORT_NETWORK', timestamp: 'TIMESTAMP_NETWORK_ERROR' },
  timeout: { beacon: 'GATEWAY_TIMEOUT', rest: 'ORBITPORT_TIMEOUT', timestamp: 'TIMESTAMP_TIMEOUT' },
  rateLimited: { beacon: 'GATEWAY_RATE_LIMITED', rest: 'ORBITPORT_RATE_LIMITED', timestamp: 'TIMESTAMP_RATE_LIMITED' },
  aborted: { beacon: 'ABORTED', rest: 'ORBITPORT_ABORTED', timestamp: 'ABORTED' },
} as const satisfies Record<string, Record<NetEdge, string>>

/**
 * A code of {@link NET_ERROR_CODES} (any kind, any edge).
 * @category Errors
 */
export type NetErrorCode = { [K in keyof typeof NET_ERROR_CODES]: (typeof NET_ERROR_CODES)[K][NetEdge] }[keyof typeof NET_ERROR_CODES]

/**
 * What every {@link NetError} constructor takes.
 * @category Errors
 */
export interface NetErrorInit extends OrbitdrawErrorOptions {
  /** The edge reporting it. */
  readonly edge: NetEdge
  /** The URL (without query or credentials) or gateway base URL the request went to; absent when none was under way. */
  readonly url?: string | undefined
  /** What was being fetched (`block bafy…`, `IPNS record of k51…`), for the message. */
  readonly what?: string | undefined
}

/**
 * Base class of the network error family. `instanceof BeaconError` holds for the beacon edge's
 * members and `instanceof OrbitportError` for the REST edge's, as before the family was shared.
 * @category Errors
 */
export class NetError extends OrbitdrawError<NetErrorCode> {
  static {
    Object.defineProperty(this, 'name', { value: 'NetError' })
  }

  /** Which edge reported it. */
  readonly edge: NetEdge
  /** The URL or gateway base URL the request went to (`''` when none was under way). */
  readonly url: string

  constructor(code: NetErrorCode, detail: string, hint: string, init: NetErrorInit) {
    super(code, detail, hint, init)
    this.edge = init.edge
    this.url = init.url ?? ''
  }

  /** The gateway base URL, for errors of the beacon edge (`undefined` for the others). */
  get gateway(): string | undefined {
    return this.edge === 'beacon' ? this.url : undefined
  }
}

/**
 * The request never got an HTTP answer: DNS, connection refused or reset, TLS, a broken body.
 * @category Errors
 */
export class NetworkError extends NetError {
  static {
    Object.defineProperty(this, 'name', { value: 'NetworkError' })
  }

  constructor(init: NetErrorInit & { readonly detail?: string | undefined }) {
    const url = init.url ?? ''
    const why = init.detail ?? (init.cause instanceof Error ? init.cause.message : undefined)
    const code = NET_ERROR_CODES.network[init.edge]
    if (init.edge === 'beacon') {
      super(code, `could not reach ${url} for ${init.what ?? 'a request'}${why === undefined ? '' : `: ${why}`}`, 'check the network and the gateway URL, or add other gateways', init)
    } else if (init.edge === 'rest') {
      super(code, `network error calling ${url}: ${why ?? 'no answer'}`, 'check connectivity and the base/auth URLs; the call was retried within the configured budget', init)
    } else {
      super(code, `could not reach ${url}${why === undefined ? '' : `: ${why}`}`, 'check the network and the authority URL', init)
    }
  }
}

/**
 * A request (or a whole call with its retries) took longer than allowed.
 * @category Errors
 */
export class TimeoutError extends NetError {
  static {
    Object.defineProperty(this, 'name', { value: 'TimeoutError' })
  }

  /** The limit that was hit, ms. */
  readonly timeoutMs: number
  /** `attempt`: one request ran out of time; `deadline`: the whole call, retries included, did. */
  readonly scope: 'attempt' | 'deadline'

  constructor(init: NetErrorInit & { readonly timeoutMs: number; readonly scope?: 'attempt' | 'deadline' }) {
    const url = init.url ?? ''
    const scope = init.scope ?? 'attempt'
    const code = NET_ERROR_CODES.timeout[init.edge]
    if (init.edge === 'beacon') {
      super(code, `${url} did not answer ${init.what ?? 'the request'} within ${init.timeoutMs} ms`, 'raise timeoutMs or add faster gateways', init)
    } else if (init.edge === 'rest') {
      super(
        code,
        scope === 'attempt' ? `no response from ${url} within ${init.timeoutMs} ms` : `calling ${url} did not succeed within the ${init.timeoutMs} ms deadline`,
        'try again later, or raise `timeoutMs` / `retry.deadlineMs`',
        init,
      )
    } else {
      super(code, `${url} did not answer within ${init.timeoutMs} ms`, 'raise timeoutMs or try again later', init)
    }
    this.timeoutMs = init.timeoutMs
    this.scope = scope
  }
}

/**
 * Fields of a {@link RateLimitedError}.
 * @category Errors
 */
export interface RateLimitedInit extends NetErrorInit {
  /** How long the server asked to wait (`Retry-After`), ms, when it said. */
  readonly retryAfterMs?: number | undefined
  /** The server's `error` code (`rate_limit_exceeded`), when given (REST). */
  readonly serverCode?: string | undefined
  /** The server's message, scrubbed and escaped, when given (REST). */
  readonly serverMessage?: string | undefined
}

/**
 * The server answered HTTP 429 (too many requests). A beacon gateway is not asked again before
 * `retryAfterMs`; the REST client waits for it within its retry budget and throws this when it cannot.
 * @category Errors
 */
export class RateLimitedError extends NetError {
  static {
    Object.defineProperty(this, 'name', { value: 'RateLimitedError' })
  }

  /** How long the server asked to wait, ms (`undefined` when it did not say). */
  readonly retryAfterMs: number | undefined
  /** The server's `error` code, when given. */
  readonly serverCode: string | undefined
  /** The server's message (scrubbed of secrets, escaped), when given. */
  readonly serverMessage: string | undefined

  constructor(init: RateLimitedInit) {
    const url = init.url ?? ''
    const ms = init.retryAfterMs
    const code = NET_ERROR_CODES.rateLimited[init.edge]
    if (init.edge === 'beacon') {
      super(code, `${url} rate-limited the request for ${init.what ?? 'a request'}${ms === undefined ? '' : ` (retry after ${Math.ceil(ms / 1000)} s)`}`, 'wait, poll less often, or add other gateways', init)
    } else {
      const secs = ms === undefined ? undefined : Math.ceil(ms / 1000)
      super(
        code,
        `${url} answered HTTP 429 (too many requests)${serverSaidSuffix(init.serverCode, init.serverMessage)}${secs === undefined ? '' : `, retry after ${secs} s`}`,
        secs === undefined ? 'slow down and try again later' : `wait at least ${secs} s before the next request`,
        init,
      )
    }
    this.retryAfterMs = ms
    this.serverCode = init.serverCode
    this.serverMessage = init.serverMessage
  }
}

/**
 * The caller's `AbortSignal` fired; `cause` is the signal's reason.
 * @category Errors
 */
export class AbortedError extends NetError {
  static {
    Object.defineProperty(this, 'name', { value: 'AbortedError' })
  }

  constructor(init: NetErrorInit) {
    const code = NET_ERROR_CODES.aborted[init.edge]
    if (init.edge === 'rest') super(code, 'the call was aborted by its AbortSignal', 'nothing to do if you aborted on purpose', init)
    else super(code, `${init.what ?? 'the call'} was aborted`, 'the caller cancelled the operation', init)
  }
}

/**
 * `: code "message"` for an error detail, from what a server said (either may be absent; `''` when
 * both are).
 * @internal
 */
export function serverSaidSuffix(serverCode: string | undefined, serverMessage: string | undefined): string {
  const parts = [serverCode, serverMessage === undefined ? undefined : JSON.stringify(serverMessage)].filter((x) => x !== undefined)
  return parts.length === 0 ? '' : `: ${parts.join(' ')}`
}

/**
 * Makes `instanceof Base` also hold for members of the network error family reported by `edge`, so
 * `err instanceof BeaconError` / `err instanceof OrbitportError` keep matching the shared classes.
 * Subclasses of `Base` keep the ordinary check.
 * @internal
 */
export function claimNetErrors(Base: abstract new (...args: never[]) => OrbitdrawError, edge: NetEdge): void {
  Object.defineProperty(Base, Symbol.hasInstance, {
    value: function (this: unknown, x: unknown): boolean {
      if (Function.prototype[Symbol.hasInstance].call(this, x)) return true
      return this === Base && x instanceof NetError && x.edge === edge
    },
  })
}
