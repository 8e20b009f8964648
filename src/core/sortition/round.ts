/**
 * One `panel` draw: rounds of a relaxed panel (uniform over the panels meeting the quotas of the exact
 * features) kept when they meet every other quota (docs/spec.md, The `panel` draw).
 *
 * A plan fixes the *exact features* E whose quotas the counter ({@link buildCounter}) enforces. One
 * draw is a sequence of rounds; each round draws a panel uniformly among the size-k panels that meet the
 * quotas of E (the relaxed set), then keeps it if it also meets the quotas of the other features, else
 * starts a new round on the same stream. Every relaxed panel is equally likely in every round, so the
 * kept panel is uniform among the panels meeting every quota. When E holds every feature the first
 * round is always kept.
 *
 * @module
 */
import { LimitExceededError } from '../errors.js'
import type { RandomStream } from '../random/stream.js'
import { bigSampler, drawBig, drawIndex, uniformBigInt, type BigSampler } from '../random/uniform.js'
import { ChaChaStream } from '../random/stream.js'
import type { Counter } from './count.js'
import { PLAN_METHODS, type PlanMethod } from './gate.js'
import { InfeasibleQuotasError, type QuotaTable, type SortitionPool } from './pool.js'

/**
 * A committed plan for `panel` draws: the pool, quotas, panel size and the exact features.
 * @category Sortition
 */
export interface PanelPlan {
  /** The pool. */
  readonly pool: SortitionPool
  /** The quota table (aligned with the pool). */
  readonly quotas: QuotaTable
  /** The panel size. */
  readonly k: number
  /** The exact counter (its `exact` lists the exact features in DP order). */
  readonly counter: Counter
  /** True when every feature is counted exactly (no rejection; `counter.count` is the number of valid panels). */
  readonly exact: boolean
  /** The plan method (docs/spec.md, Plan methods): its gate and round cap. Absent: method 1. */
  readonly method?: PlanMethod
  /** Method 3: the committed round cap (16 times the trials its gate drew). */
  readonly maxRounds?: number
  /** The commit-time gate's trials drawn and kept, when it ran (commit side; not part of a commitment). */
  readonly gate?: { readonly trials: number; readonly kept: number }
}

/**
 * Outcome of a `panel` draw.
 * @category Sortition
 */
export interface PanelDraw {
  /** The panel: canonical pool indices, ascending. */
  readonly members: number[]
  /** Rounds used (1 = the first relaxed panel was kept). */
  readonly rounds: number
  /** Members taken from each cell in the kept round (DP order), for vectors and audits. */
  readonly cellCounts: number[]
}

const TWO256 = 1n << 256n

/** Exact uniform integer in [0, n) for any bigint n >= 1: the spec's rejection rule at every size. */
export function uniformBelow(stream: RandomStream, n: bigint): bigint {
  return n <= TWO256 ? uniformBigInt(stream, n) : drawBig(stream, bigSampler(n))
}

/**
 * True when `members` (pool indices) meet every quota of `table` on the given features.
 * @category Sortition
 */
export function meetsQuotas(pool: SortitionPool, table: QuotaTable, members: readonly number[], features: readonly number[]): boolean {
  for (const f of features) {
    const cnt = new Array<number>(pool.features[f]!.values.length).fill(0)
    for (const m of members) cnt[pool.respondents[m]!.type[f]!]!++
    for (let v = 0; v < cnt.length; v++) if (cnt[v]! < table.min[f]![v]! || cnt[v]! > table.max[f]![v]!) return false
  }
  return true
}

/**
 * One round: a panel uniform among the relaxed set of the counter. For each cell `i` in order, draws
 * `x` uniform in `[0, W_i(s))` and takes the first count `c` (ascending) whose block
 * `C(n_i, c) · W_{i+1}(next(s, c))` contains `x`; then, for each cell with `c_i > 0` in order,
 * `pickIndices(n_i, c_i)` chooses the members (positions in the cell's ascending member list).
 * @category Sortition
 */
export function relaxedPanel(counter: Counter, stream: RandomStream): { members: number[]; cellCounts: number[] } {
  const counts = new Array<number>(counter.cells.length)
  chooseCounts(counter, stream, counts)
  const members: number[] = []
  counter.cells.forEach((cell, i) => {
    const c = counts[i]!
    if (c > 0) pickInto(stream, cell.members, c, members, members.length)
  })
  members.sort((a, b) => a - b)
  return { members, cellCounts: counts }
}

/**
 * {@link relaxedPanel} without its sort, into scratch arrays (the gate's and the draw's hot path): the
 * same bytes read and the same members, written to `out[0 … k)` in pick order; `counts` receives the
 * members taken from each cell.
 */
