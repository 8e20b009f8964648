/**
 * Sortition pools and quotas: the respondent pool (an id and one value per feature), the quota table
 * (min and max per feature value), their canonical order, and the feasibility checks that need no
 * counting. Pure: the CSV readers live in the edge (`src/sortition/csv.ts`).
 *
 * Canonical order (docs/spec.md, Sortition): features sorted by name, the values of each feature sorted,
 * respondents sorted by id, all by Unicode code point (the order of the UTF-8 bytes). A respondent's
 * **type** is the tuple of its value indices, one per feature in canonical order.
 *
 * @module
 */
import type { InfeasibleQuotasErrorCode } from '../error-codes.js'
import { InvalidInputError, LimitExceededError } from '../errors.js'
import { validateEntry, validateEntryAt } from '../participants.js'

/**
 * One feature (for example `age`) and its values in canonical order.
 * @category Sortition
 */
export interface SortitionFeature {
  /** Feature name (a column of the pool). */
  readonly name: string
  /** Its values, sorted by code point. */
  readonly values: readonly string[]
}

/**
 * One respondent: its id and its type (the index of its value for every feature, canonical order).
 * @category Sortition
 */
export interface Respondent {
  /** The respondent's id (unique in the pool). */
  readonly id: string
  /** Value index per feature, in the order of {@link SortitionPool.features}. */
  readonly type: readonly number[]
}

/**
 * A pool of respondents in canonical order. Build one with {@link makePool}.
 * @category Sortition
 */
export interface SortitionPool {
  /** The features, sorted by name. */
  readonly features: readonly SortitionFeature[]
  /** The respondents, sorted by id. */
  readonly respondents: readonly Respondent[]
}

/**
 * One quota row as written by the organizer: `feature,value,min,max`.
 * @category Sortition
 */
export interface QuotaRow {
  /** Feature name. */
  readonly feature: string
  /** Value of that feature. */
  readonly value: string
  /** Fewest panel members with this value. */
  readonly min: number
  /** Most panel members with this value. */
  readonly max: number
}

/**
 * The quota table aligned with a pool: `min[f][v]` and `max[f][v]` for feature `f`, value `v`.
 * @category Sortition
 */
export interface QuotaTable {
  /** Minimum per feature and value (canonical indices). */
  readonly min: readonly (readonly number[])[]
  /** Maximum per feature and value (canonical indices). */
  readonly max: readonly (readonly number[])[]
}

/**
 * Protocol limits of the sortition kinds (docs/spec.md, Sortition, Limits). Part of the protocol.
 * @category Sortition
 */
