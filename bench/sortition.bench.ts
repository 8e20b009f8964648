/**
 * Sortition `panel`: commit (pool + quotas checked, exact features chosen, counted, acceptance gate),
 * draw and verify (recount over the committed exact features + replay) for a pool of 2,000 respondents,
 * 6 features of 2 to 6 values (skewed shares), k = 40, tight quotas (each value's proportional share
 * ±2 seats). Goal (issue 14): each under 5 s in Node. Then where it stops scaling: tighter quotas,
 * more features, larger pools; beyond the limits the commit is refused with a named error, never a hang.
 * Baseline: building and checking the pool and quotas alone (the part of commit that is not counting).
 * Then the same pool end to end through the public API (panelDraw + commit, drawFromBlock, verify),
 * each beside its engine-only figure measured in the same run.
 */
import { timeMs, timePair, type BenchRow } from './harness.js'
import { streamFromSeed } from '../src/core/random/stream.js'
import { OrbitdrawError } from '../src/core/errors.js'
import { checkQuotas, makePool } from '../src/core/sortition/pool.js'
import { drawPanel, meetsQuotas, planPanel } from '../src/core/sortition/panel.js'
import { commit as commitApi } from '../src/core/commitment.js'
import { drawFromBlock } from '../src/core/draw.js'
import { panelDraw } from '../src/core/kinds/panel.js'
import { serializeProof } from '../src/core/proof.js'
import { verify as verifyApi } from '../src/core/verify.js'
import { BEACON_NAME, buildChain } from '../test/helpers/chain.js'
import { ENGINE_ONLY } from './proof-fixture.js'
import { poolRows, quotas } from './panel-fixture.js'

const seed = new Uint8Array(32).fill(7)

