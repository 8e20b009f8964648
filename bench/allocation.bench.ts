/**
 * The H-1B-shaped staged draw at national scale (issue 27): 400,000 registrations with a wage level
 * (I to IV, entered 1, 2, 3, 4 times: integer weights) and a degree, 65,000 regular selections weighted
 * by wage level, then 20,000 among the remaining advanced-degree registrations (85,000 in all), committed,
 * drawn and verified (public list, full disclosure) through the public API, each operation in a fresh
 * process with its peak resident memory; beside a plain `weighted` pick of 85,000 of the same 400,000
 * registrations with the same weights, in the same run. The yardstick row of each is a process that
 * only reads the operation's inputs. `npm run bench -- allocation`.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchRow } from './harness.js'
import { commit, drawFromBlock, serializeProof } from '../src/core/index.js'
import type { StageInput } from '../src/core/kinds/index.js'
import { stagesDraw } from '../src/core/kinds/index.js'
import { makePool } from '../src/core/sortition/index.js'
import { BEACON_NAME, buildChain } from '../test/helpers/chain.js'

const N = 400_000
const WEIGHTS = { I: 1, II: 2, III: 3, IV: 4 }
const CHILD = fileURLToPath(new URL('./allocation-child.ts', import.meta.url))
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url))

/** Registration i: wage level by a fixed mix (I 30 %, II 35 %, III 20 %, IV 15 %), degree advanced for 40 %. */
function registration(i: number): { id: string; wage: string; degree: string } {
  const r = (i * 2654435761) % 100
  const wage = r < 30 ? 'I' : r < 65 ? 'II' : r < 85 ? 'III' : 'IV'
  return { id: `R${String(i).padStart(7, '0')}`, wage, degree: (i * 40503) % 100 < 40 ? 'advanced' : 'bachelor' }
}

function child(dir: string, kind: string, op: string): { ms: number; maxRssMiB: number } {
  const r = spawnSync(TSX, [CHILD, dir, kind, op], { encoding: 'utf8', maxBuffer: 1 << 20 })
  if (r.status !== 0) throw new Error(`allocation bench child ${kind} ${op} failed: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { ms: number; maxRssMiB: number }
}

export default async function (): Promise<BenchRow[]> {
  const chain = buildChain(12, 'allocation-bench')
  const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, label: 'H-1B-shaped bench' }
  const regs = Array.from({ length: N }, (_, i) => registration(i))
  const pool = makePool(['degree', 'wage'], regs.map((r) => ({ id: r.id, values: [r.degree, r.wage] })))
  const stages: StageInput[] = [
    { name: 'regular', method: 'weighted', count: 65_000, weightBy: 'wage', weights: WEIGHTS },
    { name: 'advanced degree', method: 'weighted', count: 20_000, where: { degree: ['advanced'] }, weightBy: 'wage', weights: WEIGHTS },
  ]
  const staged = stagesDraw(pool, stages)
  const weighted = { draw: { kind: 'weighted' as const, count: 85_000 }, participants: regs.map((r) => ({ entry: `${r.id}|wage=${r.wage}`, weight: WEIGHTS[r.wage as keyof typeof WEIGHTS] })) }
  const dir = await mkdtemp(join(tmpdir(), 'orbitdraw-allocation-bench-'))
  const rows: BenchRow[] = []
  try {
    for (const [kind, input] of [['stages', staged], ['weighted', weighted]] as const) {
      const { commitment, json } = commit({ ...base, draw: input.draw, participants: input.participants as never })
      const proof = serializeProof(drawFromBlock(commitment, input.participants as never, chain[10]!))
      await writeFile(join(dir, `${kind}.participants.json`), JSON.stringify(input.participants))
      await writeFile(join(dir, `${kind}.draw.json`), JSON.stringify(input.draw))
      await writeFile(join(dir, `${kind}.commitment.json`), JSON.stringify(json))
      await writeFile(join(dir, `${kind}.proof.json`), proof)
      const label = kind === 'stages' ? 'stages: 65,000 weighted + 20,000 advanced of 400,000' : 'weighted: pick 85,000 of 400,000 (same weights)'
      const yard = child(dir, kind, 'read')
      for (const op of ['commit', 'draw', 'verify'] as const) {
        const m = child(dir, kind, op)
        rows.push({ name: `${label}: ${op} time`, value: Math.round(m.ms), unit: 'ms' })
        rows.push({ name: `${label}: ${op} peak RSS (reading the inputs only: ${Math.round(yard.maxRssMiB)} MiB; proof ${(proof.length / 1048576).toFixed(1)} MiB)`, value: Math.round(m.maxRssMiB), unit: 'MiB' })
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
  return rows
}
