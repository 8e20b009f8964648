/**
 * The work bound of a `panel` plan (docs/spec.md, Sortition, Work bound): a number computed from the
 * commitment alone (per-type counts, quotas, `k`, the exact features), before any counting, that
 * bounds the layers, states, transitions and bigint sizes of the exact counter and the work of the
 * draw's rejection rounds (each round charged its real work: the choice of counts, the picks, the test
 * of the quotas left to rejection, with a household rule the household test, and the walk over the
 * cells, dearer over a counter too large for the processor's caches). A plan over {@link SORTITION_LIMITS.maxCountCost} or
 * {@link SORTITION_LIMITS.maxDrawCost} is refused
 * (`SORTITION_COST_LIMIT`) by the commit and by every verifier, in time linear in the number of cells
 * times `k` (and never more than the limit's worth of evaluation).
 *
 * Every quantity is a whole number and every operation saturates at 2^40 (a result above it is replaced
 * by 2^40), so every implementation computes the same cost with exact integers; in JavaScript doubles
 * are exact for it (every sum below has at most 1,001 terms below 2^40, so stays below 2^53).
 *
 * @module
 */
import { binomialRow, makeCells, type Cell } from './count.js'
import { LimitExceededError } from '../errors.js'
import { PLAN_METHODS, type PlanMethod } from './gate.js'
import { SORTITION_LIMITS, type QuotaTable, type SortitionPool } from './pool.js'

/** Saturation point of the cost arithmetic: 2^40. */
export const COST_SATURATION = 2 ** 40

/**
 * Work units charged per member a round picks (docs/spec.md, Work bound): the stream bytes and the
 * index draw of one step of Pick k of n, measured at about 25 times the counter's cost per word
 * (bench/sortition-units.bench.ts). A protocol constant.
 */
export const PICK_UNITS = 25

/**
 * Work units charged per round for its fixed work (docs/spec.md, Work bound): its calls, the reset of
 * its tallies and the loop over its cells, measured at about 1 µs of CPU a round whatever its size. A
 * protocol constant.
 */
export const ROUND_UNITS = 512

/**
 * Work units charged per member for a round's household test (docs/spec.md, Work bound): one lookup
 * of the member's household and one mark. A protocol constant.
 */
export const HOUSEHOLD_UNITS = 2

/**
 * Work units charged per block a round's choice of counts may compute (docs/spec.md, Work bound), on
 * top of the count's words: one product `C(n_i, c) · W_{i+1}` and its comparison, whatever its size
 * (a call and an allocation). A protocol constant.
 */
export const BLOCK_UNITS = 16

/**
 * Work units charged per transition of the counter for its state key (docs/spec.md, Work bound), on top
 * of the key's counts: the lookup, the hash and the stored state's entry and integer header. A protocol
 * constant.
 */
export const KEY_UNITS = 16

/**
 * Work units charged per cell a round walks (docs/spec.md, Work bound): the lookups of its state at the
 * cell (its sampler, its transitions, its blocks), about 50 ns a cell in a counter the processor's
 * caches hold (bench/sortition-units.bench.ts, the forged grids of bench/hostile-fixture.ts). A protocol
 * constant.
 */
export const CELL_UNITS = 64

/**
 * Work units charged per cell a round walks on top of {@link CELL_UNITS} when the counter has more
 * than {@link CACHED_STATES} states (docs/spec.md, Work bound): the lookups then miss the processor's
 * caches, about 450 to 500 ns a cell measured over the largest counter the key cost admits. A protocol
 * constant.
 */
export const LOOKUP_UNITS = 512

/**
 * The counter size (the work bound's `states`, summed over the layers) above which a round's walk is
 * charged {@link LOOKUP_UNITS} more per cell (docs/spec.md, Work bound): a counter of at most 4,096
 * states stays in the processor's caches. A protocol constant.
 */
export const CACHED_STATES = 4096

const sat = (x: number): number => (x > COST_SATURATION ? COST_SATURATION : x)
/** Saturating product of two saturated values (exact: a true product above 2^53 is far above 2^40). */
const mul = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : sat(a * b))

/**
 * The work bound of a plan, with its parts (see the module doc and docs/spec.md).
 * @category Sortition
 */