export default async function (): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  const k = 40
  const { names, rows: data } = poolRows(2000, 6)
  const build = () => {
    const pool = makePool(names, data)
    return { pool, table: checkQuotas(pool, quotas(pool, k, 2), k) }
  }
  const { pool, table } = build()
  const commit = await timePair(() => planPanel(pool, table, k), build, 3, 1)
  const plan = planPanel(pool, table, k)
  const exactNames = plan.counter.exact.map((f) => pool.features[f]!.name)
  rows.push({
    name: `panel commit: 2,000 respondents, 6 features (2-6 values), k = 40, quotas ±2 (exact: ${exactNames.join(', ')}; ${plan.counter.states} states)`,
    value: commit.value,
    unit: 'ms',
    baseline: { name: 'makePool + checkQuotas only', value: commit.baseline },
    goal: '< 5000 ms',
    met: commit.value < 5000,
  })
  const draw = drawPanel(plan, streamFromSeed(seed))
  const drawMs = await timeMs(() => drawPanel(plan, streamFromSeed(seed)), 5, 1)
  rows.push({ name: `panel draw (same plan; ${draw.rounds} rejection rounds for this seed)`, value: drawMs, unit: 'ms', goal: '< 5000 ms', met: drawMs < 5000 })
  const verify = (): boolean => {
    // What a verifier redoes: the pool's order and quotas, the counter over the committed exact
    // features (no greedy search, no acceptance gate), the replayed draw, and the quota check.
    const { pool: p, table: t } = build()
    const again = planPanel(p, t, k, { exactFeatures: exactNames, skipAcceptanceCheck: true })
    const d = drawPanel(again, streamFromSeed(seed))
    return d.members.join() === draw.members.join() && meetsQuotas(p, t, d.members, p.features.map((_, f) => f))
  }
  if (!verify()) throw new Error('bench: replay differs')
  const v = await timePair(verify, build, 3, 1)
  rows.push({ name: 'panel verify (rebuild + recount over committed exact features + replay + quota check)', value: v.value, unit: 'ms', baseline: { name: 'makePool + checkQuotas only', value: v.baseline }, goal: '< 5000 ms', met: v.value < 5000 })

  // End to end through the public API (issue 14): panelDraw + commit (the commitment, its CID, the
  // participants' Merkle root), drawFromBlock (the proof), verify (parse + every check + replay), for
  // the same pool, k = 40 and 10 alternates. Baselines: the engine-only figures of the same run.
  const chain = buildChain(12, 'sortition-bench')
  const commitOpts = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, label: 'bench assembly' }
  const rowsQ = quotas(pool, k, 2)
  const apiCommit = () => {
    const built = panelDraw(pool, rowsQ, k, { alternates: 10 })
    return { ...commitApi({ ...commitOpts, draw: built.draw, participants: built.participants }), participants: built.participants }
  }
  const committed = apiCommit()
  const cBytes = committed.bytes.length
  const apiCommitTimes = await timePair(apiCommit, () => planPanel(pool, table, k), 3, 1)
  rows.push({
    name: `panel commit, public API (panelDraw + commit: plan, gate, entries, Merkle root, CID; commitment ${Math.round(cBytes / 1024)} KiB, ${committed.commitment.draw.kind === 'panel' ? committed.commitment.draw.types.length : 0} types)`,
    value: apiCommitTimes.value,
    unit: 'ms',
    baseline: { name: 'engine planPanel alone', value: apiCommitTimes.baseline },
    goal: '< 5000 ms',
    met: apiCommitTimes.value < 5000,
  })
  const apiDraw = () => drawFromBlock(committed.commitment, committed.participants, chain[10]!)
  const proof = apiDraw()
  const apiDrawTimes = await timePair(apiDraw, () => drawPanel(plan, streamFromSeed(seed)), 3, 1)
  rows.push({ name: 'panel draw, public API (drawFromBlock: commitment re-checked, participants hashed, panel + 10 alternates, proof)', value: apiDrawTimes.value, unit: 'ms', baseline: { name: 'engine drawPanel alone', value: apiDrawTimes.baseline }, goal: '< 5000 ms', met: apiDrawTimes.value < 5000 })
  const text = serializeProof(proof)
  const apiVerify = async () => {
    const r = await verifyApi(text, ENGINE_ONLY)
    if (!r.ok) throw new Error(`bench: the proof does not verify: ${r.checks.filter((c) => !c.ok).map((c) => c.name).join(', ')}`)
  }
  await apiVerify()
  const apiVerifyTimes = await timePair(apiVerify, verify, 3, 1)
  rows.push({ name: `panel verify, public API (verify: proof of ${Math.round(text.length / 1024)} KiB parsed, commitment validated with the gate, Merkle root, replay, named checks)`, value: apiVerifyTimes.value, unit: 'ms', baseline: { name: 'engine verify row above (recount + replay)', value: apiVerifyTimes.baseline }, goal: '< 5000 ms', met: apiVerifyTimes.value < 5000 })

  // Where it stops scaling: each case is one commit attempt; refusals are named, and timed.
  const cases: { label: string; n: number; features: number; slack: number }[] = [
    { label: '2,000 respondents, 6 features, quotas ±1', n: 2000, features: 6, slack: 1 },
    { label: '2,000 respondents, 7 features, quotas ±2', n: 2000, features: 7, slack: 2 },
    { label: '2,000 respondents, 8 features, quotas ±2', n: 2000, features: 8, slack: 2 },
    { label: '2,000 respondents, 8 features, quotas ±3', n: 2000, features: 8, slack: 3 },
    { label: '20,000 respondents, 6 features, quotas ±2', n: 20_000, features: 6, slack: 2 },
    { label: '200,000 respondents, 6 features, quotas ±2', n: 200_000, features: 6, slack: 2 },
  ]
  for (const c of cases) {
    const g = poolRows(c.n, c.features)
    const p = makePool(g.names, g.rows)
    const t = checkQuotas(p, quotas(p, k, c.slack), k)
    let outcome: string
    const t0 = performance.now()
    try {
      const pl = planPanel(p, t, k)
      outcome = `ok, exact ${pl.counter.exact.length}/${c.features} features, draw ${drawPanel(pl, streamFromSeed(seed)).rounds} rounds`
    } catch (err) {
      if (!(err instanceof OrbitdrawError)) throw err
      outcome = `refused ${err.code}`
    }
    const ms = performance.now() - t0
    rows.push({ name: `panel commit + draw, ${c.label}: ${outcome}`, value: ms, unit: 'ms', goal: 'answer (plan or named refusal) < 10000 ms', met: ms < 10_000 })
  }
  return rows
}
