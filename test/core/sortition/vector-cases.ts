/**
 * Sortition vectors: inputs (pool rows, quota rows, k, exact features, seed) and every intermediate
 * value an outside implementation must reproduce (cells, panel count, the first round's cell counts,
 * rounds, members, bytes consumed, selection probabilities). Shared by the generator
 * (scripts/make-sortition-vectors.ts) and the test.
 */
import { bytesToHex, hexToBytes } from '../../../src/core/bytes.js'
import { streamFromSeed } from '../../../src/core/random/stream.js'
import { checkQuotas, makePool, SORTITION_LIMITS, type QuotaRow } from '../../../src/core/sortition/pool.js'
import { drawAlternates } from '../../../src/core/sortition/alternates.js'
import { drawPanel, planPanel, relaxedPanel, selectionProbabilities } from '../../../src/core/sortition/panel.js'
import { planCost } from '../../../src/core/sortition/cost.js'
import { lcg, proportionalQuotas, smallPool } from './fixtures.js'
import { checkPlanCost } from '../../../src/core/sortition/panel.js'

/** Inputs of one vector. */
export interface SortitionVectorInput {
  name: string
  /** Pool header: id first, then the feature columns. */
  header: string[]
  /** Pool rows: id, then one value per feature column. */
  rows: string[][]
  /** Quota rows: feature, value, min, max. */
  quotas: [string, string, number, number][]
  k: number
  /** Exact features in DP order (as committed). */
  exactFeatures: string[]
  /** 32-byte seed, hex. */
  seed: string
}

/** A vector: inputs and outputs. */
export interface SortitionVector extends SortitionVectorInput {
  /** Cells in DP order: key (values of the exact features) and size. */
  cells: { key: string[]; size: number }[]
  /** Number of panels meeting the quotas of the exact features (decimal). */
  relaxedCount: string
  /** Cell counts of the first round. */
  firstRound: number[]
  rounds: number
  /** Members' ids, canonical order. */
  members: string[]
  /** Stream bytes consumed by the draw. */
  consumed: number
  /** Up to 3 ranked alternates drawn right after the panel (ids), and the bytes consumed by then. */
  alternates: string[]
  consumedWithAlternates: number
  /** Exact plans only: per type (values in canonical feature order), `numerator/denominator`. */
  probabilities?: { type: string[]; probability: string }[]
  /** The plan's work bound (docs/spec.md, Work bound), every part. */
  cost: VectorCost
}

/** The parts of a plan's work bound, as a vector records them. */
export interface VectorCost {
  words: number
  states: number
  transitions: number
  /** `Σ X_i · (16 + P_i + E)`: the counter's state keys (docs/spec.md, Work bound). */
  keys: number
  count: number
  round: number
  /** The round's parts (docs/spec.md, Work bound): `Σ (m_i + 1)`, `(w + 16) · blocks`, `25 · k`, the keep test, the household test, the walk over the cells (64 a cell, 64 + 512 over more than 4,096 states). */
  blocks: number
  choose: number
  picks: number
  keep: number
  household: number
  walk: number
  rounds: number
  draw: number
}

/** A work-bound vector: a composition (types with counts), the bound's parts, and the verdict. */
export interface CostVector {
  name: string
  /** Features sorted by name: values sorted, quotas aligned. */
  features: { name: string; values: string[]; min: number[]; max: number[] }[]
  /** Types: value index per feature, then the respondents of the type. */
  types: number[][]
  k: number
  exactFeatures: string[]
  /** The plan method (absent: 1) and, for method 3, the committed round cap. */
  plan?: 2 | 3
  maxRounds?: number
  /** True when the plan has a household rule (its household test is charged, and its round cap under every method). */
  households?: boolean
  cost: VectorCost
  /** `ok`, or the limit error's code. */
  verdict: string
}

function fromPool(name: string, n: number, sizes: number[], seed: number, k: number, slack: number, exact: 'all' | string[], drawSeed: string): SortitionVectorInput {
  const pool = smallPool(n, sizes, seed)
  const header = ['id', ...pool.features.map((f) => f.name)]
  const rows = pool.respondents.map((r) => [r.id, ...r.type.map((v, f) => pool.features[f]!.values[v]!)])
  const quotas = proportionalQuotas(pool, k, slack).map((q): [string, string, number, number] => [q.feature, q.value, q.min, q.max])
  const exactFeatures = exact === 'all' ? planPanel(pool, checkQuotas(pool, proportionalQuotas(pool, k, slack), k), k).counter.exact.map((f) => pool.features[f]!.name) : exact
  return { name, header, rows, quotas, k, exactFeatures, seed: drawSeed }
}

