/**
 * Minimal in-process HTTP server the emulator's services plug into. Each service contributes a
 * {@link RouteHandler}; the first handler that returns `true` has answered the request.
 *
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { LIMITS } from '../core/limits.js'

/**
 * Answers a request if it is for this service; returns `false` to let the next handler try.
 * @category Emulator
 */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean

/**
 * A running loopback HTTP server.
 * @category Emulator
 */
export interface RunningHttpServer {
  /** Base URL, e.g. `http://127.0.0.1:54321` (no trailing slash). */
  readonly url: string
  /** The bound port. */
  readonly port: number
  /** Stops accepting connections and closes open ones. */
  close(): Promise<void>
}

/**
 * Options for {@link startHttpServer}.
 * @category Emulator
 */
export interface HttpServerOptions {
  /** Port to bind; 0 (default) picks a free port. */
  port?: number
  /** Host to bind; default `127.0.0.1` (loopback only). */
  host?: string
}

/**
 * Resolves when `res`'s connection closes without an answer having been sent (the client gave up,
 * or the server closed its connections on stop): how a `hang` fault holds a request.
 */
export function untilClosed(res: ServerResponse): Promise<void> {
  if (res.destroyed || res.writableEnded) return Promise.resolve()
  return new Promise((resolve) => res.once('close', () => resolve()))
}

/**
 * Starts an HTTP server on loopback dispatching to `handlers` in order; unknown routes get 404.
 * @category Emulator
 */
export async function startHttpServer(handlers: readonly RouteHandler[], options: HttpServerOptions = {}): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1'
  const server: Server = createServer((req, res) => {
    void dispatch(handlers, req, res, host)
  })
  // Idle connections stay open 5 s (Node's default), as a gateway's do: undici (Node's fetch) keeps a
  // connection only while the server's Keep-Alive hint exceeds 1 s, so a 1 s hint made every request
  // of a chain walk open a new connection (docs/performance.md, CLI).
  server.keepAliveTimeout = 5000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

async function dispatch(handlers: readonly RouteHandler[], req: IncomingMessage, res: ServerResponse, host: string): Promise<void> {
  try {
    const url = new URL(req.url ?? '/', `http://${host}`)
    for (const h of handlers) {
      if (await h(req, res, url)) return
    }
    sendJson(res, 404, { message: `no route for ${req.method} ${url.pathname}` })
  } catch (err) {
    const status = (err as { status?: unknown } | null)?.status
    const code = typeof status === 'number' && status >= 400 && status <= 599 ? status : 500
    // An unread request body is not drained: the connection is closed after the answer.
    if (!res.headersSent) sendJson(res, code, { message: err instanceof Error ? err.message : 'internal error' }, code === 413 ? { connection: 'close' } : {})
    else res.destroy()
  }
}

/** Sends a JSON body with the given status. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

/** Reads a request body up to `limit` bytes; rejects with a 413-worthy error past it. */
export async function readBody(req: IncomingMessage, limit: number = LIMITS.maxEmulatorRequestBytes): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length'] ?? NaN)
  if (Number.isFinite(declared) && declared > limit) throw Object.assign(new Error(`request body of ${declared} bytes is over ${limit} bytes`), { status: 413 })
  const chunks: Buffer[] = []
  let total = 0
  for await (const chunk of req) {
    const b = chunk as Buffer
    total += b.length
    if (total > limit) throw Object.assign(new Error(`request body over ${limit} bytes`), { status: 413 })
    chunks.push(b)
  }
  return new Uint8Array(Buffer.concat(chunks))
}
