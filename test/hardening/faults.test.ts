/**
 * Faults matrix: every networked call (latest, block, bySequence, waitFor, draw, random, token) ×
 * every emulator fault that applies (no answer within the timeout, 5xx, 429, truncated body, wrong
 * bytes, stale record, fork, token endpoint down, expired token, satellite outage). Each cell either
 * recovers (another gateway, a retry, a token refresh, the fallback) with verified data, or fails
 * with its typed error; none ever yields unverified data. The table is recorded for docs/security.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BeaconClient, type BeaconHead } from '../../src/beacon/client.js'
import { draw } from '../../src/beacon/draw.js'
import type { FaultSpec } from '../../src/emulator/faults.js'
import type { FaultController } from '../../src/emulator/faults.js'
import { commit } from '../../src/core/commitment.js'
import { sameContent, type BeaconBlock } from '../../src/core/block.js'
import { verify } from '../../src/core/verify.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { beaconFallbackFrom } from '../../src/rest/fallback.js'
import { OrbitportClient } from '../../src/rest/client.js'
import { type OrbitportClientOptions } from '../../src/rest/options.js'
import { type RandomValue } from '../../src/rest/response.js'
import { isTyped, recordFigures, SecretScan } from './helpers.js'
import { trustBeacon } from '../helpers/policy.js'

type J = any // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The clients' per-request timeout. The "no answer" faults never answer (`hang`): the timeout fires
 * whatever its length, so the cells do not depend on the machine's speed. It is long so that a healthy
 * answer on a loaded machine is never taken for a timeout (150 ms with a 400 ms delay flaked).
 */
const TIMEOUT_MS = 2000
const SECRET = 'emulator-secret-faults-3c9d0e'
const PEOPLE = ['ada', 'grace', 'alan', 'edsger', 'barbara']

let emu: RunningEmulator
let second: { url: string; faults: FaultController; close(): Promise<void> }
const scan = new SecretScan()
const table: { call: string; fault: string; setup: string; outcome: string; detail: string }[] = []

beforeAll(async () => {
  emu = await startEmulator({ beacon: { keyType: 'Ed25519', intervalMs: 0, initialBlocks: 4 }, rest: { clientSecret: SECRET } })
  second = await emu.addGateway()
  scan.secret(SECRET)
})
afterAll(async () => {
  await emu.stop()
  const counts = table.reduce<Record<string, number>>((a, r) => ((a[r.outcome.startsWith('recovered') ? 'recovered' : 'typed error'] = (a[r.outcome.startsWith('recovered') ? 'recovered' : 'typed error'] ?? 0) + 1), a), {})
  recordFigures('faults', { cells: table.length, counts, table, secretScan: { strings: scan.produced.length, leaks: scan.leaks().length } })
  if (process.env.ORBITDRAW_PRINT_FIGURES !== undefined) console.table(table)
})

// ---- beacon ------------------------------------------------------------------------------------

const BEACON_FAULTS: { name: string; spec: FaultSpec }[] = [
  { name: 'no answer (timeout)', spec: { kind: 'hang' } },
  { name: '5xx', spec: { kind: 'status', status: 503 } },
  { name: '429', spec: { kind: 'rate-limit', retryAfterSeconds: 5 } },
  { name: 'truncated', spec: { kind: 'truncate' } },
  { name: 'wrong bytes', spec: { kind: 'wrong-bytes' } },
  { name: 'stale record', spec: { kind: 'stale-record', back: 2 } },
  { name: 'fork', spec: { kind: 'fork' } },
]
const BEACON_CALLS = ['latest', 'block', 'bySequence', 'waitFor', 'draw'] as const
type BeaconCall = (typeof BEACON_CALLS)[number]

/** Whether a fault can affect a call at all (stale records and forks are IPNS answers, not blocks). */
const applies = (call: BeaconCall, fault: string): boolean => !(call === 'block' && (fault === 'stale record' || fault === 'fork'))

/** What each cell must give: 'recovered', or the typed error code. */
function expected(call: BeaconCall, fault: string, setup: 'one of two gateways' | 'every gateway'): string {
  // A fork of the head the client already knows: every call that asks for the head sees both sides
  // and refuses; bySequence(head) is answered from the chain already proven, without a request.
  if (fault === 'fork') return call === 'bySequence' ? 'recovered' : 'BEACON_FORK'
  if (fault === 'stale record') {
    if (setup === 'one of two gateways') return 'recovered'
    if (call === 'latest') return 'recovered (known head, fresh: false)'
    if (call === 'bySequence') return 'BEACON_NOT_YET_PUBLISHED'
    return 'WAIT_TIMEOUT'
  }
  return setup === 'one of two gateways' ? 'recovered' : 'ALL_GATEWAYS_FAILED'
}

