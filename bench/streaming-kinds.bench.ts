/**
 * The streamed draw of the kinds whose proof holds every entry (issue 25 item 4), beside the in-memory
 * draw in the same run: a `shuffle` of a file of 1,000,000 lines (its ranking written from the file in
 * windows) and a `weighted` pick 10 of a CSV of 1,000,000 rows (its weight column streamed, every entry
 * and weight in the proof). Each draw runs in its own process (bench/streaming-kinds-child.ts, the
 * built package: `npm run build` first), so that its peak RSS is its own; an idle process (the same
 * imports, no draw) is the floor of every RSS. Both draws of a kind must write the same bytes (the
 * proofs' SHA-256 are compared before any figure is reported). `npm run bench -- streaming-kinds`.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { commit } from '../src/core/commitment.js'
import { buildChain, BEACON_NAME } from '../test/helpers/chain.js'
import type { BenchRow } from './harness.js'

const N = Number(process.env.STREAMING_KINDS_N ?? 1_000_000)
const CHILD = fileURLToPath(new URL('./streaming-kinds-child.ts', import.meta.url))
if (!existsSync(new URL('../dist/node/index.js', import.meta.url))) throw new Error('dist/node/index.js is missing: run npm run build first')

interface Run {
  ms: number
  maxRssMiB: number
  sha256: string
}

function child(op: string, dir: string): Run {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CHILD, op, dir], { encoding: 'utf8', maxBuffer: 1 << 20 })
  if (r.status !== 0) throw new Error(`streaming-kinds ${op} failed: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Run
}

export default async function (): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'orbitdraw-streaming-kinds-'))
  try {
    const entries = Array.from({ length: N }, (_, i) => `participant-${String(i).padStart(7, '0')}`)
    const weighted = entries.map((entry, i) => ({ entry, weight: 1 + ((i * 7919) % 1000) }))
    writeFileSync(join(dir, 'entries.txt'), entries.join('\n') + '\n')
    writeFileSync(join(dir, 'entries.csv'), ['name,tickets', ...weighted.map((w) => `${w.entry},${w.weight}`)].join('\n') + '\n')
    const chain = buildChain(12, 'streaming-kinds')
    const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, label: 'bench' }
    writeFileSync(join(dir, 'shuffle.commitment.json'), JSON.stringify(commit({ ...base, participants: entries, draw: { kind: 'shuffle' } }).json))
    writeFileSync(join(dir, 'weighted.commitment.json'), JSON.stringify(commit({ ...base, participants: weighted, draw: { kind: 'weighted', count: 10 } }).json))
    const idle = child('idle', dir)
    const rows: BenchRow[] = [{ name: 'idle process (the same imports, no draw): the floor of every RSS below', value: Math.round(idle.maxRssMiB), unit: 'MiB' }]
    for (const kind of ['shuffle', 'weighted'] as const) {
      const what = kind === 'shuffle' ? `shuffle of ${N.toLocaleString('en')} lines` : `weighted pick 10 of a CSV of ${N.toLocaleString('en')} rows`
      const streamed = child(`${kind}-stream`, dir)
      const memory = child(`${kind}-memory`, dir)
      if (streamed.sha256 !== memory.sha256) throw new Error(`${kind}: the streamed proof differs from the in-memory one`)
      rows.push({ name: `${what}, streamed (orbitdraw/node): peak RSS`, value: Math.round(streamed.maxRssMiB), unit: 'MiB', baseline: { name: 'in memory (read whole, drawFromBlock, serializeProof)', value: Math.round(memory.maxRssMiB) }, goal: 'below the in-memory draw', met: streamed.maxRssMiB < memory.maxRssMiB })
      rows.push({ name: `${what}, streamed (orbitdraw/node): time, proof written`, value: Math.round(streamed.ms), unit: 'ms', baseline: { name: 'in memory', value: Math.round(memory.ms) }, goal: 'reported (the streamed draw reads the file again)' })
    }
    return rows
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
