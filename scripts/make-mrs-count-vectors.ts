/**
 * Writes `test/vectors/sortition-mrs-counts.json`: the number of panels meeting the quotas of one or two
 * features, as counted by MRS (the "Maximally Random Sortition" tool of de Azevedo and Gölz, public
 * C++, an implementation independent of orbitdraw's), on the assembly-size instances of
 * `bench/sortition-sizes.bench.ts` (the bench's deterministic pools, quotas at each value's proportional
 * share ± s seats). test/core/sortition/mrs-counts.test.ts checks orbitdraw's counter against them.
 *
 * Needs MRS built (bench/mrs.ts says how): `MRS=<its main> npx tsx scripts/make-mrs-count-vectors.ts`.
 * Each instance gets every feature alone, and the pairs orbitdraw's commit counts exactly on the
 * bench's instances (origin + age at k = 40 ±1, origin + gender at k = 200 ±3).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runMrs, writeMrsInstance } from '../bench/mrs.js'
import { poolRows, quotas } from '../bench/panel-fixture.js'
import { makePool } from '../src/core/sortition/pool.js'
import { MRS_COUNT_CASES } from '../test/core/sortition/mrs-count-cases.js'

const bin = process.env.MRS
if (bin === undefined) throw new Error('set MRS to the path of MRS\'s built main (bench/mrs.ts says how to build it)')
const here = dirname(fileURLToPath(import.meta.url))
const file = join(here, '..', 'test', 'vectors', 'sortition-mrs-counts.json')
const version = process.env.MRS_COMMIT ?? 'unknown'
const tmp = mkdtempSync(join(tmpdir(), 'orbitdraw-mrs-counts-'))
try {
  const cases = MRS_COUNT_CASES.map((c, ci) => {
    const g = poolRows(c.n, c.features, undefined, c.values)
    const pool = makePool(g.names, g.rows)
    const dir = join(tmp, String(ci))
    writeMrsInstance(dir, pool, quotas(pool, c.k, c.slack))
    const sets = [...pool.features.map((f) => [f.name]), ...(c.pairs ?? [])]
    const counts = sets.map((exact) => {
      const r = runMrs(bin, dir, c.k, exact.map((name) => pool.features.findIndex((f) => f.name === name)), undefined, 600_000)
      if (!r.ok || r.count === undefined) throw new Error(`MRS failed on case ${ci + 1}, ${exact.join('+')}: ${r.error}`)
      return { exact, count: r.count.toString() }
    })
    console.log(`case ${ci + 1}: ${counts.length} counts`)
    return { ...c, counts }
  })
  const description =
    'Panel counts by MRS (github.com/gabrielmorete/maximally-random-sortition, commit ' + version + ', built with g++ -O3), ' +
    'an implementation independent of orbitdraw: for each instance (bench/panel-fixture.ts poolRows(n, features, 12345, values), ' +
    'quotas = each value\'s proportional share of k seats +- slack), count = the number of k-member panels meeting the quotas of the features in exact ' +
    '(MRS: main -path DIR -size k -count <letters>). Generator: scripts/make-mrs-count-vectors.ts.'
  writeFileSync(file, JSON.stringify({ description, cases }, null, 1) + '\n')
  console.log(`wrote ${cases.length} case(s) to ${file}`)
} finally {
  rmSync(tmp, { recursive: true, force: true })
}
