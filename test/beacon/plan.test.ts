// planTarget's estimate is a time the target block cannot come much before: counted from the head's own
// timestamp, not from the clock after the (possibly slow) interval lookup. The CI failure this pins: a
// first plan fetched the head, then walked back blocks to learn the interval; counting from "now less one
// interval" put the estimate over 1 s late, so `commit` kept a time-stamp the target block did not follow.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { BeaconClient } from '../../src/beacon/client.js'
import { planFixedTarget, planTarget } from '../../src/beacon/plan.js'

const T0 = Date.parse('2026-11-28T16:28:40.300Z')

/** A client whose head came out `headAgeMs` before the request and whose interval lookup takes `lookupMs`. */
function slowClient(clock: { ms: number }, headAgeMs: number, lookupMs: number): BeaconClient {
  const block = { sequence: 7, cid: 'bafkreihead', timestamp: Math.floor((T0 - headAgeMs) / 1000) }
  const fake = {
    name: 'k51beacon',
    latest: () => Promise.resolve({ block, authenticated: true, fresh: true }),
    intervalMs: () => {
      clock.ms += lookupMs
      return Promise.resolve(1000)
    },
  }
  return fake as unknown as BeaconClient
}

describe('planTarget estimates from the head block, not from when the interval was known', () => {
  const clock = { ms: T0 }
  afterEach(() => {
    vi.restoreAllMocks()
    clock.ms = T0
  })

  for (const [headAgeMs, lookupMs] of [
    [100, 2500],
    [900, 0],
    [4000, 1500],
  ] as const) {
    it(`head ${headAgeMs} ms old, interval lookup ${lookupMs} ms: the block cannot come before the estimate`, async () => {
      vi.spyOn(Date, 'now').mockImplementation(() => clock.ms)
      const client = slowClient(clock, headAgeMs, lookupMs)
      const plan = await planTarget({ client, delaySeconds: 1 })
      // Blocks are at least one interval apart: block 7 + k is published no earlier than head time + k s.
      const headTimestampMs = Math.floor((T0 - headAgeMs) / 1000) * 1000
      const earliestPossible = headTimestampMs + (plan.target - 7) * 1000
      expect(plan.estimatedTime.getTime()).toBeLessThanOrEqual(earliestPossible)
      // And still at least the delay plus one interval after the plan was made.
      expect(plan.estimatedTime.getTime()).toBeGreaterThanOrEqual(clock.ms + 1000 + 1000)
    })
  }

  it('a head stamped in the future (a beacon clock ahead) counts from the request instead', async () => {
    vi.spyOn(Date, 'now').mockImplementation(() => clock.ms)
    const client = slowClient(clock, -30_000, 0)
    const plan = await planTarget({ client, delaySeconds: 0 })
    expect(plan.estimatedTime.getTime()).toBe(T0 + (plan.target - 7) * 1000)
    const fixed = await planFixedTarget(client, 20)
    expect(fixed.estimatedTime.getTime()).toBe(T0 + 13 * 1000)
  })
})
