/**
 * MRS (the "Maximally Random Sortition" tool, de Azevedo and Gölz 2026, public C++:
 * github.com/gabrielmorete/maximally-random-sortition) run on this machine as a baseline of
 * `bench/sortition-sizes.bench.ts` (`SIZES_MRS=<path to MRS's built main>`), so that its time to a
 * first panel is measured in the same run as orbitdraw's instead of quoted from another machine.
 *
 * MRS is not part of this project and is not installed by it. To build it (Debian 12):
 * `apt-get install -y g++ libboost1.81-dev` (its `unordered_flat_map` needs Boost 1.81 or later), then in a
 * clone of its repository `g++ -std=c++20 -O3 -march=native -o main main.cpp -lm -fopenmp`.
 *
 * Each run is MRS's own command line for "count these features exactly, then one uniform panel":
 * `main -path DIR -size K -count <letters> -sample 1 -seed S`, on the instance written by
 * {@link writeMrsInstance}. MRS names features by letter in the order of its `categories.csv`, which is
 * written in the pool's feature order, so letter `a` is the pool's feature 0; the letters' order is
 * MRS's counting order (it matters to MRS as it does to orbitdraw's counter: the bench passes
 * orbitdraw's own counter order). MRS then draws by rejection until the panel meets every quota, the
 * same method as orbitdraw's rounds, without a gate: it commits to nothing, so it needs no bound on
 * the rounds a draw may take. The clock is the process's wall time: it includes MRS reading the two
 * CSV files (a few milliseconds for 2,000 rows) and its start (about 1 ms), which orbitdraw's "first
 * panel" rows do not have.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { QuotaRow, SortitionPool } from '../src/core/sortition/pool.js'

/** Writes the pool and quotas as MRS's `categories.csv` and `respondents.csv` in `dir` (created if missing). */
export function writeMrsInstance(dir: string, pool: SortitionPool, qrows: readonly QuotaRow[]): void {
  mkdirSync(dir, { recursive: true })
  const rank = new Map(pool.features.map((f, i) => [f.name, i]))
  const rows = [...qrows].sort((a, b) => rank.get(a.feature)! - rank.get(b.feature)!)
  const cell = (s: string): string => {
    if (/[",\n\r]/.test(s)) throw new Error(`bench: MRS's CSV reader takes no quoting; ${JSON.stringify(s)} cannot be written`)
    return s
  }
  writeFileSync(join(dir, 'categories.csv'), 'FeatureName,ValueName,MinQuota,MaxQuota\n' + rows.map((r) => `${cell(r.feature)},${cell(r.value)},${r.min},${r.max}\n`).join(''))
  const header = ['ID', ...pool.features.map((f) => cell(f.name))].join(',')
  const body = pool.respondents.map((r) => [cell(r.id), ...r.type.map((v, f) => cell(pool.features[f]!.values[v]!))].join(',') + '\n').join('')
  writeFileSync(join(dir, 'respondents.csv'), header + '\n' + body)
}

/** One MRS run: its wall time, the count of panels it printed for the counted features, and whether it finished. */
export interface MrsRun {
  /** Wall time of the process, ms. */
  readonly ms: number
  /** MRS's "# of panels" for the counted features (undefined when it printed none). */
  readonly count: bigint | undefined
  /** false: killed at the time limit, or failed. */
  readonly ok: boolean
  /** The last lines of its error output when it failed (empty otherwise). */
  readonly error: string
}

/**
 * Runs MRS on the instance in `dir`: counts `features` (pool feature indexes, in MRS's counting order),
 * then samples one valid panel with `seed`; with `seed` undefined, only counts.
 */
export function runMrs(bin: string, dir: string, k: number, features: readonly number[], seed: number | undefined, timeoutMs = 60_000): MrsRun {
  const letters = features.map((f) => {
    if (f < 0 || f > 25) throw new Error(`bench: MRS names features a to z; feature ${f} has no letter`)
    return String.fromCharCode(97 + f)
  })
  const t0 = performance.now()
  const sample = seed === undefined ? [] : ['-sample', '1', '-seed', String(seed)]
  const r = spawnSync(bin, ['-path', dir, '-size', String(k), '-count', ...letters, ...sample], { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 })
  const ms = performance.now() - t0
  const m = /# of panels : (\d+)/.exec(r.stdout ?? '')
  const ok = r.status === 0 && r.error === undefined
  return { ms, count: m === null ? undefined : BigInt(m[1]!), ok, error: ok ? '' : (r.error?.message ?? String(r.stderr).split('\n').slice(-3).join(' ')) }
}
