import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BeaconClient } from '../../src/beacon/client.js'
import { draw, verifyOnline } from '../../src/beacon/draw.js'
import { planCommitment, planTarget } from '../../src/beacon/plan.js'
import { base64ToBytes } from '../../src/core/bytes.js'
import { commit } from '../../src/core/commitment.js'
import { parseProof, serializeProof } from '../../src/core/proof.js'
import { verify } from '../../src/core/verify.js'
import { startBeaconEmulator, type ServedBeaconEmulator } from '../../src/emulator/beacon.js'
import { trustBeacon } from '../helpers/policy.js'

const people = ['ada', 'grace', 'alan', 'edsger', 'barbara', 'donald', 'margaret']

describe('network draw on an RSA beacon publishing every 200 ms', () => {
  let emu: ServedBeaconEmulator
  beforeAll(async () => {
    emu = await startBeaconEmulator({ intervalMs: 200, initialBlocks: 3 })
  })
  afterAll(async () => {
    await emu.stop()
  })

  it('plan, commit, wait with progress, draw: the proof carries record + head..after and verifies offline and online', async () => {
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
    const plan = await planTarget({ client, delaySeconds: 0.5 })
    expect(plan.authenticated).toBe(true)
    expect(plan.target).toBeGreaterThan(plan.after.sequence)
    expect(plan.intervalSeconds).toBeGreaterThan(0)
    const { commitment } = commit({ beacon: plan.beacon, target: plan.target, after: plan.after, participants: people, draw: { kind: 'pick', count: 2 }, label: 'network draw' })
    const progress: number[] = []
    const proof = await draw(commitment, people, { client, untimestamped: true, onProgress: (p) => progress.push(p.remaining) })
    expect(progress.at(-1)).toBe(0)
    const blocks = proof.chain.blocks
    expect(proof.chain.ipnsRecord).toBeDefined()
    // Newest first, from the head down to the after block.
    expect(blocks.length).toBeGreaterThanOrEqual(plan.target - plan.after.sequence + 1)
    expect(blocks.at(-1)!.cid).toBe(plan.after.block)
    const res = await verify(JSON.parse(serializeProof(proof)), trustBeacon(emu.beaconName, { now: new Date() }))
    expect(res.checks.filter((c) => !c.ok)).toEqual([])
    expect(res.ok).toBe(true)
    expect(res.authenticated).toBe(true)
    for (const name of ['chain-links', 'chain-target', 'after-block', 'ipns-record-signature', 'ipns-record-name', 'ipns-record-value']) {
      expect(res.checks.find((c) => c.name === name)?.ok, name).toBe(true)
    }
    expect(res.checks.find((c) => c.name === 'after-block')!.detail).toMatch(/commitment was made after it/)
    const online = await verifyOnline(proof, { gateways: [emu.url], offline: res })
    expect(online.asked).toBe(true)
    expect(online.checks.map((c) => [c.name, c.ok])).toEqual([
      ['online-blocks', true],
      ['online-chain', true],
    ])
  })

  it('draw refuses a commitment without time-stamps, before any request, unless told untimestamped: true', async () => {
    let requests = 0
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
    const plan = await planTarget({ client, delaySeconds: 0.3 })
    const { commitment } = commit({ beacon: plan.beacon, target: plan.target, after: plan.after, participants: people, draw: { kind: 'pick', count: 1 } })
    const counting = new BeaconClient({ gateways: [emu.url], name: emu.beaconName, fetch: (input, init) => (requests++, fetch(input, init)) })
    for (const options of [{}, { timestamps: [] }, { untimestamped: false }]) {
      const err = await draw(commitment, people, { client: counting, ...options }).catch((e: unknown) => e)
      expect(err).toMatchObject({ name: 'InvalidInputError', code: 'MISSING_TIMESTAMPS', path: 'options.timestamps' })
      expect((err as { hint: string }).hint).toMatch(/timestampCommitment\(cid\).*timestamps: stamped\.tokens\.map.*untimestamped: true/)
    }
    expect(requests).toBe(0)
    const proof = await draw(commitment, people, { client, untimestamped: true })
    expect(proof.timestamps).toBeUndefined()
    // The default verify says why such a proof is not verified.
    const res = await verify(JSON.parse(serializeProof(proof)), trustBeacon(emu.beaconName, { now: new Date(), allowUntimestamped: false }))
    expect(res.checks.find((c) => c.name === 'commitment-time')?.ok).toBe(false)
  })

  it('a tampered carried chain fails verify with named checks', async () => {
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
    const c = await planCommitment({ client, delaySeconds: 0 })
    const { commitment } = commit({ ...c, participants: people, draw: { kind: 'pick', count: 1 } })
    const proof = await draw(commitment, people, { client, untimestamped: true })
    // Drop the head: the record's value no longer names blocks[0].
    if (proof.chain.blocks.length > 1) {
      const cut = { ...proof, chain: { ...proof.chain, blocks: proof.chain.blocks.slice(1) } }
      const r = await verify(JSON.parse(serializeProof(cut)))
      expect(r.ok).toBe(false)
      expect(r.checks.find((x) => x.name === 'ipns-record-value')?.ok).toBe(false)
    }
    // Swap two blocks: the links break.
    if (proof.chain.blocks.length > 2) {
      const b = [...proof.chain.blocks]
      ;[b[0], b[1]] = [b[1]!, b[0]!]
      const r = await verify(JSON.parse(serializeProof({ ...proof, chain: { ...proof.chain, blocks: b } })))
      expect(r.checks.find((x) => x.name === 'chain-links')?.ok).toBe(false)
    }
  })

  it('verifyOnline reports blocks the beacon does not serve', async () => {
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
    const c = await planCommitment({ client })
    const { commitment } = commit({ ...c, participants: people, draw: { kind: 'pick', count: 1 } })
    const proof = await draw(commitment, people, { client, untimestamped: true })
    const other = await startBeaconEmulator({ intervalMs: 0, privateKey: undefined, keyType: 'Ed25519' })
    try {
      let requests = 0
      const offline = await verify(JSON.parse(serializeProof(proof)), trustBeacon(emu.beaconName))
      expect(offline.ok).toBe(true)
      const r = await verifyOnline(proof, { gateways: [other.url], clientOptions: { retries: 0, onRequest: () => requests++ }, offline })
      expect(r.ok).toBe(false)
      const blocks = r.checks.find((x) => x.name === 'online-blocks')!
      expect(blocks.ok).toBe(false)
      // The first block not served ends the check (fuzzing pass 3: a proof of 200 made-up blocks cost
      // 57 s against a gateway answering 404 at once; 10,000 at the default timeouts, days).
      expect(proof.chain.blocks.length).toBeGreaterThan(1)
      expect(blocks.detail).toContain(`the ${proof.chain.blocks.length - 1} carried block(s) after it were not asked for`)
      expect(requests).toBeLessThan(proof.chain.blocks.length + 2)
    } finally {
      await other.stop()
    }
  })

  it('verifyOnline asks no gateway for a proof that fails offline, and says so (fuzzing pass 3)', async () => {
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
    const c = await planCommitment({ client })
    const { commitment } = commit({ ...c, participants: people, draw: { kind: 'pick', count: 1 } })
    const proof = JSON.parse(serializeProof(await draw(commitment, people, { client, untimestamped: true }))) as Record<string, unknown>
    const good = await verify(proof, trustBeacon(emu.beaconName))
    expect(good.ok).toBe(true)
    const requests: string[] = []
    const clientOptions = { retries: 0, onRequest: (i: { path: string }) => requests.push(i.path) }
    const notAsked = (r: Awaited<ReturnType<typeof verifyOnline>>): void => {
      expect(r.ok).toBe(false)
      expect(r.asked).toBe(false)
      expect(r.checks.map((x) => [x.name, x.ok, x.notChecked])).toEqual([
        ['online-blocks', true, true],
        ['online-chain', true, true],
      ])
      expect(requests).toEqual([])
    }

    // Without `offline`: verified with the core's defaults, which do not trust the emulator's beacon.
    const byDefault = await verifyOnline(proof, { gateways: [emu.url], clientOptions })
    notAsked(byDefault)
    expect(byDefault.checks[0]!.detail).toMatch(/^not asked: the proof does not verify offline under the core's default trust \(pass `offline`.*\(failed: beacon-trusted.*\), so no gateway was contacted$/)

    // With the caller's own result: the proof without its signed record fails offline, so nothing is asked.
    const { ipnsRecord: _dropped, ...chain } = proof.chain as { ipnsRecord?: string }
    const forged = { ...proof, chain }
    const offline = await verify(forged, trustBeacon(emu.beaconName))
    expect(offline.ok).toBe(false)
    const r = await verifyOnline(forged, { gateways: [emu.url], clientOptions, offline })
    notAsked(r)
    expect(r.checks[1]!.detail).toMatch(/^not asked: the proof does not verify offline \(failed: .*beacon-authenticity.*\), so no gateway was contacted$/)

    // Another proof's passing result vouches for nothing.
    const other = await draw(commit({ ...c, participants: people, draw: { kind: 'pick', count: 2 } }).commitment, people, { client, untimestamped: true })
    const mixed = await verifyOnline(other, { gateways: [emu.url], clientOptions, offline: good })
    expect(mixed.ok).toBe(false)
    expect(mixed.checks.map((x) => [x.name, x.ok])).toEqual([['online-blocks', false]])
    expect(mixed.checks[0]!.detail).toMatch(/^not asked: the offline result given is for commitment bagu\S+, this proof's is bagu/)
    expect(requests).toEqual([])

    // The same counting client does ask for the proof that verifies.
    const asked = await verifyOnline(proof, { gateways: [emu.url], clientOptions, offline: good })
    expect(asked.asked).toBe(true)
    expect(asked.ok).toBe(true)
    expect(requests.length).toBeGreaterThan(0)
  })

  it('a commitment whose after block is not the beacon block is refused (AFTER_BLOCK_NOT_IN_CHAIN)', async () => {
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
    const c = await planCommitment({ client })
    const wrong = emu.beacon.bySequence(1)!.cid
    const { commitment } = commit({ ...c, after: { sequence: c.after.sequence, block: wrong }, participants: people, draw: { kind: 'pick', count: 1 } })
    await expect(draw(commitment, people, { client, untimestamped: true })).rejects.toMatchObject({ code: 'AFTER_BLOCK_NOT_IN_CHAIN' })
  })

  it('a client for another beacon is refused', async () => {
    const other = await startBeaconEmulator({ intervalMs: 0, keyType: 'Ed25519' })
    try {
      const c = await planCommitment({ client: new BeaconClient({ gateways: [emu.url], name: emu.beaconName }) })
      const { commitment } = commit({ ...c, participants: people, draw: { kind: 'pick', count: 1 } })
      await expect(draw(commitment, people, { client: new BeaconClient({ gateways: [other.url], name: other.beaconName }) })).rejects.toMatchObject({ code: 'BEACON_MISMATCH' })
    } finally {
      await other.stop()
    }
  })
})

describe('a proof made with an expired IPNS record still verifies (Ed25519 beacon)', () => {
  it('expiry is reported in the detail and notes, never a failure', async () => {
    const emu = await startBeaconEmulator({ keyType: 'Ed25519', intervalMs: 0, initialBlocks: 2, recordExpiresAt: '2021-06-01T00:00:00.000000000Z' })
    try {
      const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
      const c = await planCommitment({ client, minBlocks: 2 })
      const { commitment } = commit({ ...c, participants: people, draw: { kind: 'shuffle' } })
      const pending = draw(commitment, people, { client, untimestamped: true })
      await emu.beacon.publish(3)
      const proof = await pending
      const parsed = parseProof(JSON.parse(serializeProof(proof)))
      expect(base64ToBytes(parsed.chain.ipnsRecord!).length).toBeGreaterThan(0)
      const res = await verify(parsed, trustBeacon(emu.beaconName, { now: new Date() }))
      expect(res.ok).toBe(true)
      expect(res.authenticated).toBe(true)
      expect(res.checks.find((x) => x.name === 'ipns-record-signature')!.detail).toMatch(/expired at 2021-06-01/)
      expect(res.notes.join(' ')).toMatch(/expired/)
      // Also without a clock: valid, and the detail states the validity.
      const res2 = await verify(parsed, trustBeacon(emu.beaconName))
      expect(res2.ok).toBe(true)
      expect(res2.checks.find((x) => x.name === 'ipns-record-signature')!.detail).toMatch(/valid until 2021-06-01/)
    } finally {
      await emu.stop()
    }
  })
})

describe('planTarget', () => {
  it('chooses a target at least delaySeconds ahead, from the learned interval', async () => {
    const emu = await startBeaconEmulator({ keyType: 'Ed25519', intervalMs: 0, initialBlocks: 1 })
    try {
      const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName, intervalMs: 60_000 })
      const p = await planTarget({ client, delaySeconds: 300 })
      const head = emu.beacon.head().sequence
      expect(p.after.sequence).toBe(head)
      expect(p.target - head).toBeGreaterThanOrEqual(5)
      expect(p.target - head).toBeLessThanOrEqual(7)
      expect(p.estimatedTime.getTime()).toBeGreaterThanOrEqual(Date.now() + 300_000 - 1000)
      await expect(planTarget({ client, delaySeconds: -1 })).rejects.toMatchObject({ code: 'INVALID_OPTION' })
      await expect(planTarget({ client, minBlocks: 0 })).rejects.toMatchObject({ code: 'INVALID_OPTION' })
    } finally {
      await emu.stop()
    }
  })
})
