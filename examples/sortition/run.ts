/**
 * A citizens' assembly by sortition: 30 members and 10 ranked alternates out of a pool of 20,000,
 * drawn as a PRIVATE draw: the pool is committed as a salted list (a fresh organizer secret), and the
 * proof reveals only the 40 people chosen, each with its leaf salt and a Merkle inclusion proof against
 * the committed root; the other 19,960 names never leave the organizer, and the proof's hashes cannot
 * be tested against guesses of them. Every member of the pool can get a receipt ("I was in the draw").
 *
 *   npx tsx examples/sortition/run.ts [--out assembly-proof.json]
 *
 * Runs on the in-process emulator and exits 0 when the proof verifies and contains no unselected name.
 */
import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { BeaconClient, checkReceipt, commitTimestamped, draw, makeReceipts, serializeProof, verify } from '../../src/index.js'
import { bytesToHex, encodeLeaf, leafHash } from '../../src/core/formats.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES, parseTrustAnchor } from '../../src/timestamp/index.js'
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

  // 1. commit: only the salted Merkle root and the count of the pool are published, never the list.
  //    private: true salts every leaf with a fresh secret, which the organizer keeps (never published).
  //    It is time-stamped before its block exists (here with the emulator's authority, trusted explicitly);
  //    a time-stamp too late for the planned block moves the target (nothing is published yet).
  const anchors = [...DEFAULT_TIMESTAMP_AUTHORITIES, parseTrustAnchor(emu.tsaRootPem)]
  const committed = await commitTimestamped({ client, delaySeconds: 8, participants: pool, draw: { kind: 'pick', count: MEMBERS + ALTERNATES }, label: `Citizens' assembly 2026: ${MEMBERS} members + ${ALTERNATES} ranked alternates`, private: true, timestamp: { authorities: [emu.tsaUrl], anchors } })
  const { commitment, cid, secret, plan, timestamps: stamped } = committed
  console.log(`1. committed ${cid}, time-stamped by ${stamped.tokens[0]!.authorityName} at ${stamped.tokens[0]!.time}`)
  console.log(`   pool: ${commitment.participants!.count} people, salted Merkle root ${commitment.participants!.root}`)
  console.log(`   target block ${plan.target} (after block ${plan.after.sequence})`)

  // 2. draw privately: disclosure 'winners', with the organizer's secret.
  const proof = await draw(commitment, pool, { client, disclosure: 'winners', secret, timestamps: stamped.tokens.map((t) => t.base64) })
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
  const result = await verify(new TextEncoder().encode(text), { trust: { beacons: [{ name: emu.beaconName, label: 'emulator beacon' }], timestampAuthorities: anchors } })
  for (const c of result.checks) console.log(`   ${c.ok ? '✓' : '✗'} ${c.name.padEnd(22)} ${c.detail.length > 110 ? `${c.detail.slice(0, 110)}…` : c.detail}`)
  assert.equal(result.verdict, 'verified', 'the proof verifies under the strict policy')
  assert.ok(result.authenticated, 'signed by the beacon')

  // 4. the proof reveals the 40 chosen, each with an inclusion path, and nobody else.
  const revealed = proof.participants.revealed
  assert.equal(revealed.length, MEMBERS + ALTERNATES)
  const depth = Math.ceil(Math.log2(POOL))
  for (const r of revealed) assert.ok(r.path.length <= depth, 'an inclusion path is at most log2(n) hashes')
  const selected = new Set(chosen.map((w) => w.entry))
  const leaked = pool.filter((e) => !selected.has(e) && text.includes(e))
  assert.deepEqual(leaked, [], 'no unselected name appears in the proof')
  // A dictionary attack over the entry format: hash every possible entry as an (unsalted) leaf and look
  // for it among the proof's path hashes. On an unsalted list this recovered every direct neighbour.
  const pathHashes = new Set(revealed.flatMap((r) => r.path))
  const recovered = pool.filter((e) => pathHashes.has(bytesToHex(leafHash(encodeLeaf(e)))))
  assert.deepEqual(recovered, [], 'no entry is recovered by hashing guesses against the paths')
  assert.ok(!text.includes(secret!.exportHex()), 'the secret is not in the proof')

  // 5. receipts: each person in the pool can check they were in the draw, seeing nobody else.
  const receipts = makeReceipts(committed, pool, secret!)
  const mine = receipts.receiptFor(12_345)
  assert.ok(checkReceipt(JSON.stringify(mine), { commitment: cid }).ok, 'a receipt checks against the published CID')
  console.log(`3. verified: ${revealed.length} revealed entries, each with a ${revealed[0]!.path.length}-hash inclusion path;`)
  console.log(`   none of the ${POOL - selected.size} people not selected appears in the proof file, and a dictionary`)
  console.log(`   attack over the entry format recovers ${recovered.length} of them (the leaves are salted)`)
  console.log(`4. receipt of ${JSON.stringify(mine.entry)} checks against ${cid} (${mine.path.length}-hash path, no other entry)`)
} finally {
  await emu.stop()
}
