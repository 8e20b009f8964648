/**
 * CLI start-up: wall time of `orbitdraw --help`, `orbitdraw verify --help` and `orbitdraw verify FILE` (the
 * command `package.json` `bin` points at: the launcher `dist/bin/orbitdraw.cjs`, which loads the esbuild
 * bundle `dist/bin/orbitdraw-cli.cjs` through the command's V8 code cache; a fresh process each time)
 * against `node -e 0` in the same run, interleaved, median of 21 after 2 warm-ups (the machine may be a
 * shared VM: fewer rounds moved the ratios by ±0.2x). Each round runs, beside `node -e 0`:
 *
 * - the command as users run it from its second run on: the compile cache on, in a directory of the
 *   bench's own that the warm-ups filled (the goal's row);
 * - its first run: the same with an empty cache directory each round (it compiles, then writes the cache);
 * - the command with the cache off (`ORBITDRAW_COMPILE_CACHE=off`: Node's own loader);
 * - the unbundled tsc output `dist/cli/main.js` (what `bin` pointed at before the bundle).
 * The proofs are the demo-sized pick 3 of 12: one unsigned and untimestamped (verified with the
 * rules relaxed: what an engine-only verify loads) and one with an RSA-signed IPNS record and an RFC 3161
 * token (the strict policy: the record decoder and the time-stamp checks load too). The load average
 * (one minute) before and after is reported: the machine may be shared, read the ratios.
 * Needs `npm run build` first.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeVerifyFixtures } from '../test/cli/verify-fixtures.js'
import type { BenchRow } from './harness.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
/** What `orbitdraw` runs when installed: read from `package.json` `bin`, so the bench cannot drift from it. */
const BIN = join(ROOT, (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: { orbitdraw: string } }).bin.orbitdraw)
/** The unbundled CLI (tsc output), the "before" column. */
const UNBUNDLED = join(ROOT, 'dist', 'cli', 'main.js')
const RUNS = 21
const WARMUP = 2

/** Wall time in ms of one fresh `node ...args` (which must exit 0), with `ORBITDRAW_COMPILE_CACHE` set to `cache`. */
function runNode(args: string[], cache = 'off'): number {
  const t0 = performance.now()
  const r = spawnSync(process.execPath, args, { stdio: 'ignore', env: { ...process.env, ORBITDRAW_COMPILE_CACHE: cache } })
  const ms = performance.now() - t0
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}`)
  return ms
}

const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!

interface Medians {
  readonly base: number
  readonly warm: number
  readonly first: number
  readonly off: number
  readonly unbundled: number
}

/** Medians of `node -e 0` and the command's four forms (see the module comment), run in interleaved rounds. */
function timeForms(args: string[], dir: string): Medians {
  const runs: Record<keyof Medians, number[]> = { base: [], warm: [], first: [], off: [], unbundled: [] }
  const warmCache = mkdtempSync(join(dir, 'cache-'))
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const b = runNode(['-e', '0'])
    const w = runNode([BIN, ...args], warmCache)
    const f = runNode([BIN, ...args], mkdtempSync(join(dir, 'first-')))
    const o = runNode([BIN, ...args])
    const u = runNode([UNBUNDLED, ...args])
    if (i < WARMUP) continue
    runs.base.push(b)
    runs.warm.push(w)
    runs.first.push(f)
    runs.off.push(o)
    runs.unbundled.push(u)
  }
  return { base: median(runs.base), warm: median(runs.warm), first: median(runs.first), off: median(runs.off), unbundled: median(runs.unbundled) }
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
    const cases: [string, string[]][] = [
      ['orbitdraw --help', ['--help']],
      ['orbitdraw verify --help', ['verify', '--help']],
      ['orbitdraw verify demo proof (unsigned, untimestamped; --allow-unsigned --allow-untimestamped)', ['verify', plain, '--allow-unsigned', '--allow-untimestamped']],
      ['orbitdraw verify demo proof (RSA-signed record + RFC 3161 token, strict policy)', ['verify', signed, '--trust-beacon', beacon, '--trust-tsa', tsa]],
    ]
    for (const [name, args] of cases) {
      const r = timeForms(args, dir)
      const base = { name: 'node -e 0', value: r.base }
      rows.push({ name: `${name} (start-up, fresh process, compile cache filled by an earlier run)`, value: r.warm, unit: 'ms', baseline: base, goal: '<= 2x baseline', met: r.warm <= 2 * r.base })
      rows.push({ name: 'the same, first run (empty compile cache: compiles, then writes it)', value: r.first, unit: 'ms', baseline: base })
      rows.push({ name: 'the same, compile cache off (ORBITDRAW_COMPILE_CACHE=off)', value: r.off, unit: 'ms', baseline: base })
      rows.push({ name: 'the same, unbundled (before: tsc output dist/cli/main.js)', value: r.unbundled, unit: 'ms', baseline: base })
    }
    rows.push({ name: 'load average (1 min) before the start-up rows', value: loadBefore, unit: '' }, { name: 'load average (1 min) after them', value: loadavg()[0]!, unit: '' })
    return rows
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
