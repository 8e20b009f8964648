// Issue 23 item 5: `commit` must not make proofs its own verifier rejects. With 1 s blocks and an
// authority stating 1 s (here 5 s) of accuracy, genTime + accuracy reaches a target one or two blocks
// ahead, and the proof fails commitment-time (TIMESTAMP_LATE). The rule (stampBeforeTarget) is tested
// on fakes, then end to end through the library against the emulator, with a negative control that
// commits to the first planned target without the rule and must fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BeaconClient } from '../../src/beacon/client.js'
import { draw } from '../../src/beacon/draw.js'
import { planTarget } from '../../src/beacon/plan.js'
import { commit } from '../../src/core/commitment.js'
import { verify } from '../../src/core/verify.js'
import { commitTimestamped } from '../../src/commit-timestamped.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { earliestTargetTimeMs, stampBeforeTarget, TimestampMarginError, timestampMarginMs } from '../../src/timestamp/margin.js'
import { timestampCommitment, type TimestampResult } from '../../src/timestamp/client.js'

const T0 = Date.parse('2026-01-01T00:00:00Z')

function planAt(target: number, estimatedMs: number) {
  return { target, estimatedTime: new Date(estimatedMs), intervalSeconds: 1 }
}
function stampAt(genTimeMs: number, accuracySeconds: number, authority = 'http://tsa.test'): TimestampResult {
  return { tokens: [{ token: new Uint8Array(), base64: '', authority, authorityName: 'Test TSA', time: new Date(genTimeMs).toISOString(), accuracySeconds }], failures: [] }
}

