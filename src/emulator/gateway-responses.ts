/**
 * The emulated gateway's answers (`./beacon.ts`): JSON errors, bodies (altered by a fault when one
 * applies), the answers of the faults that replace a response, the format a request asks for, and a
 * record's validity as text.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { alterBody, type FaultSpec } from './faults.js'
import { untilClosed } from './http.js'

/** A JSON `{ message }` error, never cached. */
export function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ message })
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'cache-control': 'no-store', ...headers })
  res.end(body)
}

/** A 200 with `body` (altered by `fault` when it alters bodies); no body for HEAD. */
export function sendBody(req: IncomingMessage, res: ServerResponse, body: Uint8Array, headers: Record<string, string>, fault: FaultSpec | undefined): void {
  const out = alterBody(body, fault)
  res.writeHead(200, { ...headers, 'content-length': String(out.length), 'x-content-type-options': 'nosniff', vary: 'Accept' })
  res.end(req.method === 'HEAD' ? undefined : out)
}

/**
 * Answers a fault that replaces the response (hang, status, rate limit, redirect); returns false when
 * `fault` is none of those and the request is still to be answered.
 */
export async function answerFault(res: ServerResponse, url: URL, fault: FaultSpec | undefined): Promise<boolean> {
  if (fault?.kind === 'hang') {
    await untilClosed(res)
    return true
  }
  if (fault?.kind === 'status') {
    sendError(res, fault.status ?? 503, fault.message ?? 'injected gateway error')
    return true
  }
  if (fault?.kind === 'rate-limit') {
    const s = fault.retryAfterSeconds ?? 1
    sendError(res, 429, `too many requests; retry after ${s} s`, { 'retry-after': String(s) })
    return true
  }
  if (fault?.kind === 'redirect') {
    const location = `${fault.to.replace(/\/+$/, '')}${url.pathname}${url.search}`
    res.writeHead(fault.status ?? 302, { location, 'content-length': '0' })
    res.end()
    return true
  }
  return false
}

/** The format a request asks for: `?format=`, else from its Accept header (`ipns-record`, `raw`, `car`). */
export function wants(url: URL, req: IncomingMessage): string | undefined {
  const format = url.searchParams.get('format')
  if (format !== null) return format
  const accept = String(req.headers.accept ?? '')
  if (accept.includes('application/vnd.ipfs.ipns-record')) return 'ipns-record'
  if (accept.includes('application/vnd.ipld.raw')) return 'raw'
  if (accept.includes('application/vnd.ipld.car')) return 'car'
  return undefined
}

/** A record's validity as given (RFC 3339 text), or a date in RFC 3339 with nanoseconds. */
export function recordValidity(t: string | Date): string {
  if (typeof t === 'string') return t
  return t.toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z')
}
