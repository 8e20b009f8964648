import { generateKeyPair } from '@libp2p/crypto/keys'
import { createIPNSRecord, marshalIPNSRecord } from 'ipns'
import { CID } from 'multiformats/cid'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BeaconClient } from '../../src/beacon/client.js'
import {
  AbortedError,
  AllGatewaysFailedError,
  BadResponseError,
  ChainBrokenError,
  ForkError,
  GatewayHttpError,
  NetworkError,
  TimeoutError,
  NotYetPublishedError,
  RateLimitedError,
  WaitTimeoutError,
} from '../../src/beacon/errors.js'
import { blockCid, encodeBlock, parseBlock } from '../../src/core/block.js'
import { ipnsNameOfKey } from '../../src/core/ipns/key-format.js'
import { startBeaconEmulator, type ServedBeaconEmulator } from '../../src/emulator/beacon.js'
import type { FaultController } from '../../src/emulator/faults.js'
import { rejectedBy } from '../helpers/thrown.js'

let emu: ServedBeaconEmulator
let b: { url: string; faults: FaultController }

beforeAll(async () => {
  emu = await startBeaconEmulator({ intervalMs: 0, initialBlocks: 12 })
  b = await emu.addGateway()
})
afterAll(async () => {
  await emu.stop()
})
afterEach(() => {
  emu.faults.clear()
  b.faults.clear()
})

const client = (opts: Partial<ConstructorParameters<typeof BeaconClient>[0]> = {}) =>
  new BeaconClient({ gateways: [emu.url, b.url], name: emu.beaconName, timeoutMs: 2000, retryDelayMs: 10, ...opts })
const single = (opts: Partial<ConstructorParameters<typeof BeaconClient>[0]> = {}) => client({ gateways: [emu.url], retries: 0, ...opts })

const failure = (p: Promise<unknown>): Promise<AllGatewaysFailedError> => rejectedBy(p, AllGatewaysFailedError)

describe('BeaconClient: happy paths (RSA k2k4r8 name)', () => {
  it('latest() verifies the signed record and the head block (2 requests), then 1 request when unchanged', async () => {
    const c = client()
    const head = await c.latest()
    expect(head.authenticated).toBe(true)
    expect(head.fresh).toBe(true)
    expect(head.block.cid).toBe(emu.beacon.head().cid)
    expect(head.recordInfo?.keyType).toBe('RSA')
    expect(head.recordInfo?.valueCid).toBe(head.block.cid)
    expect(head.record).toEqual(emu.beacon.record())
    expect(c.requestCount).toBe(2)
    const again = await c.latest()
    expect(again.block).toBe(head.block)
    expect(c.requestCount).toBe(3)
  })

  it('follows a new head', async () => {
    const c = client()
    const h1 = await c.latest()
    const nb = await emu.publishNow()
    const h2 = await c.latest()
    expect(h2.block.cid).toBe(nb.cid)
    expect(h2.recordInfo!.sequence).toBe(h1.recordInfo!.sequence + 1n)
    expect(c.highestRecordSequence).toBe(h2.recordInfo!.sequence)
  })

  it('block(cid) checks bytes against the CID, caches by CID (v0 and v1 alike)', async () => {
    const c = client()
    const target = emu.beacon.bySequence(3)!
    const got = await c.block(target.cid)
    expect(got.bytes).toEqual(target.bytes)
    expect(c.requestCount).toBe(1)
    const v0 = CID.createV0(CID.parse(target.cid).multihash as never).toString()
    expect((await c.block(v0)).cid).toBe(target.cid)
    expect(c.requestCount).toBe(1)
  })

  it('bySequence(head - k): k + 2 requests cold, 0 warm', async () => {
    const c = client()
    const head = emu.beacon.head().sequence
    const k = 5
    const got = await c.bySequence(head - k)
    expect(got.cid).toBe(emu.beacon.bySequence(head - k)!.cid)
    expect(c.requestCount).toBe(k + 2)
    const before = c.requestCount
    for (let i = 0; i <= k; i++) expect((await c.bySequence(head - i)).sequence).toBe(head - i)
    expect(c.requestCount).toBe(before)
    // Going further back only fetches the new blocks.
    await c.bySequence(head - k - 2)
    expect(c.requestCount).toBe(before + 2)
  })

  it('bySequence above the head: NotYetPublishedError', async () => {
    const c = client()
    await expect(c.bySequence(emu.beacon.head().sequence + 5)).rejects.toBeInstanceOf(NotYetPublishedError)
    await expect(c.bySequence(-1)).rejects.toMatchObject({ code: 'INVALID_SEQUENCE' })
  })

  it('chainDown returns head..target newest first, linked', async () => {
    const c = client()
    const head = await c.latest()
    const chain = await c.chainDown(head.block, head.block.sequence - 3)
    expect(chain.map((x) => x.sequence)).toEqual([0, 1, 2, 3].map((i) => head.block.sequence - i))
    for (let i = 0; i + 1 < chain.length; i++) expect(chain[i]!.previous).toBe(chain[i + 1]!.cid)
  })

  it('intervalMs(): the configured interval wins', async () => {
    expect(await client({ intervalMs: 1234 }).intervalMs()).toBe(1234)
  })

  it('rejects bad options with typed errors', () => {
    expect(() => new BeaconClient({ gateways: [] })).toThrow(expect.objectContaining({ code: 'INVALID_GATEWAYS' }))
    expect(() => new BeaconClient({ gateways: ['ftp://x'] })).toThrow(expect.objectContaining({ code: 'INVALID_GATEWAY' }))
    expect(() => new BeaconClient({ name: 'nope' })).toThrow(expect.objectContaining({ code: 'INVALID_IPNS_NAME' }))
    expect(() => new BeaconClient({ timeoutMs: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }))
    expect(new BeaconClient().name).toBe('k2k4r8lvomw737sajfnpav0dpeernugnryng50uheyk1k39lursmn09f')
  })
})

