/**
 * Reading the REST service's answers: strict validation of the cTRNG body, the error body
 * (`{error, message}`, section 2.4) turned into the typed error for its status, and the helpers both
 * use. Server text that ends up in an error is scrubbed of secrets, escaped and capped.
 *
 * @module
 */
import { bytesToHex, hexToBytes } from '../core/bytes.js'
import { OrbitdrawError } from '../core/errors.js'
import { findDuplicateKey, parseJsonText } from '../core/json.js'
import { RateLimitedError } from '../net/errors.js'
import { retryAfterMs } from '../net/retry-after.js'
import { escapeServerText, serverCodeOf } from '../net/text.js'
import { InsufficientCreditsError, InvalidResponseError, ServerError, ServiceNotFoundError, UnsignedValueError } from './errors.js'
import { Retryable } from './retry.js'
import type { SignatureVerifier } from './signature.js'

/**
 * Wire names the satellite source has had: the spec's `vendororbital` and the live `aptosorbital`.
 * @category REST
 */
export const SATELLITE_WIRE_NAMES = ['vendororbital', 'aptosorbital'] as const
/**
 * A wire name of the satellite source.
 * @category REST
 */
export type SatelliteWireName = (typeof SATELLITE_WIRE_NAMES)[number]

/**
 * Which kind of source a returned value came from.
 * @category REST
 */
export type ValueSource = 'satellite' | 'derived' | 'beacon'

/**
 * A value's signature as received (`algo` only when the server sent one).
 * @category REST
 */
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
 * @category REST
 */
export interface CtrngResponse {
  service: 'trng'
  src: string
  data: string
  signature?: ValueSignature
  /** Top-level `algo`, when the server sent one. */
  algo?: string
}

/**
 * A random value with where it came from.
 * @category REST
 */
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

const RESPONSE_SATELLITE = new Set<string>(SATELLITE_WIRE_NAMES)

/** `url` without its query. */
export function stripQuery(url: string): string {
  const i = url.indexOf('?')
  return i < 0 ? url : url.slice(0, i)
}

/**
 * Parses a body with the core's strict JSON reader (`parseJsonText`: nesting at most
 * `LIMITS.maxJsonDepth`, at most `LIMITS.maxObjectKeys` members in an object, both checked before
 * parsing, then no key repeated in one object, since parsers disagree on which value wins:
 * `{"data": A, "data": B}` is refused, not read as B), and turns its refusals into
 * {@link InvalidResponseError}. The core's own messages are not shown: its syntax error quotes the
 * body through the engine's message and its duplicate names the key as written, both server text that
 * must be escaped (and, for the engine's snippet, could not be scrubbed reliably), so the REST words
 * stay: "the body is not valid JSON", and the key escaped and capped.
 */
export function parseJson(url: string, text: string): unknown {
  try {
    return parseJsonText(text, 'the body')
  } catch (err) {
    if (!(err instanceof OrbitdrawError)) throw err
    const bare = stripQuery(url)
    if (err.code === 'INVALID_JSON') throw new InvalidResponseError(bare, 'the body is not valid JSON', { path: '$', cause: err.cause })
    const duplicate = err.code === 'DUPLICATE_KEY' ? findDuplicateKey(text) : undefined
    if (duplicate !== undefined) throw new InvalidResponseError(bare, `the body has the key ${escapeServerText(JSON.stringify(duplicate.key), 80)} twice in one object`, { path: duplicate.path })
    // JSON_TOO_DEEP, LIMIT_EXCEEDED: the core's detail holds only numbers and the limit's name.
    throw new InvalidResponseError(bare, err.detail, { path: '$' })
  }
}

/**
 * Parses JSON, or `null` when it is not. Lenient on purpose, unlike {@link parseJson}: it only looks for
 * a code and a message in an error body (4xx, 5xx), whose values are escaped, scrubbed and capped and
 * never used as data; a refusal here would hide the server's own words.
 */
export function tryJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** A short description of a field's value for an error (never a long string in full). */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'missing'
  if (typeof v === 'string') return v.length > 80 ? `a ${v.length}-character string` : JSON.stringify(v)
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  return `a ${typeof v}`
}

function optionalAlgo(url: string, v: unknown, path: string): string | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string' || v.length > 64) throw new InvalidResponseError(url, `algo is ${describeValue(v)}, expected a short string`, { path })
  return v
}

/**
 * Parses `Retry-After` (delta-seconds or HTTP-date) into whole seconds (rounded up), or undefined: the
 * REST client waits whole seconds, as the header says them (the shared parser is `retryAfterMs`).
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  const ms = retryAfterMs(value, nowMs)
  return ms === undefined ? undefined : Math.ceil(ms / 1000)
}

/** Removes secrets from server text. */
export type Scrub = (text: string) => string

