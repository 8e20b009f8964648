/**
 * Sortition at assembly sizes through the CLI against the emulator (issue 22, item 1): for each
 * instance of `sortition-sizes.bench.ts`, `orbitdraw commit --pool --quotas --panel` (planning,
 * counting, gate, time-stamping by the emulator's authority), then, once the target block is out,
 * `orbitdraw draw` and `orbitdraw verify` (strict, trusting the emulator's beacon and authority), each
 * a fresh `node` process of the built binary (`npm run build` first), timed as a whole (start-up
 * included). Goals: commit ≤ 10 s, draw ≤ 5 s after the block, verify ≤ 5 s. `SIZES_CASES=3,4` runs only
 * those cases (1-based, as in sortition-sizes); `SIZES_CPU_PROF=DIR` runs every command under
 * `node --cpu-prof --cpu-prof-dir=DIR` (one `.cpuprofile` per process, for Chrome DevTools).
 *
 * `SIZES_CLI_BEFORE=DIR` (a folder with a `package.json` and the `dist/` of another build, e.g. main's:
 * `mkdir -p tmp/base && cp -r dist package.json tmp/base/ && ln -s ../../node_modules tmp/base/`) runs
 * that build's binary beside this one in the same run, alternately, each with its own commitment, and
 * shows it as the baseline: the commit and the first draw once each (this build first), the draw after
 * the block and verify 3 times each (ABBAAB), their median. A draw started right after its commit (it waits
 * for the block, as an organizer runs it) is timed from the target block's publication to its exit. Where
 * `/usr/bin/time` exists, each row also gives the process's CPU time (user +
 * system), which a loaded machine stretches less than the wall time. The emulator publishes a block every
 * 250 ms (`SIZES_CLI_INTERVAL_MS` to change it; Orbitport's beacon: 60 s): a draw fetches every block
 * from the head down to the commitment's `after` block, one request after another, so each second
 * between the commit and the draw adds 4 requests; a draw that waits for the block fetches them while
 * it waits (each new head walked down as it is seen), the blocks published since its last poll after.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BenchRow } from './harness.js'
import { makePool } from '../src/core/sortition/pool.js'
import { startEmulator } from '../src/emulator/index.js'
import { poolRows, quotas } from './panel-fixture.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
/** The `orbitdraw` binary of the build in `root` (its `package.json` `bin`). */
async function binOf(root: string): Promise<string> {
  return join(root, (JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { bin: { orbitdraw: string } }).bin.orbitdraw)
}
const BIN = await binOf(ROOT)
const BEFORE = process.env.SIZES_CLI_BEFORE === undefined ? undefined : await binOf(resolve(process.env.SIZES_CLI_BEFORE))
/** GNU time, for each process's CPU time (user + system), when installed. */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined

const CASES: { n: number; features: number; k: number; slack: number }[] = [
  { n: 2000, features: 6, k: 40, slack: 2 },
  { n: 2000, features: 6, k: 40, slack: 1 },
  { n: 2000, features: 6, k: 100, slack: 2 },
  { n: 2000, features: 6, k: 100, slack: 3 },
  { n: 2000, features: 6, k: 150, slack: 3 },
  { n: 3000, features: 6, k: 200, slack: 3 },
  { n: 2000, features: 8, k: 40, slack: 2 },
]

interface Run {
  code: number | null
  stdout: string
  stderr: string
  ms: number
  /** CPU time (user + system) in ms, when `/usr/bin/time` measured it. */
  cpuMs?: number
}

