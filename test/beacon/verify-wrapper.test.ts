import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BeaconClient } from '../../src/beacon/client.js'
import { commit } from '../../src/commit.js'
import { draw } from '../../src/draw.js'
import { planTarget } from '../../src/beacon/plan.js'
import { verify } from '../../src/verify.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { trustBeacon } from '../helpers/policy.js'

const people = ['ada', 'grace', 'alan', 'edsger', 'barbara']

describe('verify(proof, { online }) from the Node entry point', () => {
  let emu: RunningEmulator
  let other: RunningEmulator
  beforeAll(async () => {
    ;[emu, other] = await Promise.all([startEmulator({ beacon: { intervalMs: 200, initialBlocks: 2, keyType: 'Ed25519' } }), startEmulator({ beacon: { intervalMs: 0, keyType: 'Ed25519' } })])
  })
  afterAll(async () => {
    await Promise.all([emu.stop(), other.stop()])
  })

  it('offline by default; online adds online-blocks and online-chain; a beacon that never served the blocks fails online only', async () => {
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
    const plan = await planTarget({ client, delaySeconds: 0.3 })
    const { commitment } = commit({ beacon: plan.beacon, target: plan.target, after: plan.after, participants: people, draw: { kind: 'pick', count: 2 } })
    const proof = await draw(commitment, people, { client, untimestamped: true })

    const offline = await verify(proof, trustBeacon(emu.beaconName))
    expect(offline.ok).toBe(true)
    expect(offline.checks.some((c) => c.name.startsWith('online-'))).toBe(false)

    const online = await verify(proof, { ...trustBeacon(emu.beaconName), online: [emu.url] })
    expect(online.ok).toBe(true)
    expect(online.checks.filter((c) => c.name.startsWith('online-')).map((c) => [c.name, c.ok])).toEqual([
      ['online-blocks', true],
      ['online-chain', true],
    ])

    // The other emulator is a different beacon with other blocks: the online checks fail, offline ones still pass.
    const elsewhere = await verify(proof, { ...trustBeacon(emu.beaconName), online: { gateways: [other.url], clientOptions: { retries: 0, timeoutMs: 2000 } } })
    expect(elsewhere.ok).toBe(false)
    expect(elsewhere.checks.filter((c) => !c.ok).map((c) => c.name)).toContain('online-blocks')
    expect(elsewhere.checks.filter((c) => !c.name.startsWith('online-')).every((c) => c.ok)).toBe(true)

    // A proof that fails offline (its beacon not trusted) asks no gateway: the online checks are not run, and say why.
    let requests = 0
    const untrusted = await verify(proof, { allowUntimestamped: true, online: { gateways: [emu.url], clientOptions: { onRequest: () => requests++ } } })
    expect(untrusted.ok).toBe(false)
    expect(untrusted.verdict).toBe('failed')
    expect(requests).toBe(0)
    const notRun = untrusted.checks.filter((c) => c.name.startsWith('online-'))
    expect(notRun.map((c) => [c.name, c.ok, c.notChecked])).toEqual([
      ['online-blocks', true, true],
      ['online-chain', true, true],
    ])
    expect(notRun[0]!.detail).toBe('not asked: the proof does not verify offline (failed: beacon-trusted), so no gateway was contacted')
  })
})
