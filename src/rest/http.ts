/**
 * One REST request and its body, with the shared toolkit: redirect refusal, a size-capped body, and
 * transport failures turned into the network error family (retryable ones wrapped in
 * {@link Retryable}). Server text in errors is scrubbed of secrets.
 *
 * @module
 */
import { OrbitdrawError } from '../core/errors.js'
import { abortedError } from '../net/abort.js'
import { readBodyLimited } from '../net/body.js'
import { NetworkError, TimeoutError } from '../net/errors.js'
import { describeRefusal, fetchNoSteer, type RedirectPolicy } from '../net/redirect.js'
import { InvalidResponseError, RedirectError } from './errors.js'
import { stripQuery, type Scrub } from './response.js'
import { Retryable, type AttemptContext } from './retry.js'

/** What {@link RestHttp} needs. */
export interface RestHttpOptions {
  readonly fetch: typeof fetch
  readonly redirects: RedirectPolicy
  readonly maxResponseBytes: number
  /** Timeout of one attempt, ms (for the error). */
  readonly timeoutMs: number
  /** Deadline of a whole call, ms (for the error). */
  readonly deadlineMs: number
  readonly scrub: Scrub
}

/** Sends requests and reads bodies for the REST client. */
export class RestHttp {
  readonly #o: RestHttpOptions

  constructor(options: RestHttpOptions) {
    this.#o = options
  }

  /** Sends a request under the attempt's signal; redirects are refused unless allowed. */
  async send(url: string, init: RequestInit, ctx: AttemptContext): Promise<Response> {
    try {
      return await fetchNoSteer(this.#o.fetch, url, { ...init, signal: ctx.signal }, this.#o.redirects, (r) => new RedirectError(this.#o.scrub(describeRefusal(r)), r.reason, r.toOrigin))
    } catch (err) {
      if (err instanceof RedirectError) throw err
      throw this.#transportError(url, err, ctx)
    }
  }

  /** Reads the body as UTF-8 text, refusing more than `maxResponseBytes`. */
  async readBody(url: string, res: Response, ctx: AttemptContext): Promise<string> {
    const max = this.#o.maxResponseBytes
    try {
      const bytes = await readBodyLimited(res, max, (declared) =>
        new InvalidResponseError(stripQuery(url), declared === undefined ? `the body is over the ${max}-byte limit` : `the body is ${declared} bytes, over the ${max}-byte limit`),
      )
      return new TextDecoder('utf-8').decode(bytes)
    } catch (err) {
      if (err instanceof OrbitdrawError) throw err
      throw this.#transportError(url, err, ctx)
    }
  }

  #transportError(url: string, err: unknown, ctx: AttemptContext): unknown {
    const bare = stripQuery(url)
    if (ctx.callerSignal?.aborted === true) return abortedError({ edge: 'rest' }, ctx.callerSignal.reason)
    if (ctx.signal.aborted) {
      if (ctx.deadlineHit()) return new TimeoutError({ edge: 'rest', url: bare, timeoutMs: this.#o.deadlineMs, scope: 'deadline' })
      return new Retryable(new TimeoutError({ edge: 'rest', url: bare, timeoutMs: this.#o.timeoutMs, scope: 'attempt' }))
    }
    const detail = err instanceof Error ? `${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ''}` : String(err)
    return new Retryable(new NetworkError({ edge: 'rest', url: bare, detail: this.#o.scrub(detail), cause: err }))
  }
}