export interface PlanCost {
  /** Bound on the counter's work: `Σ_i (w · X_i + (k + 1) · (1 + P_i))` over the cells. */
  readonly count: number
  /**
   * Bound on one rejection round's work: `512 + choose + picks + keep + household + walk` (`ROUND_UNITS` = 512; docs/spec.md, Work bound).
   */
  readonly round: number
  /** The round's choice of counts: `(w + 16) · blocks` (`BLOCK_UNITS` = 16). */
  readonly choose: number
  /** The most blocks a round's choice of counts computes: `Σ_i (m_i + 1)`. */
  readonly blocks: number
  /** The round's picks: `PICK_UNITS · k` (25 · k). */
  readonly picks: number
  /** The round's test of the quotas left to rejection: `k · F_r + V_r` (`F_r` features outside the exact ones, `V_r` their values). */
  readonly keep: number
  /** The round's household test: `HOUSEHOLD_UNITS · k` (2 · k) with a household rule, else 0. */
  readonly household: number
  /**
   * The round's walk over the cells: `cells · (CELL_UNITS + LOOKUP_UNITS)` (64 + 512 a cell) when `states`
   * exceeds `CACHED_STATES` (4,096), else `cells · CELL_UNITS` (64 a cell).
   */
  readonly walk: number
  /** Rounds charged: 1 when every feature is exact, else {@link SORTITION_LIMITS.maxRejectionRounds}. */
  readonly rounds: number
  /** Bound on the draw's work: `rounds × round` (saturated). */
  readonly draw: number
  /** Bound on the counter's states, summed over the layers `0 … T−1`. */
  readonly states: number
  /** Bound on the counter's transitions (`Σ_i X_i`). */
  readonly transitions: number
  /**
   * Bound on the counter's state keys, in time and memory: `Σ_i X_i · (16 + P_i + E)` (`KEY_UNITS` = 16):
   * each transition builds, looks up and may store one state of at most `1 + P_i + E` counts.
   */
  readonly keys: number
  /** Words of the largest count: `w = ceil(bitlen(C(N, k)) / 64)`. */
  readonly words: number
  /** Number of cells (layers with transitions). */
  readonly cells: number
  /** True when the evaluation stopped early because the cost already exceeded `limit` (every other part, `states` and `walk` among them, is then partial). */
  readonly stopped: boolean
}

/** `w = ceil(bitlen(C(N, k)) / 64)`, remembered for the last few (N, k) (the planner asks many times). */
function wordsOf(N: number, k: number): number {
  const key = N * 1024 + k
  let w = wordsCache.get(key)
  if (w === undefined) {
    w = Math.ceil(bitLength(binomialRow(N, k)[k]!) / 64)
    if (wordsCache.size >= 256) wordsCache.clear()
    wordsCache.set(key, w)
  }
  return w
}
const wordsCache = new Map<number, number>()

/** Bit length of a positive bigint. */
function bitLength(x: bigint): number {
  return x.toString(2).length
}

/**
 * Computes the work bound of counting `pool` exactly over `exact` (DP order) and drawing with
 * `rounds` rejection rounds at most. Stops as soon as the count bound exceeds `limit` (the result is
 * then marked `stopped`: its `count` is above `limit` but not the full figure).
 *
 * @param rounds - rejection rounds charged (1 for a plan that counts every feature and has no household rule).
 * @param limit - stop evaluating once the count bound exceeds it (default: never stop).
 * @param households - true when the plan has a household rule (its rounds' household test is charged).
 * @category Sortition
 */
