/**
 * One first panel in a fresh process (`bench/sortition-sizes.bench.ts` with `SIZES_COLD`): the pool
 * and quota rows built first, then the clock around `panelDraw` + `commit` + `drawFromBlock`, as the
 * bench's "first panel" rows, but with nothing compiled or cached beforehand (what an organizer's one
 * `commit` process meets). Env: `FIRST_PANEL_ENGINE` (a folder with `core/kinds/panel.js`, … : a copy
 * of `dist/`, or `src` under tsx), `FIRST_PANEL_CASE` (`n,features,k,slack`, and `,values` when every feature has that many values). Prints one JSON line:
 * wall and CPU time (ms) of the whole, and of `panelDraw` alone, and (on Linux) `mainCpu`, the CPU
 * time of the main thread alone: the rest of `cpu` is the engine's background threads, mostly the
 * optimizing compiler (with `--no-concurrent-recompilation` it falls to about 0).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { makePool } from '../src/core/sortition/pool.js'
import { BEACON_NAME, buildChain } from '../test/helpers/chain.js'
import { poolRows, quotas } from './panel-fixture.js'

const dir = process.env.FIRST_PANEL_ENGINE ?? 'dist'
const url = (f: string): string => pathToFileURL(resolve(dir, f)).href
const [kp, cm, dr] = (await Promise.all([import(url('core/kinds/panel.js')), import(url('core/commitment.js')), import(url('core/draw.js'))])) as [typeof import('../src/core/kinds/panel.js'), typeof import('../src/core/commitment.js'), typeof import('../src/core/draw.js')]
const [n, features, k, slack, values] = (process.env.FIRST_PANEL_CASE ?? '2000,6,40,1').split(',').map(Number) as [number, number, number, number, number | undefined]
const g = poolRows(n, features, undefined, values)
const pool = makePool(g.names, g.rows)
const qrows = quotas(pool, k, slack)
const chain = buildChain(12, 'sortition-sizes')
const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, label: 'assembly' }
const cpu = (c: NodeJS.CpuUsage): number => (c.user + c.system) / 1000
/** The main thread's CPU time in ms (Linux: /proc/self/task/<pid>/stat, in clock ticks of 10 ms), or NaN. */
const mainThreadCpu = (): number => {
  try {
    if (!readdirSync('/proc/self/task').includes(String(process.pid))) return NaN
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(f[11]) + Number(f[12])) * 10
  } catch {
    return NaN
  }
}
const m0 = mainThreadCpu()
const c0 = process.cpuUsage()
const t0 = performance.now()
let built: ReturnType<typeof kp.panelDraw>
try {
  built = kp.panelDraw(pool, qrows, k, { alternates: 5 })
} catch (err) {
  // A refusal is a result like a panel (the same clock, what it says instead of the plan).
  if (!(err instanceof Error) || !('code' in err)) throw err
  const ms = performance.now() - t0
  const used = cpu(process.cpuUsage(c0))
  console.log(JSON.stringify({ ms, cpu: used, mainCpu: mainThreadCpu() - m0, plannedMs: ms, plannedCpu: used, what: `refused ${String(err.code)}` }))
  process.exit(0)
}
const plannedMs = performance.now() - t0
const plannedCpu = cpu(process.cpuUsage(c0))
const { commitment } = cm.commit({ ...base, draw: built.draw, participants: built.participants })
const proof = dr.drawFromBlock(commitment, built.participants, chain[10]!)
const ms = performance.now() - t0
const total = cpu(process.cpuUsage(c0))
console.log(JSON.stringify({ ms, cpu: total, mainCpu: mainThreadCpu() - m0, plannedMs, plannedCpu, what: `method ${built.draw.plan ?? 1}, exact ${built.draw.exact.join('+')}, ${(proof.outcome as { rounds: number }).rounds} rounds` }))