/** The vector inputs (fixed). */
export function sortitionVectorInputs(): SortitionVectorInput[] {
  const seed = (b: number): string => bytesToHex(new Uint8Array(32).fill(b))
  const big = (() => {
    const rnd = lcg(77)
    const rows = Array.from({ length: 400 }, (_, i) => [`p${String(i).padStart(3, '0')}`, rnd(3) === 0 ? 'urban' : 'rural'])
    return { name: 'counts above 2^256 (C(400,100)-sized): bigint draws past the 256-bit fast path', header: ['id', 'area'], rows, quotas: [['area', 'rural', 60, 75], ['area', 'urban', 25, 40]] as [string, string, number, number][], k: 100, exactFeatures: ['area'], seed: seed(0x42) }
  })()
  return [
    fromPool('exact: 3 features counted, proportional quotas', 12, [2, 3, 4], 1, 5, 0, 'all', seed(0x01)),
    fromPool('exact: 2 features, slack 1', 20, [3, 2], 2, 8, 1, 'all', bytesToHex(Uint8Array.from({ length: 32 }, (_, i) => i))),
    fromPool('relaxed: 1 of 3 features counted, the others by rejection', 16, [2, 3, 3], 3, 6, 0, ['f1'], seed(0x03)),
    fromPool('relaxed: nothing counted (rejection from all k-subsets)', 12, [2, 2], 4, 4, 0, [], seed(0x04)),
    big,
  ]
}

/** Runs one vector from its inputs. */
export function runSortitionVector(input: SortitionVectorInput): SortitionVector {
  const pool = makePool(input.header.slice(1), input.rows.map((r) => ({ id: r[0]!, values: r.slice(1) })))
  const rows: QuotaRow[] = input.quotas.map(([feature, value, min, max]) => ({ feature, value, min, max }))
  const table = checkQuotas(pool, rows, input.k)
  const plan = planPanel(pool, table, input.k, { exactFeatures: input.exactFeatures })
  const c = plan.counter
  const first = relaxedPanel(c, streamFromSeed(hexToBytes(input.seed)))
  const stream = streamFromSeed(hexToBytes(input.seed))
  const d = drawPanel(plan, stream)
  const consumed = stream.consumed
  const alt = drawAlternates(stream, pool, table, d.members, 3)
  const out: SortitionVector = {
    ...input,
    cells: c.cells.map((cell) => ({ key: cell.key.map((v, j) => pool.features[c.exact[j]!]!.values[v]!), size: cell.members.length })),
    relaxedCount: c.count.toString(),
    firstRound: first.cellCounts,
    rounds: d.rounds,
    members: d.members.map((m) => pool.respondents[m]!.id),
    consumed,
    alternates: alt.alternates.map((m) => pool.respondents[m]!.id),
    consumedWithAlternates: stream.consumed,
    cost: vectorCost(pool, table, input.k, c.exact),
  }
  if (plan.exact) out.probabilities = selectionProbabilities(plan).map((p) => ({ type: p.type.map((v, f) => pool.features[f]!.values[v]!), probability: `${p.numerator}/${p.denominator}` }))
  return out
}

function vectorCost(pool: ReturnType<typeof makePool>, table: ReturnType<typeof checkQuotas>, k: number, exact: readonly number[], plan: Pick<CostVector, 'plan' | 'maxRounds' | 'households'> = {}): VectorCost {
  const households = plan.households === true
  const cap = plan.plan === 3 ? plan.maxRounds! : plan.plan === 2 ? SORTITION_LIMITS.maxRejectionRoundsV2 : SORTITION_LIMITS.maxRejectionRounds
  const rounds = exact.length === pool.features.length && !households ? 1 : cap
  const c = planCost(pool, table, k, exact, rounds, Infinity, households)
  return { words: c.words, states: c.states, transitions: c.transitions, keys: c.keys, count: c.count, round: c.round, blocks: c.blocks, choose: c.choose, picks: c.picks, keep: c.keep, household: c.household, walk: c.walk, rounds: c.rounds, draw: c.draw }
}

