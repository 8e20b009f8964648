import { ipnsValidator } from 'ipns/validator'
import { multihashToIPNSRoutingKey } from 'ipns'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blockCid, parseBlock } from '../../src/core/block.js'
import { parseIpnsName } from '../../src/core/ipns/name.js'
import { verifyIpnsRecord } from '../../src/core/ipns/record.js'
import { createBeaconService, startBeaconEmulator, type ServedBeaconEmulator } from '../../src/emulator/beacon.js'
import { alterBody, FaultController } from '../../src/emulator/faults.js'
import * as Digest from 'multiformats/hashes/digest'

let emu: ServedBeaconEmulator

beforeAll(async () => {
  emu = await startBeaconEmulator({ intervalMs: 0, initialBlocks: 4 })
})
afterAll(async () => {
  await emu.stop()
})

const get = (path: string, accept?: string) => fetch(emu.url + path, accept === undefined ? {} : { headers: { accept } })

describe('emulated beacon: publisher', () => {
  it('publishes a real-format genesis with metadata and +1 sequences linked by CID', () => {
    const chain = emu.beacon.chain()
    expect(chain.length).toBe(5)
    const g = chain[0]!
    expect(g.sequence).toBe(0)
    expect(g.previous).toBeNull()
    expect(g.ctrng).toEqual([])
    expect(g.metadata).toMatchObject({ version: '1.0', encoding: 'json', batch_size: 3 })
    expect(new TextDecoder().decode(g.bytes)).toMatch(/^\{"previous":"","data":\{"sequence":0,"timestamp":\d+,"ctrng":\[\]\},"metadata":\{/)
    for (let i = 1; i < chain.length; i++) {
      const b = chain[i]!
      expect(b.sequence).toBe(i)
      expect(b.previous).toBe(chain[i - 1]!.cid)
      expect(b.ctrng).toHaveLength(3)
      expect(b.cid).toBe(blockCid(b.bytes))
      expect(b.cid.startsWith('bafkrei')).toBe(true)
      expect(new TextDecoder().decode(b.bytes)).toBe(`{"previous":"/ipfs/${chain[i - 1]!.cid}","data":{"sequence":${i},"timestamp":${b.timestamp},"ctrng":["${b.ctrng.join('","')}"]}}`)
    }
    expect(new Set(chain.slice(1).flatMap((b) => b.ctrng)).size).toBe(12)
  })

  it('has an RSA k2k4r8 name by default and signs records the ipns library validates', async () => {
    expect(emu.beaconName.startsWith('k2k4r8')).toBe(true)
    expect(emu.beacon.keyType).toBe('RSA')
    const rec = emu.beacon.record()
    const routingKey = multihashToIPNSRoutingKey(Digest.decode(parseIpnsName(emu.beaconName).multihash) as Digest.Digest<0x12, number>)
    await expect(ipnsValidator(routingKey, rec)).resolves.toBeUndefined()
    const v = await verifyIpnsRecord(rec, emu.beaconName)
    expect(v.valueCid).toBe(emu.beacon.head().cid)
    expect(v.keyType).toBe('RSA')
  })

  it('publishNow advances the head and the record sequence', async () => {
    const before = emu.beacon.head()
    const seqBefore = emu.beacon.records().at(-1)!.sequence
    const b = await emu.publishNow()
    expect(b.sequence).toBe(before.sequence + 1)
    expect(b.previous).toBe(before.cid)
    expect(emu.beacon.records().at(-1)!.sequence).toBe(seqBefore + 1n)
  })

  it('publishes on its own at the configured interval (>= 100 ms), stopped by stop()', async () => {
    const svc = await createBeaconService({ keyType: 'Ed25519', intervalMs: 100 })
    try {
      expect(svc.name.startsWith('k51')).toBe(true)
      await new Promise((r) => setTimeout(r, 450))
      expect(svc.head().sequence).toBeGreaterThanOrEqual(2)
    } finally {
      svc.stop()
    }
    const at = svc.head().sequence
    await new Promise((r) => setTimeout(r, 250))
    expect(svc.head().sequence).toBe(at)
  })

  it('rejects intervals under 100 ms', async () => {
    await expect(createBeaconService({ keyType: 'Ed25519', intervalMs: 50 })).rejects.toMatchObject({ code: 'INVALID_INTERVAL' })
  })

  it('can make expired records (validity in the past)', async () => {
    const svc = await createBeaconService({ keyType: 'Ed25519', intervalMs: 0, recordExpiresAt: '2020-01-01T00:00:00.000000000Z' })
    svc.stop()
    const v = await verifyIpnsRecord(svc.record(), svc.name, { now: new Date() })
    expect(v.expired).toBe(true)
    const routingKey = multihashToIPNSRoutingKey(Digest.decode(parseIpnsName(svc.name).multihash) as Digest.Digest<0x00, number>)
    await expect(ipnsValidator(routingKey, svc.record())).rejects.toThrow(/expired/)
  })
})

describe('emulated gateway: routes and headers', () => {
  it('serves raw blocks with ?format=raw and trustless-gateway headers', async () => {
    const b = emu.beacon.head()
    const res = await get(`/ipfs/${b.cid}?format=raw`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/vnd.ipld.raw')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toBe('public, max-age=29030400, immutable')
    expect(res.headers.get('etag')).toBe(`"${b.cid}.raw"`)
    expect(res.headers.get('x-ipfs-roots')).toBe(b.cid)
    expect(res.headers.get('vary')).toBe('Accept')
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(parseBlock(bytes, b.cid).sequence).toBe(b.sequence)
  })

  it('honours Accept: application/vnd.ipld.raw, and 304 on If-None-Match', async () => {
    const b = emu.beacon.bySequence(1)!
    const res = await get(`/ipfs/${b.cid}`, 'application/vnd.ipld.raw')
    expect(res.headers.get('content-type')).toBe('application/vnd.ipld.raw')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(b.bytes)
    const r304 = await fetch(`${emu.url}/ipfs/${b.cid}?format=raw`, { headers: { 'if-none-match': `"${b.cid}.raw"` } })
    expect(r304.status).toBe(304)
  })

  it('serves a block as JSON without a format, and finds it by a CIDv0 or base36 form too', async () => {
    const b = emu.beacon.bySequence(2)!
    const res = await get(`/ipfs/${b.cid}`)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(b.bytes)
    const { CID } = await import('multiformats/cid')
    const v0 = CID.createV0(CID.parse(b.cid).multihash as never).toString()
    expect((await get(`/ipfs/${v0}?format=raw`)).status).toBe(200)
  })

  it('answers 404 for unknown CIDs, 400 for invalid ones, 405 for POST, 406 for unsupported formats', async () => {
    expect((await get('/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy?format=raw')).status).toBe(404)
    expect((await get('/ipfs/not-a-cid?format=raw')).status).toBe(400)
    expect((await fetch(`${emu.url}/ipfs/${emu.beacon.head().cid}`, { method: 'POST' })).status).toBe(405)
    expect((await get(`/ipfs/${emu.beacon.head().cid}?format=car`)).status).toBe(406)
    expect((await get(`/ipns/k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8`)).status).toBe(404)
    expect((await get('/other')).status).toBe(404)
  })

  it('serves the signed record with ?format=ipns-record and with the Accept header', async () => {
    for (const res of [await get(`/ipns/${emu.beaconName}?format=ipns-record`), await get(`/ipns/${emu.beaconName}`, 'application/vnd.ipfs.ipns-record')]) {
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/vnd.ipfs.ipns-record')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/)
      const bytes = new Uint8Array(await res.arrayBuffer())
      expect(bytes).toEqual(emu.beacon.record())
    }
  })

  it('serves the latest block as JSON on /ipns/<name>', async () => {
    const res = await get(`/ipns/${emu.beaconName}`)
    expect(res.headers.get('content-type')).toBe('application/json')
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect(bytes).toEqual(emu.beacon.head().bytes)
    expect(res.headers.get('x-ipfs-roots')).toBe(emu.beacon.head().cid)
    const json = JSON.parse(new TextDecoder().decode(bytes)) as { data: { sequence: number } }
    expect(json.data.sequence).toBe(emu.beacon.head().sequence)
  })

  it('HEAD requests get headers and no body', async () => {
    const res = await fetch(`${emu.url}/ipfs/${emu.beacon.head().cid}?format=raw`, { method: 'HEAD' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-length')).toBe(String(emu.beacon.head().bytes.length))
  })
})

describe('emulated gateway: faults', () => {
  it('latency delays the answer', async () => {
    emu.faults.add('block', { kind: 'latency', ms: 150 }, { times: 1 })
    const t0 = performance.now()
    await (await get(`/ipfs/${emu.beacon.head().cid}?format=raw`)).arrayBuffer()
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140)
  })

  it('hang never answers: the request stays open while others are answered, until the client aborts', async () => {
    const before = emu.beacon.stats().block
    emu.faults.add('block', { kind: 'hang' }, { times: 1 })
    const ac = new AbortController()
    let settled = false
    const hung = fetch(`${emu.url}/ipfs/${emu.beacon.head().cid}?format=raw`, { signal: ac.signal }).finally(() => (settled = true))
    // Once the server has taken the request (counted, the fault used up), a later request is answered
    // while the held one is still open.
    while (emu.beacon.stats().block === before) await new Promise((r) => setImmediate(r))
    expect(emu.faults.list()).toHaveLength(0)
    expect((await get(`/ipfs/${emu.beacon.head().cid}?format=raw`)).status).toBe(200)
    expect(settled).toBe(false)
    ac.abort()
    await expect(hung).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('hang: stopping the emulator closes the held connection (the client sees a network error)', async () => {
    const own = await startBeaconEmulator({ intervalMs: 0, initialBlocks: 1 })
    own.faults.add('*', { kind: 'hang' })
    const hung = fetch(`${own.url}/ipns/${own.beaconName}?format=ipns-record`)
    while (own.beacon.stats().total === 0) await new Promise((r) => setImmediate(r))
    await own.stop()
    await expect(hung).rejects.toThrow(TypeError)
  })

  it('5xx, then back to normal after `times`', async () => {
    emu.faults.add('block', { kind: 'status', status: 502 }, { times: 1 })
    expect((await get(`/ipfs/${emu.beacon.head().cid}?format=raw`)).status).toBe(502)
    expect((await get(`/ipfs/${emu.beacon.head().cid}?format=raw`)).status).toBe(200)
  })

  it('429 with Retry-After', async () => {
    emu.faults.add('ipns-record', { kind: 'rate-limit', retryAfterSeconds: 7 }, { times: 1 })
    const res = await get(`/ipns/${emu.beaconName}?format=ipns-record`)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('7')
  })

  it('truncated body and wrong bytes no longer match the CID', async () => {
    const b = emu.beacon.head()
    emu.faults.add('block', { kind: 'truncate' }, { times: 1 })
    const t = new Uint8Array(await (await get(`/ipfs/${b.cid}?format=raw`)).arrayBuffer())
    expect(t.length).toBe(Math.floor(b.bytes.length / 2))
    expect(() => parseBlock(t, b.cid)).toThrow(expect.objectContaining({ code: 'BLOCK_CID_MISMATCH' }))
    emu.faults.add('block', { kind: 'wrong-bytes' }, { times: 1 })
    const w = new Uint8Array(await (await get(`/ipfs/${b.cid}?format=raw`)).arrayBuffer())
    expect(w.length).toBe(b.bytes.length)
    expect(() => parseBlock(w, b.cid)).toThrow(expect.objectContaining({ code: 'BLOCK_CID_MISMATCH' }))
  })

  it('wrong bytes in a record break its signature', async () => {
    emu.faults.add('ipns-record', { kind: 'wrong-bytes', offset: 40 }, { times: 1 })
    const bytes = new Uint8Array(await (await get(`/ipns/${emu.beaconName}?format=ipns-record`)).arrayBuffer())
    await expect(verifyIpnsRecord(bytes, emu.beaconName)).rejects.toThrow()
  })

  it('stale record: an older, still validly signed record', async () => {
    await emu.publishNow()
    emu.faults.add('ipns-record', { kind: 'stale-record', back: 2 }, { times: 1 })
    const bytes = new Uint8Array(await (await get(`/ipns/${emu.beaconName}?format=ipns-record`)).arrayBuffer())
    const v = await verifyIpnsRecord(bytes, emu.beaconName)
    const latest = await verifyIpnsRecord(emu.beacon.record(), emu.beaconName)
    expect(v.sequence).toBe(latest.sequence - 2n)
    expect(v.valueCid).toBe(emu.beacon.bySequence(emu.beacon.head().sequence - 2)!.cid)
  })

  it('fork: a different block with the same sequence, signed by the beacon key', async () => {
    const head = emu.beacon.head()
    emu.faults.add('ipns-record', { kind: 'fork' }, { times: 1 })
    const bytes = new Uint8Array(await (await get(`/ipns/${emu.beaconName}?format=ipns-record`)).arrayBuffer())
    const v = await verifyIpnsRecord(bytes, emu.beaconName)
    expect(v.valueCid).not.toBe(head.cid)
    const forked = emu.beacon.byCid(v.valueCid!)!
    expect(forked.sequence).toBe(head.sequence)
    expect(forked.previous).toBe(head.previous)
    const raw = new Uint8Array(await (await get(`/ipfs/${forked.cid}?format=raw`)).arrayBuffer())
    expect(parseBlock(raw, forked.cid).sequence).toBe(head.sequence)
  })

  it('counts requests per route', async () => {
    emu.beacon.resetStats()
    await (await get(`/ipfs/${emu.beacon.head().cid}?format=raw`)).arrayBuffer()
    await (await get(`/ipns/${emu.beaconName}?format=ipns-record`)).arrayBuffer()
    await (await get(`/ipns/${emu.beaconName}`)).arrayBuffer()
    expect(emu.beacon.stats()).toEqual({ block: 1, ipnsRecord: 1, ipnsJson: 1, total: 3 })
  })

  it('FaultController: validation, removal, wildcard, alterBody', () => {
    const f = new FaultController()
    expect(() => f.add('block', { kind: 'latency', ms: -1 })).toThrow(RangeError)
    expect(() => f.add('block', { kind: 'status', status: 200 })).toThrow(RangeError)
    const remove = f.add('*', { kind: 'status', status: 500 })
    expect(f.take('ipns-json').fault?.kind).toBe('status')
    remove()
    expect(f.take('ipns-json').fault).toBeUndefined()
    f.add('*', { kind: 'fork' })
    expect(f.take('block').fault).toBeUndefined()
    expect(f.take('ipns-record').fault?.kind).toBe('fork')
    expect(alterBody(new Uint8Array([1, 2, 3, 4]), { kind: 'truncate', keepBytes: 1 })).toEqual(new Uint8Array([1]))
    expect(alterBody(new Uint8Array([0x30]), { kind: 'wrong-bytes' })).toEqual(new Uint8Array([0x31]))
  })
})

describe('emulator start functions: one naming', () => {
  it('startBeaconEmulator names the beacon like startEmulator (beaconName, beacon)', async () => {
    const { startEmulator } = await import('../../src/emulator/index.js')
    expect(emu.beaconName).toBe(emu.beacon.name)
    expect(Object.keys(emu)).not.toContain('service')
    const full = await startEmulator({ beacon: { intervalMs: 0, initialBlocks: 1 } })
    try {
      const shared = ['url', 'beaconName', 'beacon', 'faults', 'publishNow', 'addGateway', 'stop'] as const
      for (const k of shared) {
        expect(k in full, k).toBe(true)
        expect(k in emu, k).toBe(true)
      }
      expect(full.beaconName).toBe(full.beacon.name)
      expect((await full.publishNow()).sequence).toBe(full.beacon.head().sequence)
    } finally {
      await full.stop()
    }
  })
})
