/**
 * The worst a forged `panel` commitment makes a verifier do under the work bound (docs/spec.md,
 * Work bound; docs/performance.md, "The worst a forged commitment costs a verifier"). The forged proofs
 * of bench/hostile-fixture.ts: plan method 3 with the largest `maxRounds` the draw cost allows
 * (since issue 22 each round is charged its real work: `min` 1,391,645 rounds of 12,345 units,
 * `households` 1,032,133 of 16,645, each within 2^34; before, 4,000,000 rounds of 535 units within
 * 2^31), 64-bit counts, k = 267 of 277, and quotas (or a
 * household) that break every round, so a verifier replays every round before it can say the outcome
 * is unproven. For each: its size, the count and draw costs the work bound charges, and `verify` of
 * it in this process (one run: it is long), beside `verify` of an honest proof in the same run (the
 * bench's 2,000 × 6 pool, k = 100, quotas ±2, 10 alternates, median of 3).
 *
 * Shapes: `min` (2 features of 2 values, quotas that no round meets: the smallest proof) and
 * `households` (16 features of 2 values, loose quotas, one household of 12 that every panel breaks:
 * the slowest round found per byte). `HOSTILE_SHAPES=min` runs only those. `HOSTILE_ROUNDS=N` forges
 * the same commitments with `maxRounds` = N and with `maxRounds` = 1 instead (a quick run): the rows then
 * say so and give the full replay's time extrapolated, `t(1) + (t(N) − t(1)) · (maxRounds − 1) / (N − 1)`
 * (so start-up, parsing and the page's load are counted once, not scaled; in Node after one untimed
 * run of the N-round proof). Quick figures are rough and high, most of all for the CLI and the page,
 * whose N rounds run on a cold JIT (min at N = 5,000 without the warm-up: 81 s of CPU extrapolated in
 * Node, against 57 s measured over the full 4,000,000 rounds; with it, N = 20,000: 52 s). `HOSTILE_CLI=1` also times the built CLI
 * (`orbitdraw verify FILE`, strict: a forged proof needs no signature or time-stamp to be replayed;
 * `npm run build` first), with its peak RSS (GNU time); `HOSTILE_PAGE=1` the verifier page's worker in
 * headless Chromium. Run alone: `npm run bench -- sortition-hostile`.
 *
 * The count's worst case (issue 22, `worstcase`; `hostileCountProof`): `count-2`, `count-5`, `count-12`,
 * forged grids of one-respondent types over two exact features of 64 values, k = 3, at 1/32, 1/5 and
 * 1/1.07 of the count limit, each verified in a child process with a capped heap (`HOSTILE_COUNT_HEAP`
 * MiB, default 4,096), so running out of memory is a row, not a crash (`HOSTILE_COUNT_ROWS=2,5` picks
 * the grids); and `count-2-rounds`, count-2 with rejection rounds over its 1.6 million states (refused
 * by the key cost), and `count-12x16-rounds`, rejection rounds over the largest counter the key cost
 * admits (12 rows of 16 values, k = 4; each cell a round walks charged 64 + 512 units since issue 22,
 * `roundcap`) (quick with `HOSTILE_ROUNDS`, like the others). `HOSTILE_SHAPES=count` or `count-rounds`
 * runs only those.
 *
 * The alternates' worst case (found by fuzzing; `hostileAlternatesProof`): `alternates`, a private 2.3 kB
 * proof claiming 1,000,000 respondents, k = 1,000, 16 exact features and 999,000 alternates no one can
 * take (36 s of CPU and 353 MB in `verify` before the alternates cost), now refused by its alternates
 * cost: its refusal time; then the ranking's worst case (bench/alternates-units.ts) on the largest
 * shapes the alternates cost admits, with and without a household rule, over a pool built as a verifier
 * builds it and one read from a file as the commit has it: the CPU time per unit charged (the limit's
 * promise: about 1 ns or less). `HOSTILE_SHAPES=alternates` runs only those.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { verify } from '../src/core/verify.js'
import { timeMs, type BenchRow } from './harness.js'
import { hostileAlternatesProof, hostileCountProof, hostileProof, HOSTILE_K, HOSTILE_N, type HostileShape } from './hostile-fixture.js'
import { timeAlternates, type AlternatesShape } from './alternates-units.js'
import { alternatesCost } from '../src/core/sortition/cost.js'
import { panelProof2000 } from './panel-fixture.js'
import { ENGINE_ONLY } from './proof-fixture.js'
import { SORTITION_LIMITS } from '../src/core/sortition/pool.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const COUNT_CHILD = fileURLToPath(new URL('./hostile-count-child.ts', import.meta.url))
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url))

/**
 * The forged count proofs (bench/hostile-fixture.ts, `hostileCountProof`, k = 3): the grid of `rows` × 64
 * types, one respondent each, both features exact. `rows` 2 (1/32 of the count limit), 5 (1/5) and 12
 * (the largest within 2^27). Each is verified in a child process (its heap capped by `HOSTILE_COUNT_HEAP`
 * MiB, default 4,096, Node's own default on most machines) so that running out of memory is reported,
 * not fatal to the bench.
 */