describe('BeaconClient: Ed25519 k51 name', () => {
  it('verifies heads signed by an Ed25519 key inlined in the name', async () => {
    const e = await startBeaconEmulator({ keyType: 'Ed25519', intervalMs: 0, initialBlocks: 3 })
    try {
      expect(e.beaconName.startsWith('k51')).toBe(true)
      const c = new BeaconClient({ gateways: [e.url], name: e.beaconName })
      const h = await c.latest()
      expect(h.authenticated).toBe(true)
      expect(h.recordInfo?.keyType).toBe('Ed25519')
      expect(h.recordInfo?.keySource).toBe('name')
      expect((await c.bySequence(1)).cid).toBe(e.beacon.bySequence(1)!.cid)
    } finally {
      await e.stop()
    }
  })

  it('rejects a record signed by another key (wrong beacon name)', async () => {
    const e = await startBeaconEmulator({ keyType: 'Ed25519', intervalMs: 0 })
    try {
      const c = new BeaconClient({ gateways: [e.url], name: emu.beaconName, retries: 0 })
      const err = await failure(c.latest())
      expect(err.failures[0]!.error).toBeInstanceOf(GatewayHttpError) // the emulator has no record for another name
      // Same gateway, but the record is served under our name by a lying proxy:
      const proxy: typeof fetch = (input, init) => fetch(String(input).replace(emu.beaconName, e.beaconName), init)
      const c2 = new BeaconClient({ gateways: [e.url], name: emu.beaconName, retries: 0, fetch: proxy })
      const err2 = await failure(c2.latest())
      expect(err2.failures[0]!.error).toBeInstanceOf(BadResponseError)
      expect(err2.failures[0]!.error.message).toMatch(/not to the committed name|does not inline|hashes to/)
    } finally {
      await e.stop()
    }
  })
})

