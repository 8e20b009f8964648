/**
 * The solver's smallest relaxation (src/sortition/relax.ts): equal to a brute-force minimum over every
 * panel composition on small pools, named bound by bound, and the commit errors it explains.
 */
import { describe, expect, it } from 'vitest'
import { checkQuotas, makePool, planPanel, type QuotaRow, type SortitionPool } from '../../src/core/sortition/index.js'
import { LimitExceededError, OrbitdrawError } from '../../src/core/errors.js'
import { describeRelaxation, explainQuotaError, smallestQuotaRelaxation } from '../../src/sortition/relax.js'
import { lcg, smallPool } from '../core/sortition/fixtures.js'
import { plan2Inputs } from '../core/sortition/plan2-cases.js'

/** Brute force: the fewest seats by which the bounds must move for some size-k composition of types. */
function bruteSeats(pool: SortitionPool, rows: readonly QuotaRow[], k: number): number {
  const table = checkQuotas(pool, rows, k)
  const types = new Map<string, { type: readonly number[]; n: number }>()
  for (const r of pool.respondents) {
    const t = types.get(r.type.join(','))
    if (t === undefined) types.set(r.type.join(','), { type: r.type, n: 1 })
    else t.n++
  }
  const list = [...types.values()]
  let best = Infinity
  const x = new Array<number>(list.length).fill(0)
  const rec = (i: number, left: number): void => {
    if (i === list.length) {
      if (left !== 0) return
      let seats = 0
      pool.features.forEach((f, fi) =>
        f.values.forEach((_, v) => {
          const c = list.reduce((a, t, j) => a + (t.type[fi] === v ? x[j]! : 0), 0)
          seats += Math.max(0, table.min[fi]![v]! - c) + Math.max(0, c - table.max[fi]![v]!)
        }),
      )
      best = Math.min(best, seats)
      return
    }
    for (let c = 0; c <= Math.min(left, list[i]!.n); c++) {
      x[i] = c
      rec(i + 1, left - c)
    }
    x[i] = 0
  }
  rec(0, k)
  return best
}

/** Random quota rows (each feature feasible alone is not required: checkQuotas must accept them). */
function randomRows(pool: SortitionPool, k: number, seed: number): QuotaRow[] {
  const rnd = lcg(seed)
  return pool.features.flatMap((f) =>
    f.values.map((value) => {
      const min = rnd(3)
      return { feature: f.name, value, min, max: Math.min(k, min + rnd(2)) }
    }),
  )
}

/** All women are young and all men old: gender and age quotas each hold alone but not together. */
function conflictPool(): { pool: SortitionPool; rows: QuotaRow[] } {
  const rows = Array.from({ length: 8 }, (_, i) => ({ id: `p${i}`, values: i < 4 ? ['female', 'young'] : ['male', 'old'] }))
  const pool = makePool(['gender', 'age'], rows)
  const q: QuotaRow[] = [
    { feature: 'gender', value: 'female', min: 3, max: 4 },
    { feature: 'gender', value: 'male', min: 0, max: 1 },
    { feature: 'age', value: 'old', min: 3, max: 4 },
    { feature: 'age', value: 'young', min: 0, max: 1 },
  ]
  return { pool, rows: q }
}

describe('smallestQuotaRelaxation (HiGHS)', () => {
  it('equals the brute-force minimum over every composition, on 25 small random pools', async () => {
    let checked = 0
    let positive = 0
    for (let s = 1; checked < 25; s++) {
      const pool = smallPool(14, [2, 3, 2], 100 + s)
      const k = 5
      const rows = randomRows(pool, k, s)
      try {
        checkQuotas(pool, rows, k)
      } catch {
        continue
      }
      const r = await smallestQuotaRelaxation(pool, rows, k)
      const want = bruteSeats(pool, rows, k)
      expect(r!.seats).toBe(want)
      // The changes it names are exactly that many seats, and the composition it gives meets the relaxed quotas.
      expect(r!.changes.reduce((a, c) => a + Math.abs(c.to - c.from), 0)).toBe(want)
      expect(r!.composition.reduce((a, c) => a + c.members, 0)).toBe(k)
      checked++
      if (want > 0) positive++
    }
    expect(positive).toBeGreaterThanOrEqual(5)
  }, 60_000)

  it('names the fewest seats and which quotas for a conflict no single change fixes', async () => {
    const { pool, rows } = conflictPool()
    const r = await smallestQuotaRelaxation(pool, rows, 4)
    expect(r!.seats).toBe(4)
    expect(describeRelaxation(r!)).toMatch(/^(?:(?:lower the min|raise the max) of "(?:gender|age)"="\w+" from \d to \d; )+.*\(4 seat\(s\) in total, the fewest of any change of the quotas; found by the HiGHS solver\)$/)
    expect(await smallestQuotaRelaxation(pool, rows.map((q) => ({ ...q, min: 0, max: 4 })), 4)).toMatchObject({ seats: 0, changes: [] })
  })

  it('explainQuotaError: NO_VALID_PANEL gets the solver\'s relaxation; a feasible but too-tight set says panels exist; other errors pass through', async () => {
    const { pool, rows } = conflictPool()
    let err: unknown
    try {
      planPanel(pool, checkQuotas(pool, rows, 4), 4)
    } catch (e) {
      err = e
    }
    expect((err as OrbitdrawError).code).toBe('NO_VALID_PANEL')
    const explained = (await explainQuotaError(err, pool, rows, 4)) as OrbitdrawError
    expect(explained.code).toBe('NO_VALID_PANEL')
    expect(explained.detail).toMatch(/the smallest relaxation changes 4 seat\(s\)/)
    expect(explained.hint).toMatch(/found by the HiGHS solver/)

    const input = plan2Inputs()[0]!
    const p2 = makePool(input.header.slice(1), input.rows.map((r) => ({ id: r[0]!, values: r.slice(1) })))
    const q2: QuotaRow[] = input.quotas.map(([feature, value, min, max]) => ({ feature, value, min, max }))
    let tight: unknown
    try {
      planPanel(p2, checkQuotas(p2, q2, input.k), input.k, { exactFeatures: [] })
    } catch (e) {
      tight = e
    }
    expect(tight).toBeInstanceOf(LimitExceededError)
    const t = (await explainQuotaError(tight, p2, q2, input.k)) as OrbitdrawError
    expect(t.code).toBe('SORTITION_ACCEPTANCE_TOO_LOW')
    expect(t.detail).toMatch(/panels meeting every quota exist \(checked by the HiGHS solver\)/)
    expect(t.hint).toBe((tight as OrbitdrawError).hint)

    const other = new LimitExceededError('SORTITION_COST_LIMIT', 'x', 'y')
    expect(await explainQuotaError(other, pool, rows, 4)).toBe(other)
  })
})
