/**
 * The streaming participants reader (src/node/participants-stream.ts) against the in-memory reader and the
 * core: for any file of lines (byte order marks, CRLF and LF, blank lines, bad entries, duplicates,
 * look-alikes, invalid UTF-8, with or without a final newline) read in chunks of any size, it gives the
 * same count, the same digest (public and salted), the same look-alike groups and the same entries on
 * re-reading, or throws the same error (code, message, path).
 */
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { streamParticipantsFile, streamStats } from '../../src/node/participants-stream.js'
import { readParticipants } from '../../src/cli/participants-file.js'
import { findConfusableEntries } from '../../src/confusables.js'
import { bytesToHex } from '../../src/core/bytes.js'
import { OrbitdrawError } from '../../src/core/errors.js'
import { OrganizerSecret } from '../../src/core/secret.js'
import { participantsRoot } from '../../src/core/participants.js'
import { useTempFiles } from '../helpers/temp-files.js'

const tmp = useTempFiles('orbitdraw-stream-')

const SECRET = OrganizerSecret.fromBytes(new Uint8Array(32).fill(7))

const fileOf = (bytes: Uint8Array): Promise<string> => tmp.write(bytes)

type Outcome = { ok: true; count: number; root: string; groups: unknown; entries: string[] } | { ok: false; code: string; message: string; path: string | undefined; name: string }

function failure(err: unknown): Outcome {
  if (!(err instanceof OrbitdrawError)) throw err
  return { ok: false, code: err.code, message: err.message, path: err.path, name: err.constructor.name }
}

async function inMemory(path: string, salted: boolean): Promise<Outcome> {
  try {
    const list = (await readParticipants(path)) as string[]
    return { ok: true, count: list.length, root: bytesToHex(participantsRoot(list, salted ? { secret: SECRET } : {})), groups: findConfusableEntries(list), entries: list }
  } catch (err) {
    return failure(err)
  }
}

async function streamed(path: string, salted: boolean, chunkBytes: number, threads: { threads: 1 | 2; parallelFromBytes?: number; blockLog?: number; steal?: boolean } = { threads: 1 }): Promise<Outcome> {
  try {
    const r = await streamParticipantsFile(path, { chunkBytes, confusables: true, ...threads, ...(salted ? { secret: SECRET } : {}) })
    const all = Array.from({ length: r.count }, (_, i) => i)
    // Re-read in a shuffled order: entries() answers in the order asked.
    const order = all.slice().reverse()
    const back = await r.entries(order)
    const entries: string[] = []
    order.forEach((g, k) => (entries[g] = back[k]!))
    return { ok: true, count: r.count, root: bytesToHex(r.root), groups: r.confusables, entries }
  } catch (err) {
    return failure(err)
  }
}

// Small alphabets so that duplicates and look-alikes (0/O, 1/l/I, rn/m, Cyrillic а) come up often.
const word = fc.string({ unit: fc.constantFrom('a', 'b', '0', 'O', '1', 'l', 'I', 'r', 'n', 'm', 'é', 'а', '😀', '-'), minLength: 1, maxLength: 3 })
const line = fc.oneof(
  { weight: 60, arbitrary: word },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: word.map((w) => ` ${w}`) },
  { weight: 1, arbitrary: word.map((w) => `${w}\t`) },
  { weight: 1, arbitrary: word.map((w) => `${w}\r`) },
  { weight: 1, arbitrary: fc.constant('\uFEFFx') },
)
const fileSpec = fc.record({
  boms: fc.constantFrom(0, 0, 0, 1, 2),
  lines: fc.array(fc.record({ text: line, crlf: fc.boolean() }), { minLength: 0, maxLength: 12 }),
  finalNewline: fc.boolean(),
  badByte: fc.oneof({ weight: 7, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.record({ at: fc.nat(), byte: fc.constantFrom(0xff, 0xc3, 0x80, 0xe2) }) }),
})

function bytesOf(spec: { boms: number; lines: { text: string; crlf: boolean }[]; finalNewline: boolean; badByte: { at: number; byte: number } | null }): Uint8Array {
  let text = '\uFEFF'.repeat(spec.boms)
  spec.lines.forEach((l, i) => {
    text += l.text
    if (i < spec.lines.length - 1 || spec.finalNewline) text += l.crlf ? '\r\n' : '\n'
  })
  const bytes = new TextEncoder().encode(text)
  if (spec.badByte === null || bytes.length === 0) return bytes
  const out = new Uint8Array(bytes.length + 1)
  const at = spec.badByte.at % (bytes.length + 1)
  out.set(bytes.subarray(0, at), 0)
  out[at] = spec.badByte.byte
  out.set(bytes.subarray(at), at + 1)
  return out
}

