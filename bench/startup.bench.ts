/**
 * CLI start-up: wall time of `orbitdraw --help`, `orbitdraw verify --help` and `orbitdraw verify FILE` (the
 * command `package.json` `bin` points at: `dist/bin/orbitdraw.cjs`, which turns on Node's compile cache
 * where Node has it, then runs `verify` from the esbuild bundle `dist/bin/orbitdraw-verify.cjs` and every
 * other command line from the tsc output `dist/cli/main.js`; a fresh process each time) against
 * `node -e 0` in the same run, interleaved, median of 21 after 2 warm-ups (the machine may be a shared
 * VM: fewer rounds moved the ratios by ±0.2x). Each round runs, beside `node -e 0`:
 *
 * - the command as users run it, without a compile cache (`NODE_DISABLE_COMPILE_CACHE=1`, which is
 *   what Node 20 does anyway: it has no `module.enableCompileCache`) (the goal's row: a strict verify at
 *   most 2.2x `node -e 0`, issue 25);
 * - on Node 22.1 and later only, the same with Node's compile cache in a directory of the bench's own
 *   that the warm-ups filled;
 * - for `verify`, the unbundled tsc output `dist/cli/main.js` (what `bin` runs for the other commands).
 * The proofs are the demo-sized pick 3 of 12: one unsigned and untimestamped (verified with the
 * rules relaxed: what an engine-only verify loads) and one with an RSA-signed IPNS record and an RFC 3161
 * token (the strict policy: the record decoder and the time-stamp checks load too). The load average
 * (one minute) before and after is reported: the machine may be shared, read the ratios. The last row
 * repeats the goal's ratio on its own. For the goal's case the same rounds also time CPU (user + system
 * time of the process, `process.cpuUsage()` at exit, written by a one-line `--require` preload given to
 * `node -e 0` and the command alike, in runs of their own so the wall rows stay as they were): on a
 * shared machine the wall ratio moves with the load, the CPU ratio much less. Needs `npm run build` first.
 *
 * `NODE_EXTRA_CA_CERTS` is removed from every run's environment: when set (this project's build machines
 * set it to the system's 220 KB bundle), Node reads and parses that file before any JavaScript runs, which
 * makes `node -e 0` several times slower (441 M of its 526 M instructions) and flatters every ratio. Users
 * rarely set it. When the bench's own environment has it, the goal's case is timed once more with it kept,
 * beside its own `node -e 0`, in a row of its own.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import module from 'node:module'
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeVerifyFixtures } from '../test/cli/verify-fixtures.js'
import type { BenchRow } from './harness.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
/** What `orbitdraw` runs when installed: read from `package.json` `bin`, so the bench cannot drift from it. */
const BIN = join(ROOT, (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: { orbitdraw: string } }).bin.orbitdraw)
/** The unbundled CLI (tsc output): what `bin` runs for every command but `verify`. */
const UNBUNDLED = join(ROOT, 'dist', 'cli', 'main.js')
const RUNS = 21
const WARMUP = 2

/** Node's compile cache: `module.enableCompileCache` exists (Node 22.1 and later). */
const HAS_COMPILE_CACHE = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function'
/** The start-up goal of a strict `verify`, as a multiple of `node -e 0` (Node 20, no compile cache). */
const GOAL = 2.2

