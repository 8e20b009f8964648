/**
 * The library's streamed draw of a file (src/node/draw-stream.ts, through `orbitdraw/node`'s index):
 * byte for byte the in-memory `drawFromBlock` + `serializeProof` for every kind that draws from a digest
 * (`pick`), on small and medium lists, public, salted with a full disclosure and winners-only, on one and
 * two threads; a private list stays private by default; kinds that need the list are refused with a
 * typed error before any block; the written proof verifies.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, serializeProof, verify, type Commitment, type DrawSpec } from '../../src/core/index.js'
import { OrganizerSecret } from '../../src/core/formats.js'
import { commitFile, isStreamedRanking, streamDrawFile, writeProofFile, type ProofSink, type StreamedDraw, type StreamedProof, type StreamedRanking } from '../../src/node/index.js'
import { panelDraw } from '../../src/core/sortition/index.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { proportionalQuotas, smallPool } from '../core/sortition/fixtures.js'
import { useTempFiles } from '../helpers/temp-files.js'

const tmp = useTempFiles('orbitdraw-node-draw-')

const chain = buildChain(12, 'node-draw-stream')
const SECRET = OrganizerSecret.fromBytes(new Uint8Array(32).fill(11))
const RELAXED = { allowUnsigned: true, allowUntimestamped: true, trust: { beacons: [BEACON_NAME] } } as const

const fileOf = (text: string): Promise<string> => tmp.write(text)

function commitmentFor(list: readonly string[], draw: DrawSpec, salted: boolean): Commitment {
  return commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, participants: list, draw, label: 'node "stream"', ...(salted ? { private: { secret: SECRET } } : {}) }).commitment
}

/** Writes `proof` through `drawn` to the file `name` (writeProofFile), which must hold `expected` and verify. */
async function expectWrittenProof(name: string, drawn: StreamedDraw, proof: StreamedProof, expected: string): Promise<void> {
  const out = join(tmp.dir, name)
  await writeProofFile(out, (sink) => drawn.write(proof, sink))
  const text = await readFile(out, 'utf8')
  expect(text).toBe(expected)
  const verdict = await verify(JSON.parse(text), RELAXED)
  expect(verdict.ok, JSON.stringify(verdict.checks.filter((c) => !c.ok))).toBe(true)
}

function capture(): { sink: ProofSink; text: () => string } {
  const parts: string[] = []
  const decoder = new TextDecoder()
  return { sink: (p) => void parts.push(typeof p === 'string' ? p : decoder.decode(p, { stream: true })), text: () => parts.join('') }
}

const small = Array.from({ length: 40 }, (_, i) => (i % 6 === 0 ? `Ünï "${i}" \\ 😀` : `entrant ${i}`))
const medium = Array.from({ length: 60_000 }, (_, i) => `participant-${String(i).padStart(6, '0')}${i % 1000 === 0 ? ' "q"' : ''}`)

describe('streamDrawFile = the in-memory draw, byte for byte', () => {
  const cases = [
    ['public, full', false, 'full'],
    ['salted, full', true, 'full'],
    ['salted, winners only', true, 'winners'],
  ] as const
  for (const [size, list, threads] of [['small', small, 1], ['medium', medium, 2]] as const) {
    for (const [name, salted, disclosure] of cases) {
      it(`pick, ${size} list (${list.length}), ${name}, ${threads} thread(s)`, async () => {
        const path = await fileOf(list.join('\n') + '\n')
        const commitment = commitmentFor(list, { kind: 'pick', count: 5 }, salted)
        const options = { disclosure, ...(salted ? { secret: SECRET } : {}) }
        const expected = serializeProof(drawFromBlock(commitment, list, chain[10]!, options))
        const drawn = await streamDrawFile(path, { ...options, threads, ...(threads === 2 ? { parallelFromBytes: 0, blockLog: 10 } : { blockLog: 4 }) })
        const proof = await drawn.prove(drawn.prepare(commitment), chain[10]!)
        // A full disclosure's list is not in the proof object: it is written from the file.
        expect(proof.participants === undefined).toBe(disclosure === 'full')
        const out = capture()
        await drawn.write(proof, out.sink)
        expect(out.text()).toBe(expected)
      })
    }
  }

  it('with a secret and no disclosure, the proof reveals only the winners', async () => {
    const path = await fileOf(small.join('\n'))
    const commitment = commitmentFor(small, { kind: 'pick', count: 2 }, true)
    const drawn = await streamDrawFile(path, { secret: SECRET, threads: 1 })
    expect(drawn.disclosure).toBe('winners')
    const proof = await drawn.prove(drawn.prepare(commitment), chain[10]!)
    expect(proof.participants?.disclosure).toBe('winners')
  })
})

