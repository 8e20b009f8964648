import { describe, expect, it } from 'vitest'
import { AllGatewaysFailedError, ChainBrokenError, GatewayHttpError, WaitTimeoutError } from '../../src/beacon/errors.js'
import type { BeaconHead } from '../../src/beacon/head.js'
import { waitFor, type WaitProgress, type WaitSource } from '../../src/beacon/wait.js'
import type { BeaconBlock } from '../../src/core/block.js'
import { RateLimitedError } from '../../src/net/errors.js'
import { makeChain } from './fake-source.js'

const chain = makeChain(20, { intervalS: 1 })
const head = (b: BeaconBlock): BeaconHead => ({ block: b, record: undefined, recordInfo: undefined, authenticated: true, fresh: true, gateway: 'fake' })

/** A source whose head is scripted per poll (a block, or an error); the clock moves 100 ms per poll. */
function fake(script: (BeaconBlock | Error)[]) {
  const clock = { t: 1_700_000_000_000 }
  let known: BeaconHead | undefined
  let polls = 0
  const source: WaitSource = {
    get knownHead() {
      return known
    },
    async latest() {
      polls++
      clock.t += 100
      const next = script.length > 1 ? script.shift()! : script[0]!
      if (next instanceof Error) throw next
      known = head(next)
      return known
    },
    async chainDown(from, to) {
      return chain.slice(to, from.sequence + 1).reverse()
    },
    async intervalMs() {
      return 100
    },
    currentIntervalMs: () => 100,
  }
  return { source, clock, polls: () => polls }
}

const allFailed = (): AllGatewaysFailedError => new AllGatewaysFailedError('signed head', [{ gateway: 'fake', error: new GatewayHttpError('fake', 503, 'record') }])