export function planCost(pool: SortitionPool, table: QuotaTable, k: number, exact: readonly number[], rounds: number, limit: number = Infinity, households = false): PlanCost {
  const cells = makeCells(pool, exact)
  const T = cells.length
  const E = exact.length
  const N = pool.respondents.length
  const words = wordsOf(N, k)
  const v = valueSlots(pool, table, exact, cells)
  // Scratch of the per-feature bounds: G (k + 1 terms), its prefix sums (k + 2), each feature's row (k + 1).
  const g = new Float64Array(k + 1)
  const prefix = new Float64Array(k + 2)
  const rows = new Float64Array(Math.max(1, E) * (k + 1))
  const seen = new Int32Array(v.first.length) // respondents with the value in cells < i
  let before = 0 // respondents in cells < i
  let count = 0
  let blocks = 0
  let states = 0
  let transitions = 0
  let keys = 0
  let stopped = false
  const layer = new Float64Array(2)
  for (let i = 0; i < T && !stopped; i++) {
    const n = cells[i]!.members.length
    const key = cells[i]!.key
    // m_i: most members a state can take from cell i: its size, k, and every value's max.
    let mi = Math.min(n, k)
    for (let j = 0; j < E; j++) mi = Math.min(mi, v.max[v.offset[j]! + key[j]!]!)
    blocks += mi + 1
    const sLo = Math.max(0, k - (N - before))
    const sHi = Math.min(k, before)
    // Per feature: G_j(S) for S in [sLo, sHi], from the boxes of its open values.
    let open = 0
    for (let j = 0; j < E; j++) open += featureRow(v, seen, j, i, k, sLo, sHi, g, prefix, rows)
    layerBound(rows, E, k, sLo, sHi, mi, layer)
    const layerTrans = layer[1]!
    states = sat(states + layer[0]!)
    transitions = sat(transitions + layerTrans)
    keys = sat(keys + mul(layerTrans, KEY_UNITS + open + E))
    count = sat(count + mul(words, layerTrans) + mul(k + 1, 1 + open))
    if (count > limit) stopped = true
    before += n
    for (let j = 0; j < E; j++) seen[v.offset[j]! + key[j]!]! += n
  }
  // The keep test tallies each member on every feature outside E, then compares each of their values.
  let otherValues = 0
  for (let f = 0; f < pool.features.length; f++) if (!exact.includes(f)) otherValues += pool.features[f]!.values.length
  const choose = mul(words + BLOCK_UNITS, blocks)
  const picks = PICK_UNITS * k
  const keep = k * (pool.features.length - E) + otherValues
  const household = households ? HOUSEHOLD_UNITS * k : 0
  // Each cell a round walks is a few lookups; over a counter too large for the caches, a few memory misses.
  const walk = mul(CELL_UNITS + (states > CACHED_STATES ? LOOKUP_UNITS : 0), T)
  const round = sat(ROUND_UNITS + choose + picks + keep + household + walk)
  return { count, round, choose, blocks, picks, keep, household, walk, rounds, draw: mul(rounds, round), states, transitions, keys, words, cells: T, stopped }
}

/**
 * The exact features' values as flat slots (feature `j`'s value `x` at `offset[j] + x`): each one's
 * first and last cell (`T` and −1 when no cell has it), its respondents and its quota.
 */
interface ValueSlots {
  readonly offset: Int32Array
  readonly first: Int32Array
  readonly last: Int32Array
  readonly avail: Int32Array
  readonly min: Float64Array
  readonly max: Float64Array
}

/** {@link ValueSlots} of `cells` (the pool's cells over `exact`). */
function valueSlots(pool: SortitionPool, table: QuotaTable, exact: readonly number[], cells: readonly Cell[]): ValueSlots {
  const E = exact.length
  const offset = new Int32Array(E + 1)
  for (let j = 0; j < E; j++) offset[j + 1] = offset[j]! + pool.features[exact[j]!]!.values.length
  const V = offset[E]!
  const first = new Int32Array(V).fill(cells.length)
  const last = new Int32Array(V).fill(-1)
  const avail = new Int32Array(V)
  const min = new Float64Array(V)
  const max = new Float64Array(V)
  for (let j = 0; j < E; j++) {
    const lo = table.min[exact[j]!]!
    const hi = table.max[exact[j]!]!
    for (let x = 0; x < lo.length; x++) {
      min[offset[j]! + x] = lo[x]!
      max[offset[j]! + x] = hi[x]!
    }
  }
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i]!
    for (let j = 0; j < E; j++) {
      const x = offset[j]! + c.key[j]!
      if (first[x]! === cells.length) first[x] = i
      last[x] = i
      avail[x]! += c.members.length
    }
  }
  return { offset, first, last, avail, min, max }
}

/**
 * Feature `j`'s row of the layer before cell `i`: `rows[j·(k + 1) + S − sLo]` for `S` in `[sLo, sHi]`
 * is `G_j(S)`, the number of ways its open values' counts can add up with its closed values' bounds to
 * a panel size `S` (each box `[lo, hi]` of an open value convolved in turn, saturated). Returns its
 * number of open values.
 */
function featureRow(v: ValueSlots, seen: Int32Array, j: number, i: number, k: number, sLo: number, sHi: number, g: Float64Array, prefix: Float64Array, rows: Float64Array): number {
  const { first, last, avail, min, max } = v
  g.fill(0)
  g[0] = 1
  let top = 0 // g[t] = 0 for t > top
  let cMin = 0
  let cMax = 0
  let open = 0
  for (let x = v.offset[j]!; x < v.offset[j + 1]!; x++) {
    if (last[x]! < i) {
      cMin += min[x]!
      cMax += Math.min(max[x]!, avail[x]!)
    } else if (first[x]! < i) {
      open++
      const lo = Math.max(0, min[x]! - (avail[x]! - seen[x]!))
      const hi = Math.min(max[x]!, seen[x]!, k)
      if (lo > hi) {
        g.fill(0)
        top = 0
        continue
      }
      top = convolveBox(g, prefix, k, top, lo, hi)
    }
  }
  prefixSums(g, prefix, k)
  const at = j * (k + 1) - sLo
  for (let S = sLo; S <= sHi; S++) {
    const a = Math.max(0, S - cMax)
    const b = Math.min(k, S - cMin)
    rows[at + S] = b < a ? 0 : sat(prefix[b + 1]! - prefix[a]!)
  }
  return open
}