const COUNT_ROWS = [2, 5, 12] // refused by the key cost since it was added (milliseconds each)

/** `verify` of a forged count proof in a child process: its figures, or how it ended. */
function countChild(rows: number, k: number, heapMiB: number, rounds?: number | 'max', values?: number): Promise<{ line?: { wallMs: number; cpuMs: number; failed: string[]; rssMiB: number; load: number }; wallMs: number; exit: string; peakRssMiB?: number }> {
  const gnuTime = existsSync('/usr/bin/time')
  const argv = [TSX, COUNT_CHILD, String(rows), String(k), rounds === undefined ? '-' : String(rounds), ...(values === undefined ? [] : [String(values)])]
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn(gnuTime ? '/usr/bin/time' : argv[0]!, gnuTime ? ['-f', 'maxrss %M', ...argv] : argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: `--max-old-space-size=${heapMiB}` } })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
    child.on('error', reject)
    child.on('close', (code, signal) => {
      const json = out.split('\n').find((l) => l.startsWith('{'))
      const rss = /maxrss (\d+)/.exec(err)
      const oom = /heap out of memory|Array buffer allocation failed|Invalid typed array length/.exec(err)
      resolve({ wallMs: performance.now() - t0, exit: signal !== null ? `signal ${signal}` : code === 0 ? 'exit 0' : `exit ${code}${oom === null ? '' : ` (${oom[0]})`}`, ...(json === undefined ? {} : { line: JSON.parse(json) as never }), ...(rss === null ? {} : { peakRssMiB: Number(rss[1]) / 1024 }) })
    })
  })
}

const SHAPES: Record<string, HostileShape & { what: string }> = {
  min: { features: 2, values: 2, what: '2 features of 2 values, quotas no round meets' },
  households: { features: 16, values: 2, households: true, what: '16 features of 2 values, loose quotas, one household of 12 every panel breaks' },
}

/** The honest baseline: k = 100, ±2 on the bench's 2,000 × 6 pool (the commit's own plan method). */
function honestProof(): { text: string; what: string } {
  const { proof, text } = panelProof2000(100)
  const draw = proof.commitment.draw as { readonly plan?: number; readonly maxRounds?: number; readonly exact: readonly string[] }
  const rounds = (proof.outcome as { rounds: number }).rounds
  return { text, what: `honest panel of 100 from 2,000 × 6, ±2, plan method ${draw.plan ?? 1}${draw.maxRounds === undefined ? '' : ` (maxRounds ${draw.maxRounds.toLocaleString('en')})`}, exact ${draw.exact.join('+')}, ${rounds} round(s), ${Math.round(text.length / 1024)} KiB` }
}

