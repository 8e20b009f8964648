/**
 * Sortition at assembly sizes through the CLI against the emulator (issue 22, item 1): for each
 * instance of `sortition-sizes.bench.ts`, `orbitdraw commit --pool --quotas --panel` (planning,
 * counting, gate, time-stamping by the emulator's authority), then, once the target block is out,
 * `orbitdraw draw` and `orbitdraw verify` (strict, trusting the emulator's beacon and authority), each
 * a fresh `node` process of the built binary (`npm run build` first), timed as a whole (start-up
 * included). Goals: commit ≤ 10 s, draw ≤ 5 s after the block, verify ≤ 5 s. `SIZES_CASES=3,4` runs only
 * those cases (1-based, as in sortition-sizes); `SIZES_CPU_PROF=DIR` runs every command under
 * `node --cpu-prof --cpu-prof-dir=DIR` (one `.cpuprofile` per process, for Chrome DevTools).
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchRow } from './harness.js'
import { makePool } from '../src/core/sortition/pool.js'
import { startEmulator } from '../src/emulator/index.js'
import { poolRows, quotas } from './panel-fixture.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(ROOT, (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { bin: { orbitdraw: string } }).bin.orbitdraw)

const CASES: { n: number; features: number; k: number; slack: number }[] = [
  { n: 2000, features: 6, k: 40, slack: 2 },
  { n: 2000, features: 6, k: 40, slack: 1 },
  { n: 2000, features: 6, k: 100, slack: 2 },
  { n: 2000, features: 6, k: 100, slack: 3 },
  { n: 2000, features: 6, k: 150, slack: 3 },
  { n: 3000, features: 6, k: 200, slack: 3 },
  { n: 2000, features: 8, k: 40, slack: 2 },
]

/** Runs the binary; resolves with its exit code, output and wall time. */
function cli(args: readonly string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const prof = process.env.SIZES_CPU_PROF
    const child = spawn(process.execPath, [...(prof === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${prof}`]), BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - t0 }))
  })
}

export default async function (): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const emu = await startEmulator({ beacon: { intervalMs: 250, keyType: 'Ed25519', initialBlocks: 3 } })
  const dir = await mkdtemp(join(tmpdir(), 'orbitdraw-sortition-cli-'))
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('ORBITDRAW_') && !k.startsWith('ORBITPORT_')) env[k] = v
  Object.assign(env, { ORBITDRAW_GATEWAYS: emu.url, ORBITDRAW_BEACON: emu.beaconName, ORBITDRAW_TSA: emu.tsaUrl, ORBITDRAW_TRUST_BEACONS: emu.beaconName, ORBITDRAW_TRUST_TSA: Buffer.from(emu.tsa.rootDer).toString('base64') })
  const only = process.env.SIZES_CASES?.split(',').map(Number)
  try {
    for (const [ci, c] of CASES.entries()) {
      if (only !== undefined && !only.includes(ci + 1)) continue
      const label = `CLI + emulator, ${c.n.toLocaleString('en')} x ${c.features}, k = ${c.k}, ±${c.slack}`
      const g = poolRows(c.n, c.features)
      const pool = makePool(g.names, g.rows)
      await writeFile(join(dir, 'pool.csv'), [['id', ...g.names].join(','), ...g.rows.map((r) => [r.id, ...r.values].join(','))].join('\n') + '\n')
      await writeFile(join(dir, 'quotas.csv'), ['feature,value,min,max', ...quotas(pool, c.k, c.slack).map((q) => `${q.feature},${q.value},${q.min},${q.max}`)].join('\n') + '\n')
      const delayS = 8
      const committed = await cli(['commit', '--pool', 'pool.csv', '--quotas', 'quotas.csv', '--panel', String(c.k), '--alternates', '5', '--delay', `${delayS}s`, '-o', `c${ci}.json`], dir, env)
      const refused = committed.code !== 0 ? (/[A-Z_]{8,}/.exec(committed.stderr)?.[0] ?? `exit ${committed.code}`) : undefined
      const commitment = refused === undefined ? (JSON.parse(await readFile(join(dir, `c${ci}.json`), 'utf8')) as { commitment: { draw: { plan?: number; maxRounds?: number; exact: string[] } } }).commitment : undefined
      const how = commitment === undefined ? `refused ${refused}` : `plan method ${commitment.draw.plan ?? 1}${commitment.draw.maxRounds === undefined ? '' : `, maxRounds ${commitment.draw.maxRounds.toLocaleString('en')}`}, exact ${commitment.draw.exact.join(', ')}`
      rows.push({ name: `${label}: commit (${how}; time-stamped)`, value: committed.ms, unit: 'ms', goal: '≤ 10000 ms', met: commitment !== undefined && committed.ms <= 10_000 })
      if (commitment === undefined) continue
      // The target block is about `delayS` seconds after the commit's latest block: wait about that long, then draw
      // (the first draw waits for the block if needed and fetches the chain from the head down to it).
      await new Promise((r) => setTimeout(r, delayS * 1000))
      const first = await cli(['draw', `c${ci}.json`, '--participants', `c${ci}.participants.txt`, '-o', `p${ci}.json`], dir, env)
      if (process.env.SIZES_DEBUG !== undefined) process.stderr.write(`commit:\n${committed.stdout}\n${committed.stderr}\nfirst draw ${first.ms} ms:\n${first.stdout.slice(0, 600)}\n${first.stderr}\n`)
      rows.push({ name: `${label}: first draw (waits for the block if needed, fetches the chain from the head; exit ${first.code})`, value: first.ms, unit: 'ms' })
      // Timed: a second draw of the same commitment, the block surely out (the first may have waited for it).
      const drawn = await cli(['draw', `c${ci}.json`, '--participants', `c${ci}.participants.txt`, '-o', `p${ci}.json`, '--force'], dir, env)
      const rounds = drawn.code === 0 ? (JSON.parse(await readFile(join(dir, `p${ci}.json`), 'utf8')) as { outcome: { rounds: number } }).outcome.rounds : undefined
      rows.push({ name: `${label}: draw after the block (${rounds === undefined ? `failed: ${drawn.stderr.slice(0, 80)}` : `${rounds} rounds`})`, value: drawn.ms, unit: 'ms', goal: '≤ 5000 ms', met: rounds !== undefined && drawn.ms <= 5000 })
      if (rounds === undefined) continue
      const verified = await cli(['verify', `p${ci}.json`], dir, env)
      rows.push({ name: `${label}: verify (${verified.code === 0 ? 'VERIFIED' : `exit ${verified.code}`})`, value: verified.ms, unit: 'ms', goal: '≤ 5000 ms', met: verified.code === 0 && verified.ms <= 5000 })
    }
  } finally {
    await emu.stop()
    await rm(dir, { recursive: true, force: true })
  }
  return rows
}
