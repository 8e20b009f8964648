/**
 * An H-1B-shaped allocation, end to end on the in-process emulator: 2,000 synthetic registrations, each
 * with a wage level (I to IV, entered 1, 2, 3 or 4 times: integer weights) and a degree; 650 regular
 * selections weighted by wage level among all, then 200 among the remaining advanced-degree
 * registrations, from one commitment and one beacon block that did not exist when it was committed.
 *
 *   npx tsx examples/h1b-style/run.ts [--out-dir DIR]
 *
 * Steps: generate the registrations (deterministic, written to DIR/registrations.csv with the stages in
 * DIR/stages.csv, the files `orbitdraw commit --participants registrations.csv --stages stages.csv`
 * reads); commit the `stages` draw as a private list; time-stamp it with the emulator's authority; wait;
 * draw; verify in Node with this run's beacon and authority trusted explicitly; print, per wage level,
 * the selection rates of the regular stage, of the advanced-degree stage (among advanced-degree
 * registrations) and overall, each beside its exact probability (regular stage: exact.ts; advanced stage
 * and overall, where an advanced-degree registration can be selected in either stage: staged.ts). Exits 0
 * when the proof verifies and the exact probabilities add up to 650 and 200.
 */
import assert from 'node:assert/strict'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { BeaconClient, commitTimestamped, draw, serializeProof, verify } from '../../src/index.js'
import type { StagesOutcomeJson } from '../../src/core/kinds/index.js'
import type { StageInput } from '../../src/core/kinds/index.js'
import { stagesDraw } from '../../src/core/kinds/index.js'
import { parseTrustAnchor } from '../../src/timestamp/index.js'
import { makePool } from '../../src/core/sortition/index.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES } from '../../src/timestamp/index.js'
import { startEmulator } from '../../src/emulator/index.js'
import { stagedProbabilities } from './staged.js'

const { values: args } = parseArgs({ options: { 'out-dir': { type: 'string' } } })
const outDir = resolve(args['out-dir'] ?? '.')
const N = 2000
const WAGES = ['I', 'II', 'III', 'IV'] as const
const WEIGHT = { I: 1, II: 2, III: 3, IV: 4 } as const

// 1. The registrations: a fixed mix of wage levels (I 30 %, II 35 %, III 20 %, IV 15 %) and 40 %
//    advanced degrees, spread by a multiplicative hash of the row number (no randomness: reproducible).
const registrations = Array.from({ length: N }, (_, i) => {
  const r = (i * 2654435761) % 100
  return { id: `R${String(i + 1).padStart(5, '0')}`, wage: r < 30 ? 'I' : r < 65 ? 'II' : r < 85 ? 'III' : 'IV', degree: (i * 40503) % 100 < 40 ? 'advanced' : 'bachelor' }
})
const stages: StageInput[] = [
  { name: 'regular', method: 'weighted', count: 650, weightBy: 'wage', weights: WEIGHT },
  { name: 'advanced degree', method: 'weighted', count: 200, where: { degree: ['advanced'] }, weightBy: 'wage', weights: WEIGHT },
]
await mkdir(outDir, { recursive: true })
await writeFile(join(outDir, 'registrations.csv'), `id,wage,degree\n${registrations.map((r) => `${r.id},${r.wage},${r.degree}`).join('\n')}\n`)
await writeFile(join(outDir, 'stages.csv'), 'name,method,count,where,weight_by,weights\nregular,weighted,650,,wage,I=1;II=2;III=3;IV=4\nadvanced degree,weighted,200,degree=advanced,wage,I=1;II=2;III=3;IV=4\n')
const pool = makePool(['degree', 'wage'], registrations.map((r) => ({ id: r.id, values: [r.degree, r.wage] })))
const { draw: spec, participants } = stagesDraw(pool, stages)
const perWage = WAGES.map((w) => registrations.filter((r) => r.wage === w).length)
console.log(`1. ${N} registrations: ${WAGES.map((w, i) => `wage ${w} ${perWage[i]}`).join(', ')}; ${registrations.filter((r) => r.degree === 'advanced').length} with an advanced degree`)