/** Runs the built CLI's strict `verify` on `file`: wall time, exit code and (with GNU time) peak RSS in KiB. */
function cliVerify(file: string): Promise<{ ms: number; code: number | null; rssKiB?: number; cpuMs?: number }> {
  const bin = join(ROOT, 'dist/bin/orbitdraw.cjs')
  const gnuTime = existsSync('/usr/bin/time')
  const args = gnuTime ? ['-f', 'maxrss %M cpu %U %S', process.execPath, bin, 'verify', file] : [bin, 'verify', file]
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn(gnuTime ? '/usr/bin/time' : process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.on('error', reject)
    child.on('close', (code) => {
      const rss = /maxrss (\d+) cpu ([0-9.]+) ([0-9.]+)/.exec(out)
      resolve({ ms: performance.now() - t0, code, ...(rss === null ? {} : { rssKiB: Number(rss[1]), cpuMs: 1000 * (Number(rss[2]) + Number(rss[3])) }) })
    })
  })
}

/** The verifier page's worker on each of `texts` (one page build, a fresh load per proof): its own verify time, the time from file picked to verdict, the final state. */
async function pageVerify(name: string, texts: readonly string[]): Promise<{ worker: number; whole: number; state: string }[]> {
  const { pickProof, withServedPage } = await import('./browser-page.js')
  return withServedPage('orbitdraw-bench-hostile-', async (served) => {
    const out: { worker: number; whole: number; state: string }[] = []
    for (const text of texts) {
      await served.page.goto(served.url)
      const { ms, state } = await pickProof(served.page, name, Buffer.from(text))
      out.push({ worker: Number(await served.page.locator('#result').getAttribute('data-verify-ms')), whole: ms, state })
    }
    return out
  })
}

/**
 * Worst-case shapes of the alternates' ranking the alternates cost admits (each at most 2^32 units): the
 * largest pool for k = 1,000 on 16 features (with and without households), a million respondents with
 * small panels, and the middle ground.
 */
const ALTERNATES_SHAPES: readonly AlternatesShape[] = [
  { N: 31_883, k: 1000, F: 16 },
  { N: 26_106, k: 1000, F: 16, households: true },
  { N: 1_000_000, k: 10, F: 2 },
  { N: 1_000_000, k: 10, F: 2, perRespondent: true },
  { N: 1_000_000, k: 1, F: 1, households: true, perRespondent: true },
  { N: 200_000, k: 100, F: 8 },
  { N: 200_000, k: 100, F: 8, households: true, perRespondent: true },
  { N: 607_420, k: 100, F: 4 },
]

/** The forged alternates proof's refusal, then the ranking's CPU time per unit on the admitted worst cases. */
async function alternatesRows(baseline: { name: string; value: number }): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const h = hostileAlternatesProof()
  const label = `forged panel proof "alternates" (${h.n.toLocaleString('en')} respondents claimed in 2 types, k = ${h.k}, ${h.features} exact features, ${h.alternates.toLocaleString('en')} alternates no one can take; ${h.text.length.toLocaleString('en')} bytes; alternates cost ${alternatesCost(h.n, h.k, h.features, h.alternates).toLocaleString('en')}, limit 2^32; 36 s of CPU and 353 MB in verify before the alternates cost)`
  let failed: string[] = []
  const ms = await timeMs(async () => {
    const r = await verify(h.text, ENGINE_ONLY)
    failed = r.checks.filter((c) => !c.ok).map((c) => c.name)
  }, 5, 1)
  rows.push({ name: `${label}: verify in Node (refused: failed ${failed.join(', ')}; median of 5)`, value: ms, unit: 'ms', baseline })
  for (const shape of ALTERNATES_SHAPES) {
    const load = loadavg()[0]!.toFixed(1)
    const t = timeAlternates(shape, 3)
    const pool = shape.perRespondent === true ? 'one type array per respondent (commit)' : 'types shared (verify)'
    rows.push({ name: `alternates' ranking, worst case: N = ${shape.N.toLocaleString('en')}, k = ${shape.k}, ${shape.F} feature(s)${shape.households === true ? ', households' : ''}, ${pool} (${t.ranked.toLocaleString('en')} ranked; ${t.units.toLocaleString('en')} units = 2^${Math.log2(t.units).toFixed(2)}; CPU ${t.ms.toFixed(0)} ms, median of 3; load ${load})`, value: t.nsPerUnit, unit: 'ns/unit', goal: '<= about 1 ns a unit (verify), 1.5 at most' })
  }
  return rows
}