export function relaxedInto(counter: Counter, stream: RandomStream, counts: Int32Array, out: Int32Array): void {
  chooseCounts(counter, stream, counts)
  const cells = counter.cells
  let at = 0
  for (let i = 0; i < cells.length; i++) {
    const c = counts[i]!
    if (c > 0) at = pickInto(stream, cells[i]!.members, c, out, at)
  }
}

/**
 * The round's choice of count for each cell in order (docs/spec.md, The panel draw): for each cell,
 * `x` uniform in `[0, W_i(s))`, then the first count whose cumulative block exceeds `x`: the same
 * bytes and the same choice as subtracting the blocks one by one.
 */
function chooseCounts(counter: Counter, stream: RandomStream, counts: { [i: number]: number }): void {
  const { layers, cells } = counter
  const steps = stepsOf(counter)
  let s = 0
  for (let i = 0; i < cells.length; i++) {
    const step = stepOf(counter, steps, i, s)
    let chosen: number
    if (step.small !== undefined) {
      const x = step.small < 2 ? 0 : drawIndex(stream, step.small)
      const cum = step.smallCum!
      chosen = 0
      while (x >= cum[chosen]!) chosen++
    } else chosen = chooseBig(stream, step)
    const p = step.trans[chosen]!
    const t = layers[i]!.trans
    counts[i] = t[p]!
    s = t[p + 1]!
  }
}

/** Scratch of {@link pickInto}: position → 1 + the position now there (0 = untouched). */
let moved = new Int32Array(1024)
const touched: number[] = []

/**
 * `pickIndices(stream, members.length, c)` (docs/spec.md, Pick k of n), the chosen members appended to
 * `out` in pick order: the same bytes read and the same positions, with a typed scratch array instead
 * of a map (a round picks up to k members, so this is the round's hot path).
 */
export function pickMembers(stream: RandomStream, members: readonly number[], c: number, out: number[]): void {
  pickInto(stream, members, c, out, out.length)
}

/** {@link pickMembers} writing `out[at …]`; returns the index after the last written. */
function pickInto(stream: RandomStream, members: readonly number[], c: number, out: { [i: number]: number }, at: number): number {
  const n = members.length
  if (moved.length < n) moved = new Int32Array(Math.max(n, 2 * moved.length))
  try {
    for (let i = 0; i < c; i++) {
      const m = n - i
      const j = m === 1 ? i : i + drawIndex(stream, m)
      const atI = moved[i]! === 0 ? i : moved[i]! - 1
      if (j === i) out[at++] = members[atI]!
      else {
        out[at++] = members[moved[j]! === 0 ? j : moved[j]! - 1]!
        moved[j] = atI + 1
        touched.push(j)
      }
    }
  } finally {
    for (const j of touched) moved[j] = 0
    touched.length = 0
  }
  return at
}

/**
 * The spec's `uniform(W_i(s))` and the choice of count for a `W_i(s)` above 2^53, from the top 48 bits
 * of each attempt's bytes: an attempt and a cumulative block are compared as bigints only when their
 * top 48 bits are equal (about once in 2^47 comparisons), so a round builds no bigint. The same bytes
 * read, the same attempts rejected and the same count chosen as {@link drawBig} and the block scan.
 */
function chooseBig(stream: RandomStream, step: Step): number {
  const { L, topMask, n } = step.sampler!
  const cum = step.cum!
  const cumTop = step.cumTop!
  const nTop = step.nTop!
  for (;;) {
    let bytes: Uint8Array
    let off = 0
    if (stream instanceof ChaChaStream && stream.pos + L <= stream.end) {
      bytes = stream.buf
      off = stream.pos
      stream.pos = off + L
    } else bytes = stream.nextBytes(L)
    let top = bytes[off]! & topMask
    for (let q = 1; q < 6; q++) top = top * 256 + bytes[off + q]!
    if (top > nTop) continue
    let x: bigint | undefined
    if (top === nTop && (x = bigOf(bytes, off, L, topMask)) >= n) continue
    // The first count whose cumulative top is at least the attempt's; its block holds x unless the tops tie.
    let lo = 0
    let hi = cumTop.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (cumTop[mid]! < top) lo = mid + 1
      else hi = mid
    }
    while (cumTop[lo]! === top) {
      x ??= bigOf(bytes, off, L, topMask)
      if (x < cum[lo]!) break
      lo++
    }
    return lo
  }
}

