/**
 * Writes `test/vectors/reroll.json`: `reroll` and `weighted-reroll` vectors with every intermediate
 * value (docs/spec.md, Re-rolls). Run: `npx tsx scripts/make-reroll-vectors.ts`. Regenerate only on a
 * deliberate protocol change.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rerollVectorInputs, runRerollVector } from '../test/core/kinds/reroll-vector-cases.js'

const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'vectors', 'reroll.json')
const description =
  'orbitdraw re-roll vectors (docs/spec.md, Re-rolls). participants = the committed list (entries, or {entry, weight}); ranking = the first draw\'s seed; firstWinners = its winners (pick / weightedPick of the first count on a fresh stream of ranking); ' +
  'commitment = the re-roll\'s canonical DAG-JSON, cid its CID; seed = the re-roll\'s 32-byte seed (hex; a test value, not derived from a block); excluded = X (winners and past, ascending). ' +
  'next: K, ranked = the first K of the ranking, rankingConsumed = bytes of the ranking stream read. fresh: m = entries never won, positions = the drawn positions among them, consumed = bytes of the new stream read. ' +
  'replacements in seat order, seats = the ranks they take, outcome = the proof outcome.'
writeFileSync(file, JSON.stringify({ description, cases: rerollVectorInputs().map(runRerollVector) }, null, 1) + '\n')
console.log(`wrote ${file}`)
