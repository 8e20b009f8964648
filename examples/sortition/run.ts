/**
 * A citizens' assembly by sortition: 30 members and 10 ranked alternates out of a pool of 20,000,
 * drawn as a PRIVATE draw: the proof reveals only the 40 people chosen, each with a Merkle inclusion
 * proof against the committed root; the other 19,960 names never leave the organizer.
 *
 *   npx tsx examples/sortition/run.ts [--out assembly-proof.json]
 *
 * Runs on the in-process emulator and exits 0 when the proof verifies and contains no unselected name.
 */
import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { BeaconClient, commit, draw, planTarget, serializeProof, verify } from '../../src/index.js'
import { startEmulator } from '../../src/emulator/index.js'

const { values: args } = parseArgs({ options: { out: { type: 'string' } } })
const MEMBERS = 30
const ALTERNATES = 10
const POOL = 20_000

// The pool: in real life the electoral roll; here a generated list of unique, stable entries.
const DISTRICTS = ['North', 'South', 'East', 'West', 'Centre']
const pool = Array.from({ length: POOL }, (_, i) => `citizen-${String(i + 1).padStart(5, '0')} (${DISTRICTS[i % DISTRICTS.length]})`)

const emu = await startEmulator({ beacon: { intervalMs: 500, initialBlocks: 3 } })
try {
  const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })

  // 1. commit: only the Merkle root and the count of the pool are published, never the list.
  const plan = await planTarget({ client, delaySeconds: 1 })
  const { commitment, cid } = commit({ ...plan, participants: pool, draw: { kind: 'pick', count: MEMBERS + ALTERNATES }, label: `Citizens' assembly 2026: ${MEMBERS} members + ${ALTERNATES} ranked alternates` })
  console.log(`1. committed ${cid}`)
  console.log(`   pool: ${commitment.participants!.count} people, Merkle root ${commitment.participants!.root}`)
  console.log(`   target block ${plan.target} (after block ${plan.after.sequence})`)

  // 2. draw privately: disclosure 'winners'.
  const proof = await draw(commitment, pool, { client, disclosure: 'winners' })
  const text = serializeProof(proof)
  const out = resolve(args.out ?? 'assembly-proof.json')
  await writeFile(out, text)
  assert.equal(proof.outcome.kind, 'pick')
  assert.equal(proof.participants?.disclosure, 'winners')
  const chosen = proof.outcome.kind === 'pick' ? proof.outcome.winners : []
  console.log(`2. drew from block ${plan.target}; proof ${out} (${(text.length / 1024).toFixed(1)} KiB)`)
  console.log(`   members:    ${chosen.slice(0, MEMBERS).map((w) => w.entry.slice(8, 13)).join(' ')}`)
  console.log(`   alternates: ${chosen.slice(MEMBERS).map((w) => `${w.rank - MEMBERS}.${w.entry.slice(8, 13)}`).join(' ')}`)

  // 3. anyone verifies it, offline, without the pool.
  const result = await verify(JSON.parse(text), { requireAuthenticated: true })
  for (const c of result.checks) console.log(`   ${c.ok ? '✓' : '✗'} ${c.name.padEnd(22)} ${c.detail.length > 110 ? `${c.detail.slice(0, 110)}…` : c.detail}`)
  assert.ok(result.ok, 'the proof verifies')
  assert.ok(result.authenticated, 'signed by the beacon')

  // 4. the proof reveals the 40 chosen, each with an inclusion path, and nobody else.
  const revealed = proof.participants.revealed
  assert.equal(revealed.length, MEMBERS + ALTERNATES)
  const depth = Math.ceil(Math.log2(POOL))
  for (const r of revealed) assert.ok(r.path.length <= depth, 'an inclusion path is at most log2(n) hashes')
  const selected = new Set(chosen.map((w) => w.entry))
  const leaked = pool.filter((e) => !selected.has(e) && text.includes(e))
  assert.deepEqual(leaked, [], 'no unselected name appears in the proof')
  console.log(`3. verified: ${revealed.length} revealed entries, each with a ${revealed[0]!.path.length}-hash inclusion path;`)
  console.log(`   none of the ${POOL - selected.size} people not selected appears in the proof file`)
} finally {
  await emu.stop()
}