export default async function (): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const only = process.env.HOSTILE_SHAPES?.split(',')
  const quick = process.env.HOSTILE_ROUNDS === undefined ? undefined : Number(process.env.HOSTILE_ROUNDS)
  if (quick !== undefined && (!Number.isSafeInteger(quick) || quick < 2 || quick > 4_000_000)) throw new Error(`HOSTILE_ROUNDS must be a whole number from 2 to 4,000,000, got ${process.env.HOSTILE_ROUNDS}`)
  const honest = honestProof()
  const honestMs = await timeMs(async () => {
    if (!(await verify(honest.text, ENGINE_ONLY)).ok) throw new Error('the honest k = 100 proof does not verify')
  }, 3, 1)
  const baseline = { name: `verify in Node: ${honest.what}`, value: honestMs }
  if (only === undefined || only.includes('alternates')) rows.push(...(await alternatesRows(baseline)))
  const dir = await mkdtemp(join(tmpdir(), 'orbitdraw-bench-hostile-'))
  try {
    // The count's worst case (issue 22, `worstcase`): `HOSTILE_SHAPES=count` runs only these; `HOSTILE_COUNT_ROWS=2,5` picks the rows.
    const countRows = process.env.HOSTILE_COUNT_ROWS?.split(',').map(Number) ?? COUNT_ROWS
    for (const r of only === undefined || only.includes('count') ? countRows : []) {
      const heap = Number(process.env.HOSTILE_COUNT_HEAP ?? 4096)
      const h = hostileCountProof({ rows: r, k: 3 })
      const label = `forged panel proof "count-${r}" (a grid of ${r} × 64 types of one respondent, both features exact, quotas [0, 3], k = 3 of ${h.n}; ${h.text.length.toLocaleString('en')} bytes, commitment alone ${h.commitmentText.length.toLocaleString('en')})`
      rows.push({ name: `${label}: count cost charged (2^${Math.log2(h.cost.count).toFixed(2)}; limit 2^27; states bound ${h.cost.states.toLocaleString('en')}, transitions ${h.cost.transitions.toLocaleString('en')})`, value: h.cost.count, unit: 'units' })
      const load = loadavg()[0]!.toFixed(1)
      const c = await countChild(r, 3, heap)
      const what = c.line === undefined ? `${c.exit} before a verdict` : `CPU ${(c.line.cpuMs / 1000).toFixed(1)} s, ${(c.line.cpuMs * 1e6 / h.cost.count).toFixed(0)} ns per count unit; failed ${c.line.failed.join(', ')}`
      rows.push({ name: `${label}: verify in Node, a child process with a ${heap} MiB heap (load ${load}; ${what}; peak RSS ${c.peakRssMiB === undefined ? '?' : `${c.peakRssMiB.toFixed(0)} MiB`})`, value: c.line?.wallMs ?? c.wallMs, unit: 'ms', baseline, goal: 'report (a count within the limit should take seconds, in bounded memory)' })
    }
    // Grids with rejection rounds: features c, d that no round meets, plan 3, the largest maxRounds the draw cost allows. `count-2-rounds`
    // (1.6 million states; refused by the key cost since it exists) and `count-12x16-rounds`, the largest counter the key cost admits
    // (12 rows of 16 values, k = 4: 1.9 million states, 244 cells; issue 22, `roundcap`: each cell a round walks is charged 64 + 512 units).
    const roundShapes = [
      { key: 'count-2-rounds', rows: 2, k: 3, values: 64, what: 'count-2 plus two features no round meets' },
      { key: 'count-12x16-rounds', rows: 12, k: 4, values: 16, what: 'the largest grid the key cost admits (12 rows of 16 values, k = 4) plus two features no round meets' },
    ]
    for (const g of only === undefined || only.includes('count-rounds') ? roundShapes : []) {
      const h = hostileCountProof({ rows: g.rows, k: g.k, values: g.values, rounds: 'max' })
      const label = `forged panel proof "${g.key}" (${g.what}, plan 3, maxRounds ${h.maxRounds.toLocaleString('en')} of ${h.cost.round} units (walk ${h.cost.walk}): draw cost 2^${Math.log2(h.cost.draw).toFixed(2)}; ${h.text.length.toLocaleString('en')} bytes)`
      const load = loadavg()[0]!.toFixed(1)
      // Quick: at least 20,000 rounds, else the count's own variation (about 0.5 s of its 4 to 8 s) hides them.
      const n = quick === undefined ? undefined : Math.min(h.maxRounds, Math.max(quick, 20_000))
      const runs = n === undefined ? [await countChild(g.rows, g.k, 4096, 'max', g.values)] : [await countChild(g.rows, g.k, 4096, 1, g.values), await countChild(g.rows, g.k, 4096, n, g.values)]
      const cpu = runs.map((r) => r.line?.cpuMs ?? NaN)
      const wall = runs.map((r) => r.line?.wallMs ?? r.wallMs)
      const ext = (t: number[]): number => (t.length === 1 ? t[0]! : t[0]! + ((t[1]! - t[0]!) * (h.maxRounds - 1)) / (n! - 1))
      // A commitment refused by its work bound (count-2-rounds: its key cost) runs no round: its time is the refusal's, not extrapolated.
      if (runs.at(-1)!.line?.failed.includes('commitment-cid') === true) {
        rows.push({ name: `${label}: verify in Node, a child process (refused before counting: failed ${runs.at(-1)!.line!.failed.join(', ')}; CPU ${(runs.at(-1)!.line!.cpuMs / 1000).toFixed(2)} s; load ${load})`, value: runs.at(-1)!.line!.wallMs, unit: 'ms', baseline })
        continue
      }
      const replay = n === undefined ? `all ${h.maxRounds.toLocaleString('en')} rounds` : `EXTRAPOLATED from 1 and ${n.toLocaleString('en')} rounds`
      rows.push({ name: `${label}: verify in Node, a child process (${replay}; load ${load}; CPU ${(ext(cpu) / 1000).toFixed(1)} s, of which counting ${(cpu[0]! / 1000).toFixed(1)} s when quick; ${(((ext(cpu) - (n === undefined ? 0 : cpu[0]!)) * 1e6) / h.cost.draw).toFixed(2)} ns per draw unit when quick; failed ${runs.at(-1)!.line?.failed.join(', ') ?? '?'}; peak RSS ${runs.at(-1)!.peakRssMiB?.toFixed(0) ?? '?'} MiB; ${runs.at(-1)!.exit})`, value: ext(wall), unit: 'ms', baseline })
    }
    for (const [key, shape] of Object.entries(SHAPES)) {
      if (only !== undefined && !only.includes(key)) continue
      const full = hostileProof(shape)
      // A quick run times maxRounds = N and maxRounds = 1, and extrapolates the difference linearly in the rounds.
      const runs = quick === undefined ? [full] : [hostileProof({ ...shape, maxRounds: 1 }), hostileProof({ ...shape, maxRounds: quick })]
      const extrapolate = (t: number[]): number => (t.length === 1 ? t[0]! : t[0]! + ((t[1]! - t[0]!) * (full.maxRounds - 1)) / (quick! - 1))
      const label = `forged panel proof "${key}" (${shape.what}; k = ${HOSTILE_K} of ${HOSTILE_N}, plan 3, maxRounds ${full.maxRounds.toLocaleString('en')})`
      const replay = quick === undefined ? `all ${full.maxRounds.toLocaleString('en')} rounds` : `EXTRAPOLATED from 1 and ${quick.toLocaleString('en')} rounds to all ${full.maxRounds.toLocaleString('en')}`
      rows.push({ name: `${label}: proof size (commitment alone: ${full.commitmentText.length} bytes)`, value: full.text.length, unit: 'bytes' })
      rows.push({ name: `${label}: count cost charged (limit 2^${Math.log2(SORTITION_LIMITS.maxCountCost)} = ${SORTITION_LIMITS.maxCountCost})`, value: full.cost.count, unit: 'units' })
      rows.push({ name: `${label}: draw cost charged (round cost ${full.cost.round} = choose ${full.cost.choose} + picks ${full.cost.picks} + keep ${full.cost.keep} + household ${full.cost.household}, × ${full.cost.rounds.toLocaleString('en')} rounds; limit 2^${Math.log2(SORTITION_LIMITS.maxDrawCost)} = ${SORTITION_LIMITS.maxDrawCost})`, value: full.cost.draw, unit: 'units' })
      const load = loadavg()[0]!.toFixed(1)
      const node: number[] = []
      const nodeCpu: number[] = []
      let outcome: { ok: boolean; detail: string } | undefined
      // A quick run warms the JIT on its N-round proof first (a full run is long enough not to need it).
      if (quick !== undefined) await verify(runs[1]!.text, ENGINE_ONLY)
      for (const run of runs) {
        const t0 = performance.now()
        const c0 = process.cpuUsage()
        const r = await verify(run.text, ENGINE_ONLY)
        node.push(performance.now() - t0)
        const c = process.cpuUsage(c0)
        nodeCpu.push((c.user + c.system) / 1000)
        outcome = r.checks.find((c) => c.name === 'outcome')
      }
      const peak = process.resourceUsage().maxRSS / 1024
      rows.push({ name: `${label}: verify in Node (${replay}; load ${load}; outcome ${outcome?.ok === true ? 'recomputed' : 'unproven'}: ${outcome?.detail.slice(0, 90) ?? '?'}; CPU ${(extrapolate(nodeCpu) / 1000).toFixed(1)} s; this process's peak RSS so far ${peak.toFixed(0)} MiB)`, value: extrapolate(node), unit: 'ms', baseline, goal: 'report (a few seconds would be the bound a verifier expects)' })
      if (process.env.HOSTILE_CLI === '1') {
        const cli: number[] = []
        const cliCpu: number[] = []
        let last: Awaited<ReturnType<typeof cliVerify>> | undefined
        for (const [i, run] of runs.entries()) {
          const file = join(dir, `${key}-${i}.json`)
          await writeFile(file, run.text)
          last = await cliVerify(file)
          cli.push(last.ms)
          cliCpu.push(last.cpuMs ?? NaN)
        }
        rows.push({ name: `${label}: orbitdraw verify FILE (strict, built CLI; ${replay}; exit ${last!.code}; CPU ${(extrapolate(cliCpu) / 1000).toFixed(1)} s; peak RSS ${last!.rssKiB === undefined ? '?' : `${(last!.rssKiB / 1024).toFixed(0)} MiB`}; load ${loadavg()[0]!.toFixed(1)})`, value: extrapolate(cli), unit: 'ms', baseline })
      }
      if (process.env.HOSTILE_PAGE === '1') {
        const page = await pageVerify(`${key}.json`, runs.map((r) => r.text))
        const worker = page.map((p) => p.worker)
        const whole = page.map((p) => p.whole)
        const state = page.at(-1)!.state
        rows.push({ name: `${label}: verifier page worker in Chromium (${replay}; final state ${state}; file picked to verdict ${extrapolate(whole).toFixed(0)} ms; load ${loadavg()[0]!.toFixed(1)})`, value: extrapolate(worker), unit: 'ms', baseline })
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
  return rows
}
