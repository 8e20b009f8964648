/**
 * The time-stamping client: asks RFC 3161 authorities (in parallel) for tokens over a commitment,
 * checks each answer with the core's token check, and keeps the valid ones. Requests are written with the
 * core's DER writer, replies read with its DER reader; a token is kept as the bytes the authority sent.
 *
 * @module
 */
import { CID } from 'multiformats/cid'
import { bytesToBase64 } from '../core/bytes.js'
import { InvalidInputError } from '../core/errors.js'
import { LIMITS } from '../core/limits.js'
import { decodeDer, integer, sequence, TAG, type Der } from '../core/timestamp/der.js'
import { derBoolean, derInteger, derOctetString, derOid, derSequence } from '../core/timestamp/der-writer.js'
import { checkCommitmentTime } from '../core/timestamp/check.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES, DEFAULT_TSA_URLS } from '../core/timestamp/defaults.js'
import { parseTimestampToken } from '../core/timestamp/token.js'
import { type TimestampTrustAnchor } from '../core/timestamp/anchor.js'
import { throwIfAborted, timedSignal } from '../net/abort.js'
import { readBodyLimited } from '../net/body.js'
import { NET_ERROR_CODES } from '../net/errors.js'
import { describeRefusal, fetchNoSteer, type RedirectRefused } from '../net/redirect.js'
import { escapeServerText } from '../net/text.js'
import { TimestampUnavailableError, type TimestampAuthorityFailure, type TimestampFailureCode } from './errors.js'

const ABORT_CTX = { edge: 'timestamp', what: 'time-stamping' } as const

/** The public authorities asked by default (defined beside the core's list of them). */
export { DEFAULT_TSA_URLS }

/**
 * Options of {@link timestampCommitment}.
 * @category Time-stamping
 */
export interface TimestampOptions {
  /** Authority URLs (default {@link DEFAULT_TSA_URLS}). */
  authorities?: readonly string[]
  /** `fetch` to use (default the global one). */
  fetch?: typeof globalThis.fetch
  /** Timeout of each request including its body, ms (default `LIMITS.timestampTimeoutMs`). */
  timeoutMs?: number
  signal?: AbortSignal
  /** Roots the tokens must chain to (default `DEFAULT_TIMESTAMP_AUTHORITIES`). */
  anchors?: readonly TimestampTrustAnchor[]
  /** This host's clock, unix ms (default `Date.now`). */
  now?: () => number
  /**
   * Largest difference accepted between a token's genTime and this host's clock, seconds (default
   * 300). An authority whose clock is far off is refused (`TIMESTAMP_CLOCK_SKEW`): a clock behind
   * would date the commitment earlier than it was made.
   */
  maxClockSkewSeconds?: number
}

/**
 * One kept token.
 * @category Time-stamping
 */
export interface KeptTimestamp {
  /** The DER TimeStampToken. */
  readonly token: Uint8Array
  /** The same, standard base64 (as carried in proofs and commitment files). */
  readonly base64: string
  /** The authority URL it came from. */
  readonly authority: string
  /** The authority's certificate name. */
  readonly authorityName: string
  /** genTime, ISO 8601. */
  readonly time: string
  /** The accuracy the token states, seconds (0 when it states none): `verify` needs genTime + accuracy before the target block. */
  readonly accuracySeconds: number
}

/**
 * Result of {@link timestampCommitment}.
 * @category Time-stamping
 */
export interface TimestampResult {
  /** Valid tokens, in the order of `authorities`. At least one. */
  readonly tokens: readonly KeptTimestamp[]
  /** Authorities that gave nothing usable, and why. */
  readonly failures: readonly TimestampAuthorityFailure[]
}

/**
 * Time-stamps a commitment: asks every authority in parallel for an RFC 3161 token over the SHA-256
 * digest inside `cid` (version 1, a fresh 128-bit nonce, certReq true), checks each reply (status
 * granted, nonce echoed, imprint, signature and chain against `anchors`) and returns the valid ones.
 *
 * @throws {@link TimestampUnavailableError} `TIMESTAMP_UNAVAILABLE` when no authority gave a valid token.
 * @throws {@link InvalidInputError} when `cid` is not a sha2-256 CID or an option is bad.
 * @throws `AbortedError` (`ABORTED`) when `signal` fires.
 * @example
 * ```ts
 * const { cid } = commit(spec)
 * const { tokens } = await timestampCommitment(cid)
 * ```
 * @category Time-stamping
 */
