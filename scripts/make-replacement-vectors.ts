/**
 * Writes `test/vectors/replacements.json`: `panel-replacement` vectors whose replacement plan method 1
 * refuses, committed as plan method 2 and as plan method 3 (docs/spec.md, Panel replacements). The
 * originals are panels of 40 respondents (5 two-valued features, k = 12, quotas floor/ceil of the share)
 * drawn on a fixed test chain. Run: `npx tsx scripts/make-replacement-vectors.ts`. Regenerate only on a
 * deliberate protocol change.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { commit, drawFromBlock } from '../src/core/index.js'
import { panelDraw, type PanelOutcomeJson, type PanelSpec } from '../src/core/sortition/index.js'
import { BEACON_NAME, buildChain } from '../test/helpers/chain.js'
import { proportionalQuotas, smallPool } from '../test/core/sortition/fixtures.js'
import { runReplacementVector, type ReplacementVectorInput } from '../test/core/kinds/replacement-vector-cases.js'

const CHAIN = buildChain(14, 'search')
const base = { beacon: BEACON_NAME, after: { sequence: 5, block: CHAIN[5]!.cid }, label: 's' }

function input(name: string, poolSeed: number, drop: number, seed: string): ReplacementVectorInput {
  const pool = smallPool(40, [2, 2, 2, 2, 2], poolSeed)
  const { draw, participants } = panelDraw(pool, proportionalQuotas(pool, 12, 0), 12)
  const { commitment, cid } = commit({ ...base, target: 8, draw, participants })
  const proof = drawFromBlock(commitment, participants, CHAIN[8]!)
  const members = (proof.outcome as PanelOutcomeJson).members.map((m) => ({ index: m.index }))
  return { name, original: { commitment: { target: 8, draw: JSON.parse(JSON.stringify(draw)) as PanelSpec }, seed: proof.seed, outcome: { members } }, originalCid: cid, dropped: members.slice(0, drop).map((m) => m.index), exactFeatures: [], seed }
}

const here = dirname(fileURLToPath(import.meta.url))
const file = join(here, '..', 'test', 'vectors', 'replacements.json')
const cases = [input('method 1 refuses, method 2 admits: "plan": 2', 10, 4, '0a'.repeat(32)), input('methods 1 and 2 refuse, method 3 admits: "plan": 3, maxRounds', 11, 4, '0b'.repeat(32))].map(runReplacementVector)
const description =
  'orbitdraw panel-replacement plan-method vectors (docs/spec.md, Panel replacements). original = the original panel commitment (target, draw), seed and members (committed indices); ' +
  'dropped = committed indices; exactFeatures = the replacement plan\'s exact features; spec = the panel-replacement draw panelReplacementDraw commits (plan, maxRounds); available = the sub-pool (committed indices); ' +
  'reduced = the reduced quotas (min, max per feature value); method1Kept = trials kept by method 1\'s gate (2,000 trials on its stream; fewer than 7: refused); method2StreamKeptAt = the 1-based trials kept on method 2\'s gate stream, ' +
  'up to the 12th (plan 2) or the 10th (plan 3: maxRounds = 16 x the 10th); cost = the work bound with the committed round cap; rounds, replacements, members, consumed = the draw on seed (stream bytes read).'
writeFileSync(file, JSON.stringify({ description, cases }, null, 1) + '\n')
console.log(`wrote ${cases.length} cases to ${file}`)
