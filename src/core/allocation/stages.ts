/**
 * Staged allocation (draw kind `stages`): one stream, ordered stages, each a uniform pick or a weighted
 * draw among the entries that pass its eligibility filter and were not selected by an earlier stage,
 * with a count that is absolute or a rounded fraction of those eligible (docs/spec.md, Stages).
 *
 * Pure and exact: integer arithmetic only, the samplers of `src/core/random`. Entries are described by
 * their **type** (an index into per-type tables), so a filter or a weight is looked up once per type and
 * the work is O(n) per stage plus the samplers' own.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { pickIndices } from '../random/shuffle.js'
import type { RandomStream } from '../random/stream.js'
import { weightedPick } from '../random/weighted.js'

/**
 * How a fraction of the eligible is rounded to a whole count: `down` (floor), `up` (ceiling) or
 * `nearest` (halves up).
 * @category Allocation
 */
export type StageRounding = 'down' | 'up' | 'nearest'

/**
 * A stage's count: an absolute number, or `num / den` of the stage's eligible entries, rounded.
 * @category Allocation
 */
export type StageCount = { readonly count: number } | { readonly num: number; readonly den: number; readonly rounding: StageRounding }

/**
 * One stage as the sampler takes it: per-type tables, so that the sampler needs no column names.
 * @category Allocation
 */
export interface StageRule {
  /** `pick`: every eligible entry equally likely; `weighted`: chances proportional to the type's weight. */
  readonly method: 'pick' | 'weighted'
  /** How many winners. */
  readonly count: StageCount
  /** Per type: whether its entries pass the stage's filter. */
  readonly eligible: readonly boolean[]
  /** Per type, for `weighted`: its entries' positive integer weight. */
  readonly weights?: readonly number[]
}

/**
 * One stage's result.
 * @category Allocation
 */
export interface StageResult {
  /** Entries that passed the filter and were not selected by an earlier stage. */
  readonly eligible: number
  /** The count the stage's rule gives for that many eligible (before the `min` with `eligible`). */
  readonly target: number
  /** The winners (committed indices), in rank order; `min(target, eligible)` of them. */
  readonly winners: readonly number[]
}

/**
 * The count a stage draws for `eligible` entries: its absolute count, or `num · eligible / den`
 * rounded as stated, computed exactly (bigints), before the `min` with `eligible`.
 * @category Allocation
 */
export function stageTarget(count: StageCount, eligible: number): number {
  if ('count' in count) return count.count
  const p = BigInt(count.num) * BigInt(eligible)
  const d = BigInt(count.den)
  const q = count.rounding === 'down' ? p / d : count.rounding === 'up' ? (p + d - 1n) / d : (2n * p + d) / (2n * d)
  return Number(q)
}

/**
 * Draws every stage in order from one stream. Stage `s`: its eligible entries are those (in committed
 * order) whose type passes its filter and that no earlier stage selected; it draws
 * `min(stageTarget(count, eligible), eligible)` of them with `pickIndices` (uniform) or `weightedPick`
 * (the type's weight) over that list, and marks them selected.
 *
 * @param stream - the random stream of the seed.
 * @param typeOf - the type of each committed entry (its length is the number of entries).
 * @param stages - the stages in committed order.
 * @returns one result per stage.
 * @throws {@link InvalidInputError} `INVALID_ARGUMENT` for a weighted stage without a weight for a type
 *   it admits.
 * @category Allocation
 */
export function drawStages(stream: RandomStream, typeOf: ArrayLike<number>, stages: readonly StageRule[]): StageResult[] {
  const n = typeOf.length
  const selected = new Uint8Array(n)
  const out: StageResult[] = []
  const pool = new Uint32Array(n)
  for (const [s, stage] of stages.entries()) {
    let e = 0
    for (let i = 0; i < n; i++) if (stage.eligible[typeOf[i]!] === true && selected[i] === 0) pool[e++] = i
    const target = stageTarget(stage.count, e)
    const k = Math.min(target, e)
    let picks: number[]
    if (stage.method === 'pick') picks = pickIndices(stream, e, k)
    else {
      const w = new Array<number>(e)
      for (let j = 0; j < e; j++) {
        const x = stage.weights?.[typeOf[pool[j]!]!]
        if (x === undefined) throw new InvalidInputError('INVALID_ARGUMENT', `stage ${s + 1} is weighted but type ${typeOf[pool[j]!]} has no weight`, 'give every admitted type a weight')
        w[j] = x
      }
      picks = weightedPick(stream, w, k)
    }
    const winners = picks.map((j) => pool[j]!)
    for (const i of winners) selected[i] = 1
    out.push({ eligible: e, target, winners })
  }
  return out
}
