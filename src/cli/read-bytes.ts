/**
 * Reading an input file as raw bytes. Its own module (only the core's error classes) so that
 * `orbitdraw verify` does not load the beacon client through `common.ts`.
 *
 * @module
 */
import { InvalidInputError } from '../core/errors.js'

/**
 * Reads a file (or standard input for `-`) as raw bytes, undecoded, for the core's byte-level entry
 * point. At most `maxBytes + 1` bytes are read (a larger file is refused by its size before reading;
 * standard input stops one byte past the limit), so the core's size check still names the limit.
 * @throws {@link InvalidInputError} `FILE_UNREADABLE` (exit 4).
 */
export async function readBytesInput(path: string, what: string, maxBytes: number): Promise<Uint8Array> {
  try {
    if (path === '-') return await readStdinBytes(maxBytes + 1)
    const { open } = await import('node:fs/promises')
    const file = await open(path, 'r')
    try {
      const { size } = await file.stat()
      const buf = Buffer.alloc(Math.min(size, maxBytes + 1))
      const { bytesRead } = await file.read(buf, 0, buf.length, 0)
      return new Uint8Array(buf.buffer, buf.byteOffset, bytesRead)
    } finally {
      await file.close()
    }
  } catch (cause) {
    throw new InvalidInputError('FILE_UNREADABLE', `cannot read ${what} ${path}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`, 'check the path and permissions', { cause })
  }
}

async function readStdinBytes(cap: number): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  let total = 0
  for await (const c of process.stdin) {
    const chunk = c as Buffer
    chunks.push(chunk)
    total += chunk.length
    if (total >= cap) break
  }
  const all = Buffer.concat(chunks)
  return new Uint8Array(all.buffer, all.byteOffset, Math.min(all.length, cap))
}
