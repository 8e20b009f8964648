/**
 * Load, bounded in count and time, loopback only: concurrent draws on one BeaconClient share their
 * polling; concurrent random() calls share one token request; the emulator serves 1,000 concurrent
 * requests without error.
 */
import { Agent } from 'node:http'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BeaconClient } from '../../src/beacon/client.js'
import { draw } from '../../src/beacon/draw.js'
import { commit } from '../../src/core/commitment.js'
import { verify } from '../../src/core/verify.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { OrbitportClient } from '../../src/rest/client.js'
import { recordFigures } from './helpers.js'
import { trustBeacon } from '../helpers/policy.js'

const figures: Record<string, unknown> = {}
let emu: RunningEmulator
beforeAll(async () => {
  emu = await startEmulator({ beacon: { keyType: 'Ed25519', intervalMs: 0, initialBlocks: 3 } })
})
afterAll(async () => {
  await emu.stop()
  recordFigures('load', figures)
})

const PEOPLE = Array.from({ length: 20 }, (_, i) => `p${i}`)

describe('concurrent draws on one client share polling', () => {
  it.each([1, 25])('%i concurrent draw(s) waiting for the same block', async (n) => {
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName, intervalMs: 400, timeoutMs: 5000 })
    const head = await client.latest()
    const target = head.block.sequence + 2
    const commitments = Array.from({ length: n }, (_, i) => commit({ beacon: emu.beaconName, target, after: { sequence: head.block.sequence, block: head.block.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: `load ${i}` }).commitment)
    const before = client.requestCount
    emu.beacon.resetStats()
    const publisher = setInterval(() => void emu.publishNow(), 400)
    try {
      const proofs = await Promise.all(commitments.map((c) => draw(c, PEOPLE, { client, timeoutMs: 10_000, includeAfterWithin: 0, untimestamped: true })))
      const results = await Promise.all(proofs.map((p) => verify(p, trustBeacon(emu.beaconName))))
      expect(results.every((r) => r.ok && r.authenticated)).toBe(true)
    } finally {
      clearInterval(publisher)
    }
    const requests = client.requestCount - before
    figures[`draws-${n}`] = { concurrentDraws: n, clientRequests: requests, gatewayRequests: emu.beacon.stats() }
    if (n === 1) figures.singleDrawRequests = requests
    else {
      const single = figures.singleDrawRequests as number
      // Shared polling: about the requests of one draw, never n times as many.
      expect(requests).toBeLessThanOrEqual(single * 2 + 2)
    }
  })
})

describe('the shared latest() poll and aborts', () => {
  it('one caller aborting does not cancel the poll another caller waits on; a later caller starts fresh', async () => {
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName, timeoutMs: 5000 })
    const remove = emu.faults.add('ipns-record', { kind: 'latency', ms: 300 })
    try {
      const ctl = new AbortController()
      const a = client.latest({ signal: ctl.signal })
      const b = client.latest()
      setTimeout(() => ctl.abort(), 50)
      await expect(a).rejects.toMatchObject({ code: 'ABORTED' })
      const head = await b
      expect(head.authenticated).toBe(true)
      expect(client.requestCount).toBe(2) // one record, one block: shared by both callers
      const only = new AbortController()
      const c = client.latest({ signal: only.signal })
      setTimeout(() => only.abort(), 50)
      await expect(c).rejects.toMatchObject({ code: 'ABORTED' })
      expect((await client.latest()).block.sequence).toBeGreaterThanOrEqual(head.block.sequence)
    } finally {
      remove()
    }
  })
})

describe('concurrent random() calls share one token request', () => {
  it('150 concurrent calls on one client make one token request', async () => {
    const c = new OrbitportClient({ clientId: 'emulator-client', clientSecret: 'emulator-secret', baseUrl: emu.url, authUrl: emu.url })
    emu.rest.reset()
    const values = await Promise.all(Array.from({ length: 150 }, () => c.random()))
    expect(values).toHaveLength(150)
    expect(new Set(values.map((v) => v.hex)).size).toBe(150)
    const s = emu.rest.stats()
    expect(s.tokenRequests).toBe(1)
    expect(s.trngRequests).toBe(150)
    figures.random = { concurrentCalls: 150, tokenRequests: s.tokenRequests, trngRequests: s.trngRequests }
  })
})

describe('the emulator serves 1,000 concurrent requests', () => {
  it('1,000 concurrent block, record and head requests on loopback, all 200', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1000 })
    const head = emu.beacon.head()
    const paths = [`/ipfs/${head.cid}?format=raw`, `/ipns/${emu.beaconName}?format=ipns-record`, `/ipns/${emu.beaconName}`]
    const started = performance.now()
    const statuses = await Promise.all(
      Array.from(
        { length: 1000 },
        (_, i) =>
          new Promise<number>((resolve, reject) => {
            const req = request(`${emu.url}${paths[i % 3]}`, { agent }, (res) => {
              res.resume()
              res.on('end', () => resolve(res.statusCode ?? 0))
            })
            req.on('error', reject)
            req.setTimeout(20_000, () => req.destroy(new Error('timeout')))
            req.end()
          }),
      ),
    )
    const ms = performance.now() - started
    agent.destroy()
    expect(statuses.filter((s) => s !== 200)).toEqual([])
    figures.emulator = { concurrentRequests: 1000, errors: 0, wallMs: Math.round(ms) }
  })
})