/** `prefix[t + 1] = g[0] + … + g[t]` for `t` = 0 … k (at most 1,001 saturated terms: exact). */
function prefixSums(g: Float64Array, prefix: Float64Array, k: number): void {
  prefix[0] = 0
  for (let t = 0; t <= k; t++) prefix[t + 1] = prefix[t]! + g[t]!
}

/** `g ← g ∗ 1[lo, hi]` (saturated), in place, where `g[t] = 0` for `t > top`; returns the new top. */
function convolveBox(g: Float64Array, prefix: Float64Array, k: number, top: number, lo: number, hi: number): number {
  prefixSums(g, prefix, k)
  const newTop = Math.min(k, top + hi)
  for (let t = 0; t <= newTop; t++) {
    // Σ_{x = lo}^{hi} g[t − x]: prefix sums of at most 1,001 saturated terms stay exact.
    const a = t - hi
    const b = t - lo
    g[t] = b < 0 ? 0 : sat(prefix[b + 1]! - prefix[Math.max(0, a)]!)
  }
  for (let t = newTop + 1; t <= k; t++) g[t] = 0
  return newTop
}

/**
 * One layer's bound from the features' rows: `out[0]` = the states (`Σ_S Π_j G_j(S)`), `out[1]` = the
 * transitions (each state of size `S` times `min(m_i, k − S) + 1`), saturated.
 */
function layerBound(rows: Float64Array, E: number, k: number, sLo: number, sHi: number, mi: number, out: Float64Array): void {
  let layerStates = 0
  let layerTrans = 0
  for (let S = sLo; S <= sHi; S++) {
    let s = 1
    for (let j = 0; j < E; j++) s = mul(s, rows[j * (k + 1) + S - sLo]!)
    if (s === 0) continue
    layerStates = sat(layerStates + s)
    layerTrans = sat(layerTrans + mul(s, Math.min(mi, k - S) + 1))
  }
  out[0] = layerStates
  out[1] = layerTrans
}

/**
 * Refuses a plan whose work bound ({@link planCost}) exceeds the protocol's limits, before any counting:
 * `SORTITION_COST_LIMIT` when the counter's bound exceeds {@link SORTITION_LIMITS.maxCountCost} or the
 * rejection rounds' bound exceeds {@link SORTITION_LIMITS.maxDrawCost}. Takes time linear in the cells
 * times `k` (stopping as soon as the count bound is exceeded). Rounds charged: 1 when `exact` holds
 * every feature, else the method's cap (method 3: the committed `maxRounds`).
 *
 * @throws {@link LimitExceededError} `SORTITION_COST_LIMIT`.
 * @category Sortition
 */
export function checkPlanCost(pool: SortitionPool, quotas: QuotaTable, k: number, exact: readonly number[], method: PlanMethod = 1, maxRounds?: number): void {
  const rounds = exact.length === pool.features.length ? 1 : method === 3 ? maxRounds ?? PLAN_METHODS[3].rounds : PLAN_METHODS[method].rounds
  const c = planCost(pool, quotas, k, exact, rounds, SORTITION_LIMITS.maxCountCost)
  const hint = 'count exactly over fewer features (the others are enforced by rejection), merge values, or use fewer features'
  if (c.count > SORTITION_LIMITS.maxCountCost) {
    throw new LimitExceededError('SORTITION_COST_LIMIT', `counting exactly over ${exact.length} feature(s) may take more than ${SORTITION_LIMITS.maxCountCost} work units (the plan's bound passes it${c.count >= 2 ** 40 ? '' : ` at ${c.count}`}; docs/spec.md, Work bound)`, hint)
  }
  if (c.keys > SORTITION_LIMITS.maxKeyCost) {
    throw new LimitExceededError('SORTITION_COST_LIMIT', `counting exactly over ${exact.length} feature(s) may build state keys worth ${c.keys >= 2 ** 40 ? 'more than 2^40' : c.keys} work units, more than ${SORTITION_LIMITS.maxKeyCost} (its states would take too much time and memory; docs/spec.md, Work bound)`, hint)
  }
  if (c.draw > SORTITION_LIMITS.maxDrawCost) {
    throw new LimitExceededError('SORTITION_COST_LIMIT', `the rejection rounds of this plan may take ${c.draw} work units, more than ${SORTITION_LIMITS.maxDrawCost} (${c.rounds} rounds of at most ${c.round}; docs/spec.md, Work bound)`, hint)
  }
}

