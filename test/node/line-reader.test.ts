/**
 * The line reader's bound (src/node/line-reader.ts, `lineChunks` with `MAX_ENTRY_LINE_BYTES`): a line over
 * it is handed out in pieces and never held whole, by the streaming participants reader's first pass
 * (`orbitdraw commit`, `draw`, `receipts`) and by the draw's second pass (`rescanBytes`). The first pass
 * refuses such a line with the in-memory reader's error (code, message, path), in the same order of
 * precedence against every other error of the file (invalid UTF-8 anywhere, then a blank line, then the list
 * size, then the first bad entry), with the same line numbers and byte offsets.
 */
import { open, writeFile, type FileHandle } from 'node:fs/promises'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { readParticipants } from '../../src/cli/participants-file.js'
import { concatBytes } from '../../src/core/bytes.js'
import { OrbitdrawError } from '../../src/core/errors.js'
import { LIMITS } from '../../src/core/limits.js'
import { lineChunks, MAX_ENTRY_LINE_BYTES } from '../../src/node/line-reader.js'
import { streamParticipantsFile } from '../../src/node/participants-stream.js'
import { useTempFiles } from '../helpers/temp-files.js'

const files = useTempFiles('orbitdraw-line-reader-')
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

afterEach(() => {
  vi.restoreAllMocks()
})

type Outcome = { ok: true; count: number } | { ok: false; code: string; message: string; path: string | undefined; name: string }

function failure(err: unknown): Outcome {
  if (!(err instanceof OrbitdrawError)) throw err
  return { ok: false, code: err.code, message: err.message, path: err.path, name: err.constructor.name }
}

async function inMemory(path: string): Promise<Outcome> {
  try {
    return { ok: true, count: (await readParticipants(path)).length }
  } catch (err) {
    return failure(err)
  }
}

async function streamed(path: string, chunkBytes?: number): Promise<Outcome> {
  try {
    return { ok: true, count: (await streamParticipantsFile(path, { threads: 1, ...(chunkBytes === undefined ? {} : { chunkBytes }) })).count }
  } catch (err) {
    return failure(err)
  }
}

/** The size of every buffer a `FileHandle.read` call fills, from now on (the real handles' prototype). */
async function readBuffers(path: string): Promise<number[]> {
  const probe = await open(path, 'r')
  const proto = Object.getPrototypeOf(probe) as FileHandle
  await probe.close()
  const sizes: number[] = []
  const read = proto.read
  vi.spyOn(proto, 'read').mockImplementation(function (this: FileHandle, ...args: unknown[]) {
    if (args[0] instanceof Uint8Array) sizes.push(args[0].length)
    return (read as (...a: unknown[]) => ReturnType<FileHandle['read']>).apply(this, args)
  } as FileHandle['read'])
  return sizes
}

/** A file handle over `size` bytes made by `byteAt`, that counts the bytes it gave. */
function virtualFile(size: number, byteAt: (offset: number) => number): { handle: FileHandle; given: () => number; buffers: number[] } {
  let given = 0
  const buffers: number[] = []
  const read = async (buf: Uint8Array, offset: number, length: number, position: number) => {
    buffers.push(buf.length)
    const n = Math.max(0, Math.min(length, size - position))
    for (let i = 0; i < n; i++) buf[offset + i] = byteAt(position + i)
    given += n
    return { bytesRead: n, buffer: buf }
  }
  return { handle: { read } as unknown as FileHandle, given: () => given, buffers }
}