/**
 * What the server said: the `error` code of a JSON error body (when it looks like a code) and its
 * `message` (section 2.4), or a short snippet of a non-JSON body; scrubbed of secrets, escaped and
 * capped.
 */
export function serverSaid(text: string, scrub: Scrub): { code: string | undefined; message: string | undefined } {
  const j = tryJson(text)
  const o = j !== null && typeof j === 'object' && !Array.isArray(j) ? (j as Record<string, unknown>) : undefined
  if (o !== undefined) {
    const code = serverCodeOf(o.error)
    const m = o.message
    if (typeof m === 'string') return { code, message: escapeServerText(scrub(m), 300) }
    // An `error` that is not a well-formed code is still shown, as text.
    if (code === undefined && typeof o.error === 'string') return { code, message: escapeServerText(scrub(o.error), 300) }
    if (code !== undefined) return { code, message: undefined }
  }
  const t = text.trim()
  return { code: undefined, message: t === '' ? undefined : escapeServerText(scrub(t), 200) }
}

/**
 * The typed error for a non-200 answer, from its status and the gateway's `{error, message?}` body:
 * 402 {@link InsufficientCreditsError}, 404 {@link ServiceNotFoundError}, 429
 * {@link RateLimitedError} (retried after Retry-After), 5xx {@link ServerError} (retried), other
 * statuses {@link ServerError} (not retried). Retried ones come wrapped in {@link Retryable}.
 */
export function statusError(url: string, res: Response, text: string, scrub: Scrub, nowMs: number): unknown {
  const said = serverSaid(text, scrub)
  const opts = { serverCode: said.code }
  if (res.status === 429) {
    // Whole seconds, as the header says them (an HTTP-date is rounded up).
    const secs = parseRetryAfter(res.headers.get('retry-after'), nowMs)
    const ms = secs === undefined ? undefined : secs * 1000
    return new Retryable(new RateLimitedError({ edge: 'rest', url, retryAfterMs: ms, serverCode: said.code, serverMessage: said.message }), ms)
  }
  if (res.status === 402) return new InsufficientCreditsError(url, said.message, opts)
  if (res.status === 404) return new ServiceNotFoundError(url, said.message, opts)
  const err = new ServerError(url, res.status, said.message, opts)
  return res.status >= 500 ? new Retryable(err) : err
}

/** What {@link parseCtrng} checks against. */
export interface CtrngExpectations {
  /** The cTRNG endpoint URL (for errors). */
  readonly url: string
  /** Wire names requested (`src`), empty when the server chose. */
  readonly requested: readonly string[]
  /** Verifies signatures, when configured. */
  readonly verifier: SignatureVerifier | undefined
  /** Reject unsigned values. */
  readonly requireSignature: boolean
}

/**
 * Validates a cTRNG response body strictly (section 2.1) and verifies its signature when asked.
 * @throws {@link InvalidResponseError} naming the bad field, {@link UnsignedValueError}, `SignatureError`.
 */
export function parseCtrng(text: string, x: CtrngExpectations): RandomValue {
  const url = x.url
  const json = parseJson(url, text)
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new InvalidResponseError(url, 'the body is not a JSON object', { path: '$' })
  const o = json as Record<string, unknown>
  if (o.service !== 'trng') throw new InvalidResponseError(url, `service is ${describeValue(o.service)}, expected "trng"`, { path: '$.service' })
  if (typeof o.src !== 'string' || (o.src !== 'derived' && !RESPONSE_SATELLITE.has(o.src))) {
    throw new InvalidResponseError(url, `src is ${describeValue(o.src)}, expected one of "vendororbital", "aptosorbital", "derived"`, { path: '$.src' })
  }
  const source: ValueSource = o.src === 'derived' ? 'derived' : 'satellite'
  if (x.requested.length > 0 && !x.requested.some((r) => (r === 'derived' ? source === 'derived' : source === 'satellite'))) {
    throw new InvalidResponseError(url, `src is ${JSON.stringify(o.src)}, which was not among the requested sources ${JSON.stringify(x.requested)}`, { path: '$.src' })
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
  if (signature === undefined && x.requireSignature) throw new UnsignedValueError(url)
  const response: CtrngResponse = { service: 'trng', src: o.src, data: o.data, ...(signature === undefined ? {} : { signature: { ...signature } }), ...(algo === undefined ? {} : { algo }) }
  let verifiedBy: string | undefined
  if (x.verifier !== undefined && signature !== undefined) verifiedBy = x.verifier.assert(data, signature.value)
  const out: RandomValue = { source, src: o.src, data, hex, signatureVerified: verifiedBy !== undefined, response }
  if (signature !== undefined) out.signature = signature
  if (verifiedBy !== undefined) out.verifiedBy = verifiedBy
  return out
}
