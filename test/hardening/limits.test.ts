/**
 * Resource limits (src/core/limits.ts): each exceeded limit gives its typed error early, before
 * work proportional to the input. "Early" is shown by what the error is (the limit, not a later
 * check such as a hash mismatch), and by bytes a server managed to send. Times are recorded as figures, never asserted (a hang fails on the runner's timeout).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BeaconClient } from '../../src/beacon/client.js'
import { blockCid, encodeBlock, parseBlock } from '../../src/core/block.js'
import { commit, parseCommitment } from '../../src/core/commitment.js'
import { LIMITS } from '../../src/core/limits.js'
import { parseIpnsRecord } from '../../src/core/ipns/record.js'
import { validateEntries } from '../../src/core/participants.js'
import { parseProof } from '../../src/core/proof.js'
import { verify } from '../../src/core/verify.js'
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js'
import { OrbitportClient } from '../../src/rest/client.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { isTyped, recordFigures, settle } from './helpers.js'

type J = any // eslint-disable-line @typescript-eslint/no-explicit-any

const CHAIN = buildChain(6, 'limits')
const AFTER = { sequence: 2, block: CHAIN[2]!.cid }
const figures: { limit: string; value: string; past: string; error: string; ms: number }[] = []

/** Runs `fn`, expects a typed error with `code`, and records the row with its time. */
async function refused(limit: string, past: string, fn: () => unknown, code: string | RegExp): Promise<J> {
  const t = performance.now()
  const r = await settle(async () => fn())
  const took = performance.now() - t
  expect(r.ok, `${limit}: expected a refusal`).toBe(false)
  const err = (r as { error: J }).error
  expect(isTyped(err), `${limit}: untyped ${String(err)}`).toBe(true)
  if (typeof code === 'string') expect(err.code).toBe(code)
  else expect(err.code).toMatch(code)
  figures.push({ limit, value: String((LIMITS as Record<string, unknown>)[limit] ?? ''), past, error: err.code, ms: Math.round(took) })
  return err
}

function proofOf(participants = ['ada', 'grace', 'alan']): J {
  const { commitment } = commit({ beacon: BEACON_NAME, target: 4, after: AFTER, participants, draw: { kind: 'pick', count: 1 } })
  return JSON.parse(JSON.stringify(verifyDraw(commitment, participants)))
}
import { drawFromBlock } from '../../src/core/draw.js'
function verifyDraw(c: Parameters<typeof drawFromBlock>[0], p: string[]): unknown {
  return drawFromBlock(c, p, CHAIN[4]!)
}

afterAll(() => recordFigures('limits', figures))

