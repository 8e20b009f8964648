/**
 * The Node library paths on two threads beside the same work on one thread, in the same run (issue 15):
 * the salted tree a private draw and the receipts need (participantsTreeParallel against
 * participantsTree, with 40 inclusion proofs), and a commitment of 1,000,000 entries (the Node
 * commitAsync against commit). Each pair checks its two results are equal before timing.
 *
 * It times the built package (`dist/`, what users run; `npm run build` first), not the sources: under
 * `tsx` a worker thread must load the TypeScript loader and transpile the core again, about 370 ms per
 * worker against about 65 ms from `dist/` (measured at load 6), which would be charged to every
 * two-thread call. `npm run bench -- threads`.
 */
import { existsSync } from 'node:fs'
import { timePair, type BenchRow } from './harness.js'

const DIST = new URL('../dist/', import.meta.url)
if (!existsSync(new URL('index.js', DIST))) throw new Error('dist/index.js is missing: run npm run build first')
// The built modules, typed by their sources.
const { commit, commitAsync } = (await import(new URL('commit.js', DIST).href)) as typeof import('../src/commit.js')
const { participantsTree } = (await import(new URL('core/participants.js', DIST).href)) as typeof import('../src/core/participants.js')
const { participantsTreeParallel } = (await import(new URL('node/parallel-hash.js', DIST).href)) as typeof import('../src/node/parallel-hash.js')

const N = 1_000_000
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

export default async function (): Promise<BenchRow[]> {
  const entries = Array.from({ length: N }, (_, i) => `participant-${String(i).padStart(6, '0')}`)
  const secret = new Uint8Array(32).fill(0x5a)
  const winners = Array.from({ length: 40 }, (_, k) => k * 24_999)
  const one = participantsTree(entries, { secret })
  const two = await participantsTreeParallel(entries, { secret })
  if (hex(one.root()) !== hex(two.root()) || JSON.stringify(one.inclusionProofs(winners).map((p) => p.map(hex))) !== JSON.stringify(two.inclusionProofs(winners).map((p) => p.map(hex)))) {
    throw new Error('participantsTreeParallel differs from participantsTree')
  }
  const rows: BenchRow[] = []
  const tree = await timePair(async () => (await participantsTreeParallel(entries, { secret })).inclusionProofs(winners), () => participantsTree(entries, { secret }).inclusionProofs(winners), 5, 1)
  rows.push({ name: 'participantsTreeParallel (salted) + 40 inclusion proofs, 1,000,000 entries, two threads (private draw, receipts)', value: tree.value, unit: 'ms', baseline: { name: 'participantsTree, one thread', value: tree.baseline }, goal: 'faster than one thread (speed-up = 1 / ratio)', met: tree.value < tree.baseline })

  const options = { beacon: 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8', target: 10, after: { sequence: 7, block: 'bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy' }, participants: entries, draw: { kind: 'pick', count: 3 } as const }
  if (commit(options).cid !== (await commitAsync(options)).cid) throw new Error('commitAsync differs from commit')
  const c = await timePair(() => commitAsync(options), () => commit(options), 5, 1)
  rows.push({ name: 'commitAsync (Node), 1,000,000 entries, two threads', value: c.value, unit: 'ms', baseline: { name: 'commit, one thread', value: c.baseline }, goal: 'faster than one thread (speed-up = 1 / ratio)', met: c.value < c.baseline })
  return rows
}