/** Header and rows (ids `x0000…`) of a composition, for the engine and the reference. */
export function compositionRows(v: Pick<CostVector, 'features' | 'types'>): { header: string[]; rows: string[][] } {
  const header = ['id', ...v.features.map((f) => f.name)]
  const rows: string[][] = []
  for (const t of v.types) for (let i = 0; i < t.at(-1)!; i++) rows.push([`x${String(rows.length).padStart(5, '0')}`, ...v.features.map((f, j) => f.values[t[j]!]!)])
  return { header, rows }
}

/** The work-bound vectors (fixed inputs): within the limits, and the hostile 800-byte plan refused. */
export function costVectorInputs(): Omit<CostVector, 'cost' | 'verdict'>[] {
  const values16 = Array.from({ length: 16 }, (_, i) => `v${String(i).padStart(2, '0')}`)
  const pool = smallPool(300, [3, 4, 2], 21)
  const table = checkQuotas(pool, proportionalQuotas(pool, 30, 2), 30)
  const types = new Map<string, number[]>()
  for (const r of pool.respondents) {
    const s = r.type.join(',')
    if (!types.has(s)) types.set(s, [...r.type, 0])
    const t = types.get(s)!
    t[t.length - 1]!++
  }
  const mid = {
    features: pool.features.map((f, i) => ({ name: f.name, values: [...f.values], min: [...table.min[i]!], max: [...table.max[i]!] })),
    types: [...types.values()].sort((a, b) => {
      for (let j = 0; j < a.length - 1; j++) if (a[j] !== b[j]) return a[j]! - b[j]!
      return 0
    }),
    k: 30,
  }
  return [
    { name: '300 respondents, 3 features, k = 30, ±2: two features counted (open values across cells)', ...mid, exactFeatures: ['f1', 'f0'] },
    { name: 'the same, nothing counted (one cell; the rounds dominate)', ...mid, exactFeatures: [] },
    {
      name: 'hostile: 5,000 respondents claimed in 16 types, k = 1,000, quotas 0..1,000 (an 800-byte commitment)',
      features: [{ name: 'f', values: values16, min: values16.map(() => 0), max: values16.map(() => 1000) }],
      types: values16.map((_, i) => [i, i < 8 ? 313 : 312]),
      k: 1000,
      exactFeatures: ['f'],
    },
    ...hostileCostInputs(),
    ...walkCostInputs(),
  ]
}

/**
 * A plan whose counter is above 4,096 states (summed over the layers) and whose rounds reject every
 * panel (issue 22, `roundcap`): one exact feature `a` of 40 values, 20 respondents each, and two
 * features `c`, `d` left to rejection that no round meets together (4 respondents have value `1` on
 * both; `c` asks at least one of them, `d` none), k = 200, plan method 3. Each round's walk over the
 * cells is charged 64 + 512 units a cell: at the largest `maxRounds` the draw cost admitted without it
 * (now refused), at the largest it admits with it, and one round more.
 */
function walkCostInputs(): Omit<CostVector, 'cost' | 'verdict'>[] {
  const V = 40
  const k = 200
  const a = Array.from({ length: V }, (_, i) => `a${String(i).padStart(2, '0')}`)
  const base: Omit<CostVector, 'cost' | 'verdict' | 'name' | 'maxRounds'> = {
    features: [
      { name: 'a', values: a, min: a.map(() => 0), max: a.map(() => k) },
      { name: 'c', values: ['0', '1'], min: [0, 1], max: [k, k] },
      { name: 'd', values: ['0', '1'], min: [0, 0], max: [k, 0] },
    ],
    types: [...a.map((_, i) => [i, 0, 0, 20]), [V - 1, 1, 1, 4]],
    k,
    exactFeatures: ['a'],
    plan: 3,
  }
  const { header, rows } = compositionRows(base)
  const pool = makePool(header.slice(1), rows.map((r) => ({ id: r[0]!, values: r.slice(1) })))
  const table = checkQuotas(pool, base.features.flatMap((f) => f.values.map((value, j) => ({ feature: f.name, value, min: f.min[j]!, max: f.max[j]! }))), k)
  const c = planCost(pool, table, k, [0], 1)
  const before = Math.floor(SORTITION_LIMITS.maxDrawCost / (c.round - c.walk))
  const largest = Math.floor(SORTITION_LIMITS.maxDrawCost / c.round)
  const what = `a counter of more than 4,096 states with rejection rounds: 40 values of a counted (20 respondents each), c and d that no round meets, k = ${k}, plan 3`
  return [
    { name: `${what}, maxRounds ${before} (the largest admitted before a round was charged its walk over the cells)`, ...base, maxRounds: before },
    { name: `${what}, maxRounds ${largest} (the largest the draw cost admits)`, ...base, maxRounds: largest },
    { name: `${what}, maxRounds ${largest + 1} (one round more)`, ...base, maxRounds: largest + 1 },
  ]
}

