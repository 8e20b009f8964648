/**
 * The weighted participants CSV read as a stream (src/node/weighted-stream.ts) and its streamed draw
 * (src/node/weighted-draw.ts, through `streamDrawFile`'s `weightColumn`): the digest is the in-memory
 * one, the errors are the in-memory reader's codes and rows, and the proof is byte for byte the
 * in-memory `drawFromBlock` + `serializeProof` (public, salted with a full disclosure; one and two
 * threads; many blocks); a changed file is refused.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, serializeProof, verify, type Commitment, type WeightedEntry } from '../../src/core/index.js'
import { OrganizerSecret, participantsRoot } from '../../src/core/formats.js'
import { readParticipants } from '../../src/cli/participants-file.js'
import { commitFile, MAX_CSV_ROW_BYTES, streamDrawFile, streamWeightedCsv, writeProofFile, type ProofSink } from '../../src/node/index.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { useTempFiles } from '../helpers/temp-files.js'
import { weightedCsv } from '../helpers/weighted-csv.js'

const files = useTempFiles('orbitdraw-node-weighted-')

const chain = buildChain(12, 'node-weighted-stream')
const SECRET = OrganizerSecret.fromBytes(new Uint8Array(32).fill(5))
const RELAXED = { allowUnsigned: true, allowUntimestamped: true, trust: { beacons: [BEACON_NAME] } } as const

const csvOf = (list: readonly WeightedEntry[], crlf = false): Promise<string> => files.write(weightedCsv(list, crlf), 'w', '.csv')

function commitmentFor(list: readonly WeightedEntry[], count: number, salted: boolean): Commitment {
  return commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, participants: list, draw: { kind: 'weighted', count }, label: 'weighted "stream"', ...(salted ? { private: { secret: SECRET } } : {}) }).commitment
}

function capture(): { sink: ProofSink; text: () => string } {
  const parts: string[] = []
  const decoder = new TextDecoder()
  return { sink: (p) => void parts.push(typeof p === 'string' ? p : decoder.decode(p, { stream: true })), text: () => parts.join('') }
}

const small: WeightedEntry[] = Array.from({ length: 30 }, (_, i) => ({ entry: i % 7 === 0 ? `Ünï, "${i}" \\ 😀` : `entrant ${i}`, weight: 1 + ((i * 5) % 9) }))
const medium: WeightedEntry[] = Array.from({ length: 20_000 }, (_, i) => ({ entry: `participant-${String(i).padStart(6, '0')}`, weight: 1 + (i % 1000) * 977 }))

describe('streamWeightedCsv', () => {
  it('gives the in-memory digest (public and salted) and the weights', async () => {
    const path = await csvOf(small, true)
    const list = await streamWeightedCsv(path, { column: 'name', weightColumn: 'tickets', threads: 1 })
    expect(list.count).toBe(small.length)
    expect(list.weights).toEqual(small.map((w) => w.weight))
    expect(list.root).toEqual(participantsRoot(small))
    const salted = await streamWeightedCsv(path, { column: 'name', weightColumn: '3', secret: SECRET, threads: 2, parallelFromBytes: 0, blockLog: 2 })
    expect(salted.root).toEqual(participantsRoot(small, { secret: SECRET }))
    expect(await list.entries([5, 0, 5])).toEqual([small[5]!.entry, small[0]!.entry, small[5]!.entry])
  })

  const bad: [string, string, string][] = [
    ['a weight that is not a positive integer', 'id,name,tickets\n1,a,2\n2,b,0\n', 'WEIGHT_INVALID'],
    ['a duplicate entry', 'id,name,tickets\n1,a,2\n2,b,1\n3,a,4\n', 'ENTRY_DUPLICATE'],
    ['an entry with edge whitespace', 'id,name,tickets\n1,a,2\n2, b,1\n', 'ENTRY_SURROUNDING_WHITESPACE'],
    ['an unknown column', 'id,nom,tickets\n1,a,2\n', 'UNKNOWN_COLUMN'],
    ['broken quoting', 'id,name,tickets\n1,"a,2\n', 'INVALID_CSV'],
    ['a header and no data row', 'id,name,tickets\n', 'INVALID_CSV'],
    // csv-parse's one error code without the CSV_ prefix: it escaped untyped, and the stream then hung.
    ['a quote inside an unquoted field', 'id,name,tickets\n1,a,2\n2,b"c,1\n', 'INVALID_CSV'],
    // The row's fields together, quotes and commas not counted: 1 + 1 + 1 + (MAX - 3) bytes is the bound.
    ['a row one byte over MAX_CSV_ROW_BYTES', `id,name,tickets,notes\n1,a,2,x\n2,b,3,${'n'.repeat(MAX_CSV_ROW_BYTES - 2)}\n`, 'LIMIT_EXCEEDED'],
    ['an unclosed quote running to the end of a long file', `id,name,tickets\n1,a,2\n2,"b,3\n${'3,c,4\n'.repeat(300_000)}`, 'LIMIT_EXCEEDED'],
  ]
  for (const [name, text, code] of bad) {
    it(`${name}: ${code}, as the in-memory reader says`, async () => {
      const path = files.nextPath('bad', '.csv')
      await writeFile(path, text)
      const inMemory = await readParticipants(path, { column: 'name', weightColumn: 'tickets' }).then(() => null, (e: unknown) => e)
      const streamed = await streamWeightedCsv(path, { column: 'name', weightColumn: 'tickets', threads: 1 }).then(() => null, (e: unknown) => e)
      expect(inMemory).toMatchObject({ code })
      expect(streamed).toMatchObject({ code })
      expect((streamed as { path?: string }).path).toBe((inMemory as { path?: string }).path)
    })
  }

  it('a row of exactly MAX_CSV_ROW_BYTES is read (a long notes column beside the entry)', async () => {
    const path = files.nextPath('long-notes', '.csv')
    await writeFile(path, `id,name,tickets,notes\n1,a,2,x\n2,b,3,${'n'.repeat(MAX_CSV_ROW_BYTES - 3)}\n`)
    expect((await streamWeightedCsv(path, { column: 'name', weightColumn: 'tickets', threads: 1, chunkBytes: 4096 })).weights).toEqual([2, 3])
    expect(await readParticipants(path, { column: 'name', weightColumn: 'tickets' })).toEqual([{ entry: 'a', weight: 2 }, { entry: 'b', weight: 3 }])
  })

  it('a long row is refused as it is read, naming its row, and holds no data of the row', async () => {
    const path = files.nextPath('long-row', '.csv')
    await writeFile(path, `id,name,tickets\n1,a,2\n2,${'b'.repeat(8 * MAX_CSV_ROW_BYTES)},3\n`)
    const err = await streamWeightedCsv(path, { column: 'name', weightColumn: 'tickets', threads: 1, chunkBytes: 65_536 }).then(() => null, (e: unknown) => e)
    expect(err).toMatchObject({ code: 'LIMIT_EXCEEDED', path: 'row 3' })
    expect(String((err as Error).message)).toContain('MAX_CSV_ROW_BYTES')
    expect((err as Error).cause).toBeUndefined()
  })

  it('a CSV error early in a file larger than the parser holds is reported, not waited on for ever', async () => {
    // The feeder used to wait for a 'drain' that a parser stopped by its own error never sends.
    const path = files.nextPath('early-error', '.csv')
    await writeFile(path, `id,name,tickets\n1,a,2\n2,b"c,1\n${'3,c,4\n'.repeat(400_000)}`)
    const err = await streamWeightedCsv(path, { column: 'name', weightColumn: 'tickets', threads: 1, chunkBytes: 65_536 }).then(() => null, (e: unknown) => e)
    expect(err).toMatchObject({ code: 'INVALID_CSV' })
  })
})

describe('commitFile with weightColumn', () => {
  it('commits the CSV as commit() commits the list (public and private)', async () => {
    const path = await csvOf(small)
    const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, draw: { kind: 'weighted' as const, count: 3 }, label: 'w' }
    const streamed = await commitFile(path, { ...base, column: 'name', weightColumn: 'tickets', threads: 1 })
    expect(streamed.cid).toBe(commit({ ...base, participants: small }).cid)
    const salted = await commitFile(path, { ...base, column: 'name', weightColumn: 'tickets', private: { secret: SECRET }, threads: 1 })
    expect(salted.cid).toBe(commit({ ...base, participants: small, private: { secret: SECRET } }).cid)
    await expect(commitFile(path, { ...base, threads: 1 })).rejects.toMatchObject({ code: 'INVALID_PARTICIPANTS' })
    await expect(commitFile(path, { ...base, draw: { kind: 'pick', count: 1 }, weightColumn: 'tickets', threads: 1 })).rejects.toMatchObject({ code: 'INVALID_PARTICIPANTS' })
  })
})

describe('streamDrawFile with weightColumn = the in-memory weighted draw, byte for byte', () => {
  for (const [size, list, threads] of [['small', small, 1], ['medium', medium, 2]] as const) {
    for (const [name, salted] of [['public', false], ['salted, full disclosure', true]] as const) {
      it(`${size} list (${list.length}), ${name}, ${threads} thread(s)`, async () => {
        const path = await csvOf(list)
        const commitment = commitmentFor(list, 7, salted)
        const options = salted ? { disclosure: 'full' as const, secret: SECRET } : {}
        const expected = serializeProof(drawFromBlock(commitment, list, chain[10]!, options))
        const drawn = await streamDrawFile(path, { ...options, column: 'name', weightColumn: 'tickets', threads, ...(threads === 2 ? { parallelFromBytes: 0, blockLog: 10 } : { blockLog: 3, chunkBytes: 64 }) })
        const proof = await drawn.prove(drawn.prepare(commitment), chain[10]!)
        const out = capture()
        await drawn.write(proof, out.sink)
        expect(out.text()).toBe(expected)
      })
    }
  }

  it('the written proof verifies', async () => {
    const path = await csvOf(small)
    const commitment = commitmentFor(small, 3, false)
    const drawn = await streamDrawFile(path, { column: 'name', weightColumn: 'tickets', threads: 1 })
    const proof = await drawn.prove(drawn.prepare(commitment), chain[10]!)
    const out = join(files.dir, 'weighted.proof.json')
    await writeProofFile(out, (sink) => drawn.write(proof, sink))
    const verdict = await verify(JSON.parse(await readFile(out, 'utf8')), RELAXED)
    expect(verdict.ok, JSON.stringify(verdict.checks.filter((c) => !c.ok))).toBe(true)
  })

  it('a salted list without a full disclosure asked for: FULL_DISCLOSURE_REQUIRED before any block', async () => {
    const drawn = await streamDrawFile(await csvOf(small), { secret: SECRET, column: 'name', weightColumn: 'tickets', threads: 1 })
    expect(() => drawn.prepare(commitmentFor(small, 2, true))).toThrow(expect.objectContaining({ code: 'FULL_DISCLOSURE_REQUIRED' }))
  })

  it('weights for a kind without them: INVALID_OPTION', async () => {
    const drawn = await streamDrawFile(await csvOf(small), { column: 'name', weightColumn: 'tickets', threads: 1 })
    const pick = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, participants: small.map((w) => w.entry), draw: { kind: 'pick', count: 2 }, label: '' }).commitment
    expect(() => drawn.prepare(pick)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }))
  })

  it('other weights than committed: PARTICIPANTS_MISMATCH', async () => {
    const drawn = await streamDrawFile(await csvOf(small.map((w, i) => (i === 3 ? { ...w, weight: w.weight + 1 } : w))), { column: 'name', weightColumn: 'tickets', threads: 1 })
    expect(() => drawn.prepare(commitmentFor(small, 2, false))).toThrow(expect.objectContaining({ code: 'PARTICIPANTS_MISMATCH' }))
  })

  it('a file changed between the passes: PARTICIPANTS_MISMATCH', async () => {
    const path = await csvOf(small)
    const commitment = commitmentFor(small, 2, false)
    const drawn = await streamDrawFile(path, { column: 'name', weightColumn: 'tickets', threads: 1 })
    const proof = await drawn.prove(drawn.prepare(commitment), chain[10]!)
    await writeFile(path, (await readFile(path, 'utf8')).replace('entrant 20', 'entrant 2O'))
    await expect(drawn.write(proof, capture().sink)).rejects.toMatchObject({ code: 'PARTICIPANTS_MISMATCH' })
  })
})