describe('lineChunks with a bound on lines', () => {
  it('hands out a line over the bound in pieces of one buffer: no piece and no buffer past the bound + one buffer, the first piece before the line is read', async () => {
    // One line of 64 MiB, then two short lines; read with a 64 KiB buffer.
    const lineBytes = 64 * 1024 * 1024
    const tail = utf8('\nb\nc\n')
    const size = lineBytes + tail.length
    const file = virtualFile(size, (at) => (at < lineBytes ? 0x61 : tail[at - lineBytes]!))
    const bufferBytes = 64 * 1024
    let firstPieceAfter = -1
    let pieceBytes = 0
    let pieces = 0
    let largest = 0
    const rest: string[] = []
    for await (const { chunk, base, last, long } of lineChunks(file.handle, bufferBytes, MAX_ENTRY_LINE_BYTES, null)) {
      largest = Math.max(largest, chunk.length)
      if (long) {
        if (firstPieceAfter < 0) firstPieceAfter = file.given()
        expect(base).toBe(pieceBytes)
        pieceBytes += chunk.length
        pieces++
      } else rest.push(`${base}:${new TextDecoder().decode(chunk)}:${last}`)
    }
    expect(pieceBytes).toBe(lineBytes + 1) // the line and its line feed, every byte once
    expect(pieces).toBeGreaterThan(lineBytes / bufferBytes - 1)
    expect(rest).toEqual([`${lineBytes + 1}:b\nc\n:true`])
    // The reader stopped accumulating at the bound: it had read at most one buffer when it handed out the
    // first piece, and never filled a buffer larger than the one it was given.
    expect(firstPieceAfter).toBeGreaterThan(MAX_ENTRY_LINE_BYTES)
    expect(firstPieceAfter).toBeLessThanOrEqual(bufferBytes)
    expect(Math.max(...file.buffers)).toBe(bufferBytes)
    expect(largest).toBe(bufferBytes)
  })

  it('a buffer smaller than the bound grows to the bound + 1 byte and no further', async () => {
    const lineBytes = 1024 * 1024
    const file = virtualFile(lineBytes, () => 0x61)
    let before = 0
    let seen = 0
    for await (const { chunk, long, last } of lineChunks(file.handle, 8, MAX_ENTRY_LINE_BYTES, null)) {
      if (seen === 0) before = file.given()
      expect(long).toBe(true)
      seen += chunk.length
      if (seen === lineBytes) expect(last).toBe(true)
    }
    expect(seen).toBe(lineBytes)
    expect(before).toBe(MAX_ENTRY_LINE_BYTES + 1)
    expect(Math.max(...file.buffers)).toBe(MAX_ENTRY_LINE_BYTES + 1)
  })

  it('a piece that does not end its line ends before an unfinished UTF-8 character', async () => {
    // "a" then euros (3 bytes) and emoji (4 bytes): a buffer of 64 bytes cuts characters everywhere.
    const text = 'a' + '€😀'.repeat(20_000)
    const bytes = utf8(text)
    const file = virtualFile(bytes.length, (at) => bytes[at]!)
    let out = ''
    for await (const { chunk, long } of lineChunks(file.handle, 64, 40, null)) {
      expect(long).toBe(true)
      out += new TextDecoder('utf-8', { fatal: true }).decode(chunk) // each piece on its own
    }
    expect(out).toBe(text)
  })
})