export const SORTITION_LIMITS = {
  /** Most respondents in a pool. */
  maxPoolSize: 1_000_000,
  /** Most features. */
  maxFeatures: 16,
  /** Most values per feature. */
  maxValuesPerFeature: 64,
  /** Largest panel. */
  maxPanelSize: 1000,
  /**
   * Most work units of the exact counter, bounded before any counting from the commitment alone
   * (`planCost(...).count`, docs/spec.md, Sortition, Work bound): transitions times the words of the
   * largest count, plus the evaluation of every layer. 2^26 before issue 22 (k = 200 at ±3 counts
   * `origin` + `gender` at 2^26.3). Over it: `SORTITION_COST_LIMIT`.
   */
  maxCountCost: 2 ** 27,
  /**
   * Most work units of a draw's rejection rounds (`planCost(...).round` times the rounds charged:
   * 1 for a plan that counts every feature and has no household rule, else the plan method's round
   * cap). A round is charged its real work (its blocks, picks, keep test, household test and, over a
   * counter of more than 4,096 states, its lookups at each cell), about 1 ns of CPU a unit measured on
   * small and large counters alike, so a forged plan within it costs a verifier about 20 s of CPU
   * (docs/spec.md, Work bound). 2^31 before issue 22. Over it: `SORTITION_COST_LIMIT`.
   */
  maxDrawCost: 2 ** 34,
  /**
   * Most work units of the counter's state keys (`planCost(...).keys`: each transition charged 16 plus
   * the counts of the state it builds), which bounds the count's time and memory where the count cost
   * (words per transition) does not: a forged grid of one-respondent types keeps every value of two
   * 64-value features open (docs/security.md). Over it: `SORTITION_COST_LIMIT`.
   */
  maxKeyCost: 2 ** 27,
  /**
   * Most work units of the ranking of a draw's alternates (`alternatesCost(N, k, F, alternates,
   * households)`, docs/spec.md, Work bound), charged apart from the draw cost: with any alternates asked
   * the ranking may rank every one of the `N − k` non-members and test each against every member on
   * every feature, about 1 ns of CPU a unit measured (bench/alternates-units.ts), so within it a forged
   * plan's alternates cost a verifier about 4 s of CPU. Over it: `SORTITION_COST_LIMIT`.
   */
  maxAlternatesCost: 2 ** 32,
  /**
   * Count-cost budget of each trial count when the commit chooses the exact features greedily (a
   * commit-time heuristic, not part of replay: the chosen features are committed).
   */
  planTrialCost: 2 ** 27,
  /** Most rejection rounds of one `panel` draw (each round: one relaxed panel, kept if it meets every quota). */
  maxRejectionRounds: 100_000,
  /** Relaxed panels drawn at commit time to estimate the acceptance rate. */
  acceptanceTrials: 2000,
  /**
   * Fewest accepted panels among {@link SORTITION_LIMITS.acceptanceTrials} for the plan to be admitted.
   * Chosen for a stated failure bound: whatever a plan's acceptance rate `p`, the chance that 2,000
   * independent trials admit it and a draw then exhausts {@link SORTITION_LIMITS.maxRejectionRounds}
   * rounds, `max_p P(Bin(2000, p) ≥ 7) · (1 − p)^100000`, is below 2^-42 (docs/spec.md, Commit-time gate).
   */
  minAcceptedTrials: 7,
  /**
   * Plan method 2 (docs/spec.md, Plan methods): most rejection rounds of one draw. Method 2 is named in
   * the commitment (`"plan": 2`); method 1 (no `plan` key) keeps the three settings above.
   */
  maxRejectionRoundsV2: 400_000,
  /** Plan method 2: most relaxed panels drawn by the sequential gate (it stops once enough are kept). */
  acceptanceTrialsV2: 40_000,
  /**
   * Plan method 2: accepted panels the gate needs among at most {@link SORTITION_LIMITS.acceptanceTrialsV2}.
   * Failure bound `max_p P(Bin(40000, p) ≥ 12) · (1 − p)^400000 < 2^-44` (docs/spec.md, Plan methods).
   */
  minAcceptedTrialsV2: 12,
  /**
   * Plan method 3 (docs/spec.md, Plan methods): kept trials its sequential gate needs (on method 2's
   * gate stream). The plan then commits its own round cap, {@link SORTITION_LIMITS.roundsPerTrialV3}
   * times the trials the gate drew: failure bound `17^-10 < 2^-40.8` whatever the acceptance rate.
   */
  minAcceptedTrialsV3: 10,
  /** Plan method 3: the committed round cap is this many times the gate's trials. */
  roundsPerTrialV3: 16,
  /** Plan method 3: most trials of its gate (the draw cost bounds them further). */
  acceptanceTrialsV3: 250_000,
  /** Plan method 3: the largest committed round cap (`maxRounds`), 16 × 250,000. */
  maxRejectionRoundsV3: 4_000_000,
} as const

/**
 * Compares two strings by Unicode code point (= UTF-8 byte order), unlike `<` which compares UTF-16
 * code units. Returns a negative number, 0 or a positive number.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    // A surrogate (0xD800-0xDFFF) encodes a code point above 0xFFFF: it sorts after every BMP unit
    // from 0xE000 up, which UTF-16 order gets wrong.
    const sx = x >= 0xd800 && x <= 0xdfff
    const sy = y >= 0xd800 && y <= 0xdfff
    if (sx !== sy) return sx ? (y >= 0xe000 ? 1 : x - y) : x >= 0xe000 ? -1 : x - y
    return x - y
  }
  return a.length - b.length
}

/** A UTF-16 surrogate: the only units whose order differs from their code points' order. */
const SURROGATE = /[\uD800-\uDFFF]/

const POOL_HINT = 'fix the pool file: one row per respondent, a unique id and one value per feature'

/**
 * Builds a pool in canonical order from an id per respondent and its values.
 *
 * @param featureNames - the feature names (the pool's columns other than the id), any order.
 * @param rows - one row per respondent: `id` and `values[i]` for `featureNames[i]`.
 * @returns the pool, features and values sorted by code point, respondents sorted by id.
 * @throws {@link InvalidInputError} `SORTITION_POOL_INVALID` on an empty pool, a duplicate id or feature,
 *   a row of the wrong width, or an id, feature name or value that breaks the entry rules (docs/spec.md,
 *   Participants); {@link LimitExceededError} `LIMIT_EXCEEDED` beyond {@link SORTITION_LIMITS}.
 * @example
 * ```ts
 * const pool = makePool(['gender', 'age'], [
 *   { id: 'r1', values: ['f', '16-29'] },
 *   { id: 'r2', values: ['m', '30-59'] },
 * ])
 * pool.features[0].name // 'age'
 * ```
 * @category Sortition
 */