/**
 * The forged plans of bench/hostile-fixture.ts as compositions (k = 267 of 277, nothing counted, plan
 * method 3): `min` (2 features of 2 values, quotas no round meets) and `households` (16 features of 2
 * values, loose quotas, a household rule), each at the 4,000,000 rounds the work bound admitted before
 * issue 22 charged each round its real work (now refused), at the largest `maxRounds` the draw cost
 * admits, and one round more.
 */
function hostileCostInputs(): Omit<CostVector, 'cost' | 'verdict'>[] {
  const k = 267
  const n = 277
  const shape = (F: number, households: boolean): Omit<CostVector, 'cost' | 'verdict' | 'name' | 'maxRounds'> => {
    const avail = [n - 20, 20]
    const m = 20 - (n - k) + 1
    const names = Array.from({ length: F }, (_, f) => String.fromCharCode(97 + f))
    return {
      features: names.map((name, f) => ({ name, values: ['-', '0'], min: [0, !households && f === F - 2 ? m : 0], max: [k, !households && f === F - 1 ? m - 1 : k] })),
      types: avail.map((a, j) => [...names.map(() => j), a]),
      k,
      exactFeatures: [],
      plan: 3,
      ...(households ? { households: true } : {}),
    }
  }
  const out: Omit<CostVector, 'cost' | 'verdict'>[] = []
  for (const [key, F, households] of [['min', 2, false], ['households', 16, true]] as const) {
    const base = shape(F, households)
    const { header, rows } = compositionRows(base)
    const pool = makePool(header.slice(1), rows.map((r) => ({ id: r[0]!, values: r.slice(1) })))
    const table = checkQuotas(pool, base.features.flatMap((f) => f.values.map((value, j) => ({ feature: f.name, value, min: f.min[j]!, max: f.max[j]! }))), k)
    const largest = Math.floor(SORTITION_LIMITS.maxDrawCost / planCost(pool, table, k, [], 1, Infinity, households).round)
    const what = `hostile "${key}" (bench/hostile-fixture.ts): k = 267 of 277, ${F} features of 2 values, ${households ? 'loose quotas and a household rule' : 'quotas no round meets'}, plan 3`
    out.push({ name: `${what}, maxRounds 4,000,000 (admitted before issue 22)`, ...base, maxRounds: 4_000_000 })
    out.push({ name: `${what}, maxRounds ${largest} (the largest the draw cost admits)`, ...base, maxRounds: largest })
    out.push({ name: `${what}, maxRounds ${largest + 1} (one round more)`, ...base, maxRounds: largest + 1 })
  }
  return out
}

/** Runs one work-bound vector: the bound's parts and the plan's verdict (`ok` or the limit's code). */
export function runCostVector(input: Omit<CostVector, 'cost' | 'verdict'>): CostVector {
  const { header, rows } = compositionRows(input)
  const pool = makePool(header.slice(1), rows.map((r) => ({ id: r[0]!, values: r.slice(1) })))
  const qrows: QuotaRow[] = input.features.flatMap((f) => f.values.map((value, j) => ({ feature: f.name, value, min: f.min[j]!, max: f.max[j]! })))
  const table = checkQuotas(pool, qrows, input.k)
  const exact = input.exactFeatures.map((n) => pool.features.findIndex((f) => f.name === n))
  let verdict = 'ok'
  const cost = vectorCost(pool, table, input.k, exact, input)
  try {
    checkPlanCost(pool, table, input.k, exact, input.plan ?? 1, input.maxRounds)
    // With households the round cap is charged under every method, with the household test (docs/spec.md, Households, Cost).
    if (input.households === true && cost.draw > SORTITION_LIMITS.maxDrawCost) verdict = 'SORTITION_COST_LIMIT'
  } catch (err) {
    verdict = (err as { code: string }).code
  }
  return { ...input, cost, verdict }
}