describe('a participants line over the entry limit is refused without being held', () => {
  it('orbitdraw commit\'s reader: a one-line file of 4 MiB is LIMIT_EXCEEDED at line 1 as in memory, every read into a buffer of one chunk', async () => {
    const path = files.nextPath()
    await writeFile(path, 'x'.repeat(4 * 1024 * 1024))
    const want = await inMemory(path)
    expect(want).toMatchObject({ ok: false, code: 'LIMIT_EXCEEDED', path: 'line 1' })
    const chunkBytes = 64 * 1024
    const sizes = await readBuffers(path)
    expect(await streamed(path, chunkBytes)).toEqual(want)
    // Every read (the line count, then the scan) went into a buffer of one chunk. Without the bound the
    // scan's line buffer doubled until it held the line: 4 MiB and more.
    expect(Math.max(...sizes)).toBe(chunkBytes)
  })

  it('the draw\'s second pass (rescanBytes) refuses a file that gained a long line, without holding it', async () => {
    const path = await files.write('ann\nbob\ncid\n')
    const list = await streamParticipantsFile(path, { fingerprint: true, threads: 1, chunkBytes: 4096 })
    await writeFile(path, `ann\n${'b'.repeat(2 * 1024 * 1024)}\ncid\n`)
    const sizes = await readBuffers(path)
    await expect(list.rescanBytes(() => undefined)).rejects.toMatchObject({ code: 'PARTICIPANTS_MISMATCH' })
    expect(Math.max(...sizes)).toBe(4096)
  })

  it('keeps the error order and positions: a long line against a later blank line, invalid UTF-8 before, inside and after it, a truncated end', async () => {
    const long = 'é'.repeat(5000) // 10,000 bytes: over the bound
    const cases: [string, Uint8Array][] = [
      ['long line, blank line after', utf8(`a\n${long}\n\nb\n`)],
      ['long line, invalid byte after', concatBytes(utf8(`a\n${long}\nb`), Uint8Array.of(0xff), utf8('\n'))],
      ['long line, invalid byte inside past the bound', concatBytes(utf8(`a\n${long}`), Uint8Array.of(0xc3, 0x28), utf8(`${long}\n`))],
      ['long line, an unfinished character at the end of the file', concatBytes(utf8(`a\n${long}`), Uint8Array.of(0xe2, 0x82))],
      ['long line, a lone continuation byte at a piece boundary', concatBytes(utf8(`a\n${'a'.repeat(4095)}`), Uint8Array.of(0x80), utf8(`${long}\n`))],
      ['bad entry before the long line', utf8(`a\n b\n${long}\n`)],
      ['long line, bad entry after', utf8(`a\n${long}\n b\n`)],
      ['long line, duplicate after', utf8(`a\n${long}\na\n`)],
      ['two long lines', utf8(`${long}\n${long}x\n`)],
      ['long first line after two byte order marks, CRLF', utf8(`\uFEFF\uFEFF${long}\r\nb\r\n`)],
      ['long last line without a line feed, ending in CR', utf8(`a\n${long}\r`)],
      ['one long line without a line feed, ending at a read boundary', utf8('a'.repeat(8192))],
    ]
    for (const [name, bytes] of cases) {
      const path = await files.write(bytes)
      const want = await inMemory(path)
      expect(want.ok, name).toBe(false)
      for (const chunkBytes of [1, 7, 4096, 1024 * 1024]) expect(await streamed(path, chunkBytes), `${name}, chunks of ${chunkBytes}`).toEqual(want)
    }
  })

  it('the same outcome as in memory for lines on both sides of the bound, in chunks of any size (fast-check)', async () => {
    // Entries of 3-byte characters reach the bound at about LIMITS.maxEntryBytes characters: lines under it
    // take the whole-line path, lines over it the pieces, and the error message counts the same characters.
    const unit = fc.constantFrom('a', 'é', '€', '😀')
    const longLine = fc.record({ unit, n: fc.integer({ min: LIMITS.maxEntryBytes - 8, max: MAX_ENTRY_LINE_BYTES + 8 }), extra: fc.constantFrom('', '\r', '\t', ' ', 'é') }).map(({ unit, n, extra }) => unit.repeat(Math.ceil(n / utf8(unit).length)) + extra)
    const line = fc.oneof({ weight: 4, arbitrary: longLine }, { weight: 2, arbitrary: fc.constantFrom('a', 'b', 'é') }, { weight: 1, arbitrary: fc.constant('') })
    const spec = fc.record({
      boms: fc.constantFrom(0, 1, 2),
      lines: fc.array(fc.record({ text: line, crlf: fc.boolean() }), { minLength: 1, maxLength: 4 }),
      finalNewline: fc.boolean(),
      badByte: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.record({ at: fc.nat(), byte: fc.constantFrom(0xff, 0xc3, 0x80, 0xe2) }) }),
    })
    const seen = new Set<string>()
    await fc.assert(
      fc.asyncProperty(spec, fc.constantFrom(1, 5, 64, 3000, MAX_ENTRY_LINE_BYTES + 1, 1 << 20), async (s, chunkBytes) => {
        let text = '\uFEFF'.repeat(s.boms)
        s.lines.forEach((l, i) => {
          text += l.text
          if (i < s.lines.length - 1 || s.finalNewline) text += l.crlf ? '\r\n' : '\n'
        })
        let bytes = utf8(text)
        if (s.badByte !== null) {
          const at = s.badByte.at % (bytes.length + 1)
          bytes = concatBytes(bytes.subarray(0, at), Uint8Array.of(s.badByte.byte), bytes.subarray(at))
        }
        const path = await files.write(bytes)
        const want = await inMemory(path)
        expect(await streamed(path, chunkBytes)).toEqual(want)
        seen.add(want.ok ? 'ok' : want.code)
      }),
      { seed: 0x10c4, numRuns: 150 },
    )
    expect(seen).toContain('LIMIT_EXCEEDED')
    expect(seen).toContain('INVALID_UTF8')
    expect(seen).toContain('ENTRY_EMPTY')
  })
})