describe('core limits', () => {
  it('maxBlockBytes: a block over the limit is refused before it is hashed', async () => {
    await refused('maxBlockBytes', '64 KiB + 1 (and 100 MB)', () => parseBlock(new Uint8Array(LIMITS.maxBlockBytes + 1), CHAIN[1]!.cid), 'LIMIT_EXCEEDED')
    await refused('maxBlockBytes', '100 MB', () => parseBlock(new Uint8Array(100 * 1024 * 1024), CHAIN[1]!.cid), 'LIMIT_EXCEEDED')
  })
  it('maxCtrngValues: a block with 1,025 values', async () => {
    const bytes = encodeBlock({ previous: CHAIN[0]!.cid, sequence: 1, timestamp: 1, ctrng: Array.from({ length: LIMITS.maxCtrngValues + 1 }, () => '00'.repeat(32)) })
    await refused('maxCtrngValues', '1,025 values', () => parseBlock(bytes, blockCid(bytes)), 'LIMIT_EXCEEDED')
  })
  it('maxChainBlocks: a proof with 10^7 chain blocks is refused before any is decoded', async () => {
    const p = proofOf()
    p.chain.blocks = new Array(10_000_000).fill(p.chain.blocks[0])
    await refused('maxChainBlocks', '10^7 blocks', () => parseProof(p), 'LIMIT_EXCEEDED')
    const r = await verify(p)
    expect(r.checks.map((c) => [c.name, c.ok])).toEqual([
      ['version', true],
      ['format', false],
    ])
  })
  it('maxParticipants: a list over the limit is refused before hashing (commit, proof, commitment)', async () => {
    const sparse = new Array<string>(LIMITS.maxParticipants + 1)
    await refused('maxParticipants', '50,000,001 entries (commit)', () => commit({ beacon: BEACON_NAME, target: 4, after: AFTER, participants: sparse, draw: { kind: 'pick', count: 1 } }), 'LIMIT_EXCEEDED')
    await refused('maxParticipants', '50,000,001 entries (validate)', () => validateEntries(sparse), 'LIMIT_EXCEEDED')
    const p = proofOf()
    p.participants.entries = sparse
    await refused('maxParticipants', '50,000,001 entries (proof)', () => parseProof(p), 'LIMIT_EXCEEDED')
    const q = proofOf()
    q.commitment.participants.count = LIMITS.maxParticipants + 1
    await refused('maxParticipants', 'count 50,000,001 (commitment)', () => parseCommitment(q.commitment), 'INVALID_FIELD')
  })
  it('maxEntryBytes: a 1,025-byte entry, and a 100-million-character one rejected unread', async () => {
    await refused('maxEntryBytes', '1,025 bytes', () => validateEntries(['é'.repeat(513)]), 'LIMIT_EXCEEDED')
    await refused('maxEntryBytes', '10^8 characters', () => validateEntries(['x'.repeat(100_000_000)]), 'LIMIT_EXCEEDED')
  })
  it('maxLabelBytes: a 1,025-byte label', async () => {
    await refused('maxLabelBytes', '1,025 bytes', () => commit({ beacon: BEACON_NAME, target: 4, after: AFTER, participants: ['a'], draw: { kind: 'pick', count: 1 }, label: 'x'.repeat(1025) }), 'INVALID_COMMITMENT')
  })
  it('maxProofBytes: a proof text over the limit is refused before JSON parsing', async () => {
    const huge = ' '.repeat(LIMITS.maxProofBytes) + '{}'
    await refused('maxProofBytes', '256 MiB + 2 characters', () => parseProof(huge), 'PROOF_TOO_LARGE')
    const r = await verify(huge)
    expect(r.checks[0]!.detail).toMatch(/maxProofBytes/)
  })
  it('maxJsonDepth: a 4 MB proof of nested brackets is refused before JSON.parse, in bounded memory', async () => {
    // The memory this case may use: the 4 MB input itself is allocated before the first reading, and the
    // refusals may leave the heap at most 64 MB larger (generous: garbage not yet collected counts too;
    // alone the case grows it by about 1 MB, under the whole suite up to about 24 MB). Parsing it, as
    // before the fix, built 2,000,000 nested arrays and one scanner frame and path per bracket.
    const MAY_USE_BYTES = 64 * 1024 * 1024
    const n = 2_000_000
    for (const [open, close] of [['[', ']'], ['{"a":', '}']] as const) {
      const bomb = open.repeat(n) + '0' + close.repeat(n)
      const asBytes = new TextEncoder().encode(bomb)
      const before = process.memoryUsage().heapUsed
      await refused('maxJsonDepth', `${n.toLocaleString('en')} nested ${open}${close}`, () => parseProof(bomb), 'JSON_TOO_DEEP')
      await refused('maxJsonDepth', `${n.toLocaleString('en')} nested ${open}${close} as bytes`, () => parseProof(asBytes), 'JSON_TOO_DEEP')
      await refused('maxJsonDepth', `commitment of ${n.toLocaleString('en')} nested ${open}${close}`, () => parseCommitment(bomb.slice(0, 60_000)), 'JSON_TOO_DEEP')
      const r = await verify(asBytes)
      const after = process.memoryUsage().heapUsed
      expect(r.ok).toBe(false)
      expect(r.checks[0]!.detail).toMatch(/maxJsonDepth = 64/)
      expect(after - before, `heap grew by ${after - before} bytes`).toBeLessThan(MAY_USE_BYTES)
    }
    // The bound is exact: depth 64 parses, 65 is refused.
    const nest = (d: number): string => '['.repeat(d) + ']'.repeat(d)
    expect(() => parseProof(nest(LIMITS.maxJsonDepth))).toThrow(/expected an object/)
    expect(() => parseProof(nest(LIMITS.maxJsonDepth + 1))).toThrow(/maxJsonDepth/)
  })
  it('maxObjectKeys: a proof whose one object has 2,000,000 members is refused before JSON.parse', async () => {
    // Found by driving the verifier page: engines build an object of millions of keys in more than linear
    // time (this 25 MB proof: about 21 s in decodeJsonInput, 28 s in JSON.parse). The depth pass counts an
    // object's members and stops at the 1,025th.
    const n = 2_000_000
    const members = Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')
    const bomb = `{"type":"orbitdraw-proof",${members}}`
    const asBytes = new TextEncoder().encode(bomb)
    const err = await refused('maxObjectKeys', `${n.toLocaleString('en')} members in one object`, () => parseProof(asBytes), 'LIMIT_EXCEEDED')
    expect(err.message).toMatch(/an object of more than 1024 members \(character \d+\), over the limit maxObjectKeys = 1024/)
    // Only the scan before JSON.parse says maxObjectKeys: the refusal names it, so nothing was parsed.
    const r = await verify(asBytes)
    expect(r.ok).toBe(false)
    expect(r.checks[0]!.detail).toMatch(/maxObjectKeys = 1024/)
    // The bound is exact, in objects at any depth, and commas in strings or arrays do not count.
    const obj = (k: number): string => `{${Array.from({ length: k }, (_, i) => `"k${i}":[1,2,","]`).join(',')}}`
    expect(() => parseProof(obj(LIMITS.maxObjectKeys))).toThrow(/missing required field "type"/)
    expect(() => parseProof(obj(LIMITS.maxObjectKeys + 1))).toThrow(/maxObjectKeys/)
    expect(() => parseProof(`{"a":[${obj(LIMITS.maxObjectKeys + 1)}]}`)).toThrow(/maxObjectKeys/)
  })
  it('maxRangeWidthBits: a range wider than 2^256 is refused before sampling', async () => {
    await refused('maxRangeWidthBits', 'width 2^256 + 1', () => commit({ beacon: BEACON_NAME, target: 4, after: AFTER, draw: { kind: 'range', min: 0n, max: 2n ** 256n, count: 1, distinct: false } }), 'INVALID_DRAW')
    const { commitment } = commit({ beacon: BEACON_NAME, target: 4, after: AFTER, draw: { kind: 'range', min: 0n, max: 10n, count: 1, distinct: false } })
    const p: J = JSON.parse(JSON.stringify(drawFromBlock(commitment, undefined, CHAIN[4]!)))
    p.commitment.draw.max = (2n ** 4000n).toString()
    const r = await verify(p)
    expect(r.checks.find((c) => !c.ok)?.name).toBe('commitment-cid')
    expect(r.checks.some((c) => c.name === 'outcome')).toBe(false)
  })
  it('maxRangeBoundBits: a bound past ±2^256, or of more than 79 characters, is refused before it is read', async () => {
    // Found by fuzzing: each drawn value is printed at the bounds' size; 2,000 values of a 400,000-digit
    // range took the CLI 209 s and 1.16 GB, from a proof that carried only short strings.
    const range = (min: bigint, max: bigint) => () => commit({ beacon: BEACON_NAME, target: 4, after: AFTER, draw: { kind: 'range', min, max, count: 1, distinct: false } })
    const over = await refused('maxRangeBoundBits', 'max 2^256 + 1', range(2n ** 256n - 5n, 2n ** 256n + 1n), 'INVALID_DRAW')
    expect(over.path).toBe('$.draw.max')
    const under = await refused('maxRangeBoundBits', 'min −2^256 − 1', range(-(2n ** 256n) - 1n, -(2n ** 256n) + 5n), 'INVALID_DRAW')
    expect(under.path).toBe('$.draw.min')
    expect(() => range(-(2n ** 256n), -(2n ** 256n) + 9n)()).not.toThrow()
    expect(() => range(2n ** 256n - 9n, 2n ** 256n)()).not.toThrow()
    // In a proof: a 400,000-digit min is refused by its length, before BigInt reads it, in milliseconds.
    const { commitment } = commit({ beacon: BEACON_NAME, target: 4, after: AFTER, draw: { kind: 'range', min: 0n, max: 9n, count: 200, distinct: false } })
    const p: J = JSON.parse(JSON.stringify(drawFromBlock(commitment, undefined, CHAIN[4]!)))
    p.commitment.draw.min = `-1${'0'.repeat(400_000)}`
    p.commitment.draw.max = `-${'9'.repeat(400_000)}1`
    const r = await verify(p)
    expect(r.ok).toBe(false)
    expect(r.checks.find((c) => !c.ok)?.detail).toMatch(/an integer of 400002 characters, over 79 \(\|min\|, \|max\| ≤ 2\^256: LIMITS\.maxRangeBoundBits\)/)
    expect(r.checks.some((c) => c.name === 'outcome' && c.ok)).toBe(false)
  })

  it('maxDrawCount: 10^7 + 1 winners or values', async () => {
    await refused('maxDrawCount', '10,000,001 values', () => commit({ beacon: BEACON_NAME, target: 4, after: AFTER, draw: { kind: 'range', min: 0n, max: 2n ** 64n, count: LIMITS.maxDrawCount + 1, distinct: false } }), 'INVALID_DRAW')
  })
  it('maxCidChars: CID text over the limit is refused before base decoding', async () => {
    const p = proofOf()
    p.commitmentCid = 'z' + '1'.repeat(1_000_000)
    await refused('maxCidChars', '10^6 characters', () => parseProof(p), 'INVALID_FIELD')
  })
  it('maxCommitmentBytes: a commitment over the limit is refused before DAG-JSON decoding', async () => {
    const p = proofOf()
    p.commitment.label = 'x'.repeat(10_000_000)
    await refused('maxCommitmentBytes', '10 MB label', () => parseCommitment(p.commitment), 'LIMIT_EXCEEDED')
  })
  it('maxIpnsRecordBytes: a record over 10 KiB', async () => {
    await refused('maxIpnsRecordBytes', '10 KiB + 1', () => parseIpnsRecord(new Uint8Array(LIMITS.maxIpnsRecordBytes + 1)), 'IPNS_RECORD_TOO_LARGE')
  })
})

