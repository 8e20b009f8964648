/**
 * A housing lottery with preference categories (Bloom Housing-shaped), end to end on the in-process
 * emulator: 500 applications, 3 preference categories in a committed priority order (people with
 * disabilities: 4 units; veterans: 4 units; local residents: 16 units) and 40 units in all. One uniform
 * rank over every application; each category fills its set-aside from its claimants by rank; what is
 * left goes to the general pool by rank.
 *
 *   npx tsx examples/housing-lottery/run.ts [--out-dir DIR]
 *
 * Writes DIR/applications.csv (the file `orbitdraw commit --participants applications.csv --preferences
 * disability:4,veteran:4,local:16 --units 40` reads), commits (time-stamped), draws, verifies, and prints
 * each category's allocation. Exits 0 when the proof verifies and the allocation follows the rule.
 */
import assert from 'node:assert/strict'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { BeaconClient, commitTimestamped, draw, serializeProof, verify } from '../../src/index.js'
import type { PreferenceLotteryOutcomeJson } from '../../src/core/kinds/index.js'
import type { PreferenceCategoryInput } from '../../src/core/kinds/index.js'
import { preferenceLotteryDraw } from '../../src/core/kinds/index.js'
import { parseTrustAnchor } from '../../src/timestamp/index.js'
import { makePool } from '../../src/core/sortition/index.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES } from '../../src/timestamp/index.js'
import { startEmulator } from '../../src/emulator/index.js'

const { values: args } = parseArgs({ options: { 'out-dir': { type: 'string' } } })
const outDir = resolve(args['out-dir'] ?? '.')
const N = 500
const UNITS = 40
const CATEGORIES: PreferenceCategoryInput[] = [
  { name: 'disability', where: { disability: ['yes'] }, units: 4 },
  { name: 'veteran', where: { veteran: ['yes'] }, units: 4 },
  { name: 'local', where: { local: ['yes'] }, units: 16 },
]

// 1. Applications: ids and three yes/no claims, spread by a multiplicative hash of the row number.
const apps = Array.from({ length: N }, (_, i) => ({ id: `A${String(i + 1).padStart(4, '0')}`, disability: (i * 7919) % 100 < 8 ? 'yes' : 'no', veteran: (i * 104729) % 100 < 6 ? 'yes' : 'no', local: (i * 2654435761) % 100 < 45 ? 'yes' : 'no' }))
await mkdir(outDir, { recursive: true })
await writeFile(join(outDir, 'applications.csv'), `id,disability,veteran,local\n${apps.map((a) => `${a.id},${a.disability},${a.veteran},${a.local}`).join('\n')}\n`)
const pool = makePool(['disability', 'local', 'veteran'], apps.map((a) => ({ id: a.id, values: [a.disability, a.local, a.veteran] })))
const { draw: spec, participants } = preferenceLotteryDraw(pool, CATEGORIES, UNITS)
console.log(`1. ${N} applications: ${CATEGORIES.map((c) => `${apps.filter((a) => a[c.name as 'local' | 'veteran' | 'disability'] === 'yes').length} claim ${c.name}`).join(', ')}; ${UNITS} units`)

const emu = await startEmulator({ beacon: { intervalMs: 1000, initialBlocks: 3 } })
try {
  const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
  const anchors = [...DEFAULT_TIMESTAMP_AUTHORITIES, parseTrustAnchor(emu.tsaRootPem)]
  // Plan, commit and time-stamp in one call: a time-stamp too late for the planned block moves the target.
  const { commitment, cid, plan, timestamps: stamped } = await commitTimestamped({ client, delaySeconds: 4, draw: spec, participants, label: 'Riverside Commons: 40 units, preferences disability 4, veteran 4, local 16', timestamp: { authorities: [emu.tsaUrl], anchors } })
  console.log(`2. committed ${cid}; time-stamped by ${stamped.tokens[0]!.authorityName} at ${stamped.tokens[0]!.time}; target block ${plan.target}`)
  process.stderr.write(`   waiting for block ${plan.target}…\n`)
  const proof = await draw(commitment, participants, { client, timestamps: stamped.tokens.map((t) => t.base64) })
  const text = serializeProof(proof)
  const proofPath = join(outDir, 'housing-proof.json')
  await writeFile(proofPath, text)
  await writeFile(join(outDir, 'emulator-tsa-root.pem'), emu.tsaRootPem)
  const o = proof.outcome as PreferenceLotteryOutcomeJson
  console.log(`3. drew from block ${plan.target}: all ${o.order.length} applications ranked; proof ${proofPath}`)
  const result = await verify(new TextEncoder().encode(text), { trust: { beacons: [{ name: emu.beaconName, label: "this run's emulator beacon" }], timestampAuthorities: anchors }, commitment: cid })
  assert.equal(result.verdict, 'verified', 'the proof verifies')
  console.log(`4. verified: ${result.checks.length} checks passed`)
  console.log('   category     units  claimants  allocated  best ranks')
  for (const c of o.categories) console.log(`   ${c.name.padEnd(11)}  ${String(c.units).padStart(5)}  ${String(c.ranked.length).padStart(9)}  ${String(c.winners.length).padStart(9)}  ${c.winners.slice(0, 6).map((w) => `${w.rank}:${w.entry.split('|')[0]}`).join(' ')}`)
  console.log(`   general      ${String(o.general.units).padStart(5)}  ${String(N).padStart(9)}  ${String(o.general.winners.length).padStart(9)}  ${o.general.winners.slice(0, 6).map((w) => `${w.rank}:${w.entry.split('|')[0]}`).join(' ')}`)
  // The rule, checked from the proof alone: each category takes its best-ranked claimants not taken before.
  const taken = new Set<number>()
  for (const c of o.categories) {
    assert.deepEqual(c.winners.map((w) => w.index), c.ranked.filter((i) => !taken.has(i)).slice(0, c.units))
    for (const w of c.winners) taken.add(w.index)
  }
  assert.deepEqual(o.general.winners.map((w) => w.index), o.order.filter((i) => !taken.has(i)).slice(0, o.general.units))
  assert.equal(o.categories.reduce((a, c) => a + c.winners.length, 0) + o.general.winners.length, UNITS)
  console.log(`5. every category filled in priority order from its ranked list; ${UNITS} units allocated`)
} finally {
  await emu.stop()
}
