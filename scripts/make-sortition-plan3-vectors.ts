/**
 * Writes `test/vectors/sortition-plan3.json`: plan method 3 vectors (docs/spec.md, Plan methods) with
 * every intermediate value. Run: `npx tsx scripts/make-sortition-plan3-vectors.ts`. Regenerate only
 * on a deliberate protocol change.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { plan3Inputs, runPlan3 } from '../test/core/sortition/plan3-cases.js'

const here = dirname(fileURLToPath(import.meta.url))
const file = join(here, '..', 'test', 'vectors', 'sortition-plan3.json')
const cases = plan3Inputs().map(runPlan3)
const description =
  'orbitdraw sortition plan method 3 vectors (docs/spec.md, Plan methods). Pool rows are [id, values...] under header; quotas are [feature, value, min, max]; ' +
  'method1Kept = panels kept by method 1\'s gate (2,000 trials on SHA-256("orbitdraw sortition acceptance v1"), fewer than 7: refused); ' +
  'method2KeptAt = the 1-based numbers of the kept trials on SHA-256("orbitdraw sortition acceptance v2") within method 2\'s 40,000 (fewer than 12: refused); ' +
  'method3KeptAt = the numbers of the first 10 kept trials on the same stream (method 3\'s sequential gate); maxRounds = 16 x the number of the 10th (committed as draw.maxRounds); ' +
  'cost = the work bound\'s round, rounds (= maxRounds) and draw; rounds, members (ids) and consumed (stream bytes) = the draw on seed.'
writeFileSync(file, JSON.stringify({ description, cases }, null, 1) + '\n')
console.log(`wrote ${cases.length} case(s) to ${file}`)
