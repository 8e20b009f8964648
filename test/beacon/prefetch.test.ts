/**
 * The chain walked while waiting (`waitFor`'s `prefetchDownTo`, which `draw` passes): through a real
 * `BeaconClient` against the emulator (publishing on demand), every prefetched block checked as in the
 * final walk, and the refusals of a bad chain met while waiting named by the existing errors.
 */
import { generateKeyPair } from '@libp2p/crypto/keys'
import { createIPNSRecord, marshalIPNSRecord } from 'ipns'
import { CID } from 'multiformats/cid'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { BeaconClient, type BeaconClientOptions } from '../../src/beacon/client.js'
import { draw } from '../../src/beacon/draw.js'
import { AllGatewaysFailedError, BadResponseError, ChainBrokenError } from '../../src/beacon/errors.js'
import { blockCid, encodeBlock } from '../../src/core/block.js'
import { commit } from '../../src/core/commitment.js'
import { ipnsNameOfKey } from '../../src/core/ipns/key-format.js'
import { startBeaconEmulator, type ServedBeaconEmulator } from '../../src/emulator/beacon.js'
import { rejectedBy } from '../helpers/thrown.js'

let emu: ServedBeaconEmulator
/** What the wrapped fetch serves instead of a block, by the block's CID. */
const replace = new Map<string, Uint8Array>()
/** CIDs of the blocks requested, in order. */
let requested: string[] = []

beforeAll(async () => {
  emu = await startBeaconEmulator({ keyType: 'Ed25519', intervalMs: 0, initialBlocks: 12 })
})
afterAll(async () => {
  await emu.stop()
})
afterEach(() => {
  replace.clear()
  requested = []
})

/** The global fetch, recording block requests and answering a replaced block's with other bytes. */
const wrapped: typeof fetch = async (input, init) => {
  const u = new URL(String(input))
  if (u.pathname.startsWith('/ipfs/')) {
    const cid = u.pathname.slice('/ipfs/'.length)
    requested.push(cid)
    const other = replace.get(cid)
    if (other !== undefined) return new Response(new Uint8Array(other), { headers: { 'content-type': 'application/vnd.ipld.raw' } })
  }
  return fetch(input, init)
}

const client = (opts: Partial<BeaconClientOptions> = {}): BeaconClient => new BeaconClient({ gateways: [emu.url], name: emu.beaconName, fetch: wrapped, intervalMs: 100, retries: 0, retryDelayMs: 10, ...opts })
const cidOf = (sequence: number): string => emu.beacon.bySequence(sequence)!.cid

