/**
 * One trustless gateway as a {@link BlockSource}: HTTP with a timeout, an AbortSignal, a body size
 * limit and redirect refusal (the shared `src/net/` toolkit), and every answer checked before it is
 * returned: block bytes against their CID, IPNS records against the beacon's key. No retries, no
 * failover, no cache: those are other pieces ({@link FailoverSource}, {@link CachedSource}).
 *
 * @module
 */
import { blockCid, parseBlock, parseCid, type BeaconBlock } from '../core/block.js'
import { bytesToHex } from '../core/bytes.js'
import { OrbitdrawError, ParseError } from '../core/errors.js'
import { LIMITS } from '../core/limits.js'
import { MAX_IPNS_RECORD_BYTES, verifyIpnsRecord, type VerifiedIpnsRecord } from '../core/ipns/record.js'
import { abortedError, throwIfAborted, timedSignal } from '../net/abort.js'
import { readBodyLimited } from '../net/body.js'
import { NetworkError, RateLimitedError, TimeoutError } from '../net/errors.js'
import { describeRefusal, fetchNoSteer, type RedirectPolicy } from '../net/redirect.js'
import { retryAfterMs } from '../net/retry-after.js'
import { escapeServerText } from '../net/text.js'
import { BadResponseError, GatewayHttpError, LegacyBlockError, RedirectRefusedError } from './errors.js'
import type { BlockSource, HeadAnswer, RecordAnswer, SourceCallOptions } from './source.js'

/**
 * The current Orbitport beacon's IPNS name (RSA key, `k2k4r8…`).
 * @category Beacon
 */
export const ORBITPORT_BEACON_NAME = 'k2k4r8lvomw737sajfnpav0dpeernugnryng50uheyk1k39lursmn09f'

/**
 * An older Orbitport beacon name, kept for checking old draws.
 * @category Beacon
 */
export const ORBITPORT_OLD_BEACON_NAME = 'k2k4r8pigrw8i34z63om8f015tt5igdq0c46xupq8spp1bogt35k5vhe'

/**
 * Public gateways seen in use with the beacon (best effort, rate-limited, caching).
 * @category Beacon
 */
export const DEFAULT_GATEWAYS: readonly string[] = Object.freeze(['https://ipfs.io', 'https://dweb.link', 'https://w3s.link', 'https://ipfs.filebase.io', 'https://gateway.pinata.cloud'])

/**
 * A `fetch`-compatible function.
 * @category Beacon
 */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

/** Wait assumed when a gateway answers 429 without a usable `Retry-After` (ms). */
export const DEFAULT_RETRY_AFTER_MS = 1000

/**
 * What a gateway request is for (given to `onRequest`).
 * @category Beacon
 */
export type GatewayRequestKind = 'record' | 'block' | 'head-json'

/** Options of {@link GatewaySource}. */
export interface GatewaySourceOptions {
  /** `fetch` to use. */
  readonly fetch: FetchLike
  /** Timeout of each request including its body, ms. */
  readonly timeoutMs: number
  /** Clock in ms (for Retry-After dates and record validity). */
  readonly now: () => number
  /** Which redirects may be followed. */
  readonly redirects?: RedirectPolicy | undefined
  /** Called before every HTTP request. */
  readonly onRequest?: ((info: { gateway: string; path: string; kind: GatewayRequestKind }) => void) | undefined
}

/** A successful HTTP answer. */
interface GatewayAnswer {
  readonly bytes: Uint8Array
  readonly headers: Headers
}

const RECORD_ACCEPT = 'application/vnd.ipfs.ipns-record'
const RAW_ACCEPT = 'application/vnd.ipld.raw'

/**
 * One IPFS trustless gateway. Every method checks what it returns and throws a typed error otherwise.
 *
 * @example
 * const gw = new GatewaySource('https://ipfs.io', { fetch, timeoutMs: 10_000, now: Date.now })
 * const block = await gw.block('bafkrei…')
 */
export class GatewaySource implements BlockSource {
  /** The gateway's base URL (no trailing slash). */
  readonly id: string
  readonly #o: GatewaySourceOptions

  constructor(gateway: string, options: GatewaySourceOptions) {
    this.id = normalizeGateway(gateway)
    this.#o = options
  }

  /** The block `cid`, its bytes checked against it. */
  async block(cid: string, options: SourceCallOptions = {}): Promise<BeaconBlock> {
    const parsed = parseCid(cid, '$.cid')
    const ans = await this.#get(`/ipfs/${parsed.toString()}?format=raw`, RAW_ACCEPT, `block ${cid}`, LIMITS.maxBlockBytes, 'block', options.signal)
    try {
      return parseBlock(ans.bytes, parsed)
    } catch (cause) {
      // The bytes hash to the CID: every gateway serves the same old-format block; do not fail over.
      if (cause instanceof ParseError && cause.code === 'LEGACY_BLOCK_FORMAT') throw new LegacyBlockError(parsed.toV1().toString(), undefined, { cause })
      throw new BadResponseError(this.id, `block ${cid}`, cause instanceof OrbitdrawError ? cause.detail : String(cause), { cause })
    }
  }

