/**
 * The cases of test/vectors/reroll.json (generator: scripts/make-reroll-vectors.ts): a small list, a
 * first draw (pick or weighted) on a ranking seed, the re-roll's commitment (canonical DAG-JSON and
 * CID), the new seed, and every intermediate value of the replay (docs/spec.md, Re-rolls): the
 * excluded set X; for `next` K, the extended ranking and the ranking stream's bytes read; for `fresh`
 * the available count m, the drawn positions J and the new stream's bytes read; the replacements, the
 * seats they take and the outcome.
 */
import { createHash } from 'node:crypto'
import { commit } from '../../../src/core/index.js'
import { encodeCommitment } from '../../../src/core/commitment-codec.js'
import { computeOutcome, type RerollSpec, type WeightedRerollSpec } from '../../../src/core/kinds/index.js'
import { rerollExcluded, rerollSeats } from '../../../src/core/kinds/reroll.js'
import { pickIndices, streamFromSeed, weightedPick } from '../../../src/core/random/index.js'
import { outcomeToJson } from '../../../src/core/kinds/index.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'

const CHAIN = buildChain(4, 'reroll-vectors')
const FOLLOWED_CID = 'baguqeeragolxaze2n2bodgsodrjhyipc4jbh4pl42lbkufsxjmgmhlnoacrq'

export interface RerollVectorInput {
  readonly name: string
  readonly n: number
  readonly weights?: number[]
  /** The first draw's count. */
  readonly count: number
  readonly rule: 'next' | 'fresh'
  /** Seats (0-based ranks) of the followed winners who declined. */
  readonly declinedRanks: number[]
  /** A chain: first re-roll these ranks (rule fresh) and re-roll the result. */
  readonly before?: number[]
}

export function rerollVectorInputs(): RerollVectorInput[] {
  return [
    { name: 'reroll-next-2-of-4', n: 12, count: 4, rule: 'next', declinedRanks: [0, 2] },
    { name: 'reroll-fresh-1-of-3', n: 10, count: 3, rule: 'fresh', declinedRanks: [1] },
    { name: 'reroll-fresh-chain', n: 10, count: 3, rule: 'fresh', declinedRanks: [1], before: [0, 1] },
    { name: 'reroll-next-chain', n: 10, count: 3, rule: 'next', declinedRanks: [0], before: [2] },
    { name: 'weighted-reroll-next', n: 9, weights: [5, 1, 3, 1, 2, 8, 1, 4, 2], count: 3, rule: 'next', declinedRanks: [1] },
    { name: 'weighted-reroll-fresh', n: 9, weights: [5, 1, 3, 1, 2, 8, 1, 4, 2], count: 3, rule: 'fresh', declinedRanks: [0, 2] },
  ]
}

const seedOf = (label: string): Uint8Array => new Uint8Array(createHash('sha256').update(`orbitdraw reroll vector ${label}`).digest())
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

/** Runs a case through the library, recording the intermediate values. */
export function runRerollVector(c: RerollVectorInput): object {
  const entries = Array.from({ length: c.n }, (_, i) => `entrant-${String(i).padStart(2, '0')}`)
  const participants = c.weights === undefined ? entries : entries.map((entry, i) => ({ entry, weight: c.weights![i]! }))
  const kind = c.weights === undefined ? 'reroll' : 'weighted-reroll'
  const ranking = seedOf(`${c.name} ranking`)
  const first = c.weights === undefined ? pickIndices(streamFromSeed(ranking), c.n, c.count) : weightedPick(streamFromSeed(ranking), c.weights, c.count)
  let winners = first
  let past: number[] = []
  if (c.before !== undefined) {
    // The followed draw is itself a fresh re-roll of the first draw's seats `before`.
    const prior = { kind, rule: 'fresh', follows: { commitment: FOLLOWED_CID, seed: hex(ranking), target: 2, dropped: c.before.map((r) => first[r]!).sort((a, b) => a - b) }, ranking: hex(ranking), winners: first, past: [] } as RerollSpec
    const o = computeOutcome(seedOf(`${c.name} before`), prior, c.n, c.weights) as unknown as { winners: number[] }
    winners = o.winners
    past = [...prior.follows.dropped]
  }
  const spec = { kind, rule: c.rule, follows: { commitment: FOLLOWED_CID, seed: hex(seedOf(`${c.name} followed`)), target: 2, dropped: c.declinedRanks.map((r) => winners[r]!).sort((a, b) => a - b) }, ranking: hex(ranking), winners, past } as RerollSpec | WeightedRerollSpec
  const { commitment, cid } = commit({ beacon: BEACON_NAME, target: 3, after: { sequence: 1, block: CHAIN[1]!.cid }, label: c.name, draw: spec, participants })
  const seed = seedOf(c.name)
  const X = rerollExcluded(spec)
  const d = spec.follows.dropped.length
  const steps: Record<string, unknown> = {}
  let replacements: number[]
  if (c.rule === 'next') {
    const K = Math.min(c.n, X.length + d)
    const s = streamFromSeed(ranking)
    const L = c.weights === undefined ? pickIndices(s, c.n, K) : weightedPick(s, c.weights, K)
    replacements = L.filter((i) => !X.includes(i)).slice(0, d)
    Object.assign(steps, { K, ranked: L, rankingConsumed: s.consumed })
  } else {
    const A = entries.map((_, i) => i).filter((i) => !X.includes(i))
    const s = streamFromSeed(seed)
    const J = c.weights === undefined ? pickIndices(s, A.length, d) : weightedPick(s, A.map((i) => c.weights![i]!), d)
    replacements = J.map((j) => A[j]!)
    Object.assign(steps, { m: A.length, positions: J, consumed: s.consumed })
  }
  const outcome = computeOutcome(seed, spec, c.n, c.weights)
  const { seats } = rerollSeats(spec, replacements)
  return {
    name: c.name,
    participants,
    ranking: hex(ranking),
    firstWinners: first,
    commitment: new TextDecoder().decode(encodeCommitment(commitment)),
    cid,
    seed: hex(seed),
    excluded: X,
    ...steps,
    replacements,
    seats,
    outcome: outcomeToJson(outcome, (i) => entries[i]!),
  }
}
