import { describe, expect, it } from 'vitest'
import { CachedSource } from '../../src/beacon/cache.js'
import { ChainIndex } from '../../src/beacon/chain-index.js'
import { AllGatewaysFailedError, ChainBrokenError, ForkError, GatewayHttpError } from '../../src/beacon/errors.js'
import { FailoverSource } from '../../src/beacon/failover.js'
import { HeadTracker } from '../../src/beacon/head.js'
import { FakeSource, makeChain } from './fake-source.js'

const chain = makeChain(10)
const other = makeChain(10, { salt: 'b' })

function setup(n = 2, allowUnsigned = false) {
  const sources = Array.from({ length: n }, (_, i) => new FakeSource(`gw${i}`, [...chain, ...other]))
  const failover = new FailoverSource(sources, { retries: 0, retryDelayMs: 0, maxRetryWaitMs: 0, now: () => 0 })
  const blocks: CachedSource = new CachedSource(failover, { size: 100, onEvict: (b) => index.forget(b, tracker.known?.block) })
  const index = new ChainIndex(blocks)
  const tracker: HeadTracker = new HeadTracker(failover, blocks, index, { name: 'k51fake', allowUnsigned, now: () => 0 })
  return { sources, tracker, index, blocks }
}

describe('HeadTracker (over fake sources)', () => {
  it('accepts a signed head, fetching the block it names once', async () => {
    const { sources, tracker } = setup()
    for (const s of sources) s.head = { block: chain[5]!, seq: 5n }
    const h = await tracker.latest()
    expect(h).toMatchObject({ authenticated: true, fresh: true, gateway: 'gw0' })
    expect(h.block).toBe(chain[5])
    expect(tracker.highestRecordSequence).toBe(5n)
    await tracker.latest()
    expect(sources[0]!.calls.filter((c) => c.kind === 'block')).toHaveLength(1)
  })

  it('never goes backwards: an older record is stale, the next source is asked, else the known head comes back not fresh', async () => {
    const { sources, tracker } = setup()
    for (const s of sources) s.head = { block: chain[5]!, seq: 5n }
    await tracker.latest()
    sources[0]!.head = { block: chain[3]!, seq: 3n }
    sources[1]!.head = { block: chain[6]!, seq: 6n }
    expect((await tracker.latest()).block.sequence).toBe(6)
    for (const s of sources) s.head = { block: chain[4]!, seq: 4n }
    const h = await tracker.latest()
    expect(h).toMatchObject({ fresh: false, gateway: undefined })
    expect(h.block.sequence).toBe(6)
  })

  it('two different blocks for one sequence: ForkError, never resolved silently', async () => {
    const { sources, tracker } = setup(1)
    sources[0]!.head = { block: chain[5]!, seq: 5n }
    await tracker.latest()
    sources[0]!.head = { block: other[5]!, seq: 6n }
    await expect(tracker.latest()).rejects.toBeInstanceOf(ForkError)
  })

  it('concurrent callers share one poll; it is cancelled only when every caller aborted', async () => {
    const { sources, tracker } = setup(1)
    sources[0]!.head = { block: chain[2]!, seq: 2n }
    let open!: () => void
    sources[0]!.gate = new Promise((r) => (open = r))
    const a = new AbortController()
    const pa = tracker.latest({ signal: a.signal })
    const pb = tracker.latest()
    a.abort()
    await expect(pa).rejects.toMatchObject({ code: 'ABORTED' })
    open()
    expect((await pb).block.sequence).toBe(2)
    expect(sources[0]!.calls.filter((c) => c.kind === 'record')).toHaveLength(1)
  })

  it('unsigned heads only when allowed, and labelled so', async () => {
    const strict = setup(1)
    strict.sources[0]!.script.push(new GatewayHttpError('gw0', 501, 'record'))
    strict.sources[0]!.head = { block: chain[4]!, seq: 4n }
    await expect(strict.tracker.latest()).rejects.toBeInstanceOf(AllGatewaysFailedError)
    const loose = setup(1, true)
    loose.sources[0]!.script.push(new GatewayHttpError('gw0', 501, 'record'))
    loose.sources[0]!.head = { block: chain[4]!, seq: 4n }
    expect(await loose.tracker.latest()).toMatchObject({ authenticated: false, record: undefined })
  })
})

describe('ChainIndex (over a fake source)', () => {
  it('walks down by checked links, adopting what it fetched; a known block is not fetched again', async () => {
    const { index, sources } = setup(1)
    index.adopt(chain[9]!)
    const walked = await index.walk(chain[9]!, 6)
    expect(walked.map((b) => b.sequence)).toEqual([9, 8, 7, 6])
    expect(index.get(7)).toBe(chain[7])
    const before = sources[0]!.calls.length
    await index.walk(chain[8]!, 6)
    expect(sources[0]!.calls.length).toBe(before)
    expect(index.nearestAbove(2, chain[9]!)).toBe(chain[6])
  })

  it('a link to a block of another sequence is ChainBrokenError; another block already known there is ForkError', async () => {
    const { index, blocks } = setup(1)
    // A block claiming sequence 4 whose previous is block 1 of the chain.
    const { encodeBlock, blockCid, parseBlock } = await import('../../src/core/block.js')
    const bytes = encodeBlock({ previous: chain[1]!.cid, sequence: 4, timestamp: 1, ctrng: ['c'.repeat(64)] })
    const bad = parseBlock(bytes, blockCid(bytes))
    await expect(index.walk(bad, 2)).rejects.toBeInstanceOf(ChainBrokenError)
    index.adopt(chain[5]!)
    index.adopt(chain[4]!)
    blocks.add(other[5]!)
    await expect(index.walk(other[5]!, 3)).rejects.toBeInstanceOf(ForkError)
    expect(() => index.adopt(other[4]!)).toThrow(ForkError)
  })
})