/** Checks that what a call returned is the beacon's real chain (verified, not a fork, not altered). */
function assertReal(block: BeaconBlock): void {
  const real = emu.beacon.bySequence(block.sequence)!
  expect(sameContent(block.cid, real.cid)).toBe(true)
  expect(Buffer.from(block.bytes).equals(Buffer.from(real.bytes))).toBe(true)
}

async function runBeaconCell(call: BeaconCall, fault: { name: string; spec: FaultSpec }, setup: 'one of two gateways' | 'every gateway'): Promise<string> {
  const client = new BeaconClient({ gateways: [emu.url, second.url], name: emu.beaconName, timeoutMs: TIMEOUT_MS, retries: 0, retryDelayMs: 10, maxRetryWaitMs: 100, maxFailedPolls: 1, intervalMs: 200 })
  // Prime the client; publish a new head (except for a fork: the fork is of the head already known).
  await client.latest()
  if (fault.name !== 'fork') await emu.publishNow()
  const head = emu.beacon.head()
  const removers = [emu.faults.add('*', fault.spec)]
  if (setup === 'every gateway') removers.push(second.faults.add('*', fault.spec))
  try {
    switch (call) {
      case 'latest': {
        const h: BeaconHead = await client.latest()
        expect(h.authenticated).toBe(true)
        assertReal(h.block)
        if (!h.fresh) return 'recovered (known head, fresh: false)'
        expect(h.block.sequence).toBe(head.sequence)
        return 'recovered'
      }
      case 'block': {
        const b = await client.block(head.cid)
        assertReal(b)
        return 'recovered'
      }
      case 'bySequence': {
        const b = await client.bySequence(head.sequence)
        assertReal(b)
        return 'recovered'
      }
      case 'waitFor': {
        const w = await client.waitFor(head.sequence, { timeoutMs: 500 })
        assertReal(w.block)
        w.chain.forEach(assertReal)
        expect(w.head.authenticated).toBe(true)
        return 'recovered'
      }
      case 'draw': {
        const after = emu.beacon.bySequence(head.sequence - 2)!
        const { commitment } = commit({ beacon: emu.beaconName, target: head.sequence, after: { sequence: after.sequence, block: after.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 } })
        const proof = await draw(commitment, PEOPLE, { client, timeoutMs: 500, untimestamped: true })
        const r = await verify(proof, trustBeacon(emu.beaconName))
        expect(r.ok && r.authenticated).toBe(true)
        for (const b of proof.chain.blocks) expect(emu.beacon.chain().some((x) => sameContent(x.cid, b.cid))).toBe(true)
        return 'recovered'
      }
    }
  } catch (err) {
    scan.add(err)
    expect(isTyped(err), `untyped: ${String(err)}`).toBe(true)
    return (err as J).code
  } finally {
    removers.forEach((r) => r())
  }
}

describe('beacon calls × gateway faults', () => {
  const cells = BEACON_CALLS.flatMap((call) => BEACON_FAULTS.filter((f) => applies(call, f.name)).flatMap((f) => (['one of two gateways', 'every gateway'] as const).map((setup) => ({ call, fault: f, setup }))))
  it.each(cells.map((c) => [`${c.call} × ${c.fault.name} (${c.setup})`, c] as const))('%s', async (_name, c) => {
    const outcome = await runBeaconCell(c.call, c.fault, c.setup)
    table.push({ call: c.call, fault: c.fault.name, setup: c.setup, outcome, detail: '' })
    expect(outcome).toBe(expected(c.call, c.fault.name, c.setup))
  })
})

// ---- REST --------------------------------------------------------------------------------------

function rest(o: Partial<OrbitportClientOptions> = {}): OrbitportClient {
  return new OrbitportClient({
    clientId: 'emulator-client',
    clientSecret: SECRET,
    baseUrl: emu.url,
    authUrl: emu.url,
    timeoutMs: TIMEOUT_MS,
    // The deadline is far beyond three timed-out attempts: the cells' outcomes come from the faults, never from it.
    retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 20, deadlineMs: 60_000, random: () => 0.5 },
    verify: { publicKey: emu.rest.publicKey },
    logger: scan.logger(),
    ...o,
  })
}

/** A primed beacon fallback whose gateways can be faulted. */
async function beaconFallback(): Promise<{ fallback: ReturnType<typeof beaconFallbackFrom>; client: BeaconClient }> {
  const client = new BeaconClient({ gateways: [emu.url, second.url], name: emu.beaconName, timeoutMs: TIMEOUT_MS, retries: 0, maxRetryWaitMs: 100 })
  await client.latest()
  return { fallback: beaconFallbackFrom(client), client }
}