describe('a ranking of every entry (shuffle, tiebreak), written from the file', () => {
  // Tiny windows force many passes over the file (one per few ranks); the default window holds the list.
  const cases = [
    ['public', false, undefined],
    ['salted, full disclosure', true, 'full'],
  ] as const
  const kinds: [string, (n: number) => DrawSpec][] = [
    ['shuffle', () => ({ kind: 'shuffle' })],
    ['tiebreak', (n) => ({ kind: 'tiebreak', scores: Array.from({ length: n }, (_, i) => (i * 7) % 5) })],
  ]
  for (const [kindName, spec] of kinds) {
    for (const [size, list, threads, window] of [['small', small, 1, 64], ['medium', medium.slice(0, 10_000), 2, 4096], ['medium, one window', medium.slice(0, 10_000), 1, undefined]] as const) {
      for (const [name, salted, disclosure] of cases) {
        it(`${kindName}, ${size} list (${list.length}), ${name}, ${threads} thread(s)`, async () => {
          const path = await fileOf(list.join('\n') + '\n')
          const commitment = commitmentFor(list, spec(list.length), salted)
          const options = { ...(disclosure === undefined ? {} : { disclosure }), ...(salted ? { secret: SECRET } : {}) }
          const expected = serializeProof(drawFromBlock(commitment, list, chain[10]!, options))
          const drawn = await streamDrawFile(path, { ...options, threads, ...(threads === 2 ? { parallelFromBytes: 0, blockLog: 10 } : { blockLog: 4 }), ...(window === undefined ? {} : { rankingWindowBytes: window }) })
          const proof = await drawn.prove(drawn.prepare(commitment), chain[10]!)
          // The ranking is not held: the proof object carries its permutation, its rows come from the file.
          expect(isStreamedRanking(proof.outcome)).toBe(true)
          const ranking = proof.outcome as StreamedRanking
          expect(ranking.indices.length).toBe(list.length)
          const inMemory = JSON.parse(expected) as { outcome: { ranking: { rank: number; index: number; entry: string }[] } }
          expect(await ranking.head(3)).toEqual(inMemory.outcome.ranking.slice(0, 3))
          const out = capture()
          await drawn.write(proof, out.sink)
          expect(out.text()).toBe(expected)
        })
      }
    }
  }

  it('the written proof verifies (shuffle, CRLF and a byte order mark)', async () => {
    const path = await fileOf('\uFEFF' + small.join('\r\n') + '\r\n')
    const commitment = commitmentFor(small, { kind: 'shuffle' }, false)
    const drawn = await streamDrawFile(path, { threads: 1, rankingWindowBytes: 100 })
    const proof = await drawn.prove(drawn.prepare(commitment), chain[10]!)
    await expectWrittenProof('shuffle.proof.json', drawn, proof, serializeProof(drawFromBlock(commitment, small, chain[10]!)))
  })

  it('a file changed before the ranking is written: PARTICIPANTS_MISMATCH, nothing left', async () => {
    const list = Array.from({ length: 50 }, (_, i) => `p${i}`)
    const path = await fileOf(list.join('\n') + '\n')
    const commitment = commitmentFor(list, { kind: 'shuffle' }, false)
    const drawn = await streamDrawFile(path, { threads: 1 })
    const proof = await drawn.prove(drawn.prepare(commitment), chain[10]!)
    await writeFile(path, list.map((e, i) => (i === 40 ? 'q40' : e)).join('\n') + '\n')
    const out = join(tmp.dir, 'changed-shuffle.proof.json')
    await expect(writeProofFile(out, (sink) => drawn.write(proof, sink))).rejects.toMatchObject({ code: 'PARTICIPANTS_MISMATCH' })
    expect((await readdir(tmp.dir)).filter((n) => n.startsWith('changed-shuffle.') || n.endsWith('.partial'))).toEqual([])
  })
})

