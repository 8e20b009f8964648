/**
 * Typed errors of the beacon client. Each has a stable `code`; all extend {@link OrbitdrawError}.
 *
 * @module
 */
import { OrbitdrawError, type OrbitdrawErrorOptions } from '../core/errors.js'
import type { RedirectRefusal } from '../net/redirect.js'
import { claimNetErrors, RateLimitedError } from '../net/errors.js'

/**
 * Base class of the beacon client's errors. `instanceof BeaconError` also holds for the shared
 * network errors ({@link NetworkError}, {@link TimeoutError}, {@link RateLimitedError},
 * {@link AbortedError}) the beacon edge reports (`edge: 'beacon'`).
 * @category Errors
 */
export class BeaconError extends OrbitdrawError<BeaconErrorCode> {
  static {
    Object.defineProperty(this, 'name', { value: 'BeaconError' })
  }
}

/**
 * The codes of the beacon edge's own errors ({@link BeaconError} and its subclasses); its network
 * errors have the network family's codes (`NET_ERROR_CODES`, edge `beacon`).
 * @category Errors
 */
export const BEACON_ERROR_CODES = [
  'ALL_GATEWAYS_FAILED',
  'BEACON_CHAIN_BROKEN',
  'BEACON_FORK',
  'BEACON_LEGACY_BLOCK',
  'BEACON_NOT_YET_PUBLISHED',
  'GATEWAY_BAD_RESPONSE',
  'GATEWAY_HTTP_ERROR',
  'GATEWAY_NOT_FOUND',
  'GATEWAY_REDIRECT_REFUSED',
  'GATEWAY_STALE',
  'WAIT_TIMEOUT',
] as const

/**
 * A code of {@link BEACON_ERROR_CODES}.
 * @category Errors
 */
export type BeaconErrorCode = (typeof BEACON_ERROR_CODES)[number]
claimNetErrors(BeaconError, 'beacon')

export { NetError, NetworkError, TimeoutError, RateLimitedError, AbortedError, type NetEdge } from '../net/errors.js'

/**
 * A gateway answered with an HTTP error status (`GATEWAY_HTTP_ERROR`; 404 is `GATEWAY_NOT_FOUND`).
 * @category Errors
 */
export class GatewayHttpError extends BeaconError {
  static {
    Object.defineProperty(this, 'name', { value: 'GatewayHttpError' })
  }

  constructor(
    readonly gateway: string,
    readonly status: number,
    what: string,
    options: OrbitdrawErrorOptions = {},
  ) {
    super(
      status === 404 ? 'GATEWAY_NOT_FOUND' : 'GATEWAY_HTTP_ERROR',
      `${gateway} answered HTTP ${status} for ${what}`,
      status === 404 ? 'the gateway does not have it (yet); another gateway may' : status >= 500 ? 'the gateway failed; retry later or use another gateway' : 'check the gateway URL and the request',
      options,
    )
  }
}


/**
 * A gateway redirected the request somewhere the client does not go (`GATEWAY_REDIRECT_REFUSED`): to
 * another origin that is not in `allowedRedirectOrigins`, more than `maxRedirects` times, or to a
 * non-http(s) URL. The request to the redirect's target was never made.
 * @category Errors
 */
export class RedirectRefusedError extends BeaconError {
  static {
    Object.defineProperty(this, 'name', { value: 'RedirectRefusedError' })
  }

  constructor(
    readonly gateway: string,
    /** Why the redirect was refused. */
    readonly reason: RedirectRefusal,
    /** Origin the gateway redirected to, when it named one. */
    readonly toOrigin: string | undefined,
    what: string,
    detail: string,
  ) {
    super(
      'GATEWAY_REDIRECT_REFUSED',
      `refused a redirect while fetching ${what}: ${detail}`,
      reason === 'cross-origin'
        ? 'use that gateway URL directly if you trust it, or list its origin in allowedRedirectOrigins; other gateways are tried'
        : 'use the gateway\'s final URL directly, or another gateway',
    )
  }
}

/**
 * A gateway's answer failed verification (`GATEWAY_BAD_RESPONSE`): bytes that do not hash to the
 * CID, a truncated body, an IPNS record that does not verify against the beacon name, or a body that
 * is not what was asked for. The core error that caught it is the `cause`.
 * @category Errors
 */
export class BadResponseError extends BeaconError {
  static {
    Object.defineProperty(this, 'name', { value: 'BadResponseError' })
  }

  constructor(
    readonly gateway: string,
    what: string,
    why: string,
    options: OrbitdrawErrorOptions = {},
  ) {
    super('GATEWAY_BAD_RESPONSE', `${gateway} served a bad ${what}: ${why}`, 'the answer was discarded; use other gateways if this persists', options)
  }
}

/**
 * A gateway served an IPNS record older than one already seen (`GATEWAY_STALE`): a cache, not news.
 * @category Errors
 */
export class StaleResponseError extends BeaconError {
  static {
    Object.defineProperty(this, 'name', { value: 'StaleResponseError' })
  }

  constructor(
    readonly gateway: string,
    detail: string,
  ) {
    super('GATEWAY_STALE', `${gateway} served a stale head: ${detail}`, 'gateways cache IPNS answers for the record TTL; another gateway or a later poll will be fresher')
  }
}

/**
 * One gateway's failure, as collected by {@link AllGatewaysFailedError}.
 * @category Errors
 */
export interface GatewayFailure {
  /** Gateway base URL. */
  readonly gateway: string
  /** The typed error it produced. */
  readonly error: OrbitdrawError
}

/**
 * Every gateway failed for one operation (`ALL_GATEWAYS_FAILED`); `failures` says how each failed.
 * @category Errors
 */
