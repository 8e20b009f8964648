/**
 * Plan method 2 vectors (docs/spec.md, Plan methods): a plan that method 1's gate refuses and method
 * 2's sequential gate admits, with every intermediate value an outside implementation must reproduce
 * (both gates' trials and kept panels, the cost with 400,000 rounds, the draw's rounds, members and
 * bytes read). Shared by the generator (scripts/make-sortition-plan2-vectors.ts) and the test.
 */
import { planCost, planPanel, SORTITION_LIMITS } from '../../../src/core/sortition/index.js'
import { drawnFromSeed, keptWhenRefused, planVectorPool, twoValuedPlanInputs } from './plan-vector-kit.js'
import type { SortitionVectorInput } from './vector-cases.js'

/** One plan-2 vector. */
export interface Plan2Vector extends SortitionVectorInput {
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
  return [twoValuedPlanInputs('method 1 refuses, method 2 admits', bits, 11, '07'.repeat(32))]
}

/** Runs one vector's inputs through the engine. */
export function runPlan2(input: ReturnType<typeof plan2Inputs>[number]): Plan2Vector {
  const { pool, table } = planVectorPool(input)
  const method1Kept = keptWhenRefused(pool, table, input, 1, 'plan-2')
  const plan = planPanel(pool, table, input.k, { exactFeatures: input.exactFeatures, explain: false, method: 2 })
  const c = planCost(pool, table, input.k, plan.counter.exact, SORTITION_LIMITS.maxRejectionRoundsV2)
  return {
    ...input,
    method1Kept,
    method2Trials: plan.gate!.trials,
    method2Kept: plan.gate!.kept,
    cost: { round: c.round, rounds: c.rounds, draw: c.draw },
    ...drawnFromSeed(pool, plan, input.seed),
  }
}
