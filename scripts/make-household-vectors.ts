/**
 * Writes `test/vectors/households.json`: `panel` vectors with a household rule and every round of the
 * draw, or for a draw of thousands of rounds (plan method 3) their compact record (docs/spec.md,
 * Households, Vectors). Run: `npx tsx scripts/make-household-vectors.ts`. Regenerate only on
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
  '(committed indices); plan = the committed plan method when not 1 (then gateKept = the trials of method 2\'s gate with households, on its stream from the start, kept by both rules, up to the 12th (plan 2) or the 10th (plan 3, with maxRounds = 16 x the 10th)); rounds = every round of the draw on the seed\'s stream: its relaxed panel (committed indices) and verdict (quota: breaks a quota ' +
  'of a feature outside exact; household: two members share a household; kept); a case with compact: true has roundsCompact instead (docs/spec.md, Households, Vectors: count, verdicts tally, sha256 = the running SHA-256 h_r = SHA-256(h_{r-1} || u32be(r) || verdict byte 0 quota/1 household/2 kept || u32be of each member) from h_0 = 32 zero bytes, ' +
  'checkpoints = h_r at every checkpointEvery-th round, first and last = the first and last 3 rounds in full with offset = stream bytes read before the round and cellCounts); members, alternates = committed indices; consumed = stream bytes read ' +
  'by the panel and the alternates.'
writeFileSync(file, JSON.stringify({ description, cases }, null, 1) + '\n')
console.log(`wrote ${cases.length} cases to ${file}`)
