/**
 * Writes `test/vectors/sortition.json`: `panel` vectors with every intermediate value (docs/spec.md,
 * Sortition). Run: `npx tsx scripts/make-sortition-vectors.ts`. Regenerate only on a deliberate
 * protocol change.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { costVectorInputs, runCostVector, runSortitionVector, sortitionVectorInputs } from '../test/core/sortition/vector-cases.js'

const here = dirname(fileURLToPath(import.meta.url))
const file = join(here, '..', 'test', 'vectors', 'sortition.json')
const cases = sortitionVectorInputs().map(runSortitionVector)
const costs = costVectorInputs().map(runCostVector)
const description =
  'orbitdraw sortition vectors (docs/spec.md, Sortition). Pool rows are [id, values...] under header; quotas are [feature, value, min, max]; ' +
  'exactFeatures in DP order; cells in DP order; relaxedCount = panels meeting the quotas of the exact features (decimal); firstRound = cell counts of ' +
  'round 1; members = ids of the kept panel; consumed = stream bytes read by the whole draw; alternates = 3 ranked alternates drawn next, consumedWithAlternates = bytes read by then; probabilities (exact plans) = numerator/denominator per type; cost = the plan\'s work bound (docs/spec.md, Work bound: words, states, transitions, keys, count, round and its parts blocks, choose, picks, keep, household, walk, rounds, draw). ' +
  'costs = work-bound vectors given as a composition (features with quotas, types [value indices..., respondents]) with plan (method), maxRounds and households when given, the bound and the verdict (ok or SORTITION_COST_LIMIT).'
writeFileSync(file, JSON.stringify({ description, cases, costs }, null, 1) + '\n')
console.log(`wrote ${cases.length} cases to ${file}`)
