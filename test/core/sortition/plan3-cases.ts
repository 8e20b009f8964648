/**
 * Plan method 3 vectors (docs/spec.md, Plan methods): a plan that methods 1 and 2 refuse and method
 * 3 admits, with every intermediate value an outside implementation must reproduce (method 1's kept
 * trials, the trial numbers of the kept trials on method 2's gate stream, the committed round cap
 * `maxRounds` = 16 × the trial of the 10th kept, the work bound with that cap, the draw's rounds,
 * members and bytes read). Shared by the generator (scripts/make-sortition-plan3-vectors.ts) and the test.
 */
import { hexToBytes } from '../../../src/core/bytes.js'
import { OrbitdrawError } from '../../../src/core/errors.js'
import { streamFromSeed } from '../../../src/core/random/index.js'
import { checkQuotas, drawPanel, makePool, planCost, planPanel, SORTITION_LIMITS, type QuotaRow } from '../../../src/core/sortition/index.js'
import { acceptanceStream } from '../../../src/core/sortition/plan.js'
import { meetsQuotas, otherFeatures, relaxedPanel } from '../../../src/core/sortition/round.js'

/** One plan-3 vector. */
export interface Plan3Vector {
  name: string
  header: string[]
  rows: string[][]
  quotas: [string, string, number, number][]
  k: number
  exactFeatures: string[]
  seed: string
  /** Method 1's gate: kept of 2,000 (refused: fewer than 7). */
  method1Kept: number
  /** Method 2's gate stream: the 1-based numbers of the kept trials, up to the 12th or the 40,000th trial (fewer than 12: method 2 refuses). */
  method2KeptAt: number[]
  /** Method 3's gate on the same stream: the numbers of its 10 kept trials. */
  method3KeptAt: number[]
  /** The committed round cap: 16 × the number of the 10th kept trial. */
  maxRounds: number
  /** The work bound with `maxRounds` rounds. */
  cost: { round: number; rounds: number; draw: number }
  rounds: number
  members: string[]
  consumed: number
}

/** The inputs: 36 respondents, 7 two-valued features, k = 12, quotas floor/ceil of the share, nothing exact. */
export function plan3Inputs(): Omit<Plan3Vector, 'method1Kept' | 'method2KeptAt' | 'method3KeptAt' | 'maxRounds' | 'cost' | 'rounds' | 'members' | 'consumed'>[] {
  const bits = '0000010 0001000 0001101 0010101 0011010 0011100 0011101 0011110 0100001 0100010 0100100 0100101 0100101 0101001 0101001 0110011 0110111 0111111 1000001 1000110 1000110 1000111 1001011 1001100 1001101 1001111 1010000 1010100 1010100 1010101 1011001 1100011 1101011 1101100 1110010 1110101'.split(' ')
  const n = bits.length
  const k = 12
  const names = Array.from({ length: 7 }, (_, i) => `f${i}`)
  // Ids in type order, so the canonical order is the committed (type, id) order of a commitment.
  const rows = [...bits].sort().map((b, i) => [`r${String(i).padStart(2, '0')}`, ...[...b].map((d) => `v${d}`)])
  const quotas: [string, string, number, number][] = []
  names.forEach((f, fi) => {
    for (const v of ['v0', 'v1']) {
      const c = rows.filter((r) => r[fi + 1] === v).length
      if (c > 0) quotas.push([f, v, Math.floor((c * k) / n), Math.ceil((c * k) / n)])
    }
  })
  return [{ name: 'methods 1 and 2 refuse, method 3 admits', header: ['id', ...names], rows, quotas, k, exactFeatures: [], seed: '0b'.repeat(32) }]
}

/** Runs one vector's inputs through the engine. */
export function runPlan3(input: ReturnType<typeof plan3Inputs>[number]): Plan3Vector {
  const pool = makePool(input.header.slice(1), input.rows.map((r) => ({ id: r[0]!, values: r.slice(1) })))
  const rows: QuotaRow[] = input.quotas.map(([feature, value, min, max]) => ({ feature, value, min, max }))
  const table = checkQuotas(pool, rows, input.k)
  const opts = { exactFeatures: input.exactFeatures, explain: false }
  const refusedKept = (method: 1 | 2): number => {
    try {
      planPanel(pool, table, input.k, { ...opts, method })
    } catch (err) {
      if (!(err instanceof OrbitdrawError) || err.code !== 'SORTITION_ACCEPTANCE_TOO_LOW') throw err
      return Number(/only (\d+) of/.exec(err.detail)![1])
    }
    throw new Error(`method ${method} admits this plan: not a plan-3 vector`)
  }
  const method1Kept = refusedKept(1)
  refusedKept(2)
  // The kept trials on method 2's gate stream, counted independently of the planner.
  const relaxed = planPanel(pool, table, input.k, { ...opts, skipAcceptanceCheck: true })
  const others = otherFeatures(relaxed)
  const keptAt: number[] = []
  const stream2 = acceptanceStream(2)
  for (let t = 1; keptAt.length < 12 && t <= SORTITION_LIMITS.acceptanceTrialsV3; t++) if (meetsQuotas(pool, table, relaxedPanel(relaxed.counter, stream2).members, others)) keptAt.push(t)
  const plan = planPanel(pool, table, input.k, { ...opts, method: 3 })
  const c = planCost(pool, table, input.k, plan.counter.exact, plan.maxRounds!)
  const stream = streamFromSeed(hexToBytes(input.seed))
  const d = drawPanel(plan, stream)
  return {
    ...input,
    method1Kept,
    method2KeptAt: keptAt.filter((t) => t <= SORTITION_LIMITS.acceptanceTrialsV2),
    method3KeptAt: keptAt.slice(0, SORTITION_LIMITS.minAcceptedTrialsV3),
    maxRounds: plan.maxRounds!,
    cost: { round: c.round, rounds: c.rounds, draw: c.draw },
    rounds: d.rounds,
    members: d.members.map((m) => pool.respondents[m]!.id),
    consumed: stream.consumed,
  }
}
