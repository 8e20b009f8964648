/**
 * Sortition at the sizes of real assemblies (issue 22): the bench's pool of 2,000 respondents and 6
 * features (3,000 for k = 200; 8 features for the last case), quotas at each value's proportional
 * share ± s seats. Each instance is committed, drawn and verified through the public API (panelDraw +
 * commit, drawFromBlock, verify) with today's engine (the work bound, the planner's 2^27 trial cost,
 * plan method 1's gate at 7 of 2,000, else method 2: 12 kept within 40,000 trials and 400,000 rounds,
 * else method 3: 10 kept on the same trials and a committed cap of 16 times them), beside, in the same
 * run, the **old settings** (the 200,000-state cap, 10,000-state planner trials, the gate at 10 of
 * 2,000) and **methods 1–2 only** (the engine before plan method 3), both measured as planner + gate.
 * MRS's published figures (de Azevedo and Gölz 2026, public C++, measured by the issue's author on the
 * same instances: time to a first panel) are the baseline of the "time to a first panel" rows (commit
 * + draw here). What the clock covers here, in one process, from a pool and quota rows already read:
 * `panelDraw` (the quota checks, the planner's counting and its trials, the count of the chosen exact
 * features and the plan method's gates), `commit` (the commitment and its participants' Merkle root) and
 * `drawFromBlock` (the plan replayed from the commitment, the draw's rounds, the alternates, the proof). Goals: commit ≤ 10 s, draw ≤ 5 s, verify ≤ 5 s. `SIZES_CASES=2,3` runs only those cases
 * (1-based). `SIZES_BEFORE=DIR` (a copy of `dist/` built from the engine before a change) also times that
 * engine's first panel against today's build (`dist/`: run `npm run build` first; both compiled, so
 * neither pays tsx's transform) (panelDraw + commit + drawFromBlock) on the same instance in the same run,
 * alternating with today's (`SIZES_REPS` runs each, default 2: the best wall time and the least CPU
 * time of each), as the baseline of a "first panel" row.
 * `SIZES_COLD=N` (with `SIZES_BEFORE`) also times each engine's first panel in N fresh processes each
 * (`bench/sortition-first-panel-child.ts`, alternating, before first), nothing compiled beforehand:
 * the median wall time and the median CPU time of each, as the baseline of a "cold first panel" row.
 * `SIZES_HISTORY=0` skips the old-settings and methods-1–2 rows. `SIZES_WHY=1` adds, for every
 * instance the commit refuses, what binds: for each pair of features (counted exactly, in counter
 * order) whose count cost is at most 2^27, its count cost and round cost (the work bound's units),
 * its acceptance rate measured on plan method 2's gate stream (until 15 kept, at most 100,000
 * rounds), and the draw cost plan method 3 would then commit (16 times the rounds to its 10th kept
 * round, times the round cost) against the draw cost limit (2^34 since issue 22).
 * `SIZES_MRS=<MRS's built main>` (bench/mrs.ts says how to build it) also runs MRS on each instance,
 * on this machine, in the same run: with orbitdraw's exact features in its counter order (MRS's count
 * of the panels meeting their quotas must equal orbitdraw's counter's: the row says so) and with each
 * single feature counted (its best); the median wall time of `SIZES_MRS_REPS` seeds (default 3),
 * beside orbitdraw's time to a first panel as its baseline. MRS's published figures above are the
 * issue author's, on another machine.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { timeMs, type BenchRow } from './harness.js'
import { OrbitdrawError } from '../src/core/errors.js'
import { acceptanceStream, dpOrder, meetsQuotas, relaxedPanel } from '../src/core/sortition/panel.js'
import { planCost } from '../src/core/sortition/cost.js'
import { OtherQuotas, relaxedInto } from '../src/core/sortition/round.js'
import { SORTITION_LIMITS } from '../src/core/sortition/pool.js'
import { buildCounter } from '../src/core/sortition/count.js'
import { checkQuotas, makePool, type QuotaRow, type SortitionPool } from '../src/core/sortition/pool.js'
import { planPanel } from '../src/core/sortition/plan.js'
import { poolParticipants } from '../src/core/kinds/sortition.js'
import { commit } from '../src/core/commitment.js'
import { drawFromBlock } from '../src/core/draw.js'
import { panelDraw } from '../src/core/kinds/panel.js'
import { serializeProof } from '../src/core/proof.js'
import { verify } from '../src/core/verify.js'
import { BEACON_NAME, buildChain } from '../test/helpers/chain.js'
import { ENGINE_ONLY } from './proof-fixture.js'
import { poolRows, quotas } from './panel-fixture.js'
import { runMrs, writeMrsInstance, type MrsRun } from './mrs.js'

/** The cases; `mrs`: MRS's published time to a first panel on the same instance (ms), when there is one. */
const CASES: { n: number; features: number; k: number; slack: number; mrs?: number; values?: number }[] = [
  { n: 2000, features: 6, k: 40, slack: 2, mrs: 157 },
  { n: 2000, features: 6, k: 40, slack: 1, mrs: 50 },
  { n: 2000, features: 6, k: 100, slack: 2, mrs: 740 },
  { n: 2000, features: 6, k: 100, slack: 3, mrs: 740 },
  { n: 2000, features: 6, k: 150, slack: 3 },
  { n: 3000, features: 6, k: 200, slack: 3 },
  { n: 2000, features: 8, k: 40, slack: 2 },
  { n: 2000, features: 6, k: 40, slack: 2, values: 10 },
  { n: 2000, features: 6, k: 100, slack: 2, values: 10 },
]

