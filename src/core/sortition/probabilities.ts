/**
 * Exact per-type selection probabilities of a plan that counts every feature (docs/spec.md, Selection
 * probabilities).
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { expectedCellCounts } from './count.js'
import type { PanelPlan } from './round.js'

/**
 * Exact selection probability of one respondent type: `numerator / denominator`, reduced.
 * @category Sortition
 */
export interface TypeProbability {
  /** The type: value index per feature (canonical order). */
  readonly type: readonly number[]
  /** Respondents of this type. */
  readonly respondents: number
  /** Numerator of the probability that a given respondent of this type is on the panel. */
  readonly numerator: bigint
  /** Denominator (positive). */
  readonly denominator: bigint
  /** The probability as a decimal string rounded down to 12 digits after the point. */
  readonly decimal: string
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b]
  return a < 0n ? -a : a
}

/** `num / den` (0 <= num <= den) rounded down to `digits` decimals. */
export function decimalString(num: bigint, den: bigint, digits = 12): string {
  const scaled = (num * 10n ** BigInt(digits)) / den
  const s = scaled.toString().padStart(digits + 1, '0')
  return `${s.slice(0, -digits)}.${s.slice(-digits)}`
}

/**
 * Exact selection probability of every respondent type under the uniform `panel` draw: the probability
 * that a given respondent of the type is on the panel (the same for every respondent of a type).
 * Needs an exact plan (every feature counted exactly), where the cells are the types.
 *
 * @throws {@link InvalidInputError} `SORTITION_NOT_EXACT` for a plan with features left to rejection.
 * @category Sortition
 */
export function selectionProbabilities(plan: PanelPlan): TypeProbability[] {
  if (!plan.exact) {
    throw new InvalidInputError('SORTITION_NOT_EXACT', 'selection probabilities are only exact when every feature is counted exactly', 'use a plan whose exact features include every feature')
  }
  const { counter, pool } = plan
  const e = expectedCellCounts(counter)
  return counter.cells.map((cell, i) => {
    const n = BigInt(cell.members.length)
    let num = e[i]!
    let den = counter.count * n
    const g = gcd(num, den)
    if (g > 1n) {
      num /= g
      den /= g
    }
    return { type: pool.respondents[cell.members[0]!]!.type, respondents: cell.members.length, numerator: num, denominator: den, decimal: decimalString(num, den) }
  })
}
