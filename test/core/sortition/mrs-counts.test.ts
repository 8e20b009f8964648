/**
 * orbitdraw's panel counter against an independent implementation at assembly sizes: MRS's counts
 * (the "Maximally Random Sortition" tool of de Azevedo and Gölz, public C++), recorded in
 * `test/vectors/sortition-mrs-counts.json` by scripts/make-mrs-count-vectors.ts, of the panels meeting
 * the quotas of each feature alone and of the pairs the commit counts, on the instances of
 * `npm run bench -- sortition-sizes` (k = 40 to 200: 58 counts of 83 to 318 digits). The brute-force
 * enumeration tests (panel.test.ts) cover small pools; these cover the sizes organizers use.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { poolRows, quotas } from '../../../bench/panel-fixture.js'
import { binomialRow, buildCounter } from '../../../src/core/sortition/count.js'
import { dpOrder } from '../../../src/core/sortition/plan.js'
import { checkQuotas, makePool } from '../../../src/core/sortition/pool.js'
import { MRS_COUNT_CASES, type MrsCountCase } from './mrs-count-cases.js'

interface MrsCounts extends MrsCountCase {
  readonly counts: readonly { readonly exact: readonly string[]; readonly count: string }[]
}
const file = JSON.parse(readFileSync(new URL('../../vectors/sortition-mrs-counts.json', import.meta.url), 'utf8')) as { cases: MrsCounts[] }

describe("the counter agrees with MRS's counts at assembly sizes", () => {
  it('the vectors are the cases listed, each feature alone and the listed pairs', () => {
    expect(file.cases.map(({ counts: _, ...c }) => c)).toEqual(MRS_COUNT_CASES)
    for (const c of file.cases) expect(c.counts).toHaveLength(c.features + (c.pairs?.length ?? 0))
  })

  for (const c of file.cases) {
    const label = `${c.n} x ${c.features}${c.values === undefined ? '' : ` of ${c.values} values`}, k = ${c.k}, ±${c.slack}`
    it(label, () => {
      const g = poolRows(c.n, c.features, undefined, c.values)
      const pool = makePool(g.names, g.rows)
      const table = checkQuotas(pool, quotas(pool, c.k, c.slack), c.k)
      const index = (name: string): number => pool.features.findIndex((f) => f.name === name)
      const ours = c.counts.map(({ exact }) => buildCounter(pool, table, c.k, dpOrder(pool, exact.map(index))).count.toString())
      expect(ours).toEqual(c.counts.map((x) => x.count))
      // Each count is a real constraint: one feature's quotas (or a pair's) keep fewer panels than k of n.
      const binom = binomialRow(pool.respondents.length, c.k)[c.k]!
      for (const x of c.counts) expect(BigInt(x.count) < binom && BigInt(x.count) > 0n).toBe(true)
    })
  }
})
