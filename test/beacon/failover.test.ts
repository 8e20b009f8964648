import { describe, expect, it } from 'vitest'
import { AllGatewaysFailedError, BadResponseError, ForkError, GatewayHttpError, RateLimitedError, StaleResponseError, TimeoutError } from '../../src/beacon/errors.js'
import { FailoverSource } from '../../src/beacon/failover.js'
import { FakeSource, makeChain } from './fake-source.js'

const chain = makeChain(3)
const cid = chain[2]!.cid

function setup(n: number, policy: Partial<{ retries: number; retryDelayMs: number; maxRetryWaitMs: number }> = {}, clock = { t: 0 }) {
  const sources = Array.from({ length: n }, (_, i) => new FakeSource(`gw${i}`, chain))
  const f = new FailoverSource(sources, { retries: 1, retryDelayMs: 0, maxRetryWaitMs: 30_000, now: () => clock.t, ...policy })
  return { sources, f, clock }
}

describe('FailoverSource (over fake sources)', () => {
  it('asks the sources in order and then prefers the one that worked', async () => {
    const { sources, f } = setup(3)
    sources[0]!.script.push(new GatewayHttpError('gw0', 500, 'x'))
    expect((await f.block(cid)).cid).toBe(cid)
    expect(sources.map((s) => s.calls.length)).toEqual([1, 1, 0])
    await f.block(cid)
    expect(sources.map((s) => s.calls.length)).toEqual([1, 2, 0])
  })

  it('every source failing in every round: AllGatewaysFailedError with every failure, typed', async () => {
    const { sources, f } = setup(2, { retries: 2 })
    for (const s of sources) s.script.push(new GatewayHttpError(s.id, 503, 'x'), new TimeoutError({ edge: 'beacon', url: s.id, timeoutMs: 5 }), new Error('plain'))
    const err = await f.block(cid).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AllGatewaysFailedError)
    const failures = (err as AllGatewaysFailedError).failures
    expect(failures).toHaveLength(6) // 2 sources × (1 + 2 retries)
    expect(failures.map((x) => x.error.code)).toEqual(['GATEWAY_HTTP_ERROR', 'GATEWAY_HTTP_ERROR', 'GATEWAY_TIMEOUT', 'GATEWAY_TIMEOUT', 'GATEWAY_BAD_RESPONSE', 'GATEWAY_BAD_RESPONSE'])
    expect(failures[4]!.error).toBeInstanceOf(BadResponseError) // a non-orbitdraw error is wrapped
  })

  it('a fork is final: no other source is asked', async () => {
    const { sources, f } = setup(3)
    sources[0]!.script.push(new ForkError(1, ['a', 'b']))
    await expect(f.block(cid)).rejects.toBeInstanceOf(ForkError)
    expect(sources[1]!.calls).toHaveLength(0)
  })

  it('a rate-limited source is skipped until its Retry-After passed, and the shortest wait is reported', async () => {
    const clock = { t: 1000 }
    const { sources, f } = setup(2, { retries: 0 }, clock)
    sources[0]!.script.push(new RateLimitedError({ edge: 'beacon', url: 'gw0', retryAfterMs: 5000 }))
    await f.block(cid) // gw0 429, gw1 answers and becomes preferred
    sources[1]!.script.push(new GatewayHttpError('gw1', 500, 'x'))
    const err = (await f.block(cid).catch((e: unknown) => e)) as AllGatewaysFailedError
    expect(sources[0]!.calls).toHaveLength(1) // not asked again while blocked
    expect(err.failures.map((x) => x.error.code)).toEqual(['GATEWAY_HTTP_ERROR', 'GATEWAY_RATE_LIMITED'])
    expect(err.retryAfterMs).toBe(5000)
    clock.t += 5000
    sources[1]!.script.push(new GatewayHttpError('gw1', 500, 'x'))
    expect((await f.block(cid)).cid).toBe(cid) // gw1 fails, gw0 is unblocked and answers
    expect(sources[0]!.calls).toHaveLength(2)
  })

  it('does not wait for a Retry-After longer than maxRetryWaitMs: it gives up at once', async () => {
    const { sources, f } = setup(1, { retries: 3, maxRetryWaitMs: 1000 })
    sources[0]!.script.push(new RateLimitedError({ edge: 'beacon', url: 'gw0', retryAfterMs: 60_000 }))
    const err = (await f.block(cid).catch((e: unknown) => e)) as AllGatewaysFailedError
    expect(err.failures).toHaveLength(1)
    expect(sources[0]!.calls).toHaveLength(1)
  })

  it('firstOf stops after a round of only stale answers', async () => {
    const { sources, f } = setup(2, { retries: 5 })
    const failures: { gateway: string; error: import('../../src/core/errors.js').OrbitdrawError }[] = []
    let calls = 0
    const got = await f.firstOf('head', undefined, failures, async (s) => {
      calls++
      throw new StaleResponseError(s.id, 'old')
    })
    expect(got).toBeUndefined()
    expect(calls).toBe(2)
    expect(sources[0]!.calls).toHaveLength(0)
  })

  it('an abort ends the rounds with AbortedError', async () => {
    const { sources, f } = setup(2, { retries: 1, retryDelayMs: 60_000, maxRetryWaitMs: 120_000 })
    for (const s of sources) s.script.push(new GatewayHttpError(s.id, 500, 'x'))
    const ac = new AbortController()
    const p = f.block(cid, { signal: ac.signal })
    setTimeout(() => ac.abort(), 10)
    await expect(p).rejects.toMatchObject({ code: 'ABORTED', edge: 'beacon' })
  })

  it('needs at least one source', () => {
    expect(() => new FailoverSource([], { retries: 0, retryDelayMs: 0, maxRetryWaitMs: 0, now: Date.now })).toThrow(RangeError)
  })
})
