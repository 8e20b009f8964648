/**
 * A small drand HTTP client over relays (drand's API: `/{chainhash}/info`, `/{chainhash}/public/{round}`,
 * `/{chainhash}/public/latest`), bound to one pinned chain: every round it returns has been checked
 * against the pinned public key (a relay is never trusted), and its randomness is recomputed.
 *
 * @module
 */
import { verifyRoundSignature, type DrandRound } from '../core/drand/beacon.js'
import { checkChainInfo, parseDrandInfo, roundTime, type DrandChainInfo } from '../core/drand/chain.js'
import { utf8Decode } from '../core/bytes.js'
import { InvalidInputError } from '../core/errors.js'
import { sleep, timedSignal } from '../net/abort.js'
import { readBodyLimited } from '../net/body.js'
import { escapeServerText } from '../net/text.js'
import { DrandError } from './errors.js'
import { DEFAULT_DRAND_URLS } from './urls.js'

export { DEFAULT_DRAND_URLS }

const MAX_BODY = 16 * 1024
const ABORT_CTX = { edge: 'timestamp' as const, what: 'a drand round' }

/**
 * Options of {@link DrandClient}.
 * @category Drand
 */
export interface DrandClientOptions {
  /** The pinned chain (default list: quicknet). */
  readonly chain: DrandChainInfo
  /** Relay base URLs, tried in order (default {@link DEFAULT_DRAND_URLS}; the CLI: `ORBITDRAW_DRAND_URLS`). */
  readonly urls?: readonly string[]
  /** `fetch` to use (default the global one). */
  readonly fetch?: typeof globalThis.fetch
  /** Timeout of each request, ms (default 10,000). */
  readonly timeoutMs?: number
  /** This host's clock, unix ms (default `Date.now`): when to start asking for a future round. */
  readonly now?: () => number
}

/**
 * Reads rounds of one pinned drand chain from relays, with failover.
 *
 * @example
 * ```ts
 * const drand = new DrandClient({ chain: DRAND_QUICKNET })
 * const r = await drand.waitForRound(commitment.drand.round, { timeoutMs: 60_000 })
 * ```
 * @category Drand
 */
export class DrandClient {
  readonly chain: DrandChainInfo
  readonly urls: readonly string[]
  readonly #fetch: typeof globalThis.fetch
  readonly #timeoutMs: number
  readonly #now: () => number

  constructor(options: DrandClientOptions) {
    this.chain = checkChainInfo(options.chain, '$.chain')
    const urls = options.urls ?? DEFAULT_DRAND_URLS
    if (!Array.isArray(urls) || urls.length === 0) throw new InvalidInputError('INVALID_OPTION', 'no drand relay URL given', 'pass at least one relay URL, e.g. https://api.drand.sh')
    this.urls = urls.map((u) => {
      let parsed: URL
      try {
        parsed = new URL(u)
      } catch {
        throw new InvalidInputError('INVALID_URL', `"${String(u).slice(0, 80)}" is not a URL`, 'pass relay base URLs like https://api.drand.sh')
      }
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new InvalidInputError('INVALID_URL', `${parsed.protocol} is not http(s)`, 'pass relay base URLs like https://api.drand.sh')
      return parsed.href.replace(/\/+$/, '')
    })
    this.#fetch = options.fetch ?? globalThis.fetch
    this.#timeoutMs = options.timeoutMs ?? 10_000
    this.#now = options.now ?? Date.now
  }

  /** The chain's info from the first relay that answers; it must be the pinned chain, field for field. */
  async info(options: { signal?: AbortSignal } = {}): Promise<DrandChainInfo> {
    const json = await this.#get('info', options.signal)
    let served: DrandChainInfo
    try {
      served = parseDrandInfo(json)
    } catch (cause) {
      throw new DrandError('DRAND_BAD_RESPONSE', 'the relay served chain info that does not check', 'use another relay', { cause })
    }
    const c = this.chain
    if (served.hash !== c.hash || served.publicKey !== c.publicKey || served.genesis !== c.genesis || served.period !== c.period || served.scheme !== c.scheme) {
      throw new DrandError('DRAND_CHAIN_MISMATCH', `the relay serves another chain than the pinned ${c.hash}`, 'check the relay URL and the pinned chain info')
    }
    return served
  }