/** A hostile HTTP server streaming `total` bytes for every request; counts what it managed to write. */
async function firehose(total: number, declare: boolean): Promise<{ url: string; written: () => number; close: () => Promise<void> }> {
  let written = 0
  const chunk = Buffer.alloc(64 * 1024, 0x61)
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', ...(declare ? { 'content-length': String(total) } : {}) })
    let sent = 0
    const pump = (): void => {
      while (sent < total && !res.destroyed) {
        sent += chunk.length
        written += chunk.length
        if (!res.write(chunk)) return void res.once('drain', pump)
      }
      if (!res.destroyed) res.end()
    }
    res.on('close', () => (sent = total))
    pump()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    written: () => written,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r())
        server.closeAllConnections()
      }),
  }
}

describe('edge limits', () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startEmulator({ beacon: { keyType: 'Ed25519', intervalMs: 0, initialBlocks: 2 } })
  })
  afterAll(async () => {
    await emu.stop()
  })

  it.each([false, true])('gateway body: a 100 MB block answer (Content-Length declared: %s) is cut off at the limit, not buffered', async (declare) => {
    const hose = await firehose(100 * 1024 * 1024, declare)
    try {
      const client = new BeaconClient({ gateways: [hose.url], name: emu.beaconName, retries: 0 })
      const err = await refused('maxBlockBytes', `100 MB gateway block body${declare ? ' (declared)' : ' (streamed)'}`, () => client.block(CHAIN[1]!.cid), 'ALL_GATEWAYS_FAILED')
      expect(err.failures[0].error.code).toBe('GATEWAY_HTTP_ERROR')
      expect(err.failures[0].error.status).toBe(413)
      await new Promise((r) => setTimeout(r, 100))
      // The server could not push more than the limit plus socket buffers.
      expect(hose.written()).toBeLessThan(16 * 1024 * 1024)
      figures[figures.length - 1]!.past += `; server wrote ${(hose.written() / 1024 / 1024).toFixed(1)} MiB before the cut`
    } finally {
      await hose.close()
    }
  })
  it('gateway body: a 100 MB IPNS record answer is cut off at 10 KiB', async () => {
    const hose = await firehose(100 * 1024 * 1024, false)
    try {
      const client = new BeaconClient({ gateways: [hose.url], name: emu.beaconName, retries: 0 })
      const err = await refused('maxIpnsRecordBytes', '100 MB gateway record body (streamed)', () => client.latest(), 'ALL_GATEWAYS_FAILED')
      expect(err.failures[0].error.status).toBe(413)
    } finally {
      await hose.close()
    }
  })
  it('gateway timeout: an answer slower than timeoutMs', async () => {
    const remove = emu.faults.add('ipns-record', { kind: 'latency', ms: 2000 })
    try {
      const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName, retries: 0, timeoutMs: 200 })
      const err = await refused('gatewayTimeoutMs', '2 s answer, timeoutMs 200', () => client.latest(), 'ALL_GATEWAYS_FAILED')
      expect(err.failures[0].error.code).toBe('GATEWAY_TIMEOUT')
    } finally {
      remove()
    }
  })
  it('waitFor timeoutMs: a block that never comes', async () => {
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName, intervalMs: 100 })
    await refused('waitFor timeoutMs', 'target never published, timeoutMs 300', () => client.waitFor(emu.beacon.head().sequence + 100, { timeoutMs: 300 }), 'WAIT_TIMEOUT')
  })
  const rest = (o: Partial<ConstructorParameters<typeof OrbitportClient>[0]> = {}): OrbitportClient => new OrbitportClient({ clientId: 'emulator-client', clientSecret: 'emulator-secret', baseUrl: emu.url, authUrl: emu.url, retry: { retries: 0 }, ...o })
  it('REST response size: a 1 MB cTRNG answer (declared) and a 100 MB streamed token answer', async () => {
    emu.rest.injectFault('trng', { status: 200, body: 'x'.repeat(1024 * 1024) })
    await refused('maxRestResponseBytes', '1 MB cTRNG body (declared)', () => rest().random(), 'ORBITPORT_INVALID_RESPONSE')
    const hose = await firehose(100 * 1024 * 1024, false)
    try {
      await refused('maxRestResponseBytes', '100 MB token body (streamed)', () => rest({ authUrl: hose.url }).random(), 'ORBITPORT_INVALID_RESPONSE')
      expect(hose.written()).toBeLessThan(16 * 1024 * 1024)
    } finally {
      await hose.close()
    }
  })
  it('REST timeouts: one attempt over timeoutMs; retries over the deadline', async () => {
    emu.rest.injectFault('trng', { passThrough: true, delayMs: 1500 })
    await refused('restTimeoutMs', '1.5 s answer, timeoutMs 200', () => rest({ timeoutMs: 200 }).random(), 'ORBITPORT_TIMEOUT')
    emu.rest.injectFault('trng', { status: 503 }, 20)
    await refused('restDeadlineMs', 'endless 503, deadline 300 ms', () => rest({ retry: { retries: 50, baseDelayMs: 100, maxDelayMs: 100, deadlineMs: 300, random: () => 1 } }).random(), /ORBITPORT_(SERVER_ERROR|TIMEOUT)/)
    emu.rest.reset()
  })
  it('emulator request body: 100 KiB to the token endpoint gets 413', async () => {
    const res = await fetch(`${emu.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pad: 'p'.repeat(100 * 1024) }) })
    expect(res.status).toBe(413)
    figures.push({ limit: 'maxEmulatorRequestBytes', value: String(LIMITS.maxEmulatorRequestBytes), past: '100 KiB token request', error: 'HTTP 413', ms: 0 })
  })
})