const emu = await startEmulator({ beacon: { intervalMs: 1000, initialBlocks: 3 } })
try {
  const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
  const anchors = [...DEFAULT_TIMESTAMP_AUTHORITIES, parseTrustAnchor(emu.tsaRootPem)]

  // 2. Commit to a block a few seconds ahead (a private list: only the selected are ever revealed) and
  //    time-stamp the commitment before that block exists.
  // Plan, commit and time-stamp in one call: a time-stamp too late for the planned block moves the target.
  const { commitment, cid, secret, plan, timestamps: stamped } = await commitTimestamped({ client, delaySeconds: 4, draw: spec, participants, private: true, label: 'H-1B-style allocation (synthetic): 650 regular, 200 advanced degree', timestamp: { authorities: [emu.tsaUrl], anchors } })
  console.log(`2. committed ${cid}`)
  console.log(`   time-stamped by ${stamped.tokens[0]!.authorityName} at ${stamped.tokens[0]!.time}; target block ${plan.target}`)

  // 3. Draw when the block is published.
  process.stderr.write(`   waiting for block ${plan.target}…\n`)
  const proof = await draw(commitment, participants, { client, disclosure: 'winners', secret, timestamps: stamped.tokens.map((t) => t.base64) })
  const text = serializeProof(proof)
  const proofPath = join(outDir, 'h1b-proof.json')
  await writeFile(proofPath, text)
  await writeFile(join(outDir, 'emulator-tsa-root.pem'), emu.tsaRootPem)
  const o = proof.outcome as StagesOutcomeJson
  console.log(`3. drew from block ${plan.target}: ${o.stages.map((s) => `${s.name} ${s.winners.length} of ${s.eligible} eligible`).join('; ')}; proof ${proofPath}`)

  // 4. Verify, as anyone can, with this run's emulator beacon and authority trusted explicitly.
  const result = await verify(new TextEncoder().encode(text), { trust: { beacons: [{ name: emu.beaconName, label: "this run's emulator beacon" }], timestampAuthorities: anchors }, commitment: cid })
  for (const c of result.checks) console.log(`   ${c.ok ? '✓' : '✗'} ${c.name.padEnd(22)} ${c.detail.length > 90 ? `${c.detail.slice(0, 90)}…` : c.detail}`)
  assert.equal(result.verdict, 'verified', 'the proof verifies under the strict policy, with this run\'s beacon and authority trusted')
  assert.equal(proof.participants?.disclosure, 'winners')

  // 5. Selection rates per wage level beside the exact probabilities (staged.ts): the regular stage (650
  //    of 2,000, weighted without replacement), the advanced-degree stage (200 among the advanced-degree
  //    registrations left, so conditional on stage 1) and overall. A bachelor's registration can only be
  //    selected in the regular stage.
  const groups = WAGES.flatMap((w) => (['bachelor', 'advanced'] as const).map((degree) => ({ wage: w, degree, count: registrations.filter((r) => r.wage === w && r.degree === degree).length, weight: WEIGHT[w], advanced: degree === 'advanced' })))
  const started = performance.now()
  const exact = stagedProbabilities(groups, 650, 200, 2)
  const exactMs = performance.now() - started
  const regularTotal = exact.reduce((a, p, i) => a + p.regular * groups[i]!.count, 0)
  const advancedTotal = exact.reduce((a, p, i) => a + p.advanced * groups[i]!.count, 0)
  assert.ok(Math.abs(regularTotal - 650) < 1e-6, `the regular stage's exact probabilities add up to 650 (got ${regularTotal})`)
  assert.ok(Math.abs(advancedTotal - 200) < 1e-2, `the advanced stage's exact probabilities add up to 200 (got ${advancedTotal})`)
  const wageOf = (entry: string): string => /\|wage=([IV]+)$/.exec(entry)![1]!
  const degreeOf = (entry: string): string => /\|degree=([a-z]+)\|/.exec(entry)![1]!
  const rate = (k: number, n: number): string => (n === 0 ? '  -  ' : (k / n).toFixed(3))
  console.log('4. selection by wage level: rate in this draw | exact probability (regular stage among all; advanced stage among')
  console.log('   the advanced-degree registrations; overall among all)')
  console.log('   wage  registrations  regular  rate   exact   advanced-degree  advanced  rate   exact   overall  rate   exact')
  WAGES.forEach((w, i) => {
    const b = groups.findIndex((g) => g.wage === w && !g.advanced)
    const a = groups.findIndex((g) => g.wage === w && g.advanced)
    const nAdv = groups[a]!.count
    const regular = o.stages[0]!.winners.filter((x) => wageOf(x.entry) === w).length
    const advanced = o.stages[1]!.winners.filter((x) => wageOf(x.entry) === w && degreeOf(x.entry) === 'advanced').length
    const overallExact = (groups[b]!.count * exact[b]!.overall + nAdv * exact[a]!.overall) / perWage[i]!
    console.log(
      `   ${w.padEnd(4)}  ${String(perWage[i]).padStart(13)}  ${String(regular).padStart(7)}  ${rate(regular, perWage[i]!)}  ${exact[b]!.regular.toFixed(4)}  ${String(nAdv).padStart(15)}  ${String(advanced).padStart(8)}  ${rate(advanced, nAdv)}  ${exact[a]!.advanced.toFixed(4)}  ${String(regular + advanced).padStart(7)}  ${rate(regular + advanced, perWage[i]!)}  ${overallExact.toFixed(4)}`,
    )
  })
  console.log(`   an advanced-degree registration's overall probability: ${WAGES.map((w) => `${w} ${exact[groups.findIndex((g) => g.wage === w && g.advanced)]!.overall.toFixed(4)}`).join(', ')}`)
  console.log(`   the exact probabilities times the registrations add up to ${regularTotal.toFixed(9)} (650 selections) and ${advancedTotal.toFixed(4)} (200), computed in ${(exactMs / 1000).toFixed(1)} s`)
  console.log(`5. the proof reveals the ${o.stages.reduce((a, s) => a + s.winners.length, 0)} selected registrations only; the other ${N - 850} never appear in it`)
  assert.equal(registrations.filter((r) => !text.includes(`"${r.id}|`)).length, N - 850)
} finally {
  await emu.stop()
}
