/**
 * Per-type selection probabilities of a `panel` plan that leaves features to rejection, where no exact
 * figure is computed: a reproducible **estimate** from panels drawn on a stream derived from the
 * commitment alone (never the beacon), with a 95 % confidence interval (docs/spec.md, Sortition,
 * Estimated selection probabilities). Anyone with the commitment recomputes the same numbers.
 *
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { InvalidInputError } from '../errors.js'
import { streamFromSeed } from '../random/stream.js'
import { drawHouseholdPanel } from './household.js'
import { householdGroupsOf } from './household-probabilities.js'
import { drawPanel, type PanelPlan } from './panel.js'

/**
 * The estimated selection probability of one respondent type, with its 95 % confidence interval.
 * @category Sortition
 */
export interface TypeProbabilityEstimate {
  /** The type: value index per feature (canonical order). */
  readonly type: readonly number[]
  /**
   * With a household rule: the size of the household of this row's respondents (1 = alone); each row
   * is then a group (type × household size). Absent without households.
   */
  readonly household?: number
  /** Respondents of this type (of this group, with households). */
  readonly respondents: number
  /** The estimate: members of the type over all sample panels, divided by panels × respondents. */
  readonly estimate: number
  /** Lower end of the 95 % interval (normal approximation over the sample panels), at least 0. */
  readonly low: number
  /** Upper end of the 95 % interval, at most 1. */
  readonly high: number
}

/**
 * An estimate of every type's selection probability, labelled as such.
 * @category Sortition
 */
export interface SelectionEstimate {
  /** Always `"estimate"`: these figures are not exact. */
  readonly kind: 'estimate'
  /** Sample panels drawn. */
  readonly panels: number
  /** Rejection rounds those panels took in all. */
  readonly rounds: number
  /** One row per type present (with households: per type × household size), in canonical order (type, then household size). */
  readonly types: readonly TypeProbabilityEstimate[]
}

/**
 * Options of {@link estimateSelectionProbabilities}.
 * @category Sortition
 */
export interface EstimateOptions {
  /**
   * The committed household rule as a household index (`householdIndex(groups, n)`): each sample panel
   * is then drawn as a `panel` draw with that rule (rounds kept only with at most one member per
   * household). The rows are then per group, a type and a household size (1 = alone), each the
   * average over the group's respondents (respondents of one type no longer share one chance).
   */
  readonly households?: Int32Array
}

/** Most sample panels of one estimate. */
export const MAX_ESTIMATE_PANELS = 100_000

/**
 * The seed of the estimate's stream: SHA-256(UTF-8 "orbitdraw sortition probabilities v1" ‖ UTF-8(cid)),
 * `cid` the commitment's CID text: a function of the commitment alone.
 * @category Sortition
 */
export function estimateSeed(cid: string): Uint8Array {
  return sha256(new TextEncoder().encode(`orbitdraw sortition probabilities v1${cid}`))
}

/**
 * Estimates every type's selection probability by drawing `panels` panels of the plan, one after the
 * other on the stream of `seed` (each exactly as a draw: rejection rounds until every quota holds).
 * For type `t` with `n_t` respondents and `m_{t,i}` members in panel `i`: `estimate = Σ_i m_{t,i} /
 * (panels · n_t)`; the interval is `estimate ± 1.96 · sqrt(s² / panels)`, `s²` the sample variance of
 * `m_{t,i} / n_t`, clipped to [0, 1]. With a household rule ({@link EstimateOptions.households}) the
 * panels are drawn with that rule and the rows are per group (type × household size), each figure the
 * group's average, by the same formula: respondents of one type then differ (one who shares a
 * household has less chance than one who lives alone).
 *
 * @param seed - 32 bytes: {@link estimateSeed} of the commitment's CID for the published figures.
 * @throws {@link InvalidInputError} `INVALID_ARGUMENT` for `panels` outside 2 … 100,000.
 * @example
 * ```ts
 * const est = estimateSelectionProbabilities(plan, estimateSeed(cid), 1000)
 * for (const t of est.types) console.log(t.type, t.estimate, t.low, t.high)
 * ```
 * @category Sortition
 */
export function estimateSelectionProbabilities(plan: PanelPlan, seed: Uint8Array, panels: number, options: EstimateOptions = {}): SelectionEstimate {
  checkPanels(panels)
  const run = startEstimate(plan, seed, options)
  run.advance(panels)
  return run.result()
}