/** The engine before plan method 3 (methods 1 and 2, today's rounds), on the committed pool order: planner + gates. */
function methods12(pool: SortitionPool, table: ReturnType<typeof checkQuotas>, k: number): string {
  const ordered: SortitionPool = { features: pool.features, respondents: poolParticipants(pool).order.map((i) => pool.respondents[i]!) }
  try {
    const plan = planPanel(ordered, table, k, { fallbackToMethod2: true })
    return `ok (plan method ${plan.method ?? 1}, exact ${plan.counter.exact.length}/${pool.features.length})`
  } catch (err) {
    if (!(err instanceof OrbitdrawError)) throw err
    return `refused ${err.code}`
  }
}

/** The old settings, replayed with today's counter: 10,000-state greedy trials, 200,000-state cap, 10 of 2,000. */
function oldSettings(pool: SortitionPool, table: ReturnType<typeof checkQuotas>, k: number): string {
  let best = buildCounter(pool, table, k, [], 200_000)
  let chosen: number[] = []
  for (;;) {
    let step: typeof best | undefined
    for (let f = 0; f < pool.features.length; f++) {
      if (chosen.includes(f)) continue
      try {
        const c = buildCounter(pool, table, k, dpOrder(pool, [...chosen, f]), 10_000)
        if (step === undefined || c.count < step.count) step = c
      } catch (err) {
        if (!(err instanceof OrbitdrawError)) throw err
      }
    }
    if (step === undefined) break
    best = step
    chosen = [...step.exact]
  }
  if (best.count === 0n) return 'refused NO_VALID_PANEL'
  const others = pool.features.map((_, f) => f).filter((f) => !chosen.includes(f))
  if (others.length === 0) return `ok (exact ${chosen.length}/${pool.features.length})`
  const stream = acceptanceStream()
  let kept = 0
  for (let t = 0; t < 2000; t++) if (meetsQuotas(pool, table, relaxedPanel(best, stream).members, others)) kept++
  return kept >= 10 ? `ok (exact ${chosen.length}/${pool.features.length}, gate ${kept}/2000)` : `refused ACCEPTANCE_TOO_LOW (${kept}/2000, exact ${chosen.length})`
}

/**
 * What binds a refused instance (`SIZES_WHY=1`): per cheap pair of exact features, the work bound's
 * count and round costs, the acceptance rate on method 2's gate stream, and the draw cost method 3
 * would commit for it (16 × 10 / rate rounds × the round cost) against the draw cost limit.
 */
