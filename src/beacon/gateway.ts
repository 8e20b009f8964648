/**
 * One HTTP request to one trustless gateway, with a timeout, an AbortSignal, a body size limit, and
 * typed errors. No retries and no verification here: the client decides.
 *
 * @module
 */
import { readBodyLimited } from '../net/body.js'
import { describeRefusal, fetchNoSteer, type RedirectPolicy } from '../net/redirect.js'
import { AbortedError, GatewayHttpError, GatewayNetworkError, GatewayTimeoutError, RateLimitedError, RedirectRefusedError } from './errors.js'

/** The current Orbitport beacon's IPNS name (RSA key, `k2k4r8…`). */
export const ORBITPORT_BEACON_NAME = 'k2k4r8lvomw737sajfnpav0dpeernugnryng50uheyk1k39lursmn09f'

/** An older Orbitport beacon name, kept for checking old draws. */
export const ORBITPORT_OLD_BEACON_NAME = 'k2k4r8pigrw8i34z63om8f015tt5igdq0c46xupq8spp1bogt35k5vhe'

/** Public gateways seen in use with the beacon (best effort, rate-limited, caching). */
export const DEFAULT_GATEWAYS: readonly string[] = Object.freeze(['https://ipfs.io', 'https://dweb.link', 'https://w3s.link', 'https://ipfs.filebase.io', 'https://gateway.pinata.cloud'])

/** A `fetch`-compatible function. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

/** A successful answer. */
export interface GatewayAnswer {
  readonly bytes: Uint8Array
  readonly status: number
  readonly headers: Headers
}

/** Parameters of {@link gatewayGet}. */
export interface GatewayGetParams {
  fetch: FetchLike
  gateway: string
  path: string
  accept: string
  what: string
  timeoutMs: number
  maxBytes: number
  signal?: AbortSignal | undefined
  /** Clock for Retry-After dates (ms). */
  now: () => number
  /** Which redirects may be followed (default: same origin, at most 3 hops). */
  redirects?: RedirectPolicy | undefined
}

/** Parses `Retry-After` (seconds or an HTTP date) into milliseconds; defaults to 1 s. */
export function parseRetryAfter(value: string | null, now: number): number {
  if (value === null) return 1000
  const v = value.trim()
  if (/^\d+$/.test(v)) return Number(v) * 1000
  const t = Date.parse(v)
  if (Number.isFinite(t)) return Math.max(0, t - now)
  return 1000
}

/** GETs `gateway + path`; throws a typed error for every failure. */
export async function gatewayGet(p: GatewayGetParams): Promise<GatewayAnswer> {
  if (p.signal?.aborted === true) throw new AbortedError(p.what, p.signal.reason)
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, p.timeoutMs)
  const onAbort = (): void => controller.abort()
  p.signal?.addEventListener('abort', onAbort, { once: true })
  const fail = (cause: unknown): never => {
    if (p.signal?.aborted === true) throw new AbortedError(p.what, p.signal.reason)
    if (timedOut) throw new GatewayTimeoutError(p.gateway, p.timeoutMs, p.what)
    throw new GatewayNetworkError(p.gateway, p.what, { cause })
  }
  try {
    let res: Response
    try {
      res = await fetchNoSteer(p.fetch, p.gateway + p.path, { headers: { accept: p.accept }, signal: controller.signal }, p.redirects ?? {}, (r) =>
        new RedirectRefusedError(p.gateway, r.reason, r.toOrigin, p.what, describeRefusal(r)),
      )
    } catch (cause) {
      if (cause instanceof RedirectRefusedError) throw cause
      return fail(cause)
    }
    if (res.status === 429) {
      void res.body?.cancel().catch(() => undefined)
      throw new RateLimitedError(p.gateway, parseRetryAfter(res.headers.get('retry-after'), p.now()), p.what)
    }
    if (!res.ok) {
      void res.body?.cancel().catch(() => undefined)
      throw new GatewayHttpError(p.gateway, res.status, p.what)
    }
    let bytes: Uint8Array
    try {
      bytes = await readBodyLimited(res, p.maxBytes, (declared) =>
        new GatewayHttpError(p.gateway, 413, declared === undefined ? `${p.what} (body over the ${p.maxBytes}-byte limit)` : `${p.what} (body of ${declared} bytes is over the ${p.maxBytes}-byte limit)`),
      )
    } catch (cause) {
      if (cause instanceof GatewayHttpError) throw cause
      return fail(cause)
    }
    return { bytes, status: res.status, headers: res.headers }
  } finally {
    clearTimeout(timer)
    p.signal?.removeEventListener('abort', onAbort)
  }

}

/** Sleeps `ms`, rejecting with {@link AbortedError} when `signal` fires. The timer does not keep Node alive only when `unref` is asked. */
export function sleep(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  if (signal?.aborted === true) return Promise.reject(new AbortedError(what, signal.reason))
  if (ms <= 0) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(new AbortedError(what, signal?.reason))
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** Normalizes a gateway base URL (no trailing slash); throws on a non-http(s) URL. */
export function normalizeGateway(url: string): string {
  const u = new URL(url)
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`gateway ${url} is not http(s)`)
  return u.href.replace(/\/+$/, '')
}
