/**
 * One measurement of bench/streaming-kinds.bench.ts, in its own process (so its peak RSS is its own):
 * `op` is `shuffle-stream`, `shuffle-memory`, `weighted-stream`, `weighted-memory` or `idle`; `dir`
 * holds `entries.txt`, `entries.csv` (`name,tickets`) and the two commitments the parent made. A
 * `-stream` op draws with `orbitdraw/node` (`streamDrawFile`, the proof written by `writeProofFile`, as
 * `orbitdraw draw` does); a `-memory` op reads the list whole as the CLI's in-memory reader does, then
 * `drawFromBlock` + `serializeProof`, written to a file. Both run the built package (`dist/`). Prints
 * `{ ms, maxRssMiB, sha256 }` (the proof's hash, which the parent compares) as one JSON line.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildChain } from '../test/helpers/chain.js'

const DIST = new URL('../dist/', import.meta.url)
const { streamDrawFile, writeProofFile } = (await import(new URL('node/index.js', DIST).href)) as typeof import('../src/node/index.js')
const { drawFromBlock, serializeProof, parseCommitment } = (await import(new URL('core/index.js', DIST).href)) as typeof import('../src/core/index.js')
const { readParticipants } = (await import(new URL('cli/participants-file.js', DIST).href)) as typeof import('../src/cli/participants-file.js')

const [op, dir] = process.argv.slice(2) as [string, string]
const file = (name: string): string => join(dir, name)
const block = buildChain(12, 'streaming-kinds')[10]!
const weighted = op.startsWith('weighted')
let ms = 0
let sha256 = ''
if (op !== 'idle') {
  const commitment = parseCommitment(readFileSync(file(weighted ? 'weighted.commitment.json' : 'shuffle.commitment.json'), 'utf8'))
  const out = file(`${op}.proof.json`)
  const t0 = performance.now()
  if (op.endsWith('-stream')) {
    const list = await streamDrawFile(weighted ? file('entries.csv') : file('entries.txt'), weighted ? { column: 'name', weightColumn: 'tickets' } : {})
    const proof = await list.prove(list.prepare(commitment), block)
    await writeProofFile(out, (sink) => list.write(proof, sink), { overwrite: true })
  } else {
    const participants = await readParticipants(weighted ? file('entries.csv') : file('entries.txt'), weighted ? { column: 'name', weightColumn: 'tickets' } : {})
    writeFileSync(out, serializeProof(drawFromBlock(commitment, participants, block)))
  }
  ms = performance.now() - t0
  sha256 = createHash('sha256').update(readFileSync(out)).digest('hex')
}
process.stdout.write(`${JSON.stringify({ ms, maxRssMiB: process.resourceUsage().maxRSS / 1024, sha256 })}\n`)
