/**
 * What a work unit of the `panel` work bound costs in CPU time (docs/spec.md, Work bound;
 * docs/performance.md, "The worst a forged commitment costs a verifier"): the counter's units
 * (`planCost(...).count` over the time `buildCounter` takes) and the rounds' units (`round` over the
 * time one rejection round takes, as `drawPanel` and `drawHouseholdPanel` run it), across shapes: k
 * small and large, few and many features left to rejection, with and without a household rule, the
 * forged proofs of bench/hostile-fixture.ts (timed through `verify`: the difference between caps of
 * `UNITS_ROUNDS` and 1 rounds, so parsing is not counted), its forged grids (rounds over a cached
 * counter and over the largest the key cost admits, whose lookups miss the caches: each cell charged 64
 * units, 64 + 512 over more than 4,096 states) and honest plans of
 * the bench's pools. `UNITS_ONLY=grid` runs only the grids and the forged `min`. The
 * limits translate into stated times only if a unit costs about the same everywhere: each row gives
 * nanoseconds of CPU per unit (process CPU time, so other processes' load counts less than in wall
 * time). Run alone: `npm run bench -- sortition-units`.
 */
import { verify } from '../src/core/verify.js'
import { planCost } from '../src/core/sortition/cost.js'
import { buildCounter } from '../src/core/sortition/count.js'
import { HouseholdTest } from '../src/core/sortition/household.js'
import { OtherQuotas, relaxedInto } from '../src/core/sortition/round.js'
import { acceptanceStream, dpOrder } from '../src/core/sortition/plan.js'
import { checkQuotas, makePool, type QuotaTable, type SortitionPool } from '../src/core/sortition/pool.js'
import type { BenchRow } from './harness.js'
import { hostileCountPlan, hostileProof, type HostileShape } from './hostile-fixture.js'
import { poolRows, quotas } from './panel-fixture.js'
import { ENGINE_ONLY } from './proof-fixture.js'

/** Process CPU time in ms. */
function cpuMs(): number {
  const c = process.cpuUsage()
  return (c.user + c.system) / 1000
}

interface Honest {
  readonly what: string
  readonly pool: SortitionPool
  readonly table: QuotaTable
  readonly k: number
  readonly exact: number[]
  /** One household of this many respondents (the first ones, committed order), or none. */
  readonly household?: number
}

function honest(n: number, features: number, k: number, slack: number, exactNames: string[], household?: number): Honest {
  const { names, rows } = poolRows(n, features)
  const pool = makePool(names, rows)
  const table = checkQuotas(pool, quotas(pool, k, slack), k)
  const exact = dpOrder(pool, exactNames.map((x) => pool.features.findIndex((f) => f.name === x)))
  return { what: `${n} × ${features}, k = ${k} ±${slack}, exact ${exactNames.join('+') || '(none)'}${household === undefined ? '' : `, one household of ${household}`}`, pool, table, k, exact, ...(household === undefined ? {} : { household }) }
}

/**
 * A forged grid of bench/hostile-fixture.ts (`hostileCountPlan` with rejection rounds: no round kept):
 * one row (1,045 states, cached) or 12 rows of 16 values (the largest counter the key cost admits,
 * 1.9 million states: each cell's lookups miss the processor's caches; charged since issue 22).
 */
function grid(rows: number, k: number, values: number): Honest {
  const { pool, table, exact } = hostileCountPlan({ rows, k, values, rounds: 1 })
  return { what: `the forged grid of ${rows} row(s) of ${values} values, k = ${k} (rounds over ${pool.respondents.length} one-respondent cells; none kept)`, pool, table, k, exact }
}