describe('kinds that cannot be streamed: a typed refusal in prepare, before any block', () => {
  const weighted = small.map((entry, i) => ({ entry, weight: 1 + (i % 3) }))
  it('range takes no list at all: INVALID_OPTION', async () => {
    const commitment = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, draw: { kind: 'range', min: 1n, max: 9n, count: 1, distinct: true }, label: '' }).commitment
    const drawn = await streamDrawFile(await fileOf(small.join('\n')), { threads: 1 })
    expect(() => drawn.prepare(commitment)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', detail: expect.stringContaining('takes no participants') }))
  })
  it('weighted, from a file of lines (no weights): MISSING_WEIGHTS', async () => {
    const commitment = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, participants: weighted, draw: { kind: 'weighted', count: 2 }, label: '' }).commitment
    const drawn = await streamDrawFile(await fileOf(small.join('\n')), { threads: 1 })
    expect(() => drawn.prepare(commitment)).toThrow(expect.objectContaining({ code: 'MISSING_WEIGHTS' }))
  })
  it('a kind whose entries are checked against each other (panel): INVALID_OPTION with a hint', async () => {
    const pool = smallPool(60, [2, 3, 4], 11)
    const { draw, participants: entries } = panelDraw(pool, proportionalQuotas(pool, 10, 1), 10)
    const commitment = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, participants: entries, draw, label: '' }).commitment
    const drawn = await streamDrawFile(await fileOf(entries.join('\n')), { threads: 1 })
    expect(() => drawn.prepare(commitment)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', detail: expect.stringContaining('checked against each other'), hint: expect.stringContaining('pass it to draw') }))
  })
})

describe('from the index, end to end', () => {
  it('commitFile, streamDrawFile, writeProofFile: the proof verifies and equals the in-memory one', async () => {
    const path = await fileOf(small.join('\r\n') + '\r\n')
    const { commitment, list } = await commitFile(path, { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, draw: { kind: 'pick', count: 3 }, label: 'node "stream"', threads: 1 })
    expect(list.count).toBe(small.length)
    const drawn = await streamDrawFile(path, { threads: 1 })
    const proof = await drawn.prove(drawn.prepare(commitment), chain[10]!)
    await expectWrittenProof('e2e.proof.json', drawn, proof, serializeProof(drawFromBlock(commitment, small, chain[10]!)))
  })

  it('a file changed between the passes: PARTICIPANTS_MISMATCH, and writeProofFile leaves nothing', async () => {
    const list = Array.from({ length: 50 }, (_, i) => `p${i}`)
    const path = await fileOf(list.join('\n') + '\n')
    const commitment = commitmentFor(list, { kind: 'pick', count: 3 }, false)
    const drawn = await streamDrawFile(path, { threads: 1 })
    const proof = await drawn.prove(drawn.prepare(commitment), chain[10]!)
    await writeFile(path, list.map((e, i) => (i === 40 ? 'q40' : e)).join('\n') + '\n')
    const out = join(tmp.dir, 'changed.proof.json')
    await expect(writeProofFile(out, (sink) => drawn.write(proof, sink))).rejects.toMatchObject({ code: 'PARTICIPANTS_MISMATCH' })
    expect((await readdir(tmp.dir)).filter((n) => n.startsWith('changed.') || n.endsWith('.partial'))).toEqual([])
  })
})
