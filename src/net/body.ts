/**
 * Reading HTTP response bodies under a size limit, shared by the edges (beacon gateways, REST).
 *
 * @module
 */
import { concatBytes } from '../core/bytes.js'

/**
 * Reads a `fetch` response body, refusing more than `maxBytes`: up front when the declared
 * `Content-Length` is over the limit, otherwise while streaming, as soon as the running total passes
 * it (the rest is never buffered). The body is cancelled before `tooLarge`'s error is thrown.
 *
 * @param tooLarge - builds the caller's typed error; `declared` is the Content-Length when that was
 *   the reason, `undefined` when the stream ran over.
 */
export async function readBodyLimited(res: Response, maxBytes: number, tooLarge: (declared: number | undefined) => Error): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? NaN)
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined)
    throw tooLarge(declared)
  }
  if (res.body === null) return new Uint8Array(0)
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.length
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge(undefined)
    }
    chunks.push(value)
  }
  return concatBytes(...chunks)
}