describe('BeaconClient: failover to another gateway on every fault', () => {
  const cases: [string, Parameters<FaultController['add']>[0], Parameters<FaultController['add']>[1]][] = [
    ['5xx on the record', 'ipns-record', { kind: 'status', status: 503 }],
    ['5xx on blocks', 'block', { kind: 'status', status: 500 }],
    ['429 on the record', 'ipns-record', { kind: 'rate-limit', retryAfterSeconds: 60 }],
    ['truncated record', 'ipns-record', { kind: 'truncate' }],
    ['truncated block', 'block', { kind: 'truncate' }],
    ['wrong record bytes', 'ipns-record', { kind: 'wrong-bytes', offset: 60 }],
    ['wrong block bytes', 'block', { kind: 'wrong-bytes' }],
    ['timeout (a gateway that never answers)', '*', { kind: 'hang' }],
  ]
  for (const [label, route, spec] of cases) {
    it(`${label}: recovers through the second gateway with verified data`, async () => {
      emu.faults.add(route, spec)
      // The second gateway's healthy answers must come within timeoutMs on a loaded machine: 2 s, not
      // 500 ms. The hung gateway's timeout fires whatever its length.
      const c = client({ timeoutMs: 2000, retries: 0 })
      const head = await c.latest()
      expect(head.block.cid).toBe(emu.beacon.head().cid)
      expect(head.authenticated).toBe(true)
      const back = await c.bySequence(head.block.sequence - 2)
      expect(back.cid).toBe(emu.beacon.bySequence(head.block.sequence - 2)!.cid)
      expect(parseBlock(back.bytes, back.cid).sequence).toBe(back.sequence)
    })
  }

  it('a rate-limited gateway is not asked again before Retry-After', async () => {
    emu.faults.add('*', { kind: 'rate-limit', retryAfterSeconds: 60 }, { times: 1 })
    const asked: string[] = []
    const c = client({ onRequest: (r) => asked.push(r.gateway) })
    await c.latest()
    await emu.publishNow()
    await c.latest()
    expect(asked[0]).toBe(emu.url)
    expect(asked.slice(1).every((g) => g === b.url)).toBe(true)
  })
})

describe('BeaconClient: a single gateway fails with typed errors, never unverified data', () => {
  it('5xx: GatewayHttpError', async () => {
    emu.faults.add('ipns-record', { kind: 'status', status: 502 })
    const err = await failure(single().latest())
    expect(err.failures[0]!.error).toBeInstanceOf(GatewayHttpError)
    expect((err.failures[0]!.error as GatewayHttpError).status).toBe(502)
    expect(err.code).toBe('ALL_GATEWAYS_FAILED')
  })

  it('timeout: TimeoutError', async () => {
    emu.faults.add('ipns-record', { kind: 'latency', ms: 1000 })
    const err = await failure(single({ timeoutMs: 150 }).latest())
    expect(err.failures[0]!.error).toBeInstanceOf(TimeoutError)
  })

  it('429 with a long Retry-After: RateLimitedError, retryAfterMs exposed', async () => {
    emu.faults.add('ipns-record', { kind: 'rate-limit', retryAfterSeconds: 300 })
    const err = await failure(single({ retries: 1, maxRetryWaitMs: 1000 }).latest())
    expect(err.failures[0]!.error).toBeInstanceOf(RateLimitedError)
    expect(err.retryAfterMs).toBeGreaterThan(290_000)
  })

  it('429 with a short Retry-After: waits for it, then succeeds', async () => {
    emu.faults.add('ipns-record', { kind: 'rate-limit', retryAfterSeconds: 1 }, { times: 1 })
    const t0 = Date.now()
    const head = await single({ retries: 1 }).latest()
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900)
    expect(head.authenticated).toBe(true)
  })

  it('transient 5xx: a retry round recovers', async () => {
    emu.faults.add('block', { kind: 'status', status: 503 }, { times: 1 })
    const head = await single({ retries: 1 }).latest()
    expect(head.block.cid).toBe(emu.beacon.head().cid)
  })

  it('wrong block bytes: BadResponseError wrapping BLOCK_CID_MISMATCH', async () => {
    emu.faults.add('block', { kind: 'wrong-bytes' })
    const err = await failure(single().block(emu.beacon.bySequence(2)!.cid))
    expect(err.failures[0]!.error).toBeInstanceOf(BadResponseError)
    expect((err.failures[0]!.error.cause as { code: string }).code).toBe('BLOCK_CID_MISMATCH')
  })

  it('truncated block: BadResponseError', async () => {
    emu.faults.add('block', { kind: 'truncate' })
    const err = await failure(single().block(emu.beacon.bySequence(2)!.cid))
    expect(err.failures[0]!.error).toBeInstanceOf(BadResponseError)
  })

  it('wrong record bytes: BadResponseError (signature or parse)', async () => {
    emu.faults.add('ipns-record', { kind: 'wrong-bytes', offset: 60 })
    const err = await failure(single().latest())
    expect(err.failures[0]!.error).toBeInstanceOf(BadResponseError)
  })

  it('unreachable gateway: NetworkError', async () => {
    const err = await failure(new BeaconClient({ gateways: ['http://127.0.0.1:1'], name: emu.beaconName, retries: 0 }).latest())
    expect(err.failures[0]!.error).toBeInstanceOf(NetworkError)
  })

  it('unknown block: GATEWAY_NOT_FOUND', async () => {
    const err = await failure(single().block('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'))
    expect(err.failures[0]!.error.code).toBe('GATEWAY_NOT_FOUND')
  })

  it('abort: AbortedError, promptly', async () => {
    // The answer would take 10 minutes: only a prompt abort lets the test finish within the runner's timeout.
    emu.faults.add('ipns-record', { kind: 'latency', ms: 600_000 })
    const ac = new AbortController()
    setTimeout(() => ac.abort(new Error('user cancelled')), 50)
    await expect(single().latest({ signal: ac.signal })).rejects.toBeInstanceOf(AbortedError)
  })
})

