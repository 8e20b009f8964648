/**
 * Writes `test/vectors/allocation.json`: `stages` and `preference-lottery` vectors with every
 * intermediate value (docs/spec.md, Allocation kinds). Run: `npx tsx scripts/make-allocation-vectors.ts`.
 * Regenerate only on a deliberate protocol change.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { allocationVectorInputs, runAllocationVector } from '../test/core/allocation/vector-cases.js'

const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'vectors', 'allocation.json')
const description =
  'orbitdraw allocation vectors (docs/spec.md, Allocation kinds). seed = the 32-byte seed (hex) of the ChaCha20 stream; participants = the committed entries in (type, id) order; draw = the commitment\'s draw (canonical form). ' +
  'stages: per stage the eligible committed indices (ascending, earlier winners excluded), the target count, the winners in rank order. preference: order = every index in rank order; per category its ranked claimants and winners; general = units and winners. consumed = stream bytes read by the whole draw.'
writeFileSync(file, JSON.stringify({ description, cases: allocationVectorInputs().map(runAllocationVector) }, null, 1) + '\n')
console.log(`wrote ${file}`)