/**
 * Work units charged per non-member the alternates' ranking ranks (docs/spec.md, Work bound, alternates
 * cost): one `uniform` draw, the sparse Fisher–Yates bookkeeping of Pick k of n over up to a million
 * non-members, and the ranked respondent read (about 1.4 to 3.4 µs a rank over a million respondents,
 * bench/alternates-units.ts). A protocol constant.
 */
export const ALT_RANK_UNITS = 3072

/**
 * Work units charged per panel member a ranked non-member is tested against (docs/spec.md, Work bound,
 * alternates cost), on top of {@link ALT_FEATURE_UNITS} per feature: the call and the reads of both
 * types. A protocol constant.
 */
export const ALT_MEMBER_UNITS = 8

/**
 * Work units charged per feature of each test of a ranked non-member against a member (docs/spec.md,
 * Work bound, alternates cost): the two values compared and, where they differ, both quota tests. A
 * protocol constant.
 */
export const ALT_FEATURE_UNITS = 8

/**
 * Work units charged per test of a ranked non-member against a member for the household rule
 * (docs/spec.md, Work bound, alternates cost): the non-member's household looked up and the members
 * in it compared. A protocol constant.
 */
export const ALT_HOUSEHOLD_UNITS = 32

/**
 * The work bound of a `panel` draw's alternates (docs/spec.md, Work bound, alternates cost): 0 when
 * `alternates` is 0, else `(N − k) · (ALT_RANK_UNITS + k · (ALT_MEMBER_UNITS + ALT_FEATURE_UNITS · F +
 * (households ? ALT_HOUSEHOLD_UNITS : 0)))`, every operation saturated at 2^40. In the worst case no
 * non-member can replace a member, so the ranking ranks all `N − k` of them whatever the number asked,
 * and tests each against every member on every feature and, with a household rule, the household.
 * Charged apart from the draw cost, against {@link SORTITION_LIMITS.maxAlternatesCost}.
 *
 * @param N - the pool size.
 * @param k - the panel size.
 * @param F - the number of features.
 * @param alternates - the alternates asked (only whether it is 0 matters).
 * @param households - true when the plan has a household rule.
 * @category Sortition
 */
export function alternatesCost(N: number, k: number, F: number, alternates: number, households = false): number {
  if (alternates === 0) return 0
  const member = ALT_MEMBER_UNITS + ALT_FEATURE_UNITS * F + (households ? ALT_HOUSEHOLD_UNITS : 0)
  return mul(Math.max(0, N - k), sat(ALT_RANK_UNITS + mul(k, member)))
}

/**
 * Refuses a `panel` draw whose alternates' ranking may exceed {@link SORTITION_LIMITS.maxAlternatesCost}
 * ({@link alternatesCost}), from the commitment alone and before any planning: the commit refuses it and
 * so does every verifier.
 *
 * @param N - the pool size.
 * @param k - the panel size.
 * @param F - the number of features.
 * @param alternates - the alternates asked.
 * @param households - true when the plan has a household rule.
 * @throws {@link LimitExceededError} `SORTITION_COST_LIMIT`.
 * @category Sortition
 */
export function checkAlternatesCost(N: number, k: number, F: number, alternates: number, households = false): void {
  const cost = alternatesCost(N, k, F, alternates, households)
  const limit = SORTITION_LIMITS.maxAlternatesCost
  if (cost <= limit) return
  throw new LimitExceededError(
    'SORTITION_COST_LIMIT',
    `the ranking of ${alternates} alternate(s) may take ${cost >= COST_SATURATION ? 'more than 2^40' : cost} work units, more than 2^32 = ${limit} (whatever the number asked, it may rank all ${N - k} respondents left after the panel and test each against the ${k} members on ${F} feature(s)${households ? ' and the household rule' : ''}; docs/spec.md, Work bound)`,
    'ask for no alternates, or use a smaller pool or panel (or fewer features): fewer alternates do not help, since the ranking may have to rank every respondent left after the panel',
  )
}
