/**
 * Real beacon formats the client meets: an old-format block whose `data` is a base64 string (Go
 * `[]byte`) gets a clear typed error wherever the chain walk meets it, and a genesis
 * `metadata.interval` is a Go `time.Duration` in nanoseconds.
 */
import { generateKeyPair } from '@libp2p/crypto/keys'
import { createIPNSRecord, marshalIPNSRecord } from 'ipns'
import { CID } from 'multiformats/cid'
import { describe, expect, it } from 'vitest'
import { BeaconClient, genesisIntervalMs } from '../../src/beacon/client.js'
import { LegacyBlockError } from '../../src/beacon/errors.js'
import { blockCid, encodeBlock, parseBlock } from '../../src/core/block.js'
import { bytesToBase64 } from '../../src/core/bytes.js'
import { ParseError } from '../../src/core/errors.js'
import { ipnsNameOfKey } from '../../src/core/ipns/key-format.js'
import { startBeaconEmulator } from '../../src/emulator/beacon.js'

const V = (i: number): string => i.toString(16).padStart(2, '0').repeat(32)

/** A block in the old publisher format: `data` is the base64 of the payload's JSON. */
function legacyBlock(previous: string): { bytes: Uint8Array; cid: string } {
  const payload = new TextEncoder().encode(`{"sequence":4,"timestamp":1700000000,"ctrng":["${V(1)}"]}`)
  const bytes = new TextEncoder().encode(`{"previous":"/ipfs/${previous}","data":"${bytesToBase64(payload)}"}`)
  return { bytes, cid: blockCid(bytes) }
}

/** A fake trustless gateway serving `blocks` and a record naming `head`, counting block requests. */
async function fakeBeacon(blocks: Uint8Array[], head: string) {
  const key = await generateKeyPair('Ed25519')
  const name = ipnsNameOfKey(key.publicKey)
  const rec = marshalIPNSRecord(await createIPNSRecord(key, CID.parse(head), 1n, 3600_000))
  const store = new Map(blocks.map((b) => [blockCid(b), b]))
  const hits = new Map<string, number>()
  const fetch = async (input: string): Promise<Response> => {
    const u = new URL(input)
    if (u.pathname.startsWith('/ipns/')) return new Response(new Uint8Array(rec), { headers: { 'content-type': 'application/vnd.ipfs.ipns-record' } })
    const cid = CID.parse(u.pathname.slice('/ipfs/'.length)).toV1().toString()
    hits.set(cid, (hits.get(cid) ?? 0) + 1)
    const body = store.get(cid)
    return body === undefined ? new Response('no', { status: 404 }) : new Response(new Uint8Array(body))
  }
  return { name, fetch, hits }
}