export function makePool(featureNames: readonly string[], rows: readonly { id: string; values: readonly string[] }[]): SortitionPool {
  if (featureNames.length === 0) throw new InvalidInputError('SORTITION_POOL_INVALID', 'the pool has no feature column', POOL_HINT)
  if (featureNames.length > SORTITION_LIMITS.maxFeatures) {
    throw new LimitExceededError('LIMIT_EXCEEDED', `the pool has ${featureNames.length} features, over the limit maxFeatures = ${SORTITION_LIMITS.maxFeatures}`, 'use fewer features')
  }
  if (rows.length === 0) throw new InvalidInputError('SORTITION_POOL_INVALID', 'the pool has no respondent', POOL_HINT)
  if (rows.length > SORTITION_LIMITS.maxPoolSize) {
    throw new LimitExceededError('LIMIT_EXCEEDED', `the pool has ${rows.length} respondents, over the limit maxPoolSize = ${SORTITION_LIMITS.maxPoolSize}`, 'use a smaller pool')
  }
  featureNames.forEach((f, i) => validateEntry(f, `$.features[${i}]`))
  const order = featureNames.map((_, i) => i).sort((a, b) => compareCodePoints(featureNames[a]!, featureNames[b]!))
  for (let i = 1; i < order.length; i++) {
    if (featureNames[order[i]!] === featureNames[order[i - 1]!]) {
      throw new InvalidInputError('SORTITION_POOL_INVALID', `feature ${JSON.stringify(featureNames[order[i]!])} appears twice`, POOL_HINT)
    }
  }
  const valueSets = featureNames.map(() => new Set<string>())
  const seen = new Map<string, number>()
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!
    validateEntryAt(r.id, () => `$.respondents[${i}].id`)
    // A repeated id, named where it repeats (a CSV reader turns the path into the row).
    const first = seen.get(r.id)
    if (first !== undefined) {
      throw new InvalidInputError('SORTITION_POOL_INVALID', `respondent id ${JSON.stringify(r.id)} appears twice: $.respondents[${first}] and $.respondents[${i}]`, 'give every respondent a unique id', { path: `$.respondents[${i}].id` })
    }
    seen.set(r.id, i)
    if (r.values.length !== featureNames.length) {
      throw new InvalidInputError('SORTITION_POOL_INVALID', `respondent ${i} has ${r.values.length} values for ${featureNames.length} features`, POOL_HINT, { path: `$.respondents[${i}]` })
    }
    for (let f = 0; f < r.values.length; f++) {
      const v = r.values[f]!
      const set = valueSets[f]!
      if (set.has(v)) continue
      validateEntry(v, `$.respondents[${i}].values[${f}]`)
      set.add(v)
    }
  }
  const features = order.map((f) => {
    const values = [...valueSets[f]!].sort(compareCodePoints)
    if (values.length > SORTITION_LIMITS.maxValuesPerFeature) {
      throw new LimitExceededError('LIMIT_EXCEEDED', `feature ${JSON.stringify(featureNames[f])} has ${values.length} values, over the limit maxValuesPerFeature = ${SORTITION_LIMITS.maxValuesPerFeature}`, 'merge values into fewer categories')
    }
    return { name: featureNames[f]!, values }
  })
  const index = features.map((f) => new Map(f.values.map((v, i) => [v, i])))
  const respondents = rows.map((r) => ({ id: r.id, type: order.map((f, j) => index[j]!.get(r.values[f]!)!) }))
  // Without surrogates, UTF-16 order is code point order: the engine's own string comparison then sorts
  // a million ids in about a fifth of the time (measured: 1.5 s of compareCodePoints calls at 1,000,000).
  respondents.sort(respondents.some((r) => SURROGATE.test(r.id)) ? (a, b) => compareCodePoints(a.id, b.id) : (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  for (let i = 1; i < respondents.length; i++) {
    if (respondents[i]!.id === respondents[i - 1]!.id) {
      throw new InvalidInputError('SORTITION_POOL_INVALID', `respondent id ${JSON.stringify(respondents[i]!.id)} appears twice`, 'give every respondent a unique id')
    }
  }
  return { features, respondents }
}

/**
 * An infeasible quota set: names the broken constraint and the smallest relaxation that would fix it.
 * `code` ({@link InfeasibleQuotasErrorCode}) is one of `QUOTA_MISSING_FOR_VALUE`, `QUOTA_VALUE_NOT_IN_POOL`, `QUOTA_FEATURE_NOT_IN_POOL`,
 * `QUOTA_MIN_ABOVE_MAX`, `QUOTA_MINS_EXCEED_PANEL`, `QUOTA_MAXES_BELOW_PANEL`,
 * `QUOTA_MIN_EXCEEDS_RESPONDENTS`, `PANEL_LARGER_THAN_POOL`, `NO_VALID_PANEL`.
 * @category Errors
 */
export class InfeasibleQuotasError extends InvalidInputError {
  static {
    Object.defineProperty(this, 'name', { value: 'InfeasibleQuotasError' })
  }

  declare readonly code: InfeasibleQuotasErrorCode
  /** The smallest relaxation that makes the quota set feasible, in words (also the error's hint). */
  readonly relaxation: string
  constructor(code: InfeasibleQuotasErrorCode, detail: string, relaxation: string) {
    super(code, detail, relaxation)
    this.relaxation = relaxation
  }
}

const q = (s: string): string => JSON.stringify(s)

/** Checks a panel size: a safe integer from 1 to {@link SORTITION_LIMITS.maxPanelSize}. */
export function checkPanelSize(k: number): void {
  if (!Number.isSafeInteger(k) || k < 1) {
    throw new InvalidInputError('INVALID_ARGUMENT', `the panel size must be a whole number >= 1, got ${String(k)}`, 'pass the number of panel members')
  }
  if (k > SORTITION_LIMITS.maxPanelSize) {
    throw new LimitExceededError('LIMIT_EXCEEDED', `the panel size is ${k}, over the limit maxPanelSize = ${SORTITION_LIMITS.maxPanelSize}`, 'draw a smaller panel')
  }
}

/**
 * Aligns quota rows with a pool and runs every feasibility check that needs no counting, in this
 * order: row syntax (`QUOTA_INVALID`, duplicates), a quota row for every pool value
 * (`QUOTA_MISSING_FOR_VALUE`), a pool value for every quota row (`QUOTA_FEATURE_NOT_IN_POOL`,
 * `QUOTA_VALUE_NOT_IN_POOL`), `min <= max` (`QUOTA_MIN_ABOVE_MAX`), the panel fits in the pool
 * (`PANEL_LARGER_THAN_POOL`), per feature the mins sum to at most k (`QUOTA_MINS_EXCEED_PANEL`) and the
 * maxes to at least k (`QUOTA_MAXES_BELOW_PANEL`), and enough respondents for every min
 * (`QUOTA_MIN_EXCEEDS_RESPONDENTS`). Whether a valid panel exists at all is decided by the counter
 * (`NO_VALID_PANEL`, see `planPanel`).
 *
 * @param pool - the pool from {@link makePool}.
 * @param rows - the quota rows, any order.
 * @param k - the panel size.
 * @returns the quota table indexed like the pool.
 * @throws {@link InfeasibleQuotasError} naming the constraint and the smallest relaxation;
 *   {@link InvalidInputError} `QUOTA_INVALID` on a malformed row.
 * @example
 * ```ts
 * const table = checkQuotas(pool, [
 *   { feature: 'gender', value: 'f', min: 1, max: 1 },
 *   { feature: 'gender', value: 'm', min: 1, max: 1 },
 *   { feature: 'age', value: '16-29', min: 0, max: 2 },
 *   { feature: 'age', value: '30-59', min: 0, max: 2 },
 * ], 2)
 * ```
 * @category Sortition
 */
export function checkQuotas(pool: SortitionPool, rows: readonly QuotaRow[], k: number): QuotaTable {
  checkPanelSize(k)
  const F = pool.features
  const min = F.map((f) => new Array<number>(f.values.length).fill(-1))
  const max = F.map((f) => new Array<number>(f.values.length).fill(-1))
  const fIndex = new Map(F.map((f, i) => [f.name, i]))
  rows.forEach((r, i) => {
    const path = `$.quotas[${i}]`
    for (const [name, v] of [['min', r.min], ['max', r.max]] as const) {
      if (!Number.isSafeInteger(v) || v < 0) throw new InvalidInputError('QUOTA_INVALID', `quota ${q(r.feature)}=${q(r.value)}: ${name} must be a whole number >= 0, got ${String(v)}`, 'write min and max as whole numbers', { path })
    }
    const f = fIndex.get(r.feature)
    if (f === undefined) {
      throw new InfeasibleQuotasError('QUOTA_FEATURE_NOT_IN_POOL', `the quotas name feature ${q(r.feature)}, which is not a column of the pool`, `remove the quota rows of ${q(r.feature)} or add the column to the pool`)
    }
    const v = F[f]!.values.indexOf(r.value)
    if (v < 0) {
      const relax = r.min === 0 ? `remove the quota row ${q(r.feature)}=${q(r.value)} (its min is 0, so nothing else changes)` : `remove the quota row ${q(r.feature)}=${q(r.value)}: no respondent has this value, so its min ${r.min} can never be met`
      throw new InfeasibleQuotasError('QUOTA_VALUE_NOT_IN_POOL', `quota row ${q(r.feature)}=${q(r.value)} names a value no respondent has`, relax)
    }
    if (min[f]![v]! >= 0) throw new InvalidInputError('QUOTA_INVALID', `quota ${q(r.feature)}=${q(r.value)} appears twice`, 'keep one row per feature value', { path })
    min[f]![v] = r.min
    max[f]![v] = r.max
  })
  F.forEach((f, i) =>
    f.values.forEach((v, j) => {
      if (min[i]![j]! < 0) {
        throw new InfeasibleQuotasError('QUOTA_MISSING_FOR_VALUE', `respondents have ${q(f.name)}=${q(v)} but the quotas have no row for it`, `add the row ${f.name},${v},0,${k} (no constraint) or the row you intend`)
      }
    }),
  )
  F.forEach((f, i) =>
    f.values.forEach((v, j) => {
      if (min[i]![j]! > max[i]![j]!) {
        throw new InfeasibleQuotasError('QUOTA_MIN_ABOVE_MAX', `quota ${q(f.name)}=${q(v)} has min ${min[i]![j]} above max ${max[i]![j]}`, `raise its max to ${min[i]![j]} or lower its min to ${max[i]![j]}`)
      }
    }),
  )
  const n = pool.respondents.length
  if (k > n) throw new InfeasibleQuotasError('PANEL_LARGER_THAN_POOL', `the panel size ${k} is larger than the pool (${n} respondents)`, `draw a panel of at most ${n}`)
  const avail = F.map((f) => new Array<number>(f.values.length).fill(0))
  for (const r of pool.respondents) r.type.forEach((v, f) => avail[f]![v]!++)
  F.forEach((f, i) => {
    const sMin = min[i]!.reduce((a, b) => a + b, 0)
    if (sMin > k) {
      throw new InfeasibleQuotasError('QUOTA_MINS_EXCEED_PANEL', `the mins of ${q(f.name)} sum to ${sMin}, more than the panel size ${k}`, `lower the mins of ${q(f.name)} by ${sMin - k} in total, or draw a panel of ${sMin}`)
    }
    // Effective maxes: a value cannot give more members than it has respondents.
    const sMax = max[i]!.reduce((a, b, j) => a + Math.min(b, avail[i]![j]!), 0)
    if (sMax < k) {
      const raw = max[i]!.reduce((a, b) => a + b, 0)
      const why = raw < k ? `the maxes of ${q(f.name)} sum to ${raw}` : `the maxes of ${q(f.name)}, capped by the respondents available, sum to ${sMax}`
      throw new InfeasibleQuotasError('QUOTA_MAXES_BELOW_PANEL', `${why}, less than the panel size ${k}`, `raise the maxes of ${q(f.name)} by ${k - sMax} in total (on values with respondents to spare), or draw a panel of ${sMax}`)
    }
  })
  F.forEach((f, i) =>
    f.values.forEach((v, j) => {
      if (min[i]![j]! > avail[i]![j]!) {
        throw new InfeasibleQuotasError('QUOTA_MIN_EXCEEDS_RESPONDENTS', `quota ${q(f.name)}=${q(v)} needs at least ${min[i]![j]} members but only ${avail[i]![j]} respondents have it`, `lower its min to ${avail[i]![j]} or recruit ${min[i]![j]! - avail[i]![j]!} more respondents with ${q(f.name)}=${q(v)}`)
      }
    }),
  )
  return { min, max }
}