  /** The signed IPNS record of `name`, verified against the name's key (`?format=ipns-record`). */
  async record(name: string, options: SourceCallOptions = {}): Promise<RecordAnswer> {
    const ans = await this.#get(`/ipns/${name}?format=ipns-record`, RECORD_ACCEPT, `IPNS record of ${name}`, MAX_IPNS_RECORD_BYTES, 'record', options.signal)
    let info: VerifiedIpnsRecord
    try {
      info = await verifyIpnsRecord(ans.bytes, name, { now: new Date(this.#o.now()) })
    } catch (cause) {
      const ct = ans.headers.get('content-type') ?? ''
      // The header is the gateway's text: escaped (C1 controls pass HTTP parsers as obs-text) and capped.
      const why = ct !== '' && !ct.includes('ipns-record') ? `not an IPNS record (content-type ${escapeServerText(ct, 100)}); the gateway may not support ?format=ipns-record` : cause instanceof OrbitdrawError ? cause.detail : String(cause)
      throw new BadResponseError(this.id, 'IPNS record', why, { cause })
    }
    if (info.valueCid === undefined) throw new BadResponseError(this.id, 'IPNS record', `its value ${info.value} is not an /ipfs/<cid> path`)
    return { bytes: ans.bytes, info: info as VerifiedIpnsRecord & { readonly valueCid: string }, source: this.id }
  }

  /** The head block as unsigned JSON (`/ipns/<name>`), checked against its own hash and `X-Ipfs-Roots`. */
  async unsignedHead(name: string, options: SourceCallOptions = {}): Promise<HeadAnswer> {
    const ans = await this.#get(`/ipns/${name}`, 'application/json', `unsigned head of ${name}`, LIMITS.maxBlockBytes, 'head-json', options.signal)
    const cid = blockCid(ans.bytes)
    try {
      const block = parseBlock(ans.bytes, cid)
      const roots = ans.headers.get('x-ipfs-roots')
      const claimed = roots?.split(',').pop()?.trim()
      if (claimed !== undefined && claimed !== '' && bytesToHex(parseCid(claimed).multihash.bytes) !== bytesToHex(parseCid(cid).multihash.bytes)) {
        throw new BadResponseError(this.id, 'head JSON', `its bytes hash to ${cid} but X-Ipfs-Roots says ${claimed}`)
      }
      return { block, source: this.id }
    } catch (cause) {
      if (cause instanceof BadResponseError) throw cause
      throw new BadResponseError(this.id, 'head JSON', cause instanceof OrbitdrawError ? cause.detail : String(cause), { cause })
    }
  }

  /** GETs `gateway + path`; throws a typed error for every failure. */
  async #get(path: string, accept: string, what: string, maxBytes: number, kind: GatewayRequestKind, signal: AbortSignal | undefined): Promise<GatewayAnswer> {
    const gateway = this.id
    const ctx = { edge: 'beacon' as const, what }
    this.#o.onRequest?.({ gateway, path, kind })
    throwIfAborted(signal, ctx)
    const t = timedSignal(this.#o.timeoutMs, signal)
    const fail = (cause: unknown): never => {
      if (t.callerAborted()) throw abortedError(ctx, signal?.reason)
      if (t.timedOut()) throw new TimeoutError({ edge: 'beacon', url: gateway, timeoutMs: this.#o.timeoutMs, what })
      throw new NetworkError({ edge: 'beacon', url: gateway, what, cause })
    }
    try {
      let res: Response
      try {
        res = await fetchNoSteer(this.#o.fetch, gateway + path, { headers: { accept }, signal: t.signal }, this.#o.redirects ?? {}, (r) =>
          new RedirectRefusedError(gateway, r.reason, r.toOrigin, what, describeRefusal(r)),
        )
      } catch (cause) {
        if (cause instanceof RedirectRefusedError) throw cause
        return fail(cause)
      }
      if (res.status === 429) {
        void res.body?.cancel().catch(() => undefined)
        throw new RateLimitedError({ edge: 'beacon', url: gateway, what, retryAfterMs: retryAfterMs(res.headers.get('retry-after'), this.#o.now()) ?? DEFAULT_RETRY_AFTER_MS })
      }
      if (!res.ok) {
        void res.body?.cancel().catch(() => undefined)
        throw new GatewayHttpError(gateway, res.status, what)
      }
      let bytes: Uint8Array
      try {
        bytes = await readBodyLimited(res, maxBytes, (declared) =>
          new GatewayHttpError(gateway, 413, declared === undefined ? `${what} (body over the ${maxBytes}-byte limit)` : `${what} (body of ${declared} bytes is over the ${maxBytes}-byte limit)`),
        )
      } catch (cause) {
        if (cause instanceof GatewayHttpError) throw cause
        return fail(cause)
      }
      if (bytes.length === 0) throw new GatewayHttpError(gateway, res.status, `${what} (empty body)`)
      return { bytes, headers: res.headers }
    } finally {
      t.dispose()
    }
  }
}

/** Normalizes a gateway base URL (no trailing slash); throws on a non-http(s) URL. */
export function normalizeGateway(url: string): string {
  const u = new URL(url)
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`gateway ${url} is not http(s)`)
  return u.href.replace(/\/+$/, '')
}
