/**
 * test/vectors/reroll.json: the library reproduces every case byte for byte (commitment bytes and CID
 * included), and a literal re-implementation of docs/spec.md (Re-rolls) on Node's own ChaCha20 (dense
 * Fisher–Yates, linear-scan weighted pick, the available list built in full) reproduces every
 * intermediate value from the commitment text alone. Regenerate with `npx tsx scripts/make-reroll-vectors.ts`.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as dagJson from '@ipld/dag-json'
import { CID } from 'multiformats/cid'
import { parseCommitment } from '../../../src/core/index.js'
import { rerollVectorInputs, runRerollVector } from './reroll-vector-cases.js'
import { SpecChaChaReference } from '../../helpers/spec-chacha-reference.js'

type J = any // eslint-disable-line @typescript-eslint/no-explicit-any
const FILE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'vectors', 'reroll.json')
const VECTORS: J = JSON.parse(readFileSync(FILE, 'utf8'))

/** docs/spec.md, Re-rolls, from the commitment's text and the seed. */
function reference(v: J): J {
  const c = JSON.parse(v.commitment)
  const d = c.draw
  const n: number = c.participants.count
  const weights: number[] | undefined = typeof v.participants[0] === 'object' ? v.participants.map((p: J) => p.weight) : undefined
  const X = [...new Set<number>([...d.winners, ...d.past])].sort((a, b) => a - b)
  const k = d.follows.dropped.length
  let R: number[]
  const steps: J = {}
  if (d.rule === 'next') {
    const K = Math.min(n, X.length + k)
    const s = new SpecChaChaReference(d.ranking, 1 << 12)
    const L = weights === undefined ? s.pick(n, K) : s.weighted(weights, K)
    R = L.filter((i) => !X.includes(i)).slice(0, k)
    Object.assign(steps, { K, ranked: L, rankingConsumed: s.pos })
  } else {
    const A = Array.from({ length: n }, (_, i) => i).filter((i) => !X.includes(i))
    const s = new SpecChaChaReference(v.seed, 1 << 12)
    const pos = weights === undefined ? s.pick(A.length, k) : s.weighted(A.map((i) => weights[i]!), k)
    R = pos.map((j) => A[j]!)
    Object.assign(steps, { m: A.length, positions: pos, consumed: s.pos })
  }
  const winners = [...d.winners]
  const seats: number[] = []
  let t = 0
  winners.forEach((w: number, r: number) => {
    if (d.follows.dropped.includes(w)) {
      winners[r] = R[t++]!
      seats.push(r + 1)
    }
  })
  const entry = (i: number): string => (weights === undefined ? v.participants[i] : v.participants[i].entry)
  return { excluded: X, ...steps, replacements: R, seats, outcome: { kind: d.kind, winners: winners.map((index, r) => ({ rank: r + 1, index, entry: entry(index) })), replacements: R.map((index, i) => ({ rank: seats[i], index, entry: entry(index) })) } }
}

describe('reroll.json', () => {
  it('the library reproduces every case exactly (regenerate only on a deliberate protocol change)', () => {
    expect(JSON.parse(JSON.stringify(rerollVectorInputs().map(runRerollVector)))).toEqual(VECTORS.cases)
    expect(VECTORS.cases.map((c: J) => c.name)).toEqual(['reroll-next-2-of-4', 'reroll-fresh-1-of-3', 'reroll-fresh-chain', 'reroll-next-chain', 'weighted-reroll-next', 'weighted-reroll-fresh'])
  })

  it('each commitment is canonical: the bytes parse, re-encode to themselves, and the CID is dag-json + sha2-256 of them', () => {
    for (const v of VECTORS.cases) {
      const bytes = new TextEncoder().encode(v.commitment)
      expect(parseCommitment(v.commitment).draw.kind, v.name).toBe(v.name.startsWith('weighted') ? 'weighted-reroll' : 'reroll')
      expect(new TextDecoder().decode(dagJson.encode(dagJson.decode(bytes))), v.name).toBe(v.commitment)
      const cid = CID.parse(v.cid)
      expect([cid.version, cid.code, cid.multihash.code], v.name).toEqual([1, 0x0129, 0x12])
      expect(Buffer.from(cid.multihash.digest).toString('hex'), v.name).toBe(createHash('sha256').update(bytes).digest('hex'))
    }
  })

  it('a literal re-implementation of the spec on Node\'s ChaCha20 gives every intermediate value', () => {
    for (const v of VECTORS.cases) {
      const { name: _n, participants: _p, ranking: _r, firstWinners: _f, commitment: _c, cid: _cid, seed: _s, ...expected } = v
      expect(reference(v), v.name).toEqual(expected)
    }
  })

  it('the cases exercise what they say: the first winners are the ranking\'s pick, next skips past winners, chains carry past', () => {
    for (const v of VECTORS.cases) {
      const d = JSON.parse(v.commitment).draw
      const weights = typeof v.participants[0] === 'object' ? v.participants.map((p: J) => p.weight) : undefined
      const s = new SpecChaChaReference(v.ranking, 1 << 12)
      expect(weights === undefined ? s.pick(v.participants.length, v.firstWinners.length) : s.weighted(weights, v.firstWinners.length)).toEqual(v.firstWinners)
      for (const r of v.replacements) expect(v.excluded).not.toContain(r)
      if (v.name.endsWith('chain')) expect(d.past.length).toBeGreaterThan(0)
    }
    const nextChain = VECTORS.cases.find((c: J) => c.name === 'reroll-next-chain')
    expect(nextChain.ranked.slice(0, -1).some((i: number) => !JSON.parse(nextChain.commitment).draw.winners.includes(i))).toBe(true)
  })
})
