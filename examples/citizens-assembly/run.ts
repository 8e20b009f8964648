/**
 * A citizens' assembly selected by sortition with quotas, end to end on the in-process emulator:
 * 40 members and 10 ranked alternates from 2,400 respondents (pool.csv), meeting the published quotas
 * on gender, age, district, education and housing (quotas.csv), uniformly at random among all the
 * panels that meet them, from a beacon block that did not exist when the draw was committed.
 *
 *   npx tsx examples/citizens-assembly/run.ts [--out-dir DIR]
 *
 * Steps: read the pool and quotas (feasibility checked, with the smallest relaxation if they cannot be
 * met); commit the draw as a PRIVATE list (the respondents' answers stay with the organizer: the proof
 * reveals only members and alternates) to a block a few seconds ahead; time-stamp the commitment with
 * the emulator's authority; wait; draw; verify in Node, trusting this run's emulator beacon and
 * authority explicitly. Writes the proof and the authority's root certificate to DIR (default: the
 * current directory) and prints how to check the same proof in the verifier page (README.md here).
 * Exits 0 when the proof verifies and every quota is met.
 */
import assert from 'node:assert/strict'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { BeaconClient, commitTimestamped, draw, serializeProof, verify } from '../../src/index.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES, parseTrustAnchor } from '../../src/timestamp/index.js'
import { panelDraw, type PanelOutcomeJson } from '../../src/core/sortition/index.js'
import { readPoolCsv, readQuotasCsv } from '../../src/node/index.js'
import { startEmulator } from '../../src/emulator/index.js'

const { values: args } = parseArgs({ options: { 'out-dir': { type: 'string' } } })
const here = dirname(fileURLToPath(import.meta.url))
const outDir = resolve(args['out-dir'] ?? '.')
const SEATS = 40
const ALTERNATES = 10

// 1. The pool and the quotas, as the recruitment team and the assembly's organizers wrote them.
const pool = await readPoolCsv(join(here, 'pool.csv'))
const quotas = await readQuotasCsv(join(here, 'quotas.csv'))
const t0 = performance.now()
// Checks feasibility (named errors with the smallest relaxation), orders the pool by (type, id), counts
// the valid panels over the features it can count exactly, and refuses quotas too tight to draw from.
const { draw: spec, participants } = panelDraw(pool, quotas, SEATS, { alternates: ALTERNATES })
console.log(`1. pool: ${pool.respondents.length} respondents, ${pool.features.length} features (${pool.features.map((f) => f.name).join(', ')}); ${quotas.length} quotas for ${SEATS} seats`)
console.log(`   planned in ${Math.round(performance.now() - t0)} ms: counted exactly over ${spec.exact.join(', ')}; the other features' quotas are met by redrawing`)

const emu = await startEmulator({ beacon: { intervalMs: 1000, initialBlocks: 3 } })
try {
  const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
  const anchors = [...DEFAULT_TIMESTAMP_AUTHORITIES, parseTrustAnchor(emu.tsaRootPem)]

  // 2. Commit to a block a few seconds ahead, privately (salted leaves: only members and alternates are
  //    ever revealed), and time-stamp the commitment before that block exists.
  // Plan, commit and time-stamp in one call: a time-stamp too late for the planned block moves the target.
  const { commitment, cid, secret, plan, timestamps: stamped } = await commitTimestamped({ client, delaySeconds: 4, draw: spec, participants, private: true, label: `Riverside citizens' assembly 2026: ${SEATS} members, ${ALTERNATES} alternates`, timestamp: { authorities: [emu.tsaUrl], anchors } })
  console.log(`2. committed ${cid}`)
  console.log(`   time-stamped by ${stamped.tokens[0]!.authorityName} at ${stamped.tokens[0]!.time}; target block ${plan.target} (latest seen: ${plan.after.sequence})`)

  // 3. Draw when the block is published: the panel, then the alternates, from the block's randomness.
  process.stderr.write(`   waiting for block ${plan.target}…\n`)
  const proof = await draw(commitment, participants, { client, disclosure: 'winners', secret, timestamps: stamped.tokens.map((t) => t.base64) })
  const text = serializeProof(proof)
  await mkdir(outDir, { recursive: true })
  const proofPath = join(outDir, 'assembly-proof.json')
  const rootPath = join(outDir, 'emulator-tsa-root.pem')
  await writeFile(proofPath, text)
  await writeFile(rootPath, emu.tsaRootPem)
  assert.equal(proof.outcome.kind, 'panel')
  const o = proof.outcome as PanelOutcomeJson
  const id = (entry: string): string => entry.split('|')[0]!
  console.log(`3. drew from block ${plan.target} (${o.rounds} round${o.rounds === 1 ? '' : 's'}); proof ${proofPath} (${(text.length / 1024).toFixed(1)} KiB)`)
  console.log(`   members:    ${o.members.map((m) => id(m.entry)).join(' ')}`)
  console.log(`   alternates: ${o.alternates.map((m) => `${m.rank}.${id(m.entry)}`).join(' ')}`)
  console.log('   quotas:')
  for (const q of o.quotas) {
    const ok = q.selected >= q.min && q.selected <= q.max
    console.log(`     ${q.feature.padEnd(10)} ${q.value.padEnd(21)} ${String(q.selected).padStart(2)} in ${q.min}..${q.max} ${ok ? '✓' : '✗'}`)
  }
  assert.ok(o.quotas.every((q) => q.selected >= q.min && q.selected <= q.max), 'every quota is met')
  assert.equal(o.members.length, SEATS)
  assert.equal(o.alternates.length, ALTERNATES)

  // 4. Anyone verifies it offline, with no access to the pool: here trusting this run's emulator
  //    beacon and time-stamping authority explicitly (the real beacon and authorities need no setting).
  const result = await verify(new TextEncoder().encode(text), { trust: { beacons: [{ name: emu.beaconName, label: "this run's emulator beacon" }], timestampAuthorities: anchors }, commitment: cid })
  for (const c of result.checks) console.log(`   ${c.ok ? '✓' : '✗'} ${c.name.padEnd(22)} ${c.detail.length > 100 ? `${c.detail.slice(0, 100)}…` : c.detail}`)
  assert.equal(result.verdict, 'verified', 'the proof verifies under the strict policy, with this run\'s beacon and authority trusted')
  assert.equal(proof.participants?.disclosure, 'winners')
  const revealed = proof.participants.revealed.length
  const hidden = pool.respondents.filter((r) => !text.includes(`"${r.id}|`)).length
  assert.equal(hidden, pool.respondents.length - SEATS - ALTERNATES, 'only members and alternates appear in the proof')
  console.log(`4. verified: ${result.checks.length} checks passed; the proof reveals ${revealed} respondents, the other ${hidden} never appear in it`)
  const link = new URLSearchParams({ 'trust-beacon': emu.beaconName, commitment: cid })
  console.log('5. to check it in the verifier page (README.md): npm run build:verifier, open dist/verifier/index.html')
  console.log(`   ?${link.toString()}`)
  console.log(`   then paste ${rootPath} under Trust settings → time-stamping roots, and load ${proofPath}`)
} finally {
  await emu.stop()
}