export async function timestampCommitment(cid: string, options: TimestampOptions = {}): Promise<TimestampResult> {
  const digest = commitmentDigest(cid)
  const authorities = options.authorities ?? DEFAULT_TSA_URLS
  if (authorities.length === 0) throw new InvalidInputError('INVALID_OPTION', 'no time-stamping authority given', 'pass at least one authority URL')
  for (const a of authorities) {
    let u: URL | undefined
    try {
      u = new URL(a)
    } catch {
      u = undefined
    }
    if (u === undefined || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw new InvalidInputError('INVALID_OPTION', `"${a}" is not an http(s) URL`, 'pass the authority URL, e.g. http://timestamp.digicert.com')
  }
  const timeoutMs = options.timeoutMs ?? LIMITS.timestampTimeoutMs
  if (!(timeoutMs > 0)) throw new InvalidInputError('INVALID_OPTION', `timeoutMs must be positive, not ${timeoutMs}`, 'pass a timeout in milliseconds')
  throwIfAborted(options.signal, ABORT_CTX)
  const fetchFn = options.fetch ?? globalThis.fetch
  const anchors = options.anchors ?? DEFAULT_TIMESTAMP_AUTHORITIES
  const now = options.now ?? Date.now
  const maxSkewMs = (options.maxClockSkewSeconds ?? 300) * 1000
  if (!(maxSkewMs >= 0)) throw new InvalidInputError('INVALID_OPTION', 'maxClockSkewSeconds must be >= 0', 'pass a number of seconds')
  const settled = await Promise.all(authorities.map((a) => one(a, digest, { fetchFn, timeoutMs, signal: options.signal, anchors, now, maxSkewMs })))
  throwIfAborted(options.signal, ABORT_CTX)
  const tokens = settled.filter((s): s is KeptTimestamp => 'token' in s)
  const failures = settled.filter((s): s is TimestampAuthorityFailure => !('token' in s))
  if (tokens.length === 0) throw new TimestampUnavailableError(failures)
  return { tokens, failures }
}

/**
 * The SHA-256 digest inside a commitment CID (what the tokens stamp).
 * @category Time-stamping
 */
export function commitmentDigest(cid: string): Uint8Array {
  let parsed: CID
  try {
    parsed = CID.parse(cid)
  } catch {
    throw new InvalidInputError('INVALID_CID', `"${cid.slice(0, 80)}" is not a CID`, 'pass the commitment CID printed by commit')
  }
  if (parsed.multihash.code !== 0x12 || parsed.multihash.digest.length !== 32) throw new InvalidInputError('INVALID_CID', `CID ${cid} is not hashed with sha2-256`, 'pass the commitment CID printed by commit')
  return parsed.multihash.digest
}

interface OneOptions {
  fetchFn: typeof globalThis.fetch
  timeoutMs: number
  signal: AbortSignal | undefined
  anchors: readonly TimestampTrustAnchor[]
  now: () => number
  maxSkewMs: number
}

async function one(authority: string, digest: Uint8Array, o: OneOptions): Promise<KeptTimestamp | TimestampAuthorityFailure> {
  const fail = (code: TimestampFailureCode, detail: string): TimestampAuthorityFailure => ({ authority, code, detail })
  const nonceBytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(nonceBytes)
  nonceBytes[0]! &= 0x7f // positive INTEGER
  nonceBytes[0]! |= 0x01 // and minimal (no leading zero byte)
  const nonce = toBigInt(nonceBytes)
  const request = timeStampRequest(digest, nonce)
  const limit = timedSignal(o.timeoutMs, o.signal)
  let body: Uint8Array
  try {
    let res: Response
    try {
      // Like every edge: a redirect is followed only within the authority's origin (307/308 repeat
      // the POST; 301/302/303 would drop its body and are refused), never to another origin.
      res = await fetchNoSteer(o.fetchFn, authority, { method: 'POST', headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' }, body: request, signal: limit.signal }, {}, (r) => new RedirectRefusal(r))
    } catch (e) {
      if (e instanceof RedirectRefusal) return { authority, code: 'TIMESTAMP_REDIRECT_REFUSED', detail: `${describeRefusal(e.refused)}; ask the authority at its final URL`, redirect: e.refused.reason }
      if (limit.timedOut()) return fail(NET_ERROR_CODES.timeout.timestamp, `no answer within ${o.timeoutMs} ms`)
      if (limit.callerAborted()) return fail(NET_ERROR_CODES.aborted.timestamp, 'aborted')
      return fail(NET_ERROR_CODES.network.timestamp, e instanceof Error ? e.message : String(e))
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined)
      return fail('TIMESTAMP_HTTP_ERROR', `HTTP ${res.status}`)
    }
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
    if (type !== 'application/timestamp-reply') {
      await res.body?.cancel().catch(() => undefined)
      return fail('TIMESTAMP_BAD_REPLY', `content type "${escapeServerText(type, 100)}", not application/timestamp-reply`)
    }
    try {
      body = await readBodyLimited(res, LIMITS.maxTimestampTokenBytes + 4096, () => new Error(`reply over ${LIMITS.maxTimestampTokenBytes + 4096} bytes`))
    } catch (e) {
      if (limit.timedOut()) return fail(NET_ERROR_CODES.timeout.timestamp, `the reply did not arrive within ${o.timeoutMs} ms`)
      return fail('TIMESTAMP_BAD_REPLY', e instanceof Error ? e.message : String(e))
    }
  } finally {
    limit.dispose()
  }
  let resp: TimeStampReply
  try {
    resp = parseReply(body)
  } catch {
    return fail('TIMESTAMP_BAD_REPLY', 'the reply is not a DER TimeStampResp')
  }
  if (resp.status !== 0n && resp.status !== 1n) {
    // The authority's own words: escaped (no terminal controls, bidi overrides or line breaks) and capped.
    const text = escapeServerText(resp.statusText.join(' '), 300)
    return fail('TIMESTAMP_REJECTED', `PKIStatus ${PKI_STATUS[Number(resp.status)] ?? resp.status}${text === '' ? '' : `: ${text}`}`)
  }
  if (resp.token === undefined) return fail('TIMESTAMP_BAD_REPLY', 'granted, but no token in the reply')
  const token = resp.token
  let echoed: bigint | undefined
  try {
    echoed = parseTimestampToken(token).tstInfo.nonce
  } catch (e) {
    return fail('TIMESTAMP_TOKEN_MALFORMED', e instanceof Error ? e.message : String(e))
  }
  if (echoed !== nonce) return fail('TIMESTAMP_BAD_REPLY', echoed === undefined ? 'the token does not echo the request nonce' : 'the token carries another nonce than the request (a replayed or mixed-up answer)')
  // The real deadline (the target block) is checked by verify; here the token must only be sane and near this host's clock.
  const clock = o.now()
  const deadline = Math.floor(clock / 1000) + 366 * 86_400 // not the draw's deadline: that is verify's job; the skew check below bounds the time
  const check = await checkCommitmentTime({ tokens: [token], digest, deadline, anchors: o.anchors })
  const t = check.tokens[0]
  if (check.status !== 'ok' || t === undefined) return fail(t?.problem ?? 'TIMESTAMP_TOKEN_MALFORMED', t?.detail ?? check.detail)
  const skew = Date.parse(t.time!) - clock
  if (Math.abs(skew) > o.maxSkewMs) return fail('TIMESTAMP_CLOCK_SKEW', `the token's time ${t.time} is ${Math.round(skew / 1000)} s off this host's clock (more than ${o.maxSkewMs / 1000} s)`)
  return { token, base64: bytesToBase64(token), authority, authorityName: t.authority ?? authority, time: t.time!, accuracySeconds: t.accuracySeconds ?? 0 }
}

/** Carries a refused redirect out of {@link fetchNoSteer} to the failure list (never escapes this module). */
class RedirectRefusal extends Error {
  constructor(readonly refused: RedirectRefused) {
    super(describeRefusal(refused))
  }
}

/** SHA-256 (NIST, RFC 5754). */
const SHA256_OID = '2.16.840.1.101.3.4.2.1'

/** PKIStatus names (RFC 3161 2.4.2), by value. */
const PKI_STATUS = ['granted', 'grantedWithMods', 'rejection', 'waiting', 'revocationWarning', 'revocationNotification'] as const

/**
 * The DER TimeStampReq (RFC 3161 2.4.1) of a SHA-256 `digest`: version 1, messageImprint, nonce, certReq TRUE.
 * @internal
 */
export function timeStampRequest(digest: Uint8Array, nonce: bigint): Uint8Array<ArrayBuffer> {
  return derSequence(derInteger(1), derSequence(derSequence(derOid(SHA256_OID)), derOctetString(digest)), derInteger(nonce), derBoolean(true))
}

/** What the client reads of a TimeStampResp. */
interface TimeStampReply {
  /** PKIStatus. */
  readonly status: bigint
  /** PKIFreeText, each UTF8String decoded (a malformed one replaced). */
  readonly statusText: readonly string[]
  /** The TimeStampToken exactly as sent (its whole TLV), when there is one. */
  readonly token: Uint8Array | undefined
}

/**
 * Reads a TimeStampResp (RFC 3161 2.4.2): `SEQUENCE { PKIStatusInfo { status, statusString?, failInfo? },
 * timeStampToken? }`, strict DER. The token is kept as received (its bytes, not a re-encoding): the
 * core's token check reads them and checks the signature over them. Throws `DerError` when malformed.
 */
function parseReply(body: Uint8Array): TimeStampReply {
  const root: Der = decodeDer(body, 'reply', 20_000)
  const parts = sequence(root, 'reply', 'TimeStampResp')
  if (parts.length > 2) throw new Error('extra fields in the TimeStampResp')
  const info = sequence(parts[0], 'reply.status', 'PKIStatusInfo')
  const status = integer(info[0], 'reply.status.status', 'status')
  const text = info[1]?.cls === 'universal' && info[1].tag === TAG.SEQUENCE ? info[1].children : []
  const utf8 = new TextDecoder()
  const statusText = text.map((t) => (t.cls === 'universal' && t.tag === TAG.UTF8 ? utf8.decode(t.content) : '?'))
  return { status, statusText, token: parts[1]?.raw.slice() }
}

function toBigInt(b: Uint8Array): bigint {
  let v = 0n
  for (const x of b) v = (v << 8n) | BigInt(x)
  return v
}