describe('BeaconClient: never goes backwards; forks are errors', () => {
  it('a stale record from a caching gateway is not news: the other gateway is asked', async () => {
    const c = client()
    await c.latest()
    const nb = await emu.publishNow()
    await c.latest()
    emu.faults.add('ipns-record', { kind: 'stale-record', back: 1 })
    const h = await c.latest()
    expect(h.block.cid).toBe(nb.cid)
    expect(h.gateway).toBe(b.url)
  })

  it('only stale answers: the known head is returned with fresh: false', async () => {
    const c = client()
    await emu.publishNow()
    const h1 = await c.latest()
    emu.faults.add('ipns-record', { kind: 'stale-record', back: 2 })
    b.faults.add('ipns-record', { kind: 'stale-record', back: 3 })
    const h2 = await c.latest()
    expect(h2.fresh).toBe(false)
    expect(h2.block.cid).toBe(h1.block.cid)
    expect(h2.block.sequence).toBe(emu.beacon.head().sequence)
  })

  it('a fork (another block with the same sequence, signed) is a ForkError', async () => {
    const c = client()
    await c.latest()
    emu.faults.add('ipns-record', { kind: 'fork' }, { times: 1 })
    const err = await c.latest().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ForkError)
    expect((err as ForkError).sequence).toBe(emu.beacon.head().sequence)
    expect((err as ForkError).code).toBe('BEACON_FORK')
  })

  it('a fork met while walking down is a ForkError', async () => {
    const c = client()
    // The client first learns the fork as its head, then the real chain one block later.
    emu.faults.add('ipns-record', { kind: 'fork' }, { times: 1 })
    const forked = await c.latest()
    expect(forked.block.sequence).toBe(emu.beacon.head().sequence)
    await emu.publishNow()
    await expect(c.waitFor(emu.beacon.head().sequence - 1)).rejects.toBeInstanceOf(ForkError)
  })
})

describe('BeaconClient: unsigned fallback', () => {
  it('when no gateway serves IPNS records: an explicit option falls back to /ipns JSON, marked unauthenticated', async () => {
    emu.faults.add('ipns-record', { kind: 'status', status: 501 })
    b.faults.add('ipns-record', { kind: 'status', status: 501 })
    await failure(client({ retries: 0 }).latest())
    const c = client({ retries: 0, allowUnsignedHead: true })
    const h = await c.latest()
    expect(h.authenticated).toBe(false)
    expect(h.record).toBeUndefined()
    expect(h.block.cid).toBe(emu.beacon.head().cid)
  })

  it('the unsigned head is still checked: wrong bytes against X-Ipfs-Roots are rejected', async () => {
    emu.faults.add('ipns-record', { kind: 'status', status: 501 })
    emu.faults.add('ipns-json', { kind: 'wrong-bytes' })
    const err = await failure(single({ allowUnsignedHead: true }).latest())
    expect(err.failures.some((f) => f.error instanceof BadResponseError)).toBe(true)
  })
})

