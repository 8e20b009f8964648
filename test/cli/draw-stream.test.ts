/**
 * The streamed draw of a participants file (src/cli/draw-stream.ts) against the in-memory draw: for any
 * small file of lines (byte order mark, CRLF and LF, with or without a final newline, entries that JSON
 * escapes), any chunk and block size, public and salted lists, full and winners-only disclosures, on one
 * and two threads, the proof bytes equal `serializeProof` of `drawFromBlock` over the list read whole;
 * bad files fail with the in-memory reader's errors; a list that does not match the commitment fails
 * before any block is asked for; a file changed between the two passes writes nothing.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readForDraw, type ProofOutput, type StreamedDrawOptions } from '../../src/cli/draw-stream.js'
import { readParticipants } from '../../src/cli/participants-file.js'
import { streamStats } from '../../src/node/participants-stream.js'
import { commit, drawFromBlock, OrbitdrawError, prepareDraw, serializeProof, type Commitment, type Proof } from '../../src/core/index.js'
import type { BeaconBlock } from '../../src/beacon/index.js'
import { OrganizerSecret } from '../../src/core/formats.js'
import { LIMITS } from '../../src/core/formats.js'
import { fullDisclosureFloor } from '../../src/core/proof-size.js'
import { entryErrorAt } from '../../src/core/participants.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { json, run, STAMPED_DELAY, useEmulatorWorkspace } from './helpers.js'
import { useTempFiles } from '../helpers/temp-files.js'

const tmp = useTempFiles('orbitdraw-drawstream-')

const chain = buildChain(12, 'draw-stream')
const TARGET = 10
const SECRET = OrganizerSecret.fromBytes(new Uint8Array(32).fill(5))

const fileOf = (bytes: Uint8Array | string): Promise<string> => tmp.write(bytes)

function commitmentFor(list: readonly string[], count: number, salted: boolean, target = TARGET): Commitment {
  return commit({ beacon: BEACON_NAME, target, after: { sequence: 7, block: chain[7]!.cid }, participants: list, draw: { kind: 'pick', count }, label: 'stream "draw"', ...(salted ? { private: { secret: SECRET } } : {}) }).commitment
}

/** A capture of what `write` sends to standard output. */
function stdout(): ProofOutput & { text: () => string } {
  const parts: string[] = []
  return { path: '-', force: false, command: 'draw', out: (t) => parts.push(t), text: () => parts.join('') }
}

/** The network draw's additions (chain from the head, time-stamps) on a base proof, as `draw()` makes them. */
function withChain<P extends Pick<Proof, 'chain'>>(base: P): P {
  return { ...base, chain: { ipnsRecord: 'AAAA', blocks: [chain[11]!, chain[10]!].map((b) => ({ cid: b.cid, bytes: Buffer.from(b.bytes).toString('base64') })) }, timestamps: ['AAAA'] }
}

async function streamedProof(path: string, commitment: Commitment, block: BeaconBlock, options: StreamedDrawOptions): Promise<string> {
  const list = await readForDraw(path, options)
  const prepared = list.prepare(commitment)
  const proof = withChain(await list.prove(prepared, block))
  const out = stdout()
  await list.write(proof, out)
  return out.text()
}

// Entries the core accepts, with characters JSON escapes (quote, backslash, non-ASCII, astral).
const entryArb = fc
  .array(fc.constantFrom('a', 'b', 'Z', '7', ' ', '"', '\\', '/', 'é', '€', '😀', '<', '\u2028'), { minLength: 1, maxLength: 6 })
  .map((cs) => cs.join(''))
  .filter((s) => entryErrorAt(s, 0) === null)

const fileArb = fc.record({
  entries: fc.uniqueArray(entryArb, { minLength: 1, maxLength: 40 }),
  crlf: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
  bom: fc.boolean(),
  finalNewline: fc.boolean(),
  chunkBytes: fc.integer({ min: 1, max: 70 }),
  blockLog: fc.integer({ min: 1, max: 3 }),
  pick: fc.integer({ min: 1, max: 5 }),
  salted: fc.boolean(),
  winnersOnly: fc.boolean(),
  seedBlock: fc.integer({ min: 0, max: 3 }),
})

