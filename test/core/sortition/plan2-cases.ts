/**
 * Plan method 2 vectors (docs/spec.md, Plan methods): a plan that method 1's gate refuses and method
 * 2's sequential gate admits, with every intermediate value an outside implementation must reproduce
 * (both gates' trials and kept panels, the cost with 400,000 rounds, the draw's rounds, members and
 * bytes read). Shared by the generator (scripts/make-sortition-plan2-vectors.ts) and the test.
 */
import { hexToBytes } from '../../../src/core/bytes.js'
import { OrbitdrawError } from '../../../src/core/errors.js'
import { streamFromSeed } from '../../../src/core/random/index.js'
import { checkQuotas, drawPanel, makePool, planCost, planPanel, SORTITION_LIMITS, type QuotaRow } from '../../../src/core/sortition/index.js'

/** One plan-2 vector. */
export interface Plan2Vector {
  name: string
  header: string[]
  rows: string[][]
  quotas: [string, string, number, number][]
  k: number
  exactFeatures: string[]
  seed: string
  /** Method 1's gate: kept of 2,000 (refused: fewer than 7). */
  method1Kept: number
  /** Method 2's gate: trials drawn (it stops at the 12th kept) and kept. */
  method2Trials: number
  method2Kept: number
  /** The work bound with method 2's 400,000 rounds. */
  cost: { round: number; rounds: number; draw: number }
  rounds: number
  members: string[]
  consumed: number
}

/** The inputs: 33 respondents, 6 two-valued features, k = 11, quotas floor/ceil of the share, nothing exact. */
export function plan2Inputs(): Omit<Plan2Vector, 'method1Kept' | 'method2Trials' | 'method2Kept' | 'cost' | 'rounds' | 'members' | 'consumed'>[] {
  // 33 respondents, one string of value digits each (f0 … f5), sorted.
  const bits = '000000 000000 000000 000011 000101 000111 001010 001100 001101 010000 010000 010010 010011 010100 010101 010110 010110 011001 011100 011110 100010 100011 100101 100110 100111 101001 110000 110010 110101 110110 110111 111000 111001'.split(' ')
  const n = bits.length
  const k = 11
  const names = Array.from({ length: 6 }, (_, i) => `f${i}`)
  // Ids in type order, so the canonical order is the committed (type, id) order of a commitment.
  const rows = [...bits].sort().map((b, i) => [`r${String(i).padStart(2, '0')}`, ...[...b].map((d) => `v${d}`)])
  const quotas: [string, string, number, number][] = []
  names.forEach((f, fi) => {
    for (const v of ['v0', 'v1']) {
      const c = rows.filter((r) => r[fi + 1] === v).length
      if (c > 0) quotas.push([f, v, Math.floor((c * k) / n), Math.ceil((c * k) / n)])
    }
  })
  return [{ name: 'method 1 refuses, method 2 admits', header: ['id', ...names], rows, quotas, k, exactFeatures: [], seed: '07'.repeat(32) }]
}

/** Runs one vector's inputs through the engine. */
export function runPlan2(input: ReturnType<typeof plan2Inputs>[number]): Plan2Vector {
  const pool = makePool(input.header.slice(1), input.rows.map((r) => ({ id: r[0]!, values: r.slice(1) })))
  const rows: QuotaRow[] = input.quotas.map(([feature, value, min, max]) => ({ feature, value, min, max }))
  const table = checkQuotas(pool, rows, input.k)
  let method1Kept = -1
  try {
    planPanel(pool, table, input.k, { exactFeatures: input.exactFeatures, explain: false })
  } catch (err) {
    if (!(err instanceof OrbitdrawError) || err.code !== 'SORTITION_ACCEPTANCE_TOO_LOW') throw err
    method1Kept = Number(/only (\d+) of/.exec(err.detail)![1])
  }
  if (method1Kept < 0) throw new Error('method 1 admits this plan: not a plan-2 vector')
  const plan = planPanel(pool, table, input.k, { exactFeatures: input.exactFeatures, explain: false, method: 2 })
  const c = planCost(pool, table, input.k, plan.counter.exact, SORTITION_LIMITS.maxRejectionRoundsV2)
  const stream = streamFromSeed(hexToBytes(input.seed))
  const d = drawPanel(plan, stream)
  return {
    ...input,
    method1Kept,
    method2Trials: plan.gate!.trials,
    method2Kept: plan.gate!.kept,
    cost: { round: c.round, rounds: c.rounds, draw: c.draw },
    rounds: d.rounds,
    members: d.members.map((m) => pool.respondents[m]!.id),
    consumed: stream.consumed,
  }
}
