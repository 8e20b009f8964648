/**
 * Writes `test/vectors/sampling.json`: fixed sampling vectors (stream bytes, uniform draws, shuffle,
 * pick, range, weighted) that any implementation of `docs/spec.md (Randomness stream and sampling)` must reproduce.
 * Run: `npx tsx scripts/make-sampling-vectors.ts`. Regenerate only on a deliberate protocol change.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runCase, vectorParams } from '../test/core/random/vector-cases.js'

const here = dirname(fileURLToPath(import.meta.url))
const file = join(here, '..', 'test', 'vectors', 'sampling.json')
const doc = {
  description:
    'orbitdraw sampling vectors (docs/spec.md (Randomness stream and sampling)). Seeds and stream bytes are hex; bigints are decimal strings; ' +
    'each case runs on a fresh stream of its seed; consumed = stream bytes read.',
  cases: vectorParams().map(runCase),
}
const lines = doc.cases.map((c) => '    ' + JSON.stringify(c))
writeFileSync(file, `{\n  "description": ${JSON.stringify(doc.description)},\n  "cases": [\n${lines.join(',\n')}\n  ]\n}\n`)
console.log(`wrote ${doc.cases.length} cases to ${file}`)