function whatBinds(pool: SortitionPool, table: ReturnType<typeof checkQuotas>, k: number, label: string): BenchRow[] {
  const rows: BenchRow[] = []
  for (let a = 0; a < pool.features.length; a++)
    for (let b = a + 1; b < pool.features.length; b++) {
      const order = dpOrder(pool, [a, b])
      const cost = planCost(pool, table, k, order, 1, 2 ** 27)
      if (cost.stopped) continue
      const t0 = performance.now()
      const counter = buildCounter(pool, table, k, order)
      const countMs = performance.now() - t0
      const check = new OtherQuotas({ pool, quotas: table, counter })
      const stream = acceptanceStream(2)
      const counts = new Int32Array(counter.cells.length)
      const members = new Int32Array(k)
      let kept = 0
      let t = 0
      const t1 = performance.now()
      while (kept < 15 && t < 100_000) {
        t++
        relaxedInto(counter, stream, counts, members)
        if (check.meets(members)) kept++
      }
      const roundUs = ((performance.now() - t1) * 1000) / t
      const per = kept === 0 ? Infinity : t / kept
      const draw = 16 * 10 * per * cost.round
      const names = order.map((f) => pool.features[f]!.name).join('+')
      rows.push({
        name: `what binds, ${label}, exact ${names}: count cost ${cost.count.toExponential(2)} (limit ${SORTITION_LIMITS.maxCountCost.toExponential(2)}; counted in ${countMs.toFixed(0)} ms, ${counter.states} states), round cost ${cost.round} (${roundUs.toFixed(1)} µs a round), ${kept} kept of ${t} rounds (1 in ${per.toFixed(0)}); method 3 would commit about ${(160 * per).toExponential(2)} rounds, a draw cost of ${draw.toExponential(2)}`,
        value: draw / SORTITION_LIMITS.maxDrawCost,
        unit: `× the draw cost limit 2^${Math.log2(SORTITION_LIMITS.maxDrawCost)}`,
      })
    }
  return rows
}

/**
 * MRS measured on this machine (`SIZES_MRS`, bench/mrs.ts) on the instance written to `dir`: with
 * orbitdraw's exact features in its counter order when the commit planned (`order`), its count checked
 * against orbitdraw's counter, and with each single feature counted (its best), median wall time of
 * `SIZES_MRS_REPS` seeds (default 3). `first`: orbitdraw's time to a first panel on the instance and what
 * the figure is, when it has one.
 */
function mrsRows(bin: string, dir: string, pool: SortitionPool, table: ReturnType<typeof checkQuotas>, k: number, label: string, order: readonly number[] | undefined, first: { ms: number; what: string } | undefined): BenchRow[] {
  const reps = Math.max(1, Number(process.env.SIZES_MRS_REPS ?? 3))
  const names = (fs: readonly number[]): string => fs.map((f) => pool.features[f]!.name).join('+')
  /** Median of `reps` seeded runs (seeds 1, 2, …; `seed1`: the run of seed 1, when already made), or the first failure. */
  const timed = (fs: readonly number[], seed1?: MrsRun): MrsRun => {
    const runs: MrsRun[] = []
    for (let s = 1; s <= reps; s++) {
      const r = s === 1 && seed1 !== undefined ? seed1 : runMrs(bin, dir, k, fs, s)
      if (!r.ok) return r
      runs.push(r)
    }
    return { ...runs[0]!, ms: median(runs.map((r) => r.ms)) }
  }
  const rows: BenchRow[] = []
  let fastest: { ms: number; what: string } | undefined
  const consider = (ms: number, what: string): void => {
    if (Number.isFinite(ms) && (fastest === undefined || ms < fastest.ms)) fastest = { ms, what }
  }
  if (order !== undefined) {
    const r = timed(order)
    const ours = buildCounter(pool, table, k, order).count
    const same = r.count === ours
    const count = r.count === undefined ? 'printed no count' : same ? `equal to orbitdraw's (${ours.toString().length} digits)` : `DIFFERENT from orbitdraw's: ${r.count} against ${ours}`
    rows.push({ name: `MRS measured here, ${label}: exact ${names(order)} (orbitdraw's plan, in its counter order); MRS's count of the panels meeting their quotas ${count}; ${r.ok ? `median of ${reps} seeds, wall time of its process` : `failed: ${r.error}`}`, value: r.ok ? r.ms : NaN, unit: 'ms', goal: 'counts equal', met: same })
    if (r.ok) consider(r.ms, `exact ${names(order)}`)
  }
  // Each feature alone (seed 1, 30 s at most), then the quickest of them with the other seeds too.
  let single: { f: number; run: MrsRun } | undefined
  for (let f = 0; f < pool.features.length; f++) {
    const r = runMrs(bin, dir, k, [f], 1, 30_000)
    if (r.ok && (single === undefined || r.ms < single.run.ms)) single = { f, run: r }
  }
  if (single === undefined) rows.push({ name: `MRS measured here, ${label}: no single exact feature gave it a panel within 30 s`, value: NaN, unit: 'ms' })
  else {
    const r = timed([single.f], single.run)
    rows.push({ name: `MRS measured here, ${label}: its quickest single exact feature, ${names([single.f])} (each tried alone with one seed); ${r.ok ? `median of ${reps} seeds` : `failed: ${r.error}`}`, value: r.ok ? r.ms : NaN, unit: 'ms' })
    if (r.ok) consider(r.ms, `exact ${names([single.f])}`)
  }
  if (first !== undefined && fastest !== undefined)
    rows.push({ name: `time to a first panel, ${label}: orbitdraw (${first.what}) against MRS measured here in the same run, its quicker form (${fastest.what})`, value: first.ms, unit: 'ms', baseline: { name: 'MRS measured here', value: fastest.ms }, goal: '≤ MRS measured here', met: first.ms <= fastest.ms })
  return rows
}

