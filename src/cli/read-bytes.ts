/**
 * Reading an input file as raw bytes. Its own module (only the core's error classes) so that
 * `orbitdraw verify` does not load the beacon client through `common.ts`.
 *
 * @module
 */
import { close, fstat, open, read } from 'node:fs'
import { promisify } from 'node:util'
import { InvalidInputError } from '../core/errors.js'

// The callback API of node:fs, not node:fs/promises: loading fs/promises also loads Node's streams and
// readline modules, about 3 ms of a fresh `orbitdraw verify` (docs/performance.md, Start-up).
const openFile = promisify(open)
const statFile = promisify(fstat)
const readChunk = promisify(read)
const closeFile = promisify(close)

/**
 * Reads a file (or standard input for `-`) as raw bytes, undecoded, for the core's byte-level entry
 * point. At most `maxBytes + 1` bytes are read (a larger file is refused by its size before reading;
 * standard input, a pipe or a device stops one byte past the limit), so the core's size check still names the limit.
 * @throws {@link InvalidInputError} `FILE_UNREADABLE` (exit 4).
 */
export async function readBytesInput(path: string, what: string, maxBytes: number): Promise<Uint8Array> {
  try {
    if (path === '-') return await readStdinBytes(maxBytes + 1)
    const fd = await openFile(path, 'r')
    try {
      const stat = await statFile(fd)
      // A pipe or a device (`verify <(curl …)`, /dev/stdin, a FIFO) states size 0: read it to its end.
      if (!stat.isFile()) return await readStreamBytes(fd, maxBytes + 1)
      const buf = Buffer.alloc(Math.min(stat.size, maxBytes + 1))
      let filled = 0
      // read() may return fewer bytes than asked: read until the buffer is full or the file ends.
      while (filled < buf.length) {
        const n = (await readChunk(fd, buf, filled, buf.length - filled, filled)).bytesRead
        if (n === 0) break
        filled += n
      }
      return new Uint8Array(buf.buffer, buf.byteOffset, filled)
    } finally {
      await closeFile(fd)
    }
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT' && /^https?:\/\//i.test(path)) {
      throw new InvalidInputError(
        'FILE_UNREADABLE',
        `cannot read ${what} ${path}: it is a URL, and orbitdraw reads local files (no network for a ${what})`,
        `download it first, then pass the file: curl -fsSL -o ${what}.json '${path.replace(/'/g, '%27')}'${what === 'proof' ? '; or open the verifier page with ?proof=<that URL>' : ''}`,
        { cause },
      )
    }
    throw new InvalidInputError('FILE_UNREADABLE', `cannot read ${what} ${path}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`, 'check the path and permissions', { cause })
  }
}

/** Reads `fd` from its current position until its end or `cap` bytes, whichever comes first. */
async function readStreamBytes(fd: number, cap: number): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  let total = 0
  while (total < cap) {
    const chunk = Buffer.alloc(Math.min(65_536, cap - total))
    const n = (await readChunk(fd, chunk, 0, chunk.length, null)).bytesRead
    if (n === 0) break
    chunks.push(chunk.subarray(0, n))
    total += n
  }
  const all = Buffer.concat(chunks)
  return new Uint8Array(all.buffer, all.byteOffset, all.length)
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