describe('BeaconClient: a broken chain is a ChainBrokenError', () => {
  it('previous pointing to a block with the wrong sequence', async () => {
    const key = await generateKeyPair('Ed25519')
    const name = ipnsNameOfKey(key.publicKey)
    const g = encodeBlock({ previous: null, sequence: 0, timestamp: 1, ctrng: [] })
    const gCid = blockCid(g)
    const bad = encodeBlock({ previous: gCid, sequence: 5, timestamp: 2, ctrng: ['00'.repeat(32)] })
    const badCid = blockCid(bad)
    const rec = marshalIPNSRecord(await createIPNSRecord(key, CID.parse(badCid), 1n, 3600_000))
    const store = new Map<string, Uint8Array>([
      [gCid, g],
      [badCid, bad],
    ])
    const fake: typeof fetch = async (input) => {
      const u = new URL(String(input))
      if (u.pathname.startsWith('/ipns/')) return new Response(new Uint8Array(rec), { headers: { 'content-type': 'application/vnd.ipfs.ipns-record' } })
      const body = store.get(u.pathname.slice('/ipfs/'.length))
      return body === undefined ? new Response('no', { status: 404 }) : new Response(new Uint8Array(body))
    }
    const c = new BeaconClient({ gateways: ['http://fake.invalid'], name, fetch: fake })
    await expect(c.bySequence(0)).rejects.toBeInstanceOf(ChainBrokenError)
  })
})

describe('BeaconClient.waitFor', () => {
  it('waits for a future block with progress, resolves with the verified chain head..target', async () => {
    const e = await startBeaconEmulator({ keyType: 'Ed25519', intervalMs: 200, initialBlocks: 2 })
    try {
      const c = new BeaconClient({ gateways: [e.url], name: e.beaconName })
      const target = e.beacon.head().sequence + 4
      const progress: number[] = []
      const r = await c.waitFor(target, { onProgress: (p) => progress.push(p.sequence) })
      expect(r.block.sequence).toBe(target)
      expect(r.block.cid).toBe(e.beacon.bySequence(target)!.cid)
      expect(r.chain[0]!.cid).toBe(r.head.block.cid)
      expect(r.chain.at(-1)).toBe(r.block)
      expect(r.head.authenticated).toBe(true)
      for (let i = 0; i + 1 < r.chain.length; i++) expect(r.chain[i]!.previous).toBe(r.chain[i + 1]!.cid)
      expect(progress.length).toBeGreaterThanOrEqual(2)
      expect(progress.at(-1)).toBeGreaterThanOrEqual(target)
      // No hammering: about 2 requests per block interval (record + new head), never dozens.
      expect(c.requestCount).toBeLessThan(40)
    } finally {
      await e.stop()
    }
  })

  it('survives a few failed polls (network blip) and ends after maxFailedPolls', async () => {
    const e = await startBeaconEmulator({ keyType: 'Ed25519', intervalMs: 200, initialBlocks: 2 })
    try {
      const c = new BeaconClient({ gateways: [e.url], name: e.beaconName, retries: 0 })
      await c.latest()
      e.faults.add('ipns-record', { kind: 'status', status: 503 }, { times: 3 })
      const target = e.beacon.head().sequence + 4
      expect((await c.waitFor(target)).block.sequence).toBe(target)
      e.faults.add('ipns-record', { kind: 'status', status: 503 })
      const c2 = new BeaconClient({ gateways: [e.url], name: e.beaconName, retries: 0, maxFailedPolls: 2, intervalMs: 100 })
      e.faults.clear()
      await c2.latest()
      e.faults.add('ipns-record', { kind: 'status', status: 503 })
      await expect(c2.waitFor(e.beacon.head().sequence + 1000)).rejects.toBeInstanceOf(AllGatewaysFailedError)
    } finally {
      await e.stop()
    }
  })

  it('returns at once for a block already published', async () => {
    const c = client()
    const r = await c.waitFor(3)
    expect(r.block.cid).toBe(emu.beacon.bySequence(3)!.cid)
    expect(r.chain.length).toBe(emu.beacon.head().sequence - 3 + 1)
  })

  it('abort: AbortedError; timeoutMs: WaitTimeoutError', async () => {
    const c = client({ intervalMs: 200 })
    const ac = new AbortController()
    setTimeout(() => ac.abort(), 300)
    await expect(c.waitFor(emu.beacon.head().sequence + 100, { signal: ac.signal })).rejects.toBeInstanceOf(AbortedError)
    await expect(c.waitFor(emu.beacon.head().sequence + 100, { timeoutMs: 300 })).rejects.toBeInstanceOf(WaitTimeoutError)
  })
})
