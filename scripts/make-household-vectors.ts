/**
 * Writes `test/vectors/households.json`: `panel` vectors with a household rule and every round of the
 * draw (docs/spec.md, Households). Run: `npx tsx scripts/make-household-vectors.ts`. Regenerate only on
 * a deliberate protocol change.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { householdVectorInputs, runHouseholdVector } from '../test/core/sortition/household-vector-cases.js'

const here = dirname(fileURLToPath(import.meta.url))
const file = join(here, '..', 'test', 'vectors', 'households.json')
const cases = householdVectorInputs().map(runHouseholdVector)
const description =
  'orbitdraw household vectors (docs/spec.md, Households). pool = a pool CSV whose column "address" is the household value; quotas = a quotas CSV; ' +
  'the panel is committed with panelDraw (k, alternateCount alternates, exactFeatures when given, else chosen by the planner: exact); households = the committed groups ' +
  '(committed indices); plan = the committed plan method when not 1 (then gateKept = the trials of method 2\'s gate with households, on its stream from the start, kept by both rules, up to the 12th); rounds = every round of the draw on the seed\'s stream: its relaxed panel (committed indices) and verdict (quota: breaks a quota ' +
  'of a feature outside exact; household: two members share a household; kept); members, alternates = committed indices; consumed = stream bytes read ' +
  'by the panel and the alternates.'
writeFileSync(file, JSON.stringify({ description, cases }, null, 1) + '\n')
console.log(`wrote ${cases.length} cases to ${file}`)