  /**
   * Round `round`, verified against the pinned key.
   * @throws {@link DrandError} `DRAND_UNAVAILABLE` (no relay has it, or it is not public yet), `DRAND_BAD_RESPONSE`.
   */
  async round(round: number, options: { signal?: AbortSignal } = {}): Promise<DrandRound> {
    const json = (await this.#get(`public/${round}`, options.signal)) as { round?: unknown; signature?: unknown }
    const r = { round: json?.round as number, signature: json?.signature as string }
    if (r.round !== round || typeof r.signature !== 'string') throw new DrandError('DRAND_BAD_RESPONSE', `the relay answered round ${escapeServerText(String(r.round), 20)} for round ${round}`, 'use another relay')
    if (!verifyRoundSignature(this.chain, r)) throw new DrandError('DRAND_BAD_RESPONSE', `the signature served for round ${round} does not verify under the pinned key`, 'the relay is faulty or serves another chain; use another relay')
    return { round, signature: r.signature }
  }

  /** The latest round, verified. */
  async latest(options: { signal?: AbortSignal } = {}): Promise<DrandRound> {
    const json = (await this.#get('public/latest', options.signal)) as { round?: unknown }
    if (typeof json?.round !== 'number' || !Number.isSafeInteger(json.round) || json.round < 1) throw new DrandError('DRAND_BAD_RESPONSE', 'the relay answered latest without a round number', 'use another relay')
    return this.round(json.round, options)
  }

  /**
   * Waits until round `round` is due (by this host's clock), then asks for it until it is served or
   * `timeoutMs` (default: 10 periods after the round's time) passes.
   * @throws {@link DrandError} `DRAND_VOID` when it never appears: the draw is void (no other round may be used).
   */
  async waitForRound(round: number, options: { signal?: AbortSignal; timeoutMs?: number; onWait?: (secondsLeft: number) => void } = {}): Promise<DrandRound> {
    const dueMs = roundTime(this.chain, round) * 1000
    const giveUpMs = Math.max(dueMs, this.#now()) + (options.timeoutMs ?? 10 * this.chain.period * 1000)
    let last: unknown
    for (let attempt = 0; ; attempt++) {
      const wait = dueMs - this.#now()
      if (wait > 0) {
        options.onWait?.(Math.ceil(wait / 1000))
        await sleep(Math.min(wait, 1000), options.signal, ABORT_CTX)
        continue
      }
      try {
        return await this.round(round, options)
      } catch (err) {
        if (err instanceof DrandError && err.code === 'DRAND_ABORTED') throw err
        last = err
      }
      if (this.#now() >= giveUpMs) {
        throw new DrandError('DRAND_VOID', `drand round ${round} did not appear by ${new Date(giveUpMs).toISOString()}${last instanceof Error ? ` (${last.message})` : ''}`, 'the draw is void: make a new commitment; no other round or source may be used', { cause: last })
      }
      await sleep(Math.min(250 * 2 ** Math.min(attempt, 3), 2000), options.signal, ABORT_CTX)
    }
  }

  async #get(path: string, signal: AbortSignal | undefined): Promise<unknown> {
    const failures: string[] = []
    for (const base of this.urls) {
      if (signal?.aborted === true) throw new DrandError('DRAND_ABORTED', 'the drand request was aborted', 'nothing to do')
      const url = `${base}/${this.chain.hash}/${path}`
      const t = timedSignal(this.#timeoutMs, signal)
      try {
        const res = await this.#fetch(url, { signal: t.signal, redirect: 'error', headers: { accept: 'application/json' } })
        const body = await readBodyLimited(res, MAX_BODY, () => new DrandError('DRAND_BAD_RESPONSE', `${base} answered more than ${MAX_BODY} bytes`, 'use another relay'))
        if (!res.ok) {
          failures.push(`${base}: HTTP ${res.status}`)
          continue
        }
        try {
          return JSON.parse(utf8Decode(body)) as unknown
        } catch {
          failures.push(`${base}: not JSON`)
        }
      } catch (err) {
        if (t.callerAborted()) throw new DrandError('DRAND_ABORTED', 'the drand request was aborted', 'nothing to do', { cause: err })
        failures.push(`${base}: ${t.timedOut() ? `no answer within ${this.#timeoutMs} ms` : err instanceof Error ? err.message : String(err)}`)
      } finally {
        t.dispose()
      }
    }
    throw new DrandError('DRAND_UNAVAILABLE', `no drand relay served ${path}: ${failures.join('; ')}`, 'check the network and the relays (ORBITDRAW_DRAND_URLS), or wait until the round is public')
  }
}
