/**
 * Self-test of the raffle server (CI runs it): the emulator and the server on free loopback ports,
 * then the whole flow over HTTP with fetch, as a participant and a third-party verifier would do it.
 *
 *   npx tsx examples/raffle-server/run.ts
 */
import assert from 'node:assert/strict'
import { BeaconClient, parseCommitment, verify } from '../../src/index.js'
import { commitmentCid } from '../../src/core/formats.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES, parseTrustAnchor } from '../../src/timestamp/index.js'
import { startEmulator } from '../../src/emulator/index.js'
import { startRaffleServer } from './server.js'

const emu = await startEmulator({ beacon: { intervalMs: 300, initialBlocks: 3 } })
// The organizer time-stamps with the emulator's authority; a verifier of this run trusts its beacon and root explicitly.
const anchors = [...DEFAULT_TIMESTAMP_AUTHORITIES, parseTrustAnchor(emu.tsaRootPem)]
const server = await startRaffleServer({ client: new BeaconClient({ gateways: [emu.url], name: emu.beaconName }), timestamp: { authorities: [emu.tsaUrl], anchors } })
const get = async (path: string): Promise<Response> => fetch(new URL(path, server.url))

try {
  console.log(`emulator ${emu.url}, raffle server ${server.url}`)
  const participants = Array.from({ length: 50 }, (_, i) => `ticket-${String(i + 1).padStart(3, '0')}`)

  // 1. the organizer opens a raffle
  const created = await fetch(`${server.url}/raffles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ participants, winners: 3, label: 'Spring raffle', delaySeconds: 8 }) })
  assert.equal(created.status, 201)
  const raffle = (await created.json()) as { id: string; status: string; commitmentCid: string; targetBlock: number; links: { self: string; proof: string; verifier: string; commitment: string } }
  assert.equal(raffle.status, 'open')
  console.log(`1. opened raffle ${raffle.id}: commitment ${raffle.commitmentCid}, target block ${raffle.targetBlock}`)

  // 2. a participant checks the published commitment BEFORE the block exists
  const published = await (await get(raffle.links.commitment)).json()
  assert.equal(commitmentCid(parseCommitment(published)), raffle.commitmentCid, 'the published commitment hashes to the announced CID')
  const early = await get(raffle.links.proof)
  assert.equal(early.status, 425, 'no proof before the block')
  console.log(`2. published commitment checks against its CID; proof not available yet (HTTP ${early.status})`)

  // 3. wait for the automatic draw
  let state: { status: string; winners?: { rank: number; entry: string }[]; error?: string } = { status: 'open' }
  for (let i = 0; i < 100 && state.status === 'open'; i++) {
    await new Promise((r) => setTimeout(r, 200))
    state = (await (await get(raffle.links.self)).json()) as typeof state
  }
  assert.equal(state.status, 'drawn', state.error)
  console.log(`3. drawn: ${state.winners!.map((w) => `${w.rank}. ${w.entry}`).join(', ')}`)

  // 4. anyone fetches the proof and verifies it offline
  const res = await get(raffle.links.proof)
  assert.equal(res.status, 200)
  assert.match(res.headers.get('link') ?? '', /rel="verifier"/)
  const proof = (await res.json()) as { commitmentCid: string }
  assert.equal(proof.commitmentCid, raffle.commitmentCid, 'the proof is for the commitment published before the draw')
  const result = await verify(proof, { trust: { beacons: [{ name: emu.beaconName, label: 'emulator beacon' }], timestampAuthorities: anchors } })
  for (const c of result.checks) console.log(`   ${c.ok ? '✓' : '✗'} ${c.name}`)
  assert.ok(result.ok && result.authenticated, 'the proof verifies, signed by the beacon')
  assert.deepEqual(result.outcome, { kind: 'pick', winners: state.winners })
  const page = await get('/verifier/')
  assert.ok(page.status === 200 || page.status === 404, 'the verifier page is served when built')
  console.log(`4. proof verified; verifier link: ${raffle.links.verifier}${page.status === 200 ? '' : ' (page not built here: npm run build:verifier)'}`)

  // 5. bad requests are refused with a reason
  const bad = await fetch(`${server.url}/raffles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ participants: ['a', 'a'], winners: 1, delaySeconds: 0 }) })
  assert.equal(bad.status, 400)
  console.log(`5. duplicate entries refused: ${((await bad.json()) as { error: string }).error}`)
  console.log('raffle server self-test: OK')
} finally {
  await server.close()
  await emu.stop()
}