function textOf(f: { entries: string[]; crlf: boolean[]; bom: boolean; finalNewline: boolean }): string {
  const body = f.entries.map((e, i) => e + (i < f.entries.length - 1 || f.finalNewline ? (f.crlf[i] ? '\r\n' : '\n') : '')).join('')
  return (f.bom ? '\uFEFF' : '') + body
}

describe('streamed draw = in-memory draw, byte for byte', () => {
  it('pick, public and salted, full and winners-only, any file, chunk and block size (one thread)', async () => {
    await fc.assert(
      fc.asyncProperty(fileArb, async (f) => {
        const path = await fileOf(textOf(f))
        const list = (await readParticipants(path)) as string[]
        const count = Math.min(f.pick, list.length)
        const salted = f.salted || f.winnersOnly
        // Different targets give different seeds (so winners land in different blocks).
        const target = 8 + f.seedBlock
        const commitment = commitmentFor(list, count, salted, target)
        const disclosure = f.winnersOnly ? ('winners' as const) : ('full' as const)
        const options = { disclosure, ...(salted ? { secret: SECRET } : {}) }
        const expected = serializeProof(withChain(drawFromBlock(commitment, list, chain[target]!, options)))
        const got = await streamedProof(path, commitment, chain[target]!, { ...options, chunkBytes: f.chunkBytes, blockLog: f.blockLog, threads: 1 })
        expect(got).toBe(expected)
      }),
      { numRuns: 120, seed: 0x5eed15 },
    )
  })

  it('the same on two threads (a worker hashes the blocks without winners), written to a file', async () => {
    const entries = Array.from({ length: 3000 }, (_, i) => `entrant "${i}" é`)
    const path = await fileOf(entries.join('\n') + '\n')
    for (const [salted, disclosure] of [[false, 'full'], [true, 'full'], [true, 'winners']] as const) {
      const commitment = commitmentFor(entries, 7, salted)
      const options = { disclosure, ...(salted ? { secret: SECRET } : {}) }
      const expected = serializeProof(withChain(drawFromBlock(commitment, entries, chain[TARGET]!, options)))
      const before = streamStats.workerBlocks
      const list = await readForDraw(path, { ...options, threads: 2, parallelFromBytes: 0, blockLog: 6, chunkBytes: 4096, steal: false })
      // The first pass hashed blocks on the worker thread.
      expect(streamStats.workerBlocks).toBeGreaterThan(before)
      const proof = withChain(await list.prove(list.prepare(commitment), chain[TARGET]!))
      const out = join(tmp.dir, `out-${salted}-${disclosure}.json`)
      await list.write(proof, { path: out, force: false, command: 'draw', out: () => undefined })
      expect(await readFile(out, 'utf8')).toBe(expected)
    }
    // No temporary file is left behind.
    expect((await readdir(tmp.dir)).filter((n) => n.endsWith('.partial'))).toEqual([])
  })
})

