/**
 * Redirects that cannot be steered: the edges never let `fetch` follow redirects on its own. A
 * gateway or API answering 3xx could otherwise make the client send requests (with their headers and
 * bodies: a bearer token, a client secret) to any origin, internal addresses included.
 *
 * {@link fetchNoSteer} asks for `redirect: 'manual'` and follows a redirect itself only when the
 * target's origin is the origin of the original request or one the caller allow-listed, for at most
 * `maxRedirects` hops. Anything else is refused before a request to the new origin is made.
 *
 * @module
 */
import { InvalidInputError } from '../core/errors.js'

/** A `fetch`-compatible function. */
export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>

/**
 * Why a redirect was refused.
 * @category Errors
 */
export type RedirectRefusal =
  /** The target's origin is neither the request's origin nor allow-listed. */
  | 'cross-origin'
  /** More than `maxRedirects` hops. */
  | 'too-many'
  /** The target is not an http(s) URL, or the Location header is missing or malformed. */
  | 'bad-location'
  /** A 301/302/303 answer to a request with a body (it would turn into a GET and drop the body). */
  | 'method-change'
  /** The runtime hid the redirect (browser `opaqueredirect`): its target cannot be checked. */
  | 'opaque'

/** Details of a refused redirect, for the caller's typed error. */
export interface RedirectRefused {
  /** Why it was refused. */
  readonly reason: RedirectRefusal
  /** URL that answered with the redirect (query removed). */
  readonly from: string
  /** Origin of the target, when there was a parsable one (never the full URL: it may carry secrets). */
  readonly toOrigin: string | undefined
  /** HTTP status of the redirect (0 for an opaque redirect). */
  readonly status: number
  /** Hops already followed. */
  readonly hops: number
}

/** Redirect policy of one request. */
export interface RedirectPolicy {
  /** Most same-origin (or allow-listed) hops followed; default {@link DEFAULT_MAX_REDIRECTS}. */
  readonly maxRedirects?: number
  /**
   * Other origins a redirect may lead to (for example a gateway's CDN). Requests there carry the same
   * headers and body as the original one, so list only origins trusted as much as the original.
   */
  readonly allowedOrigins?: readonly string[]
}

/** Default number of same-origin redirect hops followed. */
export const DEFAULT_MAX_REDIRECTS = 3

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/**
 * Normalizes an allow-list of origins (`https://cdn.example` or any URL on it) into origin strings.
 * @throws TypeError for an entry that is not an http(s) URL (callers wrap it in their typed error).
 */
export function normalizeOrigins(list: readonly string[] | undefined): readonly string[] {
  if (list === undefined) return []
  return list.map((o) => {
    const u = new URL(o)
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`${o} is not an http(s) origin`)
    return u.origin
  })
}

/**
 * {@link normalizeOrigins} for a client's `allowedRedirectOrigins` option: a bad entry is an
 * `InvalidInputError` (`INVALID_OPTION`, path `$.allowedRedirectOrigins`).
 *
 * @param example - an origin for the hint, such as `https://cdn.example.org`.
 */
export function allowedOriginsOption(list: readonly string[] | undefined, example: string): readonly string[] {
  try {
    return normalizeOrigins(list)
  } catch (cause) {
    throw new InvalidInputError('INVALID_OPTION', 'allowedRedirectOrigins must list http(s) origins', `pass origins such as ["${example}"]`, { path: '$.allowedRedirectOrigins', cause })
  }
}

function stripQuery(url: string): string {
  const u = new URL(url)
  return `${u.origin}${u.pathname}`
}

/**
 * Fetches `url`, following redirects only within its origin or to allow-listed origins.
 *
 * - 307/308 repeat the request (method, headers, body) at the target.
 * - 301/302/303 are followed as a GET only for GET/HEAD requests; for a request with a body they are
 *   refused (`method-change`) rather than silently dropping the body.
 * - A response the runtime already followed (`res.redirected`) to a foreign origin is refused too (a
 *   `fetch` that ignores `redirect: 'manual'`).
 *
 * @param refuse - builds the caller's typed error from the details; it is thrown after the
 *   redirect's body was cancelled.
 * @returns the first non-redirect response.
 */
export async function fetchNoSteer(fetchFn: FetchFn, url: string, init: RequestInit, policy: RedirectPolicy, refuse: (r: RedirectRefused) => Error): Promise<Response> {
  const max = policy.maxRedirects ?? DEFAULT_MAX_REDIRECTS
  const start = new URL(url)
  const allowed = new Set([start.origin, ...normalizeOrigins(policy.allowedOrigins)])
  const method = (init.method ?? 'GET').toUpperCase()
  let current = url
  let hops = 0
  for (;;) {
    const res = await fetchFn(current, { ...init, redirect: 'manual' })
    const fail = async (reason: RedirectRefusal, toOrigin: string | undefined): Promise<never> => {
      await res.body?.cancel().catch(() => undefined)
      throw refuse({ reason, from: stripQuery(current), toOrigin, status: res.status, hops })
    }
    if (res.type === 'opaqueredirect') return fail('opaque', undefined)
    if (res.redirected && res.url !== '') {
      let finalOrigin: string | undefined
      try {
        finalOrigin = new URL(res.url).origin
      } catch {
        finalOrigin = undefined
      }
      if (finalOrigin === undefined || !allowed.has(finalOrigin)) return fail('cross-origin', finalOrigin)
    }
    if (!REDIRECT_STATUSES.has(res.status)) return res
    const location = res.headers.get('location')
    let next: URL
    try {
      if (location === null || location === '') throw new TypeError('no Location')
      next = new URL(location, current)
    } catch {
      return fail('bad-location', undefined)
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return fail('bad-location', undefined)
    if (!allowed.has(next.origin)) return fail('cross-origin', next.origin)
    if (hops >= max) return fail('too-many', next.origin)
    if (res.status !== 307 && res.status !== 308 && method !== 'GET' && method !== 'HEAD') return fail('method-change', next.origin)
    await res.body?.cancel().catch(() => undefined)
    hops++
    current = next.href
  }
}

/** A short English sentence for a refusal, for error details. */
export function describeRefusal(r: RedirectRefused): string {
  switch (r.reason) {
    case 'cross-origin':
      return `${r.from} redirected (HTTP ${r.status}) to another origin${r.toOrigin === undefined ? '' : ` ${r.toOrigin}`}; the request was not sent there`
    case 'too-many':
      return `${r.from} redirected more than ${r.hops} times`
    case 'bad-location':
      return `${r.from} answered HTTP ${r.status} without a usable http(s) Location`
    case 'method-change':
      return `${r.from} answered HTTP ${r.status}, which would turn the request into a GET and drop its body`
    case 'opaque':
      return `${r.from} redirected, and this runtime hides where to`
  }
}