/** Checks a returned value is verified (signature under the configured key, or an authenticated beacon block). */
function assertVerified(v: RandomValue): string {
  scan.add(v)
  if (v.source === 'beacon') {
    expect(v.beacon!.authenticated).toBe(true)
    const block = emu.beacon.chain().find((b) => sameContent(b.cid, v.beacon!.cid))!
    expect(Buffer.from(block.values[v.beacon!.index]!).equals(Buffer.from(v.data))).toBe(true)
    return 'recovered (beacon fallback)'
  }
  expect(v.signatureVerified).toBe(true)
  return v.source === 'derived' ? 'recovered (derived source)' : 'recovered'
}

interface RestCell {
  call: 'random' | 'token'
  fault: string
  setup: string
  expect: string
  run: () => Promise<RandomValue>
}

const half = (s: string): string => s.slice(0, Math.floor(s.length / 2))
const validTrng = JSON.stringify({ service: 'trng', src: 'vendororbital', data: 'ab'.repeat(32), signature: { value: '30440220' + '11'.repeat(32) + '0220' + '22'.repeat(32), pk: '' } })
const validToken = JSON.stringify({ access_token: 'emu_truncated_and_unknown_to_the_api', token_type: 'Bearer', expires_in: 3600 })

const REST_CELLS: RestCell[] = [
  // random: faults on the cTRNG endpoint
  { call: 'random', fault: 'no answer (timeout)', setup: 'once', expect: 'recovered', run: async () => (emu.rest.injectFault('trng', { hang: true }), rest().random()) },
  { call: 'random', fault: 'no answer (timeout)', setup: 'persistent', expect: 'ORBITPORT_TIMEOUT', run: async () => (emu.rest.injectFault('trng', { hang: true }, 5), rest().random()) },
  { call: 'random', fault: '5xx', setup: 'once', expect: 'recovered', run: async () => (emu.rest.injectFault('trng', { status: 503 }), rest().random()) },
  { call: 'random', fault: '5xx', setup: 'persistent', expect: 'ORBITPORT_SERVER_ERROR', run: async () => (emu.rest.inject500('down'), rest().random()) },
  { call: 'random', fault: '5xx', setup: 'persistent, beacon fallback', expect: 'recovered (beacon fallback)', run: async () => (emu.rest.inject500('down'), rest({ beaconFallback: (await beaconFallback()).fallback }).random()) },
  { call: 'random', fault: '429', setup: 'once', expect: 'recovered', run: async () => (emu.rest.injectFault('trng', { status: 429, headers: { 'retry-after': '0' } }), rest().random()) },
  { call: 'random', fault: '429', setup: 'persistent, Retry-After past the budget', expect: 'ORBITPORT_RATE_LIMITED', run: async () => (emu.rest.injectFault('trng', { status: 429, headers: { 'retry-after': '60' } }, 5), rest().random()) },
  { call: 'random', fault: 'truncated', setup: 'once', expect: 'ORBITPORT_INVALID_RESPONSE', run: async () => (emu.rest.injectFault('trng', { status: 200, body: half(validTrng) }), rest().random()) },
  { call: 'random', fault: 'truncated', setup: 'once, beacon fallback', expect: 'recovered (beacon fallback)', run: async () => (emu.rest.injectFault('trng', { status: 200, body: half(validTrng) }), rest({ beaconFallback: (await beaconFallback()).fallback }).random()) },
  { call: 'random', fault: 'wrong bytes', setup: 'value not matching its signature', expect: 'ORBITPORT_BAD_SIGNATURE', run: async () => (emu.rest.injectFault('trng', { status: 200, body: validTrng }), rest().random()) },
  {
    call: 'random',
    fault: 'stale record',
    setup: 'endpoint down, every gateway stale',
    expect: 'recovered (beacon fallback)',
    run: async () => {
      const { fallback } = await beaconFallback()
      await emu.publishNow()
      emu.rest.inject500('down')
      const rm = [emu.faults.add('*', { kind: 'stale-record', back: 2 }), second.faults.add('*', { kind: 'stale-record', back: 2 })]
      try {
        return await rest({ beaconFallback: fallback }).random()
      } finally {
        rm.forEach((r) => r())
      }
    },
  },
  {
    call: 'random',
    fault: 'fork',
    setup: 'endpoint down, a gateway serves a fork',
    expect: 'ORBITPORT_FALLBACK_FAILED',
    run: async () => {
      const { fallback } = await beaconFallback()
      emu.rest.inject500('down')
      const rm = emu.faults.add('*', { kind: 'fork' })
      try {
        return await rest({ beaconFallback: fallback }).random()
      } finally {
        rm()
      }
    },
  },
  { call: 'random', fault: 'expired token', setup: 'server revoked it', expect: 'recovered', run: async () => {
    const c = rest()
    await c.random()
    emu.rest.revokeTokens()
    return c.random()
  } },
  { call: 'random', fault: 'satellite outage', setup: 'src satellite only', expect: 'ORBITPORT_SERVER_ERROR', run: async () => (emu.rest.setSatelliteOutage(true), rest().random({ src: 'satellite' })) },
  { call: 'random', fault: 'satellite outage', setup: 'src satellite, derived', expect: 'recovered (derived source)', run: async () => (emu.rest.setSatelliteOutage(true), rest().random({ src: ['satellite', 'derived'] })) },
  { call: 'random', fault: 'satellite outage', setup: 'src satellite, beacon fallback', expect: 'recovered (beacon fallback)', run: async () => (emu.rest.setSatelliteOutage(true), rest({ beaconFallback: (await beaconFallback()).fallback }).random({ src: 'satellite' })) },
  // token: faults on the token endpoint
  { call: 'token', fault: 'no answer (timeout)', setup: 'once', expect: 'recovered', run: async () => (emu.rest.injectFault('token', { hang: true }), rest().random()) },
  { call: 'token', fault: 'no answer (timeout)', setup: 'persistent', expect: 'ORBITPORT_TIMEOUT', run: async () => (emu.rest.injectFault('token', { hang: true }, 5), rest().random()) },
  { call: 'token', fault: '5xx', setup: 'once', expect: 'recovered', run: async () => (emu.rest.injectFault('token', { status: 502 }), rest().random()) },
  { call: 'token', fault: '5xx', setup: 'persistent', expect: 'ORBITPORT_SERVER_ERROR', run: async () => (emu.rest.injectFault('token', { status: 502 }, 5), rest().random()) },
  { call: 'token', fault: '429', setup: 'once', expect: 'recovered', run: async () => (emu.rest.injectFault('token', { status: 429, headers: { 'retry-after': '0' } }), rest().random()) },
  { call: 'token', fault: '429', setup: 'persistent, Retry-After past the budget', expect: 'ORBITPORT_RATE_LIMITED', run: async () => (emu.rest.injectFault('token', { status: 429, headers: { 'retry-after': '60' } }, 5), rest().random()) },
  { call: 'token', fault: 'truncated', setup: 'once', expect: 'ORBITPORT_INVALID_RESPONSE', run: async () => (emu.rest.injectFault('token', { status: 200, body: half(validToken) }), rest().random()) },
  { call: 'token', fault: 'wrong bytes', setup: 'a token the API does not know', expect: 'recovered', run: async () => (emu.rest.injectFault('token', { status: 200, body: validToken }), rest().random()) },
  { call: 'token', fault: 'token endpoint down', setup: 'connection dropped', expect: 'ORBITPORT_NETWORK', run: async () => (emu.rest.injectFault('token', { drop: true }, 5), rest().random()) },
  { call: 'token', fault: 'token endpoint down', setup: 'connection dropped, beacon fallback', expect: 'recovered (beacon fallback)', run: async () => (emu.rest.injectFault('token', { drop: true }, 5), rest({ beaconFallback: (await beaconFallback()).fallback }).random()) },
  { call: 'token', fault: 'expired token', setup: 'client clock past expiry', expect: 'recovered', run: async () => {
    let t = Date.now()
    const c = rest({ now: () => t })
    await c.random()
    t += 3600_000
    return c.random()
  } },
]

describe('REST calls × service faults', () => {
  it.each(REST_CELLS.map((c) => [`${c.call} × ${c.fault} (${c.setup})`, c] as const))('%s', async (_name, c) => {
    emu.rest.reset()
    const before = emu.rest.stats()
    let outcome: string
    try {
      outcome = assertVerified(await c.run())
    } catch (err) {
      scan.add(err)
      expect(isTyped(err), `untyped: ${String(err)}`).toBe(true)
      outcome = (err as J).code
    } finally {
      emu.rest.reset()
    }
    void before
    table.push({ call: c.call, fault: c.fault, setup: c.setup, outcome, detail: '' })
    expect(outcome).toBe(c.expect)
  })
  it('nothing produced in the matrix (errors, values, log lines) contains the client secret or a token', () => {
    expect(scan.produced.length).toBeGreaterThan(100)
    expect(scan.leaks()).toEqual([])
  })
})