/**
 * The count position {@link relaxedPanel} chooses for a state with completion count `total` and
 * cumulative blocks `cum` (ascending, the last equal to `total`), on `stream`: for tests of the
 * 48-bit fast path against the spec's literal rule.
 * @internal
 */
export function chooseCount(stream: RandomStream, total: bigint, cum: readonly bigint[]): number {
  if (total <= MAX_SAFE) {
    const x = total < 2n ? 0 : drawIndex(stream, Number(total))
    return cum.findIndex((c) => BigInt(x) < c)
  }
  const sampler = bigSampler(total)
  const shift = BigInt(8 * (sampler.L - 6))
  return chooseBig(stream, { trans: new Int32Array(cum.length), sampler, cum: [...cum], cumTop: Float64Array.from(cum, (x) => Number(x >> shift)), nTop: Number(total >> shift) })
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** The big-endian integer of `bytes[off … off + L)`, its first byte masked (as {@link drawBig} reads it). */
function bigOf(bytes: Uint8Array, off: number, L: number, topMask: number): bigint {
  let hex = '0x' + HEX[bytes[off]! & topMask]!
  for (let q = 1; q < L; q++) hex += HEX[bytes[off + q]!]!
  return BigInt(hex)
}

/**
 * One state's choice of count, precomputed once per visited state: the cumulative blocks
 * `Σ_{c' ≤ c} C(n_i, c') · W_{i+1}(next(s, c'))` of its transitions with a non-empty block, and the
 * uniform sampler of `W_i(s)` (numbers when `W_i(s)` is a safe integer).
 */
interface Step {
  /** Positions (into the layer's `trans`) of the transitions with a non-empty block, in order. */
  readonly trans: Int32Array
  readonly small?: number
  readonly smallCum?: Float64Array
  readonly sampler?: BigSampler
  readonly cum?: bigint[]
  /** `floor(cum[c] / 2^(8·(L − 6)))` and `floor(W_i(s) / 2^(8·(L − 6)))`: the top 48 bits (numbers). */
  readonly cumTop?: Float64Array
  readonly nTop?: number
}

/**
 * Cached steps per layer, indexed by state (an array per layer, allocated at its first visit: a
 * lookup is an index, not a hash); at most {@link STEP_CACHE_BLOCKS} blocks kept per counter (memory bound).
 */
interface StepCache {
  readonly layers: ((Step | undefined)[] | undefined)[]
  blocks: number
}
const stepCaches = new WeakMap<Counter, StepCache>()
const STEP_CACHE_BLOCKS = 4_000_000

function stepsOf(counter: Counter): StepCache {
  let c = stepCaches.get(counter)
  if (c === undefined) stepCaches.set(counter, (c = { layers: counter.cells.map(() => undefined), blocks: 0 }))
  return c
}

function stepOf(counter: Counter, cache: StepCache, i: number, s: number): Step {
  let layer = cache.layers[i]
  if (layer === undefined) cache.layers[i] = layer = new Array<Step | undefined>(counter.layers[i]!.size).fill(undefined)
  const hit = layer[s]
  if (hit !== undefined) return hit
  const L = counter.layers[i]!
  const W = counter.layers[i + 1]!.ways
  const b = counter.binom[i]!
  const t = L.trans
  const total = L.ways[s]!
  const pos: number[] = []
  const cum: bigint[] = []
  let acc = 0n
  for (let p = 2 * L.start[s]!; p < 2 * L.start[s + 1]!; p += 2) {
    const block = b[t[p]!]! * W[t[p + 1]!]!
    if (block === 0n) continue
    acc += block
    pos.push(p)
    cum.push(acc)
  }
  const trans = Int32Array.from(pos)
  let step: Step
  if (total <= MAX_SAFE) step = { trans, small: Number(total), smallCum: Float64Array.from(cum, Number) }
  else {
    const sampler = bigSampler(total)
    const shift = BigInt(8 * (sampler.L - 6))
    step = { trans, sampler, cum, cumTop: Float64Array.from(cum, (x) => Number(x >> shift)), nTop: Number(total >> shift) }
  }
  if (cache.blocks + cum.length <= STEP_CACHE_BLOCKS) {
    cache.blocks += cum.length
    layer[s] = step
  }
  return step
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * Draws a `panel`: rounds of {@link relaxedPanel} on `stream` until one meets every quota, at most
 * the plan method's round cap ({@link SORTITION_LIMITS.maxRejectionRounds} for method 1,
 * {@link SORTITION_LIMITS.maxRejectionRoundsV2} for method 2, the committed `maxRounds` for method 3:
 * `roundCap`).
 *
 * @throws {@link LimitExceededError} `SORTITION_REJECTION_LIMIT` if no round is kept within the limit
 *   (the commit-time check makes this vanishingly unlikely: see docs/spec.md, Sortition).
 * @example
 * ```ts
 * const plan = planPanel(pool, table, 40)
 * const { members } = drawPanel(plan, streamFromSeed(seed))
 * ```
 * @category Sortition
 */
export function drawPanel(plan: PanelPlan, stream: RandomStream): PanelDraw {
  if (plan.counter.count === 0n) throw new InfeasibleQuotasError('NO_VALID_PANEL', 'no panel meets the quotas', 'relax the quotas (see planPanel)')
  const check = new OtherQuotas(plan)
  const cap = roundCap(plan)
  const counts = new Int32Array(plan.counter.cells.length)
  const members = new Int32Array(plan.k)
  for (let round = 1; round <= cap; round++) {
    relaxedInto(plan.counter, stream, counts, members)
    if (check.meets(members)) return { members: Array.from(members).sort((a, b) => a - b), rounds: round, cellCounts: Array.from(counts) }
  }
  throw new LimitExceededError('SORTITION_REJECTION_LIMIT', `no relaxed panel met every quota in ${cap} rounds`, 'the quotas are too tight for the exact features of this plan; count more features exactly or relax the quotas')
}

/**
 * The quotas of a plan's features left to rejection, flat for the rounds' hot path: slot = the
 * feature's offset + the value; {@link OtherQuotas.tally} counts a panel's members per slot.
 */
export class OtherQuotas {
  /** The features left to rejection, canonical order. */
  readonly others: number[]
  /** First slot of each of them. */
  readonly offset: number[]
  /** Number of slots (values of the other features). */
  readonly slots: number
  /** Min and max per slot. */
  readonly lo: Int32Array
  readonly hi: Int32Array
  /** Per slot, the index (into `others`) of its feature. */
  readonly featureOf: Int32Array
  /** Members per slot after {@link OtherQuotas.tally}. */
  readonly cnt: Int32Array
  /** Each respondent's slots: `slotOf[r · others.length + j]`. */
  private readonly slotOf: Int32Array

  constructor(plan: Pick<PanelPlan, 'pool' | 'counter' | 'quotas'>) {
    const { pool, quotas } = plan
    const others = (this.others = otherFeatures(plan))
    const offset: number[] = []
    let slots = 0
    for (const f of others) {
      offset.push(slots)
      slots += pool.features[f]!.values.length
    }
    this.offset = offset
    this.slots = slots
    this.lo = new Int32Array(slots)
    this.hi = new Int32Array(slots)
    this.featureOf = new Int32Array(slots)
    others.forEach((f, j) =>
      pool.features[f]!.values.forEach((_, v) => {
        this.lo[offset[j]! + v] = quotas.min[f]![v]!
        this.hi[offset[j]! + v] = quotas.max[f]![v]!
        this.featureOf[offset[j]! + v] = j
      }),
    )
    this.slotOf = new Int32Array(pool.respondents.length * others.length)
    pool.respondents.forEach((r, i) => others.forEach((f, j) => (this.slotOf[i * others.length + j] = offset[j]! + r.type[f]!)))
    this.cnt = new Int32Array(slots)
  }

  /** Counts `members` per slot into {@link OtherQuotas.cnt}. */
  tally(members: ArrayLike<number>): void {
    const { cnt, slotOf } = this
    const E = this.others.length
    cnt.fill(0)
    for (let x = 0; x < members.length; x++) {
      const base = members[x]! * E
      for (let j = 0; j < E; j++) cnt[slotOf[base + j]!]!++
    }
  }

  /** True when `members` meet every quota of the other features. */
  meets(members: ArrayLike<number>): boolean {
    if (this.others.length === 0) return true
    this.tally(members)
    const { cnt, lo, hi } = this
    for (let x = 0; x < this.slots; x++) if (cnt[x]! < lo[x]! || cnt[x]! > hi[x]!) return false
    return true
  }
}

/**
 * The most rounds one draw of `plan` may use: its method's cap, or for method 3 the committed
 * `maxRounds` (docs/spec.md, Plan methods).
 * @category Sortition
 */
export function roundCap(plan: Pick<PanelPlan, 'method' | 'maxRounds'>): number {
  return plan.method === 3 ? plan.maxRounds ?? 1 : PLAN_METHODS[plan.method ?? 1].rounds
}

/** The features of a plan left to rejection (not exact), canonical order. */
export function otherFeatures(plan: Pick<PanelPlan, 'pool' | 'counter'>): number[] {
  return plan.pool.features.map((_, f) => f).filter((f) => !plan.counter.exact.includes(f))
}