/** Wall time in ms of one fresh `node ...args` (which must exit 0); `cache`: Node's compile cache directory, or none. */
function runNode(args: string[], cache?: string, keepExtraCa = false): number {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_COMPILE_CACHE: cache }
  if (!keepExtraCa) delete env.NODE_EXTRA_CA_CERTS
  if (cache === undefined) env.NODE_DISABLE_COMPILE_CACHE = '1'
  else delete env.NODE_DISABLE_COMPILE_CACHE
  const t0 = performance.now()
  const r = spawnSync(process.execPath, args, { stdio: 'ignore', env })
  const ms = performance.now() - t0
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}`)
  return ms
}

/** Preload that writes the process's CPU time (user + system, microseconds) to fd 3 at exit. */
const CPU_PRELOAD = "process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeSync(3, String(u.user + u.system)) })\n"

/** CPU time in ms (user + system) of one fresh `node ...args` without a compile cache, through the preload file `preload`. */
function cpuNode(args: string[], preload: string): number {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' }
  delete env.NODE_EXTRA_CA_CERTS
  const r = spawnSync(process.execPath, ['--require', preload, ...args], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'], env })
  const us = Number(r.output[3]?.toString())
  if (r.status !== 0 || !Number.isFinite(us)) throw new Error(`node ${args.join(' ')} exited with ${r.status}`)
  return us / 1000
}

const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!

interface Medians {
  readonly base: number
  readonly cold: number
  readonly cached: number
  readonly unbundled: number
  /** CPU time (user + system) of `node -e 0` and of the command without a cache (the goal's case only, else NaN). */
  readonly baseCpu: number
  readonly coldCpu: number
  /** `node -e 0` and the command without a cache, with the bench's `NODE_EXTRA_CA_CERTS` kept (the goal's case only, when set, else NaN). */
  readonly baseCa: number
  readonly coldCa: number
}

/** Medians of `node -e 0` and the command's forms (see the module comment), run in interleaved rounds. */
function timeForms(args: string[], dir: string, cpu: boolean): Medians {
  const runs: Record<keyof Medians, number[]> = { base: [], cold: [], cached: [], unbundled: [], baseCpu: [], coldCpu: [], baseCa: [], coldCa: [] }
  const withCa = cpu && process.env.NODE_EXTRA_CA_CERTS !== undefined
  const cache = mkdtempSync(join(dir, 'cache-'))
  const preload = join(dir, 'cpu-time.cjs')
  if (cpu) writeFileSync(preload, CPU_PRELOAD)
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const b = runNode(['-e', '0'])
    const c = runNode([BIN, ...args])
    const w = HAS_COMPILE_CACHE ? runNode([BIN, ...args], cache) : Number.NaN
    const u = args[0] === 'verify' ? runNode([UNBUNDLED, ...args]) : Number.NaN
    const bc = cpu ? cpuNode(['-e', '0'], preload) : Number.NaN
    const cc = cpu ? cpuNode([BIN, ...args], preload) : Number.NaN
    const ba = withCa ? runNode(['-e', '0'], undefined, true) : Number.NaN
    const ca = withCa ? runNode([BIN, ...args], undefined, true) : Number.NaN
    if (i < WARMUP) continue
    runs.base.push(b)
    runs.cold.push(c)
    runs.cached.push(w)
    runs.unbundled.push(u)
    runs.baseCpu.push(bc)
    runs.coldCpu.push(cc)
    runs.baseCa.push(ba)
    runs.coldCa.push(ca)
  }
  return { base: median(runs.base), cold: median(runs.cold), cached: median(runs.cached), unbundled: median(runs.unbundled), baseCpu: median(runs.baseCpu), coldCpu: median(runs.coldCpu), baseCa: median(runs.baseCa), coldCa: median(runs.coldCa) }
}

export default async function (): Promise<BenchRow[]> {
  if (!existsSync(BIN) || !existsSync(UNBUNDLED)) throw new Error(`${BIN} or ${UNBUNDLED} is missing: run npm run build first`)
  const loadBefore = loadavg()[0]!
  const dir = await mkdtemp(join(tmpdir(), 'orbitdraw-startup-'))
  try {
    const beacon = await writeVerifyFixtures(dir)
    const plain = join(dir, 'plain.json')
    const signed = join(dir, 'signed.json')
    const tsa = join(dir, 'tsa.pem')
    const rows: BenchRow[] = []
    let goalRow: BenchRow | undefined
    const cases: [string, string[]][] = [
      ['orbitdraw --help', ['--help']],
      ['orbitdraw verify --help', ['verify', '--help']],
      ['orbitdraw verify demo proof (unsigned, untimestamped; --allow-unsigned --allow-untimestamped)', ['verify', plain, '--allow-unsigned', '--allow-untimestamped']],
      ['orbitdraw verify demo proof (RSA-signed record + RFC 3161 token, strict policy)', ['verify', signed, '--trust-beacon', beacon, '--trust-tsa', tsa]],
    ]
    for (const [name, args] of cases) {
      const strict = name.includes('strict')
      const r = timeForms(args, dir, strict)
      const base = { name: 'node -e 0', value: r.base }
      const row: BenchRow = { name: `${name} (start-up, fresh process, no compile cache)`, value: r.cold, unit: 'ms', baseline: base, ...(strict ? { goal: `<= ${GOAL}x baseline`, met: r.cold <= GOAL * r.base } : {}) }
      rows.push(row)
      if (strict) goalRow = row
      if (HAS_COMPILE_CACHE) rows.push({ name: "the same, Node's compile cache filled by an earlier run (module.enableCompileCache)", value: r.cached, unit: 'ms', baseline: base })
      if (args[0] === 'verify') rows.push({ name: 'the same, unbundled (tsc output dist/cli/main.js)', value: r.unbundled, unit: 'ms', baseline: base })
      if (strict) rows.push({ name: 'the same, CPU time (user + system), no compile cache', value: r.coldCpu, unit: 'ms CPU', baseline: { name: 'node -e 0, CPU time', value: r.baseCpu } })
      if (strict && !Number.isNaN(r.coldCa)) rows.push({ name: "the same, with this machine's NODE_EXTRA_CA_CERTS kept (Node parses that CA file first: node -e 0 is slower, the ratio lower)", value: r.coldCa, unit: 'ms', baseline: { name: 'node -e 0 with NODE_EXTRA_CA_CERTS', value: r.baseCa } })
    }
    rows.push({ name: 'load average (1 min) before the start-up rows', value: loadBefore, unit: '' }, { name: 'load average (1 min) after them', value: loadavg()[0]!, unit: '' })
    if (goalRow !== undefined) {
      const ratio = goalRow.value / goalRow.baseline!.value
      rows.push({ name: `GOAL (issue 25): strict orbitdraw verify / node -e 0, ${process.version}, no compile cache, no NODE_EXTRA_CA_CERTS = ${ratio.toFixed(2)}x (${goalRow.value.toFixed(0)} / ${goalRow.baseline!.value.toFixed(0)} ms)`, value: ratio, unit: 'x', goal: `<= ${GOAL}x`, met: ratio <= GOAL })
    }
    return rows
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