describe('errors', () => {
  const cases: [string, string | Uint8Array][] = [
    ['a blank line', 'a\n\nb\n'],
    ['a duplicate', 'a\nb\na\n'],
    ['CRLF with a trailing space', 'a\r\nb \r\n'],
    ['a second byte order mark is not data, a third is', '\uFEFF\uFEFF\uFEFFa\n'],
    ['invalid UTF-8', new Uint8Array([0x61, 0x0a, 0xff, 0x0a])],
    ['a truncated character at the end', new Uint8Array([0x61, 0x0a, 0xc3])],
    ['a control character', 'a\nb\u0007\n'],
  ]
  it.each(cases)('%s: the in-memory reader’s error', async (_name, contents) => {
    const path = await fileOf(contents)
    const inMemory = await readParticipants(path).then(
      () => null,
      (e: unknown) => e,
    )
    const streamed = await readForDraw(path, { threads: 1, chunkBytes: 3 }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(inMemory).toBeInstanceOf(OrbitdrawError)
    const a = inMemory as OrbitdrawError
    const b = streamed as OrbitdrawError
    expect({ code: b.code, message: b.message, path: b.path, name: b.constructor.name }).toEqual({ code: a.code, message: a.message, path: a.path, name: a.constructor.name })
  })

  it('a list that does not match the commitment (count, order, secret) fails in prepare, with prepareDraw’s error', async () => {
    const committed = ['ann', 'bob', 'cy', 'dee']
    const commitment = commitmentFor(committed, 2, false)
    const salted = commitmentFor(committed, 2, true)
    for (const [text, c, secret] of [
      ['ann\nbob\ncy\n', commitment, undefined],
      ['bob\nann\ncy\ndee\n', commitment, undefined],
      ['ann\nbob\ncy\ndee\n', salted, OrganizerSecret.fromBytes(new Uint8Array(32).fill(6))],
    ] as const) {
      const path = await fileOf(text)
      const list = await readForDraw(path, { threads: 1, ...(secret === undefined ? {} : { secret }) })
      const expected = (() => {
        try {
          prepareDraw(c, text.split('\n').slice(0, -1), secret === undefined ? {} : { secret })
        } catch (err) {
          return err as OrbitdrawError
        }
        throw new Error('prepareDraw accepted a wrong list')
      })()
      expect(() => list.prepare(c)).toThrow(expected.message)
      expect(expected.code).toBe('PARTICIPANTS_MISMATCH')
    }
  })

  it('a file changed between the passes: nothing is written', async () => {
    const entries = Array.from({ length: 50 }, (_, i) => `p${i}`)
    for (const [salted, disclosure] of [[false, 'full'], [true, 'winners']] as const) {
      const path = await fileOf(entries.join('\n') + '\n')
      const commitment = commitmentFor(entries, 3, salted)
      const options = { disclosure, threads: 1 as const, ...(salted ? { secret: SECRET } : {}) }
      const list = await readForDraw(path, options)
      const prepared = list.prepare(commitment)
      // Same size and lines, one letter changed.
      await writeFile(path, entries.map((e, i) => (i === 40 ? 'q40' : e)).join('\n') + '\n')
      const out = join(tmp.dir, `changed-${disclosure}.json`)
      const err = await list
        .prove(prepared, chain[TARGET]!)
        .then((proof) => list.write(withChain(proof), { path: out, force: false, command: 'draw', out: () => undefined }))
        .then(
          () => null,
          (e: unknown) => e,
        )
      expect((err as OrbitdrawError).code).toBe('PARTICIPANTS_MISMATCH')
      expect((err as OrbitdrawError).message).toMatch(/changed while it was being read/)
      await expect(readFile(out)).rejects.toThrow(/ENOENT/)
    }
    expect((await readdir(tmp.dir)).filter((n) => n.endsWith('.partial'))).toEqual([])
  })

  it('a proof over maxProofBytes: refused before the block on the floor (the file\'s entries), else on the exact size before a byte is written', async () => {
    const setLimit = (bytes: number): void => {
      ;(LIMITS as { maxProofBytes: number }).maxProofBytes = bytes
    }
    const real = LIMITS.maxProofBytes
    try {
      // Entries JSON escapes: the floor (their characters) is well under the proof's size.
      const entries = Array.from({ length: 30 }, (_, i) => `"q${i}"\\`)
      const path = await fileOf(entries.join('\r\n') + '\r\n')
      const commitment = commitmentFor(entries, 2, false)
      const expected = serializeProof(withChain(drawFromBlock(commitment, entries, chain[TARGET]!)))
      const floor = fullDisclosureFloor(30, entries.reduce((n, e) => n + e.length, 0), false)
      // Under the floor: refused by prepare, before any block is asked for.
      setLimit(floor - 1)
      const early = await readForDraw(path, { threads: 1 })
      expect(early.entryBytes).toBe(entries.reduce((n, e) => n + e.length, 0))
      expect(() => early.prepare(commitment)).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED', path: '$.participants' }))
      // Over the floor, under the exact size: the dry run refuses; nothing reaches the file or stdout.
      const size = Buffer.byteLength(expected)
      setLimit(size - 1)
      const list = await readForDraw(path, { threads: 1 })
      const proof = withChain(await list.prove(list.prepare(commitment), chain[TARGET]!))
      const out = join(tmp.dir, 'too-large.json')
      await expect(list.write(proof, { path: out, force: false, command: 'draw', out: () => undefined })).rejects.toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED', detail: expect.stringContaining(`the proof would be ${size} bytes, over the limit maxProofBytes = ${size - 1}`) }))
      await expect(readFile(out)).rejects.toThrow(/ENOENT/)
      const captured = stdout()
      await expect(list.write(proof, captured)).rejects.toThrow(/maxProofBytes/)
      expect(captured.text()).toBe('')
      // At the exact size: written, the same bytes as in memory.
      setLimit(size)
      const ok = stdout()
      await list.write(proof, ok)
      expect(ok.text()).toBe(expected)
    } finally {
      setLimit(real)
    }
    expect((await readdir(tmp.dir)).filter((n) => n.endsWith('.partial'))).toEqual([])
  })

  it('an existing output is not replaced without force', async () => {
    const entries = ['x', 'y', 'z']
    const path = await fileOf('x\ny\nz\n')
    const commitment = commitmentFor(entries, 1, false)
    const list = await readForDraw(path, { threads: 1 })
    const proof = await list.prove(list.prepare(commitment), chain[TARGET]!)
    const out = join(tmp.dir, 'taken.json')
    await writeFile(out, 'mine')
    await expect(list.write(proof, { path: out, force: false, command: 'draw', out: () => undefined })).rejects.toThrow(/already exists/)
    expect(await readFile(out, 'utf8')).toBe('mine')
    await list.write(proof, { path: out, force: true, command: 'draw', out: () => undefined })
    expect(await readFile(out, 'utf8')).toBe(serializeProof(drawFromBlock(commitment, entries, chain[TARGET]!)))
  })
})

describe('orbitdraw draw of a file of lines (streamed) against the emulator', () => {
  // Entries that JSON escapes, CRLF line ends and a byte order mark: the same list read from standard
  // input (the in-memory path) must give the same participants, seed and outcome.
  const entrants = Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? `Ünïcode "${i}" \\ 😀` : `Entrant ${i}`))
  const ws = useEmulatorWorkspace({ files: { 'entrants.txt': `\uFEFF${entrants.join('\r\n')}\r\n` } })
  const stdin = entrants.join('\n') + '\n'

  /** The parts of a proof that do not depend on when the chain was fetched. */
  function drawn(text: string): unknown {
    const p = JSON.parse(text) as Record<string, unknown>
    return { commitment: p.commitment, commitmentCid: p.commitmentCid, participants: p.participants, seed: p.seed, outcome: p.outcome, timestamps: p.timestamps }
  }

  it('public pick: the streamed proof verifies and equals the in-memory draw; also to standard output', async () => {
    const c = await run(['commit', '-p', 'entrants.txt', '--pick', '3', '--delay', STAMPED_DELAY, '-o', 'pub.commitment.json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const d = await run(['draw', 'pub.commitment.json', '-p', 'entrants.txt', '-o', 'pub.proof.json', '--quiet'], ws.opts)
    expect(d.code, d.stderr).toBe(0)
    expect(d.stdout).toMatch(/winners:\n\s+1\. /)
    const v = await run(['verify', 'pub.proof.json', '--json'], ws.opts)
    expect(v.code, v.stdout + v.stderr).toBe(0)
    expect(json<{ ok: boolean }>(v).ok).toBe(true)
    const m = await run(['draw', 'pub.commitment.json', '-p', '-', '-o', 'pub-mem.proof.json', '--quiet'], { ...ws.opts, input: stdin })
    expect(m.code, m.stderr).toBe(0)
    const streamedText = await readFile(join(ws.dir, 'pub.proof.json'), 'utf8')
    expect(drawn(streamedText)).toEqual(drawn(await readFile(join(ws.dir, 'pub-mem.proof.json'), 'utf8')))
    expect((JSON.parse(streamedText) as { participants: { entries: string[] } }).participants.entries).toEqual(entrants)
    const o = await run(['draw', 'pub.commitment.json', '-p', 'entrants.txt', '-o', '-', '--quiet'], ws.opts)
    expect(o.code, o.stderr).toBe(0)
    expect(drawn(o.stdout)).toEqual(drawn(streamedText))
  })

  it('public shuffle: the ranking is written from the file, the proof verifies and equals the in-memory draw', async () => {
    const c = await run(['commit', '-p', 'entrants.txt', '--shuffle', '--delay', STAMPED_DELAY, '-o', 'shuf.commitment.json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    const d = await run(['draw', 'shuf.commitment.json', '-p', 'entrants.txt', '-o', 'shuf.proof.json', '--quiet', '--json'], ws.opts)
    expect(d.code, d.stderr).toBe(0)
    const summary = json<{ outcome: { kind: string; ranking: { entry: string }[] }; outcomeRows?: number }>(d)
    expect(summary.outcome.ranking).toHaveLength(entrants.length)
    expect(summary.outcomeRows).toBeUndefined()
    const v = await run(['verify', 'shuf.proof.json', '--json'], ws.opts)
    expect(v.code, v.stdout + v.stderr).toBe(0)
    const m = await run(['draw', 'shuf.commitment.json', '-p', '-', '-o', 'shuf-mem.proof.json', '--quiet'], { ...ws.opts, input: stdin })
    expect(m.code, m.stderr).toBe(0)
    const text = await readFile(join(ws.dir, 'shuf.proof.json'), 'utf8')
    expect(drawn(text)).toEqual(drawn(await readFile(join(ws.dir, 'shuf-mem.proof.json'), 'utf8')))
    expect(summary.outcome).toEqual((JSON.parse(text) as { outcome: unknown }).outcome)
  })

  it('private list: winners-only and full disclosures verify and equal the in-memory draws', async () => {
    const c = await run(['commit', '-p', 'entrants.txt', '--pick', '2', '--private', '--delay', STAMPED_DELAY, '-o', 'priv.commitment.json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    for (const extra of [[], ['--full-disclosure']]) {
      const name = extra.length > 0 ? 'full' : 'winners'
      const d = await run(['draw', 'priv.commitment.json', '-p', 'entrants.txt', '--secret', 'priv.commitment.secret.json', ...extra, '-o', `${name}.proof.json`, '--quiet'], ws.opts)
      expect(d.code, d.stderr).toBe(0)
      const v = await run(['verify', `${name}.proof.json`, '--json'], ws.opts)
      expect(v.code, v.stdout + v.stderr).toBe(0)
      const m = await run(['draw', 'priv.commitment.json', '-p', '-', '--secret', 'priv.commitment.secret.json', ...extra, '-o', `${name}-mem.proof.json`, '--quiet'], { ...ws.opts, input: stdin })
      expect(m.code, m.stderr).toBe(0)
      const text = await readFile(join(ws.dir, `${name}.proof.json`), 'utf8')
      expect(drawn(text)).toEqual(drawn(await readFile(join(ws.dir, `${name}-mem.proof.json`), 'utf8')))
      expect((JSON.parse(text) as { participants: { disclosure: string } }).participants.disclosure).toBe(name)
    }
  })

  it('a list that does not match the commitment is refused at once (the target is an hour away)', async () => {
    const c = await run(['commit', '-p', 'entrants.txt', '--pick', '1', '--private', '--delay', '1h', '-o', 'far.commitment.json'], ws.opts)
    expect(c.code, c.stderr).toBe(0)
    await writeFile(join(ws.dir, 'swapped.txt'), [entrants[1], entrants[0], ...entrants.slice(2)].join('\n') + '\n')
    const d = await run(['draw', 'far.commitment.json', '-p', 'swapped.txt', '--secret', 'far.commitment.secret.json', '--private', '-o', 'far.proof.json', '--json'], ws.opts)
    expect(d.code).toBe(4)
    expect(json<{ error: { code: string } }>(d).error.code).toBe('PARTICIPANTS_MISMATCH')
    await expect(readFile(join(ws.dir, 'far.proof.json'))).rejects.toThrow(/ENOENT/)
  })
})
