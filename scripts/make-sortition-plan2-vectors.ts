/**
 * Writes `test/vectors/sortition-plan2.json`: plan method 2 vectors (docs/spec.md, Plan methods) with
 * every intermediate value. Run: `npx tsx scripts/make-sortition-plan2-vectors.ts`. Regenerate only
 * on a deliberate protocol change.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { plan2Inputs, runPlan2 } from '../test/core/sortition/plan2-cases.js'

const here = dirname(fileURLToPath(import.meta.url))
const file = join(here, '..', 'test', 'vectors', 'sortition-plan2.json')
const cases = plan2Inputs().map(runPlan2)
const description =
  'orbitdraw sortition plan method 2 vectors (docs/spec.md, Plan methods). Pool rows are [id, values...] under header; quotas are [feature, value, min, max]; ' +
  'method1Kept = panels kept by method 1\'s gate (2,000 trials on SHA-256("orbitdraw sortition acceptance v1"), fewer than 7: refused); ' +
  'method2Trials / method2Kept = trials drawn and kept by method 2\'s sequential gate (SHA-256("orbitdraw sortition acceptance v2"), stops at the 12th kept, at most 40,000); ' +
  'cost = the work bound\'s round, rounds (400,000) and draw; rounds, members (ids) and consumed (stream bytes) = the draw on seed.'
writeFileSync(file, JSON.stringify({ description, cases }, null, 1) + '\n')
console.log(`wrote ${cases.length} case(s) to ${file}`)
