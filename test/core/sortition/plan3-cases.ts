/**
 * Plan method 3 vectors (docs/spec.md, Plan methods): a plan that methods 1 and 2 refuse and method
 * 3 admits, with every intermediate value an outside implementation must reproduce (method 1's kept
 * trials, the trial numbers of the kept trials on method 2's gate stream, the committed round cap
 * `maxRounds` = 16 × the trial of the 10th kept, the work bound with that cap, the draw's rounds,
 * members and bytes read). Shared by the generator (scripts/make-sortition-plan3-vectors.ts) and the test.
 */
import { planCost, planPanel, SORTITION_LIMITS } from '../../../src/core/sortition/index.js'
import { acceptanceStream } from '../../../src/core/sortition/plan.js'
import { meetsQuotas, otherFeatures, relaxedPanel } from '../../../src/core/sortition/round.js'
import { drawnFromSeed, keptWhenRefused, planVectorPool, twoValuedPlanInputs } from './plan-vector-kit.js'
import type { SortitionVectorInput } from './vector-cases.js'

/** One plan-3 vector. */
export interface Plan3Vector extends SortitionVectorInput {
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
  return [twoValuedPlanInputs('methods 1 and 2 refuse, method 3 admits', bits, 12, '0b'.repeat(32))]
}

/** Runs one vector's inputs through the engine. */
export function runPlan3(input: ReturnType<typeof plan3Inputs>[number]): Plan3Vector {
  const { pool, table } = planVectorPool(input)
  const opts = { exactFeatures: input.exactFeatures, explain: false }
  const method1Kept = keptWhenRefused(pool, table, input, 1, 'plan-3')
  keptWhenRefused(pool, table, input, 2, 'plan-3')
  // The kept trials on method 2's gate stream, counted independently of the planner.
  const relaxed = planPanel(pool, table, input.k, { ...opts, skipAcceptanceCheck: true })
  const others = otherFeatures(relaxed)
  const keptAt: number[] = []
  const stream2 = acceptanceStream(2)
  for (let t = 1; keptAt.length < 12 && t <= SORTITION_LIMITS.acceptanceTrialsV3; t++) if (meetsQuotas(pool, table, relaxedPanel(relaxed.counter, stream2).members, others)) keptAt.push(t)
  const plan = planPanel(pool, table, input.k, { ...opts, method: 3 })
  const c = planCost(pool, table, input.k, plan.counter.exact, plan.maxRounds!)
  return {
    ...input,
    method1Kept,
    method2KeptAt: keptAt.filter((t) => t <= SORTITION_LIMITS.acceptanceTrialsV2),
    method3KeptAt: keptAt.slice(0, SORTITION_LIMITS.minAcceptedTrialsV3),
    maxRounds: plan.maxRounds!,
    cost: { round: c.round, rounds: c.rounds, draw: c.draw },
    ...drawnFromSeed(pool, plan, input.seed),
  }
}
