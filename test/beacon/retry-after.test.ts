import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BeaconClient } from '../../src/beacon/client.js'
import { startBeaconEmulator, type ServedBeaconEmulator } from '../../src/emulator/beacon.js'

// Timers and clocks never agree to the millisecond: a timer may fire a little before the clock says
// the Retry-After deadline has passed. The client must still retry once the wait is over, not give
// up because the gateway looks blocked for one more millisecond.
describe('Retry-After against a clock that runs slightly slow', () => {
  let emu: ServedBeaconEmulator
  beforeAll(async () => {
    emu = await startBeaconEmulator({ intervalMs: 0, keyType: 'Ed25519', initialBlocks: 1 })
  })
  afterAll(async () => {
    await emu.stop()
  })

  it('waits out a 1 s Retry-After and then succeeds on the retry round', async () => {
    const start = Date.now()
    const slowClock = () => start + Math.floor((Date.now() - start) * 0.99) // 1 % slow: 10 ms per second
    emu.faults.add('ipns-record', { kind: 'rate-limit', retryAfterSeconds: 1 }, { times: 1 })
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName, retries: 1, now: slowClock })
    const head = await client.latest()
    expect(head.authenticated).toBe(true)
    expect(Date.now() - start).toBeGreaterThanOrEqual(1000)
  })
})