/** CPU ns per round of the draw's loop on `h` (median of 3 runs of `rounds` rounds, after a warm-up). */
function roundNs(h: Honest, rounds: number): { ns: number; countMs: number; kept: number } {
  const c0 = cpuMs()
  const counter = buildCounter(h.pool, h.table, h.k, h.exact)
  const countMs = cpuMs() - c0
  const check = new OtherQuotas({ pool: h.pool, quotas: h.table, counter })
  const of = new Int32Array(h.pool.respondents.length).fill(-1)
  for (let i = 0; i < (h.household ?? 0); i++) of[i] = 0
  const households = h.household === undefined ? undefined : new HouseholdTest(of)
  const stream = acceptanceStream(2)
  const counts = new Int32Array(counter.cells.length)
  const members = new Int32Array(h.k)
  let kept = 0
  const run = (r: number): number => {
    const t0 = cpuMs()
    for (let i = 0; i < r; i++) {
      relaxedInto(counter, stream, counts, members)
      if (check.meets(members) && (households === undefined || households.ok(members))) kept++
    }
    return ((cpuMs() - t0) * 1e6) / r
  }
  run(Math.min(rounds, 2000))
  const times = [run(rounds), run(rounds), run(rounds)].sort((a, b) => a - b)
  return { ns: times[1]!, countMs, kept }
}

export default async function (): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const R = Number(process.env.UNITS_ROUNDS ?? 20_000)
  const cases: Honest[] = [
    honest(2000, 6, 10, 2, []),
    honest(2000, 6, 40, 2, ['origin', 'gender']),
    honest(2000, 6, 100, 2, []),
    honest(2000, 6, 100, 2, ['origin']),
    honest(2000, 6, 100, 2, ['origin', 'gender']),
    honest(2000, 6, 100, 2, ['origin', 'gender'], 40),
    honest(2000, 6, 40, 1, ['origin', 'age']),
    honest(2000, 6, 150, 3, ['origin']),
    honest(2000, 8, 150, 3, ['income']),
    honest(3000, 6, 200, 3, ['gender']),
    honest(3000, 6, 200, 3, ['origin', 'gender']),
    grid(1, 4, 16),
    grid(12, 4, 16),
  ]
  for (const h of process.env.UNITS_ONLY === 'grid' ? cases.filter((c) => c.what.startsWith('the forged grid')) : cases) {
    const cost = planCost(h.pool, h.table, h.k, h.exact, 1, Infinity, h.household !== undefined)
    const { ns, countMs, kept } = roundNs(h, R)
    rows.push({ name: `units: a round of ${h.what} (round cost ${cost.round} = choose ${cost.choose} + picks ${cost.picks} + keep ${cost.keep} + household ${cost.household} + walk ${cost.walk}; ${(ns / 1000).toFixed(2)} µs CPU; ${kept} rounds kept)`, value: ns / cost.round, unit: 'ns/unit' })
    if (cost.count > 10_000) rows.push({ name: `units: counting ${h.what} (count cost ${cost.count}, ${countMs.toFixed(0)} ms CPU)`, value: (countMs * 1e6) / cost.count, unit: 'ns/unit' })
  }
  const shapes: [string, HostileShape][] = [
    ['min', { features: 2, values: 2 }],
    ['16 × 64', { features: 16, values: 64 }],
    ['households', { features: 16, values: 2, households: true }],
  ]
  for (const [key, shape] of process.env.UNITS_ONLY === 'grid' ? shapes.slice(0, 1) : shapes) {
    const one = hostileProof({ ...shape, maxRounds: 1 })
    const many = hostileProof({ ...shape, maxRounds: R })
    await verify(many.text, ENGINE_ONLY)
    const time = async (text: string): Promise<number> => {
      const t0 = cpuMs()
      await verify(text, ENGINE_ONLY)
      return cpuMs() - t0
    }
    const diffs: number[] = []
    for (let i = 0; i < 3; i++) diffs.push((await time(many.text)) - (await time(one.text)))
    diffs.sort((a, b) => a - b)
    const ns = (diffs[1]! * 1e6) / (R - 1)
    const c = many.cost
    rows.push({ name: `units: a round of the forged proof "${key}" through verify (round cost ${c.round} = choose ${c.choose} + picks ${c.picks} + keep ${c.keep} + household ${c.household} + walk ${c.walk}; ${(ns / 1000).toFixed(2)} µs CPU)`, value: ns / c.round, unit: 'ns/unit' })
  }
  return rows
}
