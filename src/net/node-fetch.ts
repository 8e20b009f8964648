/**
 * A `fetch` for the Node edges' own requests, on `node:http` / `node:https` with keep-alive agents:
 * the part of `fetch` the edges use (GET or a POST with a byte or text body, `redirect: 'manual'`, an
 * `AbortSignal`), answered with the part of `Response` they read (`status`, `ok`, `headers.get`,
 * `body.getReader()` / `body.cancel()`, `arrayBuffer()`, `text()`, `json()`).
 *
 * Why not the global `fetch` (undici): a fresh `orbitdraw draw` walks the beacon's chain one block
 * request after another (a block's `previous` link is the next request), and a process's first
 * global `fetch` compiles undici (about 80–140 ms of CPU on the loaded machine), then spends about
 * 1–1.7 ms of CPU per request on its WHATWG machinery; `node:http` took 0.5–0.7 ms per request and
 * about 25 ms for the first (docs/performance.md, "CLI wall times"). Nothing here checks what it
 * fetches: the callers (gateway, time-stamping client) check every answer as before (block bytes
 * against their CID, body size limits, redirects through `fetchNoSteer`).
 *
 * Anything outside that subset (another method, a `ReadableStream` or form body, redirects followed
 * by `fetch` itself, `credentials`, `cache`, a non-http(s) URL) goes to the global `fetch` unchanged.
 * No `accept-encoding` is sent; an answer that is `gzip`, `deflate` or `br` encoded anyway is decoded
 * (as `fetch` does), any other encoding fails the request. Idle keep-alive sockets never hold the
 * process open (Node's agents unref them).
 *
 * @module
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'

/** A `fetch`-compatible function (the edges' `FetchLike`). */
export type NodeFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

let agents: { http: HttpAgent; https: HttpsAgent } | undefined

/** The headers of an answer, read like `Headers` (names compared without case; repeated values joined by `, `). */
class AnswerHeaders {
  readonly #map = new Map<string, string>()

  constructor(raw: readonly string[]) {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase()
      const prior = this.#map.get(name)
      this.#map.set(name, prior === undefined ? raw[i + 1]! : `${prior}, ${raw[i + 1]!}`)
    }
  }

  get(name: string): string | null {
    return this.#map.get(name.toLowerCase()) ?? null
  }

  has(name: string): boolean {
    return this.#map.has(name.toLowerCase())
  }

  forEach(fn: (value: string, name: string) => void): void {
    for (const [name, value] of this.#map) fn(value, name)
  }
}

/** An answer's body, read like a `ReadableStream` of `Uint8Array`s (one reader, as `fetch`'s). */
class AnswerBody {
  readonly #stream: Readable
  readonly #iterator: AsyncIterator<Buffer>
  #locked = false
  #used = false

