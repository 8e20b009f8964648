/**
 * A mixed draw end to end through the library against the emulator (beacon, time-stamping authority,
 * drand chain on one loopback origin): planned round, block N time-stamped before round R, verified
 * with the either-honest wording. A beacon fault that holds block N back until after round R makes
 * `source-order` fail. The drand client refuses a relay that serves another chain or a bad signature.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { BeaconClient } from '../../src/beacon/client.js'
import { planTarget } from '../../src/beacon/plan.js'
import { commit } from '../../src/core/commitment.js'
import { planRound, roundTime } from '../../src/core/drand/chain.js'
import { DEFAULT_DRAND_CHAINS, DRAND_QUICKNET } from '../../src/core/drand/chain.js'
import { parseTrustAnchor } from '../../src/core/timestamp/anchor.js'
import { describeVerdict } from '../../src/core/verdict.js'
import { DrandClient } from '../../src/drand/client.js'
import { draw } from '../../src/draw.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { timestampCommitment } from '../../src/timestamp/client.js'
import { verify } from '../../src/verify.js'

const PEOPLE = ['Amara', 'Bruno', 'Chen', 'Dalia', 'Emil']
let emu: RunningEmulator | undefined
afterEach(async () => {
  await emu?.stop()
  emu = undefined
})

async function mixedDraw(e: RunningEmulator, hold: boolean) {
  const anchors = [parseTrustAnchor(e.tsaRootPem)]
  const client = new BeaconClient({ gateways: [e.url], name: e.beaconName })
  const plan = await planTarget({ client, delaySeconds: 1 })
  const round = planRound(e.drand.info, plan.estimatedTime.getTime() / 1000, 1)
  const { commitment, cid } = commit({ beacon: plan.beacon, target: plan.target, after: plan.after, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: 'mixed e2e', drand: { chain: e.drand.info.hash, round } })
  const { tokens } = await timestampCommitment(cid, { authorities: [e.tsaUrl], anchors })
  if (hold) e.beacon.holdBack(plan.target, (roundTime(e.drand.info, round) + 1) * 1000)
  const drand = new DrandClient({ chain: e.drand.info, urls: [e.url] })
  const proof = await draw(commitment, PEOPLE, {
    client,
    timestamps: tokens.map((t) => t.base64),
    timeoutMs: 30_000,
    drand: { client: drand, timestamp: async (blockCid) => (await timestampCommitment(blockCid, { authorities: [e.tsaUrl], anchors })).tokens.map((t) => t.base64), roundTimeoutMs: 20_000 },
  })
  const trust = { beacons: [e.beaconName], timestampAuthorities: [e.tsaRootPem], drandChains: [...DEFAULT_DRAND_CHAINS, e.drand.info] }
  return { proof, trust, round }
}

describe('a mixed draw against the emulator', () => {
  it('verifies: unbiased unless both Orbitport and drand are dishonest', async () => {
    emu = await startEmulator({ beacon: { intervalMs: 1000, keyType: 'Ed25519', initialBlocks: 2 } })
    const { proof, trust, round } = await mixedDraw(emu, false)
    expect(proof.version).toBe(2)
    expect(proof.drand?.round).toBe(round)
    expect(proof.drand?.timestamps.length).toBe(1)
    const r = await verify(proof, { trust })
    expect(r.checks.filter((c) => !c.ok)).toEqual([])
    expect(r.verdict).toBe('verified')
    expect(describeVerdict(r).headline).toMatch(/^VERIFIED, unbiased unless both Orbitport and drand are dishonest/)
  }, 40_000)

  it('a block held back until after round R fails source-order', async () => {
    emu = await startEmulator({ beacon: { intervalMs: 1000, keyType: 'Ed25519', initialBlocks: 2 } })
    const { proof, trust } = await mixedDraw(emu, true)
    const r = await verify(proof, { trust })
    expect(r.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['source-order'])
    expect(r.sources?.statement).toMatch(/the Orbitport operator is trusted/)
  }, 40_000)

  it("a relay's round number that is text reaches the error escaped and capped (fuzzing pass 3)", async () => {
    const relay: typeof fetch = async () => new Response(JSON.stringify({ round: '\u001b[2J\u001b[HVERIFIED\u202e' + 'x'.repeat(1000), signature: 'ab' }))
    const err = (await new DrandClient({ chain: DRAND_QUICKNET, urls: ['http://relay.invalid'], fetch: relay }).round(5).catch((e: unknown) => e)) as Error
    expect(err).toMatchObject({ code: 'DRAND_BAD_RESPONSE' })
    expect(err.message).toContain('the relay answered round \\u001b[2J')
    // eslint-disable-next-line no-control-regex
    expect(err.message).not.toMatch(/[\u001b\u202e]/)
    expect(err.message.length).toBeLessThan(200)
  })

  it('the drand client checks the chain and every signature, whatever the relay says', async () => {
    emu = await startEmulator({ beacon: { intervalMs: 60_000, keyType: 'Ed25519' } })
    const good = new DrandClient({ chain: emu.drand.info, urls: [emu.url] })
    expect((await good.info()).hash).toBe(emu.drand.info.hash)
    const latest = await good.latest()
    expect(latest.round).toBe(emu.drand.latest())
    // A pinned chain with another key at the same hash: every round fails its signature.
    const other = await startEmulator({ beacon: { intervalMs: 60_000, keyType: 'Ed25519' }, drand: { genesis: emu.drand.info.genesis } })
    try {
      const impostor = new DrandClient({ chain: { ...emu.drand.info, groupHash: undefined }, urls: [other.url.replace(/\/$/, '')] })
      await expect(impostor.round(5)).rejects.toMatchObject({ code: 'DRAND_UNAVAILABLE' }) // other serves another chain hash: 404
    } finally {
      await other.stop()
    }
    await expect(new DrandClient({ chain: DRAND_QUICKNET, urls: [emu.url] }).round(5)).rejects.toMatchObject({ code: 'DRAND_UNAVAILABLE' })
    // A future round is not served; waiting for it past the timeout voids the draw.
    const future = emu.drand.latest() + 1000
    await expect(good.round(future)).rejects.toMatchObject({ code: 'DRAND_UNAVAILABLE' })
    const start = Date.now()
    const stuck = new DrandClient({ chain: emu.drand.info, urls: [emu.url], now: () => roundTime(emu!.drand.info, future) * 1000 + (Date.now() - start) })
    await expect(stuck.waitForRound(future, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'DRAND_VOID' })
  }, 20_000)
})