describe('waitFor (a plain function over a fake source)', () => {
  it('polls until the target appears, reporting progress, and returns the chain from the head down to it', async () => {
    const f = fake([chain[3]!, chain[4]!, chain[6]!])
    const progress: WaitProgress[] = []
    const r = await waitFor(f.source, 5, { now: () => f.clock.t, onProgress: (p) => progress.push(p) })
    expect(r.block).toBe(chain[5])
    expect(r.chain.map((b) => b.sequence)).toEqual([6, 5])
    expect(progress.map((p) => p.remaining)).toEqual([2, 1, 0])
    expect(f.polls()).toBe(3)
  })

  it('survives up to maxFailedPolls polls where every gateway failed, then gives up with that error', async () => {
    const ok = fake([chain[1]!, allFailed(), allFailed(), chain[2]!])
    expect((await waitFor(ok.source, 2, { now: () => ok.clock.t, maxFailedPolls: 2 })).block).toBe(chain[2])
    const bad = fake([chain[1]!, allFailed(), allFailed(), allFailed(), chain[2]!])
    await expect(waitFor(bad.source, 2, { now: () => bad.clock.t, maxFailedPolls: 2 })).rejects.toBeInstanceOf(AllGatewaysFailedError)
    // Without any head seen yet, the first failure ends the wait.
    const none = fake([allFailed()])
    await expect(waitFor(none.source, 2, { now: () => none.clock.t })).rejects.toBeInstanceOf(AllGatewaysFailedError)
    expect(none.polls()).toBe(1)
  })

  it('a Retry-After longer than maxRetryWaitMs (and the interval) ends the wait at once instead of sleeping through it (fuzzing pass 3)', async () => {
    const limited = (seconds: number): AllGatewaysFailedError => new AllGatewaysFailedError('signed head', [{ gateway: 'fake', error: new RateLimitedError({ edge: 'beacon', url: 'fake', what: 'record', retryAfterMs: seconds * 1000 }) }])
    const f = fake([chain[1]!, limited(3600), chain[2]!])
    // Sleeping through the hour would time the test out; the second poll is the last.
    const err = await waitFor(f.source, 2, { now: () => f.clock.t, maxRetryWaitMs: 30_000 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AllGatewaysFailedError)
    expect((err as AllGatewaysFailedError).retryAfterMs).toBe(3_600_000)
    expect(f.polls()).toBe(2)
    // Within the limit the pause is waited for, and the wait goes on.
    const g = fake([chain[1]!, limited(0.05), chain[2]!])
    expect((await waitFor(g.source, 2, { now: () => g.clock.t, maxRetryWaitMs: 30_000 })).block).toBe(chain[2])
  })

  it('timeoutMs: WaitTimeoutError naming the latest head; abort: AbortedError', async () => {
    const f = fake([chain[1]!])
    const err = await waitFor(f.source, 9, { now: () => f.clock.t, timeoutMs: 250 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(WaitTimeoutError)
    expect(err).toMatchObject({ target: 9, head: 1 })
    const g = fake([chain[1]!])
    const ac = new AbortController()
    const p = waitFor(g.source, 9, { now: () => g.clock.t, signal: ac.signal })
    setTimeout(() => ac.abort(), 50)
    await expect(p).rejects.toMatchObject({ code: 'ABORTED', edge: 'beacon' })
  })

  it('a bad sequence is InvalidInputError before any poll', async () => {
    const f = fake([chain[1]!])
    await expect(waitFor(f.source, -1)).rejects.toMatchObject({ code: 'INVALID_SEQUENCE' })
    await expect(waitFor(f.source, 1.5)).rejects.toMatchObject({ code: 'INVALID_SEQUENCE' })
    expect(f.polls()).toBe(0)
  })
})

describe('waitFor with prefetchDownTo (the chain walked while waiting)', () => {
  /** `fake`, whose chainDown records its calls and fails as `walkErrors` says (one entry per call; undefined: ok). */
  function prefetching(script: BeaconBlock[], walkErrors: (Error | undefined)[] = []) {
    const f = fake(script)
    const walks: [number, number][] = []
    const inner = f.source.chainDown.bind(f.source)
    f.source.chainDown = async (from, to) => {
      walks.push([from.sequence, to])
      const err = walkErrors.shift()
      if (err !== undefined) throw err
      return inner(from, to)
    }
    return { ...f, walks }
  }

  it('walks each new head down to the floor once, then only the new blocks; the final walk starts from the last head', async () => {
    const f = prefetching([chain[6]!, chain[6]!, chain[8]!, chain[9]!, chain[12]!])
    const r = await waitFor(f.source, 10, { now: () => f.clock.t, prefetchDownTo: 4 })
    expect(r.block).toBe(chain[10])
    expect(r.chain.map((b) => b.sequence)).toEqual([12, 11, 10])
    // 6 → 4 at the first sight; the same head again walks nothing; 8 → 6 and 9 → 8; then the final walk 12 → 10.
    expect(f.walks).toEqual([
      [6, 4],
      [8, 6],
      [9, 8],
      [12, 10],
    ])
  })

  it('a head below the floor is not walked; no floor, no prefetch', async () => {
    const f = prefetching([chain[2]!, chain[5]!, chain[7]!])
    await waitFor(f.source, 7, { now: () => f.clock.t, prefetchDownTo: 4 })
    expect(f.walks).toEqual([
      [5, 4],
      [7, 7],
    ])
    const g = prefetching([chain[2]!, chain[5]!, chain[7]!])
    await waitFor(g.source, 7, { now: () => g.clock.t })
    expect(g.walks).toEqual([[7, 7]])
  })

  it('a prefetch no gateway could serve is left to the next poll and the final walk; the wait goes on', async () => {
    const f = prefetching([chain[5]!, chain[6]!, chain[8]!], [allFailed(), undefined])
    const r = await waitFor(f.source, 8, { now: () => f.clock.t, prefetchDownTo: 3 })
    expect(r.block).toBe(chain[8])
    // The failed walk from 5 is not counted as done: the next head walks all the way down again.
    expect(f.walks).toEqual([
      [5, 3],
      [6, 3],
      [8, 8],
    ])
  })

  it('a broken chain or a fork met while prefetching ends the wait at once, with that error', async () => {
    const broken = new ChainBrokenError('block 5 links to a block with sequence 3')
    const f = prefetching([chain[5]!, chain[6]!, chain[9]!], [broken])
    await expect(waitFor(f.source, 9, { now: () => f.clock.t, prefetchDownTo: 3 })).rejects.toBe(broken)
    expect(f.polls()).toBe(1)
  })

  it('a floor above the awaited block or not a sequence is InvalidInputError before any poll', async () => {
    const f = prefetching([chain[1]!])
    await expect(waitFor(f.source, 5, { prefetchDownTo: 6 })).rejects.toMatchObject({ code: 'INVALID_SEQUENCE' })
    await expect(waitFor(f.source, 5, { prefetchDownTo: -1 })).rejects.toMatchObject({ code: 'INVALID_SEQUENCE' })
    await expect(waitFor(f.source, 5, { prefetchDownTo: 1.5 })).rejects.toMatchObject({ code: 'INVALID_SEQUENCE' })
    expect(f.polls()).toBe(0)
  })
})
