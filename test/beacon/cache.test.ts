import { CID } from 'multiformats/cid'
import { describe, expect, it } from 'vitest'
import { CachedSource } from '../../src/beacon/cache.js'
import { GatewayHttpError } from '../../src/beacon/errors.js'
import { FakeSource, makeChain } from './fake-source.js'

const chain = makeChain(40)

describe('CachedSource (over a fake source)', () => {
  it('fetches a block once; a CIDv0 of the same bytes is the same entry', async () => {
    const inner = new FakeSource('gw', chain)
    const c = new CachedSource(inner, { size: 100 })
    const b = chain[5]!
    expect(await c.block(b.cid)).toBe(b)
    expect(await c.block(b.cid)).toBe(b)
    const v0 = CID.createV0(CID.parse(b.cid).multihash as never).toString()
    expect(await c.block(v0)).toBe(b)
    expect(inner.calls).toHaveLength(1)
    expect(c.peek(b.cid)).toBe(b)
  })

  it('concurrent requests for one CID share one fetch', async () => {
    const inner = new FakeSource('gw', chain)
    let open!: () => void
    inner.gate = new Promise((r) => (open = r))
    const c = new CachedSource(inner, { size: 100 })
    const all = Promise.all(Array.from({ length: 10 }, () => c.block(chain[3]!.cid)))
    open()
    expect(new Set(await all).size).toBe(1)
    expect(inner.calls).toHaveLength(1)
  })

  it('a failure is not cached: the next call asks again', async () => {
    const inner = new FakeSource('gw', chain)
    inner.script.push(new GatewayHttpError('gw', 500, 'x'))
    const c = new CachedSource(inner, { size: 100 })
    await expect(c.block(chain[1]!.cid)).rejects.toBeInstanceOf(GatewayHttpError)
    expect(await c.block(chain[1]!.cid)).toBe(chain[1])
    expect(inner.calls).toHaveLength(2)
  })

  it('evicts the oldest past its size (at least 16), telling onEvict', async () => {
    const evicted: number[] = []
    const c = new CachedSource(new FakeSource('gw', chain), { size: 3, onEvict: (b) => evicted.push(b.sequence) })
    for (const b of chain.slice(0, 20)) c.add(b)
    expect(c.size).toBe(16)
    expect(evicted).toEqual([0, 1, 2, 3])
    expect(c.peek(chain[0]!.cid)).toBeUndefined()
    expect(c.peek(chain[19]!.cid)).toBe(chain[19])
  })

  it('a bad CID is a typed error before any request', async () => {
    const inner = new FakeSource('gw', chain)
    await expect(new CachedSource(inner, { size: 16 }).block('not-a-cid')).rejects.toMatchObject({ code: 'INVALID_CID', path: '$.cid' })
    expect(inner.calls).toHaveLength(0)
  })
})