export class AllGatewaysFailedError extends BeaconError {
  static {
    Object.defineProperty(this, 'name', { value: 'AllGatewaysFailedError' })
  }

  constructor(
    what: string,
    readonly failures: readonly GatewayFailure[],
  ) {
    // One entry per gateway and error code, with how many times it happened (retry rounds repeat them).
    const counts = new Map<string, number>()
    for (const f of failures) {
      const key = `${f.gateway}: ${f.error.code}`
      counts.set(key, (counts.get(key) ?? 0) + 1)
    }
    const summary = [...counts].map(([key, n]) => (n > 1 ? `${key} ×${n}` : key)).join('; ')
    super('ALL_GATEWAYS_FAILED', `no gateway gave a verified ${what} (${summary || 'no gateways'})`, 'see `failures` for each gateway; add gateways, raise timeoutMs, or retry later', {
      cause: failures[failures.length - 1]?.error,
    })
  }

  /** The shortest Retry-After among rate-limited gateways, if any. */
  get retryAfterMs(): number | undefined {
    const waits = this.failures.map((f) => (f.error instanceof RateLimitedError ? f.error.retryAfterMs : undefined)).filter((x): x is number => x !== undefined)
    return waits.length === 0 ? undefined : Math.min(...waits)
  }
}

/**
 * Two different verified blocks claim the same sequence (`BEACON_FORK`). Never resolved silently.
 * @category Errors
 */
export class ForkError extends BeaconError {
  static {
    Object.defineProperty(this, 'name', { value: 'ForkError' })
  }

  constructor(
    readonly sequence: number,
    readonly cids: readonly [string, string],
  ) {
    super('BEACON_FORK', `two different blocks claim sequence ${sequence}: ${cids[0]} and ${cids[1]}`, 'the beacon forked or a gateway serves another chain; do not draw from either block until the beacon operator explains it')
  }
}

/**
 * A verified block's `previous` points to a block with the wrong sequence (`BEACON_CHAIN_BROKEN`).
 * @category Errors
 */
export class ChainBrokenError extends BeaconError {
  static {
    Object.defineProperty(this, 'name', { value: 'ChainBrokenError' })
  }

  constructor(detail: string) {
    super('BEACON_CHAIN_BROKEN', detail, 'the beacon published an inconsistent chain; report it and do not use these blocks')
  }
}

/**
 * A block in the old publisher format, whose `data` is a base64 string (`BEACON_LEGACY_BLOCK`). Its
 * bytes hash to its CID, so every gateway serves the same: it is not retried elsewhere. Met when
 * walking far back; the chain cannot be followed past it with this client.
 * @category Errors
 */
export class LegacyBlockError extends BeaconError {
  static {
    Object.defineProperty(this, 'name', { value: 'LegacyBlockError' })
  }

  constructor(
    /** CID of the legacy block. */
    readonly cid: string,
    /** Sequence of the block whose `previous` link led to it, when known. */
    readonly linkedFrom: number | undefined,
    options: OrbitdrawErrorOptions = {},
  ) {
    super(
      'BEACON_LEGACY_BLOCK',
      `block ${cid}${linkedFrom === undefined ? '' : ` (the previous block of ${linkedFrom})`} is in the old publisher format: its "data" is a base64 string, not an object with sequence, timestamp and ctrng`,
      linkedFrom === undefined
        ? 'this block cannot be read or drawn from; use a block published in the current format'
        : `blocks at or below sequence ${linkedFrom - 1} cannot be reached by walking the chain; commit to a block above ${linkedFrom - 1}`,
      options,
    )
  }
}

/**
 * The requested sequence is above the beacon's head (`BEACON_NOT_YET_PUBLISHED`).
 * @category Errors
 */
export class NotYetPublishedError extends BeaconError {
  static {
    Object.defineProperty(this, 'name', { value: 'NotYetPublishedError' })
  }

  constructor(
    readonly sequence: number,
    readonly head: number,
  ) {
    super('BEACON_NOT_YET_PUBLISHED', `block ${sequence} is not published yet (head is ${head})`, 'use waitFor() to wait for it')
  }
}

/**
 * `waitFor` ran past its own `timeoutMs` (`WAIT_TIMEOUT`).
 * @category Errors
 */
export class WaitTimeoutError extends BeaconError {
  static {
    Object.defineProperty(this, 'name', { value: 'WaitTimeoutError' })
  }

  constructor(
    readonly target: number,
    readonly head: number | undefined,
    readonly timeoutMs: number,
  ) {
    super('WAIT_TIMEOUT', `block ${target} did not appear within ${timeoutMs} ms (latest seen: ${head ?? 'none'})`, 'check that the beacon is publishing, or wait longer')
  }
}

/**
 * The codes of `InvalidInputError` that only the beacon client throws (the core's own are `INVALID_INPUT_ERROR_CODES`).
 * @category Errors
 */
export const BEACON_INPUT_ERROR_CODES = ['BEACON_MISMATCH', 'CHAIN_TOO_LONG', 'INVALID_GATEWAY', 'INVALID_GATEWAYS', 'INVALID_SEQUENCE', 'MISSING_TIMESTAMPS', 'NO_FETCH', 'UNAUTHENTICATED_HEAD'] as const
/**
 * A code of {@link BEACON_INPUT_ERROR_CODES}.
 * @category Errors
 */
export type BeaconInputErrorCode = (typeof BEACON_INPUT_ERROR_CODES)[number]

declare module '../core/error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: adds this edge's codes
  interface EdgeInvalidInputErrorCodes extends Record<BeaconInputErrorCode, true> {}
}