describe('old-format blocks (data as a base64 string)', () => {
  it('parseBlock: a typed ParseError LEGACY_BLOCK_FORMAT at $.data, not a generic field error', () => {
    const { bytes, cid } = legacyBlock(blockCid(encodeBlock({ previous: null, sequence: 0, timestamp: 1, ctrng: [] })))
    let err: unknown
    try {
      parseBlock(bytes, cid)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(ParseError)
    expect((err as ParseError).code).toBe('LEGACY_BLOCK_FORMAT')
    expect((err as ParseError).path).toBe('$.data')
    expect((err as ParseError).detail).toContain('base64')
  })

  it('walking the chain: LegacyBlockError naming the block and where the walk stopped; asked once, not failed over', async () => {
    const genesis = encodeBlock({ previous: null, sequence: 0, timestamp: 1, ctrng: [] })
    const legacy = legacyBlock(blockCid(genesis))
    const b5 = encodeBlock({ previous: legacy.cid, sequence: 5, timestamp: 1_700_000_060, ctrng: [V(5)] })
    const b6 = encodeBlock({ previous: blockCid(b5), sequence: 6, timestamp: 1_700_000_120, ctrng: [V(6)] })
    const fake = await fakeBeacon([genesis, legacy.bytes, b5, b6], blockCid(b6))
    const c = new BeaconClient({ gateways: ['http://a.invalid', 'http://b.invalid'], name: fake.name, fetch: fake.fetch, retries: 2, retryDelayMs: 1 })
    expect((await c.bySequence(5)).sequence).toBe(5) // the new-format part of the chain is fine
    const err = await c.bySequence(3).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(LegacyBlockError)
    const e = err as LegacyBlockError
    expect(e.code).toBe('BEACON_LEGACY_BLOCK')
    expect(e.cid).toBe(legacy.cid)
    expect(e.linkedFrom).toBe(5)
    expect(e.detail).toContain('base64')
    expect(e.hint).toContain('above 4')
    expect(e.cause).toBeInstanceOf(ParseError)
    expect(fake.hits.get(legacy.cid)).toBe(1)
  })

  it('block(cid) of a legacy block: LegacyBlockError too', async () => {
    const legacy = legacyBlock(blockCid(encodeBlock({ previous: null, sequence: 0, timestamp: 1, ctrng: [] })))
    const fake = await fakeBeacon([legacy.bytes], legacy.cid)
    const c = new BeaconClient({ gateways: ['http://a.invalid'], name: fake.name, fetch: fake.fetch })
    await expect(c.block(legacy.cid)).rejects.toBeInstanceOf(LegacyBlockError)
  })
})

describe('genesis metadata.interval is Go time.Duration nanoseconds', () => {
  const genesisWith = (interval: unknown) => parseBlock(...(() => {
    const b = encodeBlock({ previous: null, sequence: 0, timestamp: 1, ctrng: [], metadata: { name: 'x', interval } })
    return [b, blockCid(b)] as const
  })())

  it('genesisIntervalMs reads nanoseconds and ignores implausible values', () => {
    expect(genesisIntervalMs(genesisWith(60_000_000_000))).toBe(60_000)
    expect(genesisIntervalMs(genesisWith(300_000_000_000))).toBe(300_000)
    expect(genesisIntervalMs(genesisWith(250_000_000))).toBe(250)
    for (const bad of [60, 60_000, 0, -1, 1.5e9 + 0.5, '60s', null, 1e18]) expect(genesisIntervalMs(genesisWith(bad))).toBeUndefined()
    expect(genesisIntervalMs({ sequence: 3, metadata: { interval: 60_000_000_000 } })).toBeUndefined()
  })

  it('the client paces by it when chain timestamps are too close to tell (5 s, not a whole-second guess)', async () => {
    const g = encodeBlock({ previous: null, sequence: 0, timestamp: 1_700_000_000, ctrng: [], metadata: { name: 'x', interval: 5_000_000_000 } })
    const b1 = encodeBlock({ previous: blockCid(g), sequence: 1, timestamp: 1_700_000_000, ctrng: [V(1)] })
    const fake = await fakeBeacon([g, b1], blockCid(b1))
    const c = new BeaconClient({ gateways: ['http://a.invalid'], name: fake.name, fetch: fake.fetch })
    expect(await c.intervalMs()).toBe(5000)
  })

  it('the emulator writes its genesis interval in nanoseconds, like the real publisher', async () => {
    const emu = await startBeaconEmulator({ intervalMs: 250, keyType: 'Ed25519' })
    try {
      const genesis = emu.beacon.bySequence(0)!
      expect(genesis.metadata?.interval).toBe(250_000_000)
      expect(genesisIntervalMs(genesis)).toBe(250)
    } finally {
      await emu.stop()
    }
  })
})

describe("a gateway's Content-Type in an error (fuzzing pass 3)", () => {
  it('is escaped and capped: C1 controls pass HTTP parsers as obs-text, and the header may be 8 kB', async () => {
    const name = ipnsNameOfKey((await generateKeyPair('Ed25519')).publicKey)
    const ct = `text/html\u009b31mRED\u202e${'A'.repeat(8000)}`
    const fetch = async (): Promise<Response> => new Response('<html>', { headers: { 'content-type': 'text/html' } })
    // A Headers object refuses U+202E; the answer's headers as a gateway's bytes read (latin-1) can hold any of these.
    const hostile = async (input: string): Promise<Response> => {
      const res = await fetch()
      return { status: 200, ok: true, type: 'basic', redirected: false, url: input, body: res.body, headers: { get: (h: string) => (h.toLowerCase() === 'content-type' ? ct : null) } } as unknown as Response
    }
    const client = new BeaconClient({ gateways: ['http://gw.invalid'], name, fetch: hostile, retries: 0 })
    const err = (await client.latest().catch((e: unknown) => e)) as { failures: { error: Error }[] }
    const message = err.failures[0]!.error.message
    expect(message).toContain('not an IPNS record (content-type text/html\\u009b31mRED\\u202e')
     
    expect(message).not.toMatch(/[\u0080-\u009f\u202e]/)
    expect(message.length).toBeLessThan(400)
  })
})