/** Runs the binary (`bin`, default this build's); resolves with its exit code, output, wall time and CPU time. */
async function cli(args: readonly string[], cwd: string, env: Record<string, string>, bin = BIN): Promise<Run> {
  const cpuFile = TIME === undefined ? undefined : join(cwd, `.cpu-${process.pid}`)
  const run = await new Promise<Run>((resolve, reject) => {
    const t0 = performance.now()
    const prof = process.env.SIZES_CPU_PROF
    const node = [process.execPath, ...(prof === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${prof}`]), bin, ...args]
    const [cmd, ...argv] = cpuFile === undefined ? node : [TIME!, '-f', '%U %S', '-o', cpuFile, ...node]
    const child = spawn(cmd!, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - t0 }))
  })
  if (cpuFile !== undefined) {
    const [user, system] = (await readFile(cpuFile, 'utf8')).trim().split('\n').pop()!.split(' ').map(Number)
    if (Number.isFinite(user) && Number.isFinite(system)) run.cpuMs = (user! + system!) * 1000
  }
  return run
}

/** Median of the runs' wall times, with the CPU time of the same run. */
function median(runs: readonly Run[]): Run {
  return [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)]!
}

/** `, CPU n ms` when measured. */
function cpu(run: Run): string {
  return run.cpuMs === undefined ? '' : `, CPU ${run.cpuMs.toFixed(0)} ms`
}

export default async function (): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const emu = await startEmulator({ beacon: { intervalMs: Number(process.env.SIZES_CLI_INTERVAL_MS ?? 250), keyType: 'Ed25519', initialBlocks: 3 } })
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
      // This build first, then the baseline's (if any), each once per command in alternating order (ABBA).
      const builds = [{ tag: '', bin: BIN }, ...(BEFORE === undefined ? [] : [{ tag: '.before', bin: BEFORE }])]
      const reps = BEFORE === undefined ? 1 : 3
      const alternately = async (times: number, run: (b: (typeof builds)[number]) => Promise<Run>): Promise<Run[][]> => {
        const out: Run[][] = builds.map(() => [])
        for (let i = 0; i < times; i++) {
          const order = i % 2 === 0 ? builds.map((_, j) => j) : builds.map((_, j) => builds.length - 1 - j)
          for (const j of order) out[j]!.push(await run(builds[j]!))
        }
        return out
      }
      const row = (name: string, runs: Run[][], goal?: { ms: number; ok: (r: Run) => boolean }): BenchRow => {
        const [now, was] = runs.map(median)
        const cpuText = `${cpu(now!)}${was === undefined ? '' : `; main: ${was.ms.toFixed(0)} ms${cpu(was)}`}`
        return { name: `${label}: ${name}${cpuText === '' ? '' : ` (${cpuText.replace(/^, /, '')})`}${runs[0]!.length > 1 ? `, median of ${runs[0]!.length}` : ''}`, value: now!.ms, unit: 'ms', ...(was === undefined ? {} : { baseline: { name: 'main', value: was.ms } }), ...(goal === undefined ? {} : { goal: `≤ ${goal.ms} ms`, met: goal.ok(now!) && now!.ms <= goal.ms }) }
      }
      const drawArgs = (b: (typeof builds)[number]): string[] => ['draw', `c${ci}${b.tag}.json`, '--participants', `c${ci}${b.tag}.participants.txt`, '-o', `p${ci}${b.tag}.json`, '--force']
      // Each build (this one first) commits, then runs `draw` at once as an organizer does: it waits for the
      // target block. That draw is timed from the target's publication (the bench's emulator's head, looked at
      // every 5 ms) to the process's exit: what is left to do once the block is out.
      const commits: Run[][] = builds.map(() => [])
      const waited: Run[][] = builds.map(() => [])
      const lead: number[] = []
      for (const [j, b] of builds.entries()) {
        const run = await cli(['commit', '--pool', 'pool.csv', '--quotas', 'quotas.csv', '--panel', String(c.k), '--alternates', '5', '--delay', `${delayS}s`, '-o', `c${ci}${b.tag}.json`], dir, env, b.bin)
        commits[j]!.push(run)
        if (run.code !== 0) break
        const target = (JSON.parse(await readFile(join(dir, `c${ci}${b.tag}.json`), 'utf8')) as { commitment: { target: number } }).commitment.target
        let publishedAt: number | undefined
        const watch = setInterval(() => {
          if (publishedAt === undefined && emu.beacon.head().sequence >= target) publishedAt = performance.now()
        }, 5)
        const start = performance.now()
        const drawn = await cli(drawArgs(b), dir, env, b.bin).finally(() => clearInterval(watch))
        lead.push(publishedAt === undefined ? -Infinity : (publishedAt - start) / 1000)
        waited[j]!.push({ ...drawn, ms: start + drawn.ms - (publishedAt ?? start + drawn.ms) })
      }
      const committed = commits[0]![0]!
      const refused = committed.code !== 0 ? (/[A-Z_]{8,}/.exec(committed.stderr)?.[0] ?? `exit ${committed.code}`) : undefined
      const commitment = refused === undefined ? (JSON.parse(await readFile(join(dir, `c${ci}.json`), 'utf8')) as { commitment: { draw: { plan?: number; maxRounds?: number; exact: string[] } } }).commitment : undefined
      const how = commitment === undefined ? `refused ${refused}` : `plan method ${commitment.draw.plan ?? 1}${commitment.draw.maxRounds === undefined ? '' : `, maxRounds ${commitment.draw.maxRounds.toLocaleString('en')}`}, exact ${commitment.draw.exact.join(', ')}`
      rows.push(row(`commit (${how}; time-stamped)`, commits, { ms: 10_000, ok: () => commitment !== undefined }))
      if (commitment === undefined) continue
      const failedBefore = commits[1]?.[0]
      if (failedBefore !== undefined && failedBefore.code !== 0) throw new Error(`the baseline's commit failed (exit ${failedBefore.code}): ${failedBefore.stderr.slice(0, 400)}`)
      const early = lead.every((x) => x > 0)
      rows.push(row(`draw started at the commit, from the block to the proof (${early ? `started ${lead.map((x) => x.toFixed(1)).join(' / ')} s before it` : 'NOT started before the block'}; exit ${waited[0]![0]!.code}; CPU of the whole process)`, waited, { ms: 5000, ok: (r) => r.code === 0 && early }))
      const firsts = await alternately(1, (b) => cli(drawArgs(b), dir, env, b.bin))
      const first = firsts[0]![0]!
      if (process.env.SIZES_DEBUG !== undefined) process.stderr.write(`commit:\n${committed.stdout}\n${committed.stderr}\nfirst draw ${first.ms} ms:\n${first.stdout.slice(0, 600)}\n${first.stderr}\n`)
      rows.push(row(`first draw after the block (fetches the chain from the head; exit ${first.code})`, firsts))
      // Timed: more draws of the same commitments, the block surely out (the first may have waited for it).
      const draws = await alternately(reps, (b) => cli(drawArgs(b), dir, env, b.bin))
      const ok = draws.every((runs) => runs.every((r) => r.code === 0))
      const proof = ok ? (JSON.parse(await readFile(join(dir, `p${ci}.json`), 'utf8')) as { outcome: { rounds: number }; chain: { blocks: unknown[] } }) : undefined
      const rounds = proof?.outcome.rounds
      // Each build draws its own commitment, so their rejection rounds (and the draw's work) differ: both are shown.
      const roundsBefore = ok && BEFORE !== undefined ? (JSON.parse(await readFile(join(dir, `p${ci}.before.json`), 'utf8')) as { outcome: { rounds: number } }).outcome.rounds : undefined
      // The proof's chain: every block from the head down to the commitment's `after` block, each fetched after the one above it.
      rows.push(row(`draw after the block (${proof === undefined ? `failed: ${draws.flat().find((r) => r.code !== 0)?.stderr.slice(0, 80)}` : `${rounds} rounds${roundsBefore === undefined ? '' : ` (main: ${roundsBefore})`}, last proof's chain ${proof.chain.blocks.length} blocks`})`, draws, { ms: 5000, ok: () => rounds !== undefined }))
      if (rounds === undefined) continue
      const verifies = await alternately(reps, (b) => cli(['verify', `p${ci}${b.tag}.json`], dir, env, b.bin))
      const verified = verifies.every((runs) => runs.every((r) => r.code === 0))
      rows.push(row(`verify (${verified ? 'VERIFIED' : `exit ${verifies.flat().find((r) => r.code !== 0)?.code}`})`, verifies, { ms: 5000, ok: () => verified }))
    }
  } finally {
    await emu.stop()
    await rm(dir, { recursive: true, force: true })
  }
  return rows
}
