import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BeaconClient } from '../../src/beacon/client.js'
import { commit } from '../../src/commit.js'
import { draw } from '../../src/draw.js'
import { MismatchError } from '../../src/core/errors.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'

describe('network draw() checks its inputs before waiting', () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator({ beacon: { intervalMs: 0, keyType: 'Ed25519' } })
  })
  afterAll(async () => {
    await emu.stop()
  })

  it('a wrong participants list fails at once, with no request, even for a target far in the future', async () => {
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
    const head = emu.beacon.head()
    const people = ['ada', 'grace', 'alan']
    const { commitment } = commit({ beacon: emu.beaconName, target: head.sequence + 1_000, after: { sequence: head.sequence, block: head.cid }, participants: people, draw: { kind: 'pick', count: 1 } })
    expect(client.requestCount).toBe(0)

    // Wrong list: refused at once, before the client sends anything.
    await expect(draw(commitment, ['ada', 'grace', 'alan turing'], { client, untimestamped: true })).rejects.toBeInstanceOf(MismatchError)
    // Bad disclosure for the kind's options: refused at once too.
    await expect(draw(commitment, people, { client, disclosure: 'everyone' as never, untimestamped: true })).rejects.toMatchObject({ code: 'INVALID_OPTION' })
    expect(client.requestCount).toBe(0)

    // The right list does start waiting (and gives up on its short timeout, not on the participants).
    const err = await draw(commitment, people, { client, timeoutMs: 300, untimestamped: true }).catch((e: unknown) => e)
    expect((err as { code?: string }).code).not.toBe('PARTICIPANTS_MISMATCH')
    expect(client.requestCount).toBeGreaterThan(0)
  })
})