/** The public functions a first panel needs, from this tree or from a built copy of another engine. */
interface Engine {
  panelDraw: typeof panelDraw
  commit: typeof commit
  drawFromBlock: typeof drawFromBlock
}

/** The engine built in `dir` (a copy of `dist/`). */
async function engineAt(dir: string): Promise<Engine> {
  const url = (f: string): string => pathToFileURL(join(dir, f)).href
  const [k, c, d] = (await Promise.all([import(url('core/kinds/panel.js')), import(url('core/commitment.js')), import(url('core/draw.js'))])) as [{ panelDraw: Engine['panelDraw'] }, { commit: Engine['commit'] }, { drawFromBlock: Engine['drawFromBlock'] }]
  return { panelDraw: k.panelDraw, commit: c.commit, drawFromBlock: d.drawFromBlock }
}

/** Time to a first panel with `engine` (panelDraw + commit + drawFromBlock), and the plan it chose. */
function firstPanel(engine: Engine, pool: SortitionPool, qrows: readonly QuotaRow[], k: number, base: Omit<Parameters<typeof commit>[0], 'draw' | 'participants'>, block: Parameters<typeof drawFromBlock>[2]): { ms: number; cpu: number; what: string } {
  const t0 = performance.now()
  const c0 = process.cpuUsage()
  const cpu = (): number => {
    const c = process.cpuUsage(c0)
    return (c.user + c.system) / 1000
  }
  try {
    const built = engine.panelDraw(pool, qrows, k, { alternates: 5 })
    const { commitment } = engine.commit({ ...base, draw: built.draw, participants: built.participants })
    const proof = engine.drawFromBlock(commitment, built.participants, block)
    return { ms: performance.now() - t0, cpu: cpu(), what: `method ${built.draw.plan ?? 1}, exact ${built.draw.exact.join('+')}, ${(proof.outcome as { rounds: number }).rounds} rounds` }
  } catch (err) {
    if (!(err instanceof Error) || !('code' in err)) throw err
    return { ms: performance.now() - t0, cpu: cpu(), what: `refused ${String(err.code)}` }
  }
}

const CHILD = fileURLToPath(new URL('./sortition-first-panel-child.ts', import.meta.url))
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url))
/** Today's build: both engines of a "first panel" row run compiled code (`src` under tsx would be transformed at load, which a cold row would count). */
const DIST = fileURLToPath(new URL('../dist', import.meta.url))

