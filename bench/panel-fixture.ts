/**
 * The benchmark pool of issue 14 (shared by bench/sortition.bench.ts and bench/browser.bench.ts, so
 * their figures are of the same proof): a deterministic pool with skewed value shares, quotas around
 * the proportional shares, and the `panel` proof of 2,000 respondents, 6 features, k = 40, 10
 * alternates, quotas ±2, over the test chain.
 */
import { commit } from '../src/core/commitment.js'
import { drawFromBlock } from '../src/core/draw.js'
import { panelDraw } from '../src/core/kinds/panel.js'
import { serializeProof, type Proof } from '../src/core/proof.js'
import { makePool } from '../src/core/sortition/pool.js'
import { lcg, proportionalQuotas } from '../test/core/sortition/fixtures.js'
import { BEACON_NAME, buildChain } from '../test/helpers/chain.js'

const SIZES = [2, 3, 4, 5, 6, 6, 3, 4]
const NAMES = ['gender', 'age', 'region', 'education', 'income', 'origin', 'housing', 'attitude']

/** A deterministic pool: skewed value shares (value v of a feature with s values has weight s - v; s from the fixed sizes, or `values` for every feature). */
export function poolRows(n: number, features: number, seed = 12345, values?: number): { names: string[]; rows: { id: string; values: string[] }[] } {
  const rnd = lcg(seed)
  const names = NAMES.slice(0, features)
  const rows = Array.from({ length: n }, (_, i) => ({
    id: `resp-${String(i).padStart(7, '0')}`,
    values: names.map((name, f) => {
      const s = values ?? SIZES[f]!
      const total = (s * (s + 1)) / 2
      let r = rnd(total)
      let v = 0
      while (r >= s - v) r -= s - v++
      return `${name}-${v}`
    }),
  }))
  return { names, rows }
}

/** Quota rows around each value's proportional share of k seats, ±slack (the tests' fixture). */
export const quotas = proportionalQuotas


/** The 2,000-respondent panel proof (k = 40 unless given; 10 alternates, quotas ±2) and its JSON text. */
export function panelProof2000(k = 40): { proof: Proof; text: string } {
  const { names, rows } = poolRows(2000, 6)
  const pool = makePool(names, rows)
  const chain = buildChain(12, 'sortition-bench')
  const { draw, participants } = panelDraw(pool, quotas(pool, k, 2), k, { alternates: 10 })
  const { commitment } = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, label: k === 40 ? 'bench assembly' : `bench assembly, k = ${k}`, draw, participants })
  const proof = drawFromBlock(commitment, participants, chain[10]!)
  return { proof, text: serializeProof(proof) }
}

/**
 * The largest `panel` proof the engine produces today (issue 22): 2,000 respondents, 6 features,
 * k = 150, quotas ±3, 10 alternates, committed with plan method 2 (the commit falls back to it), over
 * the test chain; its JSON text and the rounds its draw took.
 */
export function largestPanelProof(): { proof: Proof; text: string; rounds: number } {
  const k = 150
  const { names, rows } = poolRows(2000, 6)
  const pool = makePool(names, rows)
  const chain = buildChain(12, 'sortition-bench')
  const { draw, participants } = panelDraw(pool, quotas(pool, k, 3), k, { alternates: 10 })
  if (draw.plan !== 2) throw new Error('the k = 150 bench plan is expected to use plan method 2')
  const { commitment } = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, label: 'bench assembly, k = 150', draw, participants })
  const proof = drawFromBlock(commitment, participants, chain[10]!)
  return { proof, text: serializeProof(proof), rounds: (proof.outcome as { rounds: number }).rounds }
}
