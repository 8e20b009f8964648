/**
 * One measured operation of bench/allocation.bench.ts in a fresh process, so that its peak resident
 * memory is its own: `tsx bench/allocation-child.ts DIR KIND OP`, KIND `stages` or `weighted`, OP
 * `read` (read the inputs only: the yardstick), `commit`, `draw` or `verify`. Prints
 * `{ ms, maxRssMiB }`.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { commit, drawFromBlock, parseCommitment, serializeProof, verify, type DrawSpec } from '../src/core/index.js'
import { BEACON_NAME, buildChain } from '../test/helpers/chain.js'
import { ENGINE_ONLY } from './proof-fixture.js'

const [dir, kind, op] = process.argv.slice(2) as [string, 'stages' | 'weighted', 'read' | 'commit' | 'draw' | 'verify']
const chain = buildChain(12, 'allocation-bench')
const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, label: 'H-1B-shaped bench' }
const read = async (name: string): Promise<string> => readFile(join(dir, `${kind}.${name}`), 'utf8')

let ms: number
if (op === 'read' || op === 'commit' || op === 'draw') {
  const participants = JSON.parse(await read('participants.json')) as string[] | { entry: string; weight: number }[]
  const draw = JSON.parse(await read('draw.json')) as DrawSpec
  const commitmentText = op === 'draw' ? await read('commitment.json') : undefined
  const t0 = performance.now()
  if (op === 'commit') commit({ ...base, draw, participants })
  if (op === 'draw') serializeProof(drawFromBlock(parseCommitment(JSON.parse(commitmentText!)), participants, chain[10]!))
  ms = performance.now() - t0
} else {
  const text = await readFile(join(dir, `${kind}.proof.json`))
  const t0 = performance.now()
  const r = await verify(text, ENGINE_ONLY)
  ms = performance.now() - t0
  if (!r.ok) throw new Error(`the bench proof does not verify: ${r.checks.filter((c) => !c.ok).map((c) => c.name).join(', ')}`)
}
console.log(JSON.stringify({ ms, maxRssMiB: process.resourceUsage().maxRSS / 1024 }))