  constructor(stream: Readable) {
    this.#stream = stream
    this.#iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  }

  get locked(): boolean {
    return this.#locked
  }

  getReader(): { read(): Promise<{ done: true; value: undefined } | { done: false; value: Uint8Array }>; cancel(): Promise<void>; releaseLock(): void } {
    if (this.#locked) throw new TypeError('the body is already being read')
    this.#locked = true
    return {
      read: async () => {
        this.#used = true
        const next = await this.#iterator.next()
        return next.done === true ? { done: true, value: undefined } : { done: false, value: new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength) }
      },
      cancel: () => this.cancel(),
      releaseLock: () => {
        this.#locked = false
      },
    }
  }

  cancel(): Promise<void> {
    this.#stream.destroy()
    return Promise.resolve()
  }

  /** The whole body (once). */
  async bytes(): Promise<Uint8Array> {
    if (this.#used || this.#locked) throw new TypeError('the body was already read')
    this.#used = true
    const chunks: Buffer[] = []
    for await (const chunk of this.#stream) chunks.push(chunk as Buffer)
    const all = Buffer.concat(chunks)
    return new Uint8Array(all.buffer, all.byteOffset, all.byteLength)
  }
}

/** The part of `Response` the edges read. */
class Answer {
  readonly type = 'basic'
  readonly redirected = false
  readonly url: string
  readonly status: number
  readonly statusText: string
  readonly headers: AnswerHeaders
  readonly body: AnswerBody

  constructor(url: string, res: IncomingMessage, body: Readable) {
    this.url = url
    this.status = res.statusCode ?? 0
    this.statusText = res.statusMessage ?? ''
    this.headers = new AnswerHeaders(res.rawHeaders)
    this.body = new AnswerBody(body)
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299
  }

  get bodyUsed(): boolean {
    return this.body.locked
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = await this.body.bytes()
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer
  }

  bytes(): Promise<Uint8Array> {
    return this.body.bytes()
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.body.bytes())
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown
  }
}

/** The request's headers as a plain object (lower-case names), or undefined when they are not plain. */
function plainHeaders(headers: RequestInit['headers']): Record<string, string> | undefined {
  const out: Record<string, string> = {}
  if (headers === undefined) return out
  if (Array.isArray(headers)) {
    for (const pair of headers as readonly (readonly string[])[]) {
      if (pair.length !== 2) return undefined
      out[pair[0]!.toLowerCase()] = pair[1]!
    }
    return out
  }
  if (typeof (headers as { forEach?: unknown }).forEach === 'function') {
    ;(headers as { forEach(fn: (value: string, name: string) => void): void }).forEach((value, name) => (out[name.toLowerCase()] = value))
    return out
  }
  for (const [name, value] of Object.entries(headers as Record<string, string>)) out[name.toLowerCase()] = String(value)
  return out
}

/** The body's bytes when it is text or bytes (undefined: no body; null: another kind of body). */
function plainBody(body: RequestInit['body']): Uint8Array | undefined | null {
  if (body === undefined || body === null) return undefined
  if (typeof body === 'string') return new TextEncoder().encode(body)
  if (body instanceof Uint8Array) return body
  if (body instanceof ArrayBuffer) return new Uint8Array(body)
  return null
}

/** The decoded body of an answer (as `fetch` decodes it), or an error for an encoding it does not know. */
function decoded(res: IncomingMessage): Readable | Error {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase()
  if (encoding === '' || encoding === 'identity') return res
  const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : undefined
  if (decoder === undefined) return new TypeError(`unsupported content-encoding ${encoding}`)
  res.on('error', (e) => decoder.destroy(e))
  return res.pipe(decoder)
}

/**
 * `fetch` on `node:http(s)` for the requests the edges make (see the module comment); every other
 * request goes to the global `fetch`.
 *
 * @example
 * const client = new BeaconClient({ name, fetch: nodeFetch })
 */
export const nodeFetch: NodeFetch = (input, init = {}) => {
  if (typeof input !== 'string' && !(input instanceof URL)) return globalThis.fetch(input, init)
  const url = new URL(input)
  const method = (init.method ?? 'GET').toUpperCase()
  const headers = plainHeaders(init.headers)
  const body = plainBody(init.body)
  const plain =
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    (method === 'GET' || method === 'POST') &&
    (method === 'POST' || body === undefined) &&
    headers !== undefined &&
    body !== null &&
    init.redirect === 'manual' &&
    (init.credentials === undefined || init.credentials === 'same-origin') &&
    (init.cache === undefined || init.cache === 'default')
  if (!plain) return globalThis.fetch(input, init)
  const signal = init.signal ?? undefined
  if (signal?.aborted === true) return Promise.reject(signal.reason as Error)
  agents ??= { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }
  const https = url.protocol === 'https:'
  if (body !== undefined) headers['content-length'] = String(body.byteLength)
  return new Promise<Response>((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(url, { method, headers, agent: https ? agents!.https : agents!.http })
    const onAbort = (): void => {
      req.destroy(signal!.reason instanceof Error ? signal!.reason : new Error('aborted', { cause: signal!.reason }))
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    req.on('error', (e) => {
      signal?.removeEventListener('abort', onAbort)
      reject(e)
    })
    req.on('response', (res) => {
      const stream = decoded(res)
      if (stream instanceof Error) {
        res.destroy()
        signal?.removeEventListener('abort', onAbort)
        reject(stream)
        return
      }
      // The signal still cuts the body short (as with fetch); its listener goes when the body ends.
      const done = (): void => signal?.removeEventListener('abort', onAbort)
      res.once('close', done)
      if (signal !== undefined) {
        const abortBody = (): void => {
          stream.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted', { cause: signal.reason }))
        }
        signal.addEventListener('abort', abortBody, { once: true })
        stream.once('close', () => signal.removeEventListener('abort', abortBody))
      }
      resolve(new Answer(url.href, res, stream) as unknown as Response)
    })
    req.end(body === undefined ? undefined : Buffer.from(body.buffer, body.byteOffset, body.byteLength))
  })
}