describe('streamParticipantsFile equals the in-memory reader', () => {
  it('same count, digest, look-alike groups and entries, or the same error, for any file and chunk size (fast-check)', async () => {
    const seen = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(fileSpec, fc.integer({ min: 1, max: 40 }), fc.boolean(), async (spec, chunkBytes, salted) => {
        const path = await fileOf(bytesOf(spec))
        const want = await inMemory(path, salted)
        expect(await streamed(path, salted, chunkBytes)).toEqual(want)
        const kind = want.ok ? ((want.groups as unknown[]).length > 0 ? 'look-alikes' : 'ok') : want.code
        seen.set(kind, (seen.get(kind) ?? 0) + 1)
      }),
      { seed: 0x57ea, numRuns: 400 },
    )
    // The generator reaches every outcome (so the property is not vacuous).
    expect([...seen.keys()].sort()).toEqual(['ENTRY_CONTROL_CHARACTER', 'ENTRY_DUPLICATE', 'ENTRY_EMPTY', 'ENTRY_SURROUNDING_WHITESPACE', 'INVALID_UTF8', 'PARTICIPANTS_EMPTY', 'look-alikes', 'ok'])
  })

  it('on two threads (blocks of 2 entries handed to a worker), the same outcome for any file (fast-check)', async () => {
    const before = streamStats.workerBlocks
    await fc.assert(
      fc.asyncProperty(fileSpec, fc.integer({ min: 1, max: 40 }), fc.boolean(), async (spec, chunkBytes, salted) => {
        const path = await fileOf(bytesOf(spec))
        expect(await streamed(path, salted, chunkBytes, { threads: 2, parallelFromBytes: 0, blockLog: 1, steal: false })).toEqual(await inMemory(path, salted))
      }),
      { seed: 0x2c0de, numRuns: 25 },
    )
    expect(streamStats.workerBlocks).toBeGreaterThan(before)
  })

  it('a list of 40,000 entries read in chunks of 1 KiB, on one and two threads: the digest of participantsRoot, public and salted', async () => {
    const list = Array.from({ length: 40_000 }, (_, i) => `participant-${i.toString(36)}-é`)
    const path = await fileOf(new TextEncoder().encode(list.join('\r\n') + '\r\n'))
    const cases = [
      { salted: false, threads: 1 as const },
      { salted: true, threads: 1 as const },
      { salted: false, threads: 2 as const, blockLog: 10, steal: false },
      { salted: true, threads: 2 as const, blockLog: 12, steal: false },
      { salted: true, threads: 2 as const, blockLog: 8 },
    ]
    for (const { salted, ...threads } of cases) {
      const before = streamStats.workerBlocks
      const r = await streamParticipantsFile(path, { chunkBytes: 1024, ...threads, parallelFromBytes: 0, ...(salted ? { secret: SECRET } : {}) })
      if (threads.steal === false) expect(streamStats.workerBlocks).toBeGreaterThan(before)
      expect(r.count).toBe(list.length)
      expect(bytesToHex(r.root)).toBe(bytesToHex(participantsRoot(list, salted ? { secret: SECRET } : {})))
      expect(await r.entries([39_999, 0, 12_345])).toEqual([list[39_999], list[0], list[12_345]])
    }
  })

  it('names the first duplicate pair as the core does (the smallest later line, its first occurrence)', async () => {
    const path = await fileOf(new TextEncoder().encode(['a', 'b', 'c', 'b', 'a', 'c'].join('\n')))
    await expect(streamParticipantsFile(path)).rejects.toMatchObject({ code: 'ENTRY_DUPLICATE', path: 'line 4' })
    expect(await streamed(path, false, 3)).toEqual(await inMemory(path, false))
  })

  it('a file that cannot be read, or is empty, fails as the in-memory reader does', async () => {
    const missing = join(tmp.dir, 'no-such-file.txt')
    expect(await streamed(missing, false, 16)).toEqual(await inMemory(missing, false))
    const empty = await fileOf(new Uint8Array(0))
    expect(await streamed(empty, false, 16)).toMatchObject({ ok: false, code: 'PARTICIPANTS_EMPTY' })
    expect(await streamed(empty, false, 16)).toEqual(await inMemory(empty, false))
  })

  it('lines longer than the read buffer are read whole', async () => {
    const list = ['x'.repeat(1000), 'y'.repeat(700), 'z']
    const path = await fileOf(new TextEncoder().encode(list.join('\n') + '\n'))
    const r = await streamParticipantsFile(path, { chunkBytes: 8 })
    expect(bytesToHex(r.root)).toBe(bytesToHex(participantsRoot(list)))
    expect(await r.entries([0, 1, 2])).toEqual(list)
  })
})