describe('waitFor with prefetchDownTo through a BeaconClient', () => {
  it('the chain is walked while waiting: when the target appears, only the new block is fetched, each block once', async () => {
    const c = client()
    const top = emu.beacon.head().sequence
    const floor = top - 6
    const target = top + 2
    const waiting = c.waitFor(target, { prefetchDownTo: floor })
    // Every block from the head down to the floor is fetched before the target exists.
    await vi.waitFor(() => expect(requested).toContain(cidOf(floor)), { timeout: 5000, interval: 20 })
    await emu.publishNow()
    await vi.waitFor(() => expect(requested).toContain(cidOf(top + 1)), { timeout: 5000, interval: 20 })
    const before = requested.length
    await emu.publishNow()
    const r = await waiting
    expect(r.block.cid).toBe(cidOf(target))
    expect(r.chain.map((b) => b.sequence)).toEqual([target])
    // After the target appeared: the target itself (named by the record), nothing below it.
    expect(requested.slice(before)).toEqual([cidOf(target)])
    expect(new Set(requested).size).toBe(requested.length)
    const below = await c.chainDown(r.block, floor)
    expect(below.map((b) => b.cid)).toEqual(Array.from({ length: target - floor + 1 }, (_, i) => cidOf(target - i)))
    expect(requested.length).toBe(target - floor + 1)
  })

  it('a tampered block in the middle of the walk is refused; the draw fails with ALL_GATEWAYS_FAILED (BLOCK_CID_MISMATCH), never uses it', async () => {
    const c = client()
    const top = emu.beacon.head().sequence
    const middle = top - 3
    const bytes = new Uint8Array(emu.beacon.bySequence(middle)!.bytes)
    bytes[bytes.length - 3] = bytes[bytes.length - 3]! ^ 1
    replace.set(cidOf(middle), bytes)
    const { commitment } = commit({ beacon: emu.beaconName, target: top + 1, after: { sequence: top - 6, block: cidOf(top - 6) }, participants: ['a', 'b', 'c'], draw: { kind: 'pick', count: 1 } })
    const drawing = draw(commitment, ['a', 'b', 'c'], { client: c, untimestamped: true })
    drawing.catch(() => undefined)
    await vi.waitFor(() => expect(requested).toContain(cidOf(middle)), { timeout: 5000, interval: 20 })
    await emu.publishNow()
    const err = await rejectedBy(drawing, AllGatewaysFailedError)
    expect(err.code).toBe('ALL_GATEWAYS_FAILED')
    expect(err.failures[0]!.error).toBeInstanceOf(BadResponseError)
    expect((err.failures[0]!.error.cause as { code: string }).code).toBe('BLOCK_CID_MISMATCH')
    // The prefetch met it first and left it to the final walk, which asked again.
    expect(requested.filter((x) => x === cidOf(middle)).length).toBe(2)
  })

  it('a gateway serving a different (valid) block for a CID is refused; an honest second gateway completes the walk', async () => {
    const b = await emu.addGateway()
    try {
      const top = emu.beacon.head().sequence
      const middle = top - 2
      replace.set(cidOf(middle), emu.beacon.bySequence(middle - 1)!.bytes)
      // Only the first gateway goes through the wrapper's replacement: the second is asked directly.
      const split: typeof fetch = (input, init) => (String(input).startsWith(b.url) ? fetch(input, init) : wrapped(input, init))
      const c = client({ gateways: [emu.url, b.url], fetch: split })
      const waiting = c.waitFor(top + 1, { prefetchDownTo: top - 4 })
      await vi.waitFor(() => expect(requested).toContain(cidOf(middle)), { timeout: 5000, interval: 20 })
      await emu.publishNow()
      const r = await waiting
      expect(r.block.cid).toBe(cidOf(top + 1))
      const chain = await c.chainDown(r.block, top - 4)
      expect(chain.map((x) => x.cid)).toEqual(Array.from({ length: 6 }, (_, i) => cidOf(top + 1 - i)))
      expect(chain.find((x) => x.sequence === middle)!.bytes).toEqual(emu.beacon.bySequence(middle)!.bytes)
    } finally {
      await b.close()
    }
  })
})

describe('a wrong link met while waiting', () => {
  it('ends the wait at once with BEACON_CHAIN_BROKEN, before the target is published', async () => {
    // A signed head whose chain links block 3 to the genesis block (sequence 0, not 2).
    const key = await generateKeyPair('Ed25519')
    const name = ipnsNameOfKey(key.publicKey)
    const g = encodeBlock({ previous: null, sequence: 0, timestamp: 1, ctrng: [] })
    const b3 = encodeBlock({ previous: blockCid(g), sequence: 3, timestamp: 4, ctrng: ['00'.repeat(32)] })
    const b4 = encodeBlock({ previous: blockCid(b3), sequence: 4, timestamp: 5, ctrng: ['11'.repeat(32)] })
    const rec = marshalIPNSRecord(await createIPNSRecord(key, CID.parse(blockCid(b4)), 1n, 3600_000))
    const store = new Map([g, b3, b4].map((x) => [blockCid(x), x]))
    let records = 0
    const fake: typeof fetch = async (input) => {
      const u = new URL(String(input))
      if (u.pathname.startsWith('/ipns/')) {
        records++
        return new Response(new Uint8Array(rec), { headers: { 'content-type': 'application/vnd.ipfs.ipns-record' } })
      }
      const body = store.get(u.pathname.slice('/ipfs/'.length))
      return body === undefined ? new Response('no', { status: 404 }) : new Response(new Uint8Array(body))
    }
    const c = new BeaconClient({ gateways: ['http://fake.invalid'], name, fetch: fake, intervalMs: 60_000 })
    const err = await rejectedBy(c.waitFor(10, { prefetchDownTo: 1 }), ChainBrokenError)
    expect(err.code).toBe('BEACON_CHAIN_BROKEN')
    // One poll: the wait did not go on for a block that would come a minute later.
    expect(records).toBe(1)
  })
})