/** One first panel in a fresh process with the engine in `dir` (`SIZES_COLD`). */
function coldFirstPanel(dir: string, c: { n: number; features: number; k: number; slack: number; values?: number }): { ms: number; cpu: number; mainCpu?: number; what: string } {
  const r = spawnSync(TSX, [CHILD], { encoding: 'utf8', env: { ...process.env, FIRST_PANEL_ENGINE: dir, FIRST_PANEL_CASE: `${c.n},${c.features},${c.k},${c.slack}${c.values === undefined ? '' : `,${c.values}`}` } })
  if (r.status !== 0) throw new Error(`bench: the first-panel child failed: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { ms: number; cpu: number; mainCpu?: number; what: string }
}

/** The median of `xs`. */
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export default async function (): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const chain = buildChain(12, 'sortition-sizes')
  const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, label: 'assembly' }
  const only = process.env.SIZES_CASES?.split(',').map(Number)
  const beforeDir = process.env.SIZES_BEFORE
  const mrsBin = process.env.SIZES_MRS
  if (mrsBin !== undefined && !existsSync(mrsBin)) throw new Error(`bench: SIZES_MRS=${mrsBin} does not exist (build MRS first: bench/mrs.ts says how)`)
  const mrsDir = mrsBin === undefined ? undefined : mkdtempSync(join(tmpdir(), 'orbitdraw-mrs-'))
  try {
    for (const [ci, c] of CASES.entries()) {
      if (only !== undefined && !only.includes(ci + 1)) continue
      const label = `${c.n.toLocaleString('en')} x ${c.features}${c.values === undefined ? '' : ` of ${c.values} values`}, k = ${c.k}, ±${c.slack}`
      const mrs = c.mrs === undefined ? 'MRS: no published figure' : `MRS ${c.mrs / 1000} s`
      const g = poolRows(c.n, c.features, undefined, c.values)
      const pool = makePool(g.names, g.rows)
      const qrows: QuotaRow[] = quotas(pool, c.k, c.slack)
      const table = checkQuotas(pool, qrows, c.k)
      const mrsCase = mrsDir === undefined ? undefined : join(mrsDir, String(ci + 1))
      if (mrsCase !== undefined) writeMrsInstance(mrsCase, pool, qrows)
      let t0 = performance.now()
      if (process.env.SIZES_HISTORY !== '0') {
        const old = oldSettings(pool, table, c.k)
        rows.push({ name: `old settings, ${label}: ${old}`, value: performance.now() - t0, unit: 'ms' })
        t0 = performance.now()
        const before = methods12(pool, table, c.k)
        rows.push({ name: `methods 1–2 only (before plan method 3), ${label}: ${before}`, value: performance.now() - t0, unit: 'ms' })
      }
      /** orbitdraw's cold first panel (median of SIZES_COLD fresh processes), when measured: MRS's baseline row then takes it. */
      let coldMs: number | undefined
      if (beforeDir !== undefined) {
        if (!existsSync(join(DIST, 'core', 'kinds', 'panel.js'))) throw new Error('bench: SIZES_BEFORE compares with today\'s build: run `npm run build` first')
        const today = await engineAt(DIST)
        const mine = (): ReturnType<typeof firstPanel> => firstPanel(today, pool, qrows, c.k, base, chain[10]!)
        const theirs = await engineAt(beforeDir)
        // Alternating runs (before first, then today first, …): the best wall time and the least CPU time of each.
        const reps = Math.max(1, Number(process.env.SIZES_REPS ?? 2))
        const was: ReturnType<typeof firstPanel>[] = []
        const now: ReturnType<typeof firstPanel>[] = []
        for (let r = 0; r < reps; r++) {
          if (r % 2 === 0) was.push(firstPanel(theirs, pool, qrows, c.k, base, chain[10]!))
          now.push(mine())
          if (r % 2 === 1) was.push(firstPanel(theirs, pool, qrows, c.k, base, chain[10]!))
        }
        const best = (xs: ReturnType<typeof firstPanel>[]): { ms: number; cpu: number; what: string } => ({ ms: Math.min(...xs.map((x) => x.ms)), cpu: Math.min(...xs.map((x) => x.cpu)), what: xs[0]!.what })
        const w = best(was)
        const n = best(now)
        // CPU time (this process, all threads) beside the wall time: the machine is shared.
        const cold = Math.max(0, Number(process.env.SIZES_COLD ?? 0))
        if (cold > 0) {
          const was: ReturnType<typeof coldFirstPanel>[] = []
          const now: ReturnType<typeof coldFirstPanel>[] = []
          for (let r = 0; r < cold; r++) {
            was.push(coldFirstPanel(beforeDir, c))
            now.push(coldFirstPanel(DIST, c))
          }
          const n = { ms: median(now.map((x) => x.ms)), cpu: median(now.map((x) => x.cpu)), main: median(now.map((x) => x.mainCpu ?? NaN)) }
        coldMs = n.ms
          const w = { ms: median(was.map((x) => x.ms)), cpu: median(was.map((x) => x.cpu)), main: median(was.map((x) => x.mainCpu ?? NaN)) }
          rows.push({ name: `cold first panel (a fresh process each, nothing compiled before; the clock as below; median of ${cold}), ${label}: today (${now[0]!.what}; median CPU ${n.cpu.toFixed(0)} ms, main thread ${n.main.toFixed(0)} ms) vs the engine at SIZES_BEFORE (${was[0]!.what}; median CPU ${w.cpu.toFixed(0)} ms, main thread ${w.main.toFixed(0)} ms) (${mrs})`, value: n.ms, unit: 'ms', baseline: { name: 'before', value: w.ms }, goal: c.mrs === undefined ? 'report' : `≤ MRS (${c.mrs} ms)`, ...(c.mrs === undefined ? {} : { met: n.ms <= c.mrs }) })
        }
        rows.push({ name: `first panel (the clock covers panelDraw: planner, counting and gates; commit; drawFromBlock: the replayed plan and the draw's rounds; best of ${reps}), ${label}: today (${n.what}; least CPU ${n.cpu.toFixed(0)} ms) vs the engine at SIZES_BEFORE (${w.what}; least CPU ${w.cpu.toFixed(0)} ms) (${mrs})`, value: n.ms, unit: 'ms', baseline: { name: 'before', value: w.ms }, goal: c.mrs === undefined ? 'report' : `≤ MRS (${c.mrs} ms)`, ...(c.mrs === undefined ? {} : { met: n.ms <= c.mrs }) })
      }
      t0 = performance.now()
      let built: ReturnType<typeof panelDraw>
      try {
        built = panelDraw(pool, qrows, c.k, { alternates: 5 })
      } catch (err) {
        if (!(err instanceof OrbitdrawError)) throw err
        const ms = performance.now() - t0
        rows.push({ name: `new settings, ${label}: refused ${err.code} (${mrs})`, value: ms, unit: 'ms', goal: 'commit ≤ 10000 ms', met: false })
        if (process.env.SIZES_WHY === '1') rows.push(...whatBinds(pool, table, c.k, label))
        if (mrsCase !== undefined) rows.push(...mrsRows(mrsBin!, mrsCase, pool, table, c.k, label, undefined, undefined))
        continue
      }
      const committed = commit({ ...base, draw: built.draw, participants: built.participants })
      const commitMs = performance.now() - t0
      const exact = built.draw.exact.length
      const method = built.draw.plan === 3 ? `plan method 3, maxRounds ${built.draw.maxRounds!.toLocaleString('en')}` : `plan method ${built.draw.plan ?? 1}`
      rows.push({ name: `new settings, ${label}: commit (${method}, exact ${exact}/${c.features}: ${built.draw.exact.join(', ')})`, value: commitMs, unit: 'ms', goal: '≤ 10000 ms', met: commitMs <= 10_000 })
      t0 = performance.now()
      const proof = drawFromBlock(committed.commitment, built.participants, chain[10]!)
      const firstDrawMs = performance.now() - t0
      const rounds = (proof.outcome as { rounds: number }).rounds
      const drawMs = await timeMs(() => drawFromBlock(committed.commitment, built.participants, chain[10]!), 1, 0)
      rows.push({ name: `new settings, ${label}: draw after the block (${rounds} rounds)`, value: drawMs, unit: 'ms', goal: '≤ 5000 ms', met: drawMs <= 5000 })
      const text = serializeProof(proof)
      const verifyMs = await timeMs(async () => {
        const r = await verify(text, ENGINE_ONLY)
        if (!r.ok) throw new Error(`bench: ${label} does not verify`)
      }, 1, 0)
      rows.push({ name: `new settings, ${label}: verify in Node`, value: verifyMs, unit: 'ms', goal: '≤ 5000 ms', met: verifyMs <= 5000 })
      const first = commitMs + firstDrawMs
      // One run of the engine from `src` under tsx, this instance's first in the process (tsx's transform
      // and the first compiles included). With SIZES_BEFORE the compiled rows above (warm best, cold
      // median) are the goal's reading, and this row only reports.
      const compared = beforeDir !== undefined
      rows.push({ name: `new settings, ${label}: time to a first panel (commit + draw; one run, the engine from src under tsx${compared ? ': the compiled rows above are the goal\'s' : ''}; ${mrs})`, value: first, unit: 'ms', ...(c.mrs === undefined ? {} : { baseline: { name: 'MRS, published', value: c.mrs }, goal: compared ? 'report' : '≤ MRS', ...(compared ? {} : { met: first <= c.mrs }) }) })
      if (mrsCase !== undefined) {
        const order = built.draw.exact.map((name) => pool.features.findIndex((f) => f.name === name))
        const ours = coldMs !== undefined ? { ms: coldMs, what: 'a fresh process, the cold row above' } : { ms: first, what: 'one run from src under tsx, the row above' }
      rows.push(...mrsRows(mrsBin!, mrsCase, pool, table, c.k, label, order, ours))
      }
    }
  } finally {
    if (mrsDir !== undefined) rmSync(mrsDir, { recursive: true, force: true })
  }
  return rows
}