function checkPanels(panels: number): void {
  if (!Number.isSafeInteger(panels) || panels < 2 || panels > MAX_ESTIMATE_PANELS) {
    throw new InvalidInputError('INVALID_ARGUMENT', `panels must be a whole number from 2 to ${MAX_ESTIMATE_PANELS}, got ${String(panels)}`, 'draw at least 2 sample panels')
  }
}

/**
 * An estimate drawn a few panels at a time ({@link startEstimate}): after `n` panels (n ≥ 2) its
 * {@link EstimateRun.result} is exactly {@link estimateSelectionProbabilities} with `n` panels (the same
 * stream, the same panels, the same arithmetic in the same order), so partial figures shown while it
 * runs are the published figures for that panel count, with their (wider) intervals.
 * @category Sortition
 */
export interface EstimateRun {
  /** Sample panels drawn so far. */
  readonly drawn: number
  /** Rejection rounds they took. */
  readonly rounds: number
  /** Draws `count` more sample panels (at most {@link MAX_ESTIMATE_PANELS} in all). */
  advance(count: number): void
  /**
   * The estimate from the panels drawn so far.
   * @throws {@link InvalidInputError} `INVALID_ARGUMENT` before 2 panels.
   */
  result(): SelectionEstimate
}

/**
 * Starts an estimate on the stream of `seed` without drawing any panel: {@link EstimateRun.advance}
 * draws them, {@link EstimateRun.result} gives the figures so far (a page shows partial figures while
 * it runs, and may stop early; docs/spec.md, Estimated selection probabilities).
 * @category Sortition
 */
export function startEstimate(plan: PanelPlan, seed: Uint8Array, options: EstimateOptions = {}): EstimateRun {
  const { pool } = plan
  // Rows in canonical order (type; with households, then household size), and each respondent's row.
  const grouped = options.households === undefined ? undefined : householdGroupsOf(pool, options.households)
  const index = new Map<string, number>()
  const types: { type: readonly number[]; n: number; household?: number }[] = grouped === undefined ? [] : grouped.groups.map((g) => ({ type: g.type, n: g.respondents, household: g.household }))
  const typeOf =
    grouped === undefined
      ? pool.respondents.map((r) => {
          const key = r.type.join(',')
          let t = index.get(key)
          if (t === undefined) {
            t = types.length
            index.set(key, t)
            types.push({ type: r.type, n: 0 })
          }
          types[t]!.n++
          return t
        })
      : Array.from(grouped.of)
  const order = types.map((_, i) => i).sort((a, b) => {
    const x = types[a]!.type
    const y = types[b]!.type
    for (let j = 0; j < x.length; j++) if (x[j] !== y[j]) return x[j]! - y[j]!
    return (types[a]!.household ?? 0) - (types[b]!.household ?? 0)
  })
  const sum = new Float64Array(types.length)
  const sumSq = new Float64Array(types.length)
  const inPanel = new Float64Array(types.length)
  const stream = streamFromSeed(seed)
  let rounds = 0
  let drawn = 0
  return {
    get drawn() {
      return drawn
    },
    get rounds() {
      return rounds
    },
    advance(count: number): void {
      if (!Number.isSafeInteger(count) || count < 0 || drawn + count > MAX_ESTIMATE_PANELS) throw new InvalidInputError('INVALID_ARGUMENT', `at most ${MAX_ESTIMATE_PANELS} sample panels in all (${drawn} drawn, ${String(count)} more asked)`, 'draw fewer sample panels')
      for (let i = 0; i < count; i++) {
        const d = options.households === undefined ? drawPanel(plan, stream) : drawHouseholdPanel(plan, options.households, stream)
        rounds += d.rounds
        drawn++
        inPanel.fill(0)
        for (const m of d.members) inPanel[typeOf[m]!]!++
        for (let t = 0; t < types.length; t++) {
          const x = inPanel[t]! / types[t]!.n
          sum[t]! += x
          sumSq[t]! += x * x
        }
      }
    },
    result(): SelectionEstimate {
      const panels = drawn
      checkPanels(panels)
      return {
        kind: 'estimate',
        panels,
        rounds,
        types: order.map((t) => {
          const mean = sum[t]! / panels
          const variance = Math.max(0, (sumSq[t]! - panels * mean * mean) / (panels - 1))
          const half = 1.96 * Math.sqrt(variance / panels)
          const h = types[t]!.household
          return { type: types[t]!.type, ...(h === undefined ? {} : { household: h }), respondents: types[t]!.n, estimate: mean, low: Math.max(0, mean - half), high: Math.min(1, mean + half) }
        }),
      }
    },
  }
}
