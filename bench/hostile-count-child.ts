/**
 * Child of bench/sortition-hostile.bench.ts: builds the forged count proof of bench/hostile-fixture.ts
 * (`hostileCountProof`) with the rows, `k`, rounds (`-`: none) and values of `b` given on the command line, runs `verify` on it (relaxed
 * policy, as every bench proof), and prints one JSON line: its CPU and wall time, the failed checks and
 * the peak RSS. A child of its own, because at the count limit the counter runs out of memory and the
 * process dies: the parent reports the exit (signal or code) instead.
 */
import { loadavg } from 'node:os'
import { verify } from '../src/core/verify.js'
import { hostileCountProof } from './hostile-fixture.js'
import { ENGINE_ONLY } from './proof-fixture.js'

const rows = Number(process.argv[2])
const k = Number(process.argv[3])
const rounds = process.argv[4] === undefined || process.argv[4] === '-' ? undefined : process.argv[4] === 'max' ? 'max' : Number(process.argv[4])
const values = process.argv[5] === undefined ? undefined : Number(process.argv[5])
const h = hostileCountProof({ rows, k, ...(rounds === undefined ? {} : { rounds }), ...(values === undefined ? {} : { values }) })
const c0 = process.cpuUsage()
const t0 = performance.now()
const r = await verify(h.text, ENGINE_ONLY)
const c = process.cpuUsage(c0)
process.stdout.write(
  JSON.stringify({
    wallMs: performance.now() - t0,
    cpuMs: (c.user + c.system) / 1000,
    failed: r.checks.filter((x) => !x.ok).map((x) => x.name),
    rssMiB: process.resourceUsage().maxRSS / 1024,
    load: loadavg()[0],
    maxRounds: h.maxRounds,
    draw: h.cost.draw,
  }) + '\n',
)