describe('the margin rule (pure)', () => {
  it('the earliest target time is the estimate less one interval and 1 s; the margin is that less genTime + accuracy', () => {
    const p = planAt(10, T0 + 10_000)
    expect(earliestTargetTimeMs(p)).toBe(T0 + 8_000)
    expect(timestampMarginMs({ time: new Date(T0 + 7_000).toISOString(), accuracySeconds: 1 }, p)).toBe(0)
    expect(timestampMarginMs({ time: new Date(T0 + 7_000).toISOString(), accuracySeconds: 2 }, p)).toBe(-1000)
  })

  it('a fixed target whose token comes too late is refused (TIMESTAMP_MARGIN_TOO_SMALL), never moved', async () => {
    const err = await stampBeforeTarget({ fixedTarget: true, plan: async () => planAt(5, T0 + 2_000), build: () => ({ cid: 'c5' }), stamp: async () => stampAt(T0, 1) }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(TimestampMarginError)
    expect((err as TimestampMarginError).code).toBe('TIMESTAMP_MARGIN_TOO_SMALL')
    expect((err as TimestampMarginError).target).toBe(5)
    expect((err as TimestampMarginError).marginMs).toBe(-1000)
    expect((err as TimestampMarginError).detail).toMatch(/TIMESTAMP_LATE/)
  })

  it('a planned target is moved later and the new commitment stamped again; the moves are reported', async () => {
    const extras: number[] = []
    const stamped: string[] = []
    let clock = T0
    const kept = await stampBeforeTarget({
      fixedTarget: false,
      now: () => clock,
      plan: async (extra) => {
        extras.push(extra)
        return planAt(5 + Math.ceil(extra / 1000), T0 + 2_000 + extra)
      },
      build: (plan) => ({ cid: `c${plan.target}` }),
      stamp: async (cid) => {
        stamped.push(cid)
        clock += 300
        return stampAt(T0, 5)
      },
    })
    // First target: earliest T0, token end T0 + 5 s: 5 s short; next delay = 5 s + 0.3 s (stamping) + 1 s (interval).
    expect(extras).toEqual([0, 6_300])
    expect(stamped).toEqual(['c5', 'c12'])
    expect(kept.retargeted).toEqual([{ from: 5, to: 12, shortMs: 5_000 }])
    expect(kept.result.cid).toBe('c12')
    expect(kept.stamped.tokens).toHaveLength(1)
  })

  it('keeps the tokens that leave the margin and lists the late ones as TIMESTAMP_LATE failures', async () => {
    const both: TimestampResult = { tokens: [...stampAt(T0, 1, 'http://fine.test').tokens, ...stampAt(T0 + 5_000, 1, 'http://late.test').tokens], failures: [] }
    const kept = await stampBeforeTarget({ fixedTarget: true, plan: async () => planAt(9, T0 + 4_000), build: () => ({ cid: 'c9' }), stamp: async () => both })
    expect(kept.stamped.tokens.map((t) => t.authority)).toEqual(['http://fine.test'])
    expect(kept.stamped.failures).toEqual([expect.objectContaining({ authority: 'http://late.test', code: 'TIMESTAMP_LATE' })])
  })

  it('gives up after maxAttempts commitments', async () => {
    const err = await stampBeforeTarget({ fixedTarget: false, maxAttempts: 2, plan: async () => planAt(5, T0 + 2_000), build: () => ({ cid: 'c' }), stamp: async () => stampAt(T0, 1) }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(TimestampMarginError)
    expect((err as TimestampMarginError).detail).toMatch(/2 commitments were tried/)
  })
})

describe('commitTimestamped against the emulator: 1 s blocks, an authority stating 5 s of accuracy', () => {
  let emu: RunningEmulator
  let client: BeaconClient
  const people = ['ada', 'grace', 'alan', 'edsger', 'barbara']
  beforeAll(async () => {
    emu = await startEmulator({ beacon: { intervalMs: 1000, keyType: 'Ed25519', initialBlocks: 3 }, tsa: { accuracySeconds: 5 } })
    client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
  })
  afterAll(async () => {
    await emu.stop()
  })
  const policy = () => ({ trust: { beacons: [emu.beaconName], timestampAuthorities: [emu.tsaRootPem] } })

  it('negative control: the next planned target, stamped without the rule, gives a proof that fails commitment-time (TIMESTAMP_LATE)', async () => {
    const plan = await planTarget({ client })
    const c = commit({ beacon: plan.beacon, target: plan.target, after: plan.after, participants: people, draw: { kind: 'pick', count: 1 } })
    const stamped = await timestampCommitment(c.cid, { authorities: [emu.tsaUrl], anchors: [(await import('../../src/core/timestamp/index.js')).parseTrustAnchor(emu.tsaRootPem)] })
    expect(timestampMarginMs(stamped.tokens[0]!, plan)).toBeLessThan(0)
    const proof = await draw(c.commitment, people, { client, timestamps: stamped.tokens.map((t) => t.base64) })
    const r = await verify(proof, policy())
    const time = r.checks.find((x) => x.name === 'commitment-time')!
    expect(time.ok).toBe(false)
    expect(r.commitmentTime?.tokens[0]?.problem).toBe('TIMESTAMP_LATE')
  }, 30_000)

  it('moves the target until the token leaves it its margin: the proof passes commitment-time', async () => {
    const { parseTrustAnchor } = await import('../../src/core/timestamp/index.js')
    const c = await commitTimestamped({ client, participants: people, draw: { kind: 'pick', count: 1 }, timestamp: { authorities: [emu.tsaUrl], anchors: [parseTrustAnchor(emu.tsaRootPem)] } })
    expect(c.retargeted.length).toBeGreaterThan(0)
    expect(c.retargeted[0]!.to).toBeGreaterThan(c.retargeted[0]!.from)
    expect(c.commitment.target).toBe(c.plan.target)
    expect(timestampMarginMs(c.timestamps.tokens[0]!, c.plan)).toBeGreaterThanOrEqual(0)
    const proof = await draw(c.commitment, people, { client, timestamps: c.timestamps.tokens.map((t) => t.base64) })
    const r = await verify(proof, { ...policy(), commitment: c.cid })
    expect(r.checks.filter((x) => !x.ok)).toEqual([])
    expect(r.verdict).toBe('verified')
  }, 40_000)

  it('a fixed target (sequence) that the token cannot leave time for is refused', async () => {
    const { parseTrustAnchor } = await import('../../src/core/timestamp/index.js')
    const head = await client.latest()
    const err = await commitTimestamped({ client, sequence: head.block.sequence + 2, participants: people, draw: { kind: 'pick', count: 1 }, timestamp: { authorities: [emu.tsaUrl], anchors: [parseTrustAnchor(emu.tsaRootPem)] } }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(TimestampMarginError)
    expect((err as TimestampMarginError).target).toBe(head.block.sequence + 2)
  }, 20_000)
})
