/**
 * Regression tests of the defects the hardening suites found (docs/security.md, "Measured figures").
 * Each test failed before its fix.
 */
import { describe, expect, it } from 'vitest'
import { commit, describeCommitment, parseCommitment } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { encodeBlock, blockCid, parseBlock } from '../../src/core/block.js'
import { LIMITS } from '../../src/core/limits.js'
import { parseProof } from '../../src/core/proof.js'
import { verify } from '../../src/core/verify.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { ENGINE_ONLY } from '../helpers/policy.js'

type J = any // eslint-disable-line @typescript-eslint/no-explicit-any

const CHAIN = buildChain(6, 'defects')
const PEOPLE = ['ada', 'grace', 'alan', 'edsger']

function validProof(): J {
  const { commitment } = commit({ beacon: BEACON_NAME, target: 4, after: { sequence: 2, block: CHAIN[2]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: 'defects' })
  return JSON.parse(JSON.stringify(drawFromBlock(commitment, PEOPLE, CHAIN[4]!)))
}

describe('CID text is bounded before decoding (base58/base36 decoding is quadratic)', () => {
  const long58 = 'z' + '1'.repeat(60_000)
  it('parseProof refuses an over-long commitmentCid or block CID', () => {
    const p = validProof()
    p.commitmentCid = long58
    expect(() => parseProof(p)).toThrow(/at most 256 characters/)
    const q = validProof()
    q.chain.blocks[0].cid = 'Qm' + '1'.repeat(300)
    expect(() => parseProof(q)).toThrow(/at most 256 characters/)
  })
  it('parseBlock refuses an over-long previous link without decoding it', () => {
    const bytes = encodeBlock({ previous: 'Qm' + '1'.repeat(60_000), sequence: 3, timestamp: 1, ctrng: [] })
    // Refused by length: the error names the limit (decoding 60,000 base58 characters would take seconds; a hang fails on the runner's timeout).
    expect(() => parseBlock(bytes, blockCid(bytes))).toThrow(/maxCidChars/)
  })
  it('parseCommitment refuses an over-long link before DAG-JSON decodes it', () => {
    const p = validProof()
    p.commitment.after.block = { '/': long58.slice(0, 20_000) }
    expect(() => parseCommitment(p.commitment)).toThrow(/maxCidChars/)
  })
  it('verify of a proof naming a 60 000-character beacon returns at once', async () => {
    const p = validProof()
    p.commitment.beacon = 'k' + 'z'.repeat(60_000)
    const r = await verify(p)
    expect(r.ok).toBe(false)
    expect(r.checks.find((c) => !c.ok)?.name).toBe('commitment-cid')
  })
})

describe('commitment size is bounded (maxCommitmentBytes)', () => {
  it('commit refuses a commitment over the limit (its encoding is measured whatever made it large)', () => {
    // Range bounds of 530,000 digits once reached it through commit(); they are now refused first
    // (maxRangeBoundBits), so the encoding's own check is exercised on the commitment commit() describes.
    const big = 10n ** 530_000n // each bound over 512 KiB: the commitment over maxCommitmentBytes (1 MiB)
    expect(() => commit({ beacon: BEACON_NAME, target: 4, after: { sequence: 2, block: CHAIN[2]!.cid }, draw: { kind: 'range', min: -big, max: -big + 10n, count: 1, distinct: false } })).toThrow(expect.objectContaining({ code: 'INVALID_DRAW', path: '$.draw.min' }))
    const { commitment } = commit({ beacon: BEACON_NAME, target: 4, after: { sequence: 2, block: CHAIN[2]!.cid }, draw: { kind: 'range', min: 0n, max: 10n, count: 1, distinct: false } })
    const huge = { ...commitment, draw: { kind: 'range', min: -big, max: -big + 10n, count: 1, distinct: false } } as typeof commitment
    expect(() => describeCommitment(huge)).toThrow(/maxCommitmentBytes/)
  })
  it('parseCommitment refuses text over the limit before decoding it', () => {
    const p = validProof()
    p.commitment.label = 'x'.repeat(LIMITS.maxCommitmentBytes)
    expect(() => parseCommitment(p.commitment)).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED' }))
  })
})

describe('verify reads text and bytes like parseProof (size limit first, strict UTF-8)', () => {
  it('a proof text over maxProofBytes fails "format" with the limit, before JSON parsing', async () => {
    const huge = ' '.repeat(LIMITS.maxProofBytes) + '{}'
    const r = await verify(huge)
    expect(r.ok).toBe(false)
    expect(r.checks).toHaveLength(1)
    expect(r.checks[0]!.name).toBe('format')
    expect(r.checks[0]!.detail).toMatch(/maxProofBytes/)
  })
  it('proof bytes with invalid UTF-8 fail "format", not a later check on a silently repaired label', async () => {
    const text = JSON.stringify(validProof()).replace('"label":"defects"', '"label":"defects\u00ff"')
    const bytes = new TextEncoder().encode(text)
    const at = bytes.indexOf(0xc3)
    bytes[at] = 0xff // 0xff never appears in UTF-8
    const r = await verify(bytes)
    expect(r.checks.map((c) => [c.name, c.ok])).toEqual([['format', false]])
    expect(r.checks[0]!.detail).toMatch(/UTF-8/)
  })
})

describe('duplicate JSON keys are refused (parsers disagree on which one wins)', () => {
  const genesis = (data: string): Uint8Array => new TextEncoder().encode(`{"previous":"","data":${data}}`)
  it('parseBlock refuses {"data":{"sequence":0,"sequence":6}} with DUPLICATE_KEY at the path', () => {
    const bytes = genesis('{"sequence":0,"sequence":6,"timestamp":1,"ctrng":[]}')
    expect(() => parseBlock(bytes, blockCid(bytes))).toThrow(expect.objectContaining({ code: 'DUPLICATE_KEY', path: '$.data.sequence' }))
  })
  it('keys are compared after unescaping ("sequence" and "se\\u0071uence")', () => {
    const bytes = genesis('{"sequence":0,"se\\u0071uence":6,"timestamp":1,"ctrng":[]}')
    expect(() => parseBlock(bytes, blockCid(bytes))).toThrow(expect.objectContaining({ code: 'DUPLICATE_KEY' }))
  })
  it('the same key in different objects is fine', () => {
    const bytes = genesis('{"sequence":0,"timestamp":1,"ctrng":[]},"metadata":{"data":{"sequence":1}}')
    expect(parseBlock(bytes, blockCid(bytes)).sequence).toBe(0)
  })
  it('parseProof and verify refuse a proof text with a key twice (a second "outcome" a reader might show)', async () => {
    const p = validProof()
    const text = JSON.stringify(p)
    const forged = text.replace('"outcome":', `"outcome":${JSON.stringify({ kind: 'pick', winners: [] })},"outcome":`)
    expect(JSON.parse(forged).outcome).toEqual(p.outcome) // JavaScript keeps the last one
    expect(() => parseProof(forged)).toThrow(expect.objectContaining({ code: 'DUPLICATE_KEY', path: '$.outcome' }))
    const r = await verify(forged)
    expect(r.checks.map((c) => [c.name, c.ok])).toEqual([['format', false]])
    const inCommitment = text.replace('"label":', '"label":"other","label":')
    expect(() => parseProof(inCommitment)).toThrow(expect.objectContaining({ code: 'DUPLICATE_KEY', path: '$.commitment.label' }))
    expect((await verify(new TextEncoder().encode(inCommitment))).ok).toBe(false)
    expect((await verify(text, ENGINE_ONLY)).ok).toBe(true)
  })
})

describe("an IPNS record's pubKey must be the canonical encoding of its key", () => {
  it('a record whose pubKey protobuf lost its key-type tag (read as RSA by a lenient decoder) is malformed', async () => {
    const { generateKeyPair } = await import('@libp2p/crypto/keys')
    const { createIPNSRecord, marshalIPNSRecord } = await import('ipns')
    const { CID } = await import('multiformats/cid')
    const { parseIpnsRecord, recordKeyForName, ipnsNameOfKey, verifyIpnsRecord } = await import('../../src/core/ipns/index.js')
    const key = await generateKeyPair('RSA', 2048)
    const rec = marshalIPNSRecord(await createIPNSRecord(key, CID.parse(CHAIN[4]!.cid), 1n, 60_000, { v1Compatible: true }))
    const name = ipnsNameOfKey(key.publicKey)
    await expect(verifyIpnsRecord(rec, name)).resolves.toMatchObject({ keyType: 'RSA' })
    // the pubKey protobuf starts with 0x08 0x00 (Type = RSA); 0x08 -> 0x09 turns the Type field into an unknown fixed64
    const parsed = parseIpnsRecord(rec)
    const at = Buffer.from(rec).indexOf(Buffer.from(parsed.pubKey!))
    const bad = rec.slice()
    bad[at] = bad[at]! ^ 0x01
    expect(() => recordKeyForName(parseIpnsRecord(bad), name)).toThrow(expect.objectContaining({ code: 'IPNS_RECORD_MALFORMED' }))
    await expect(verifyIpnsRecord(bad, name)).rejects.toMatchObject({ code: 'IPNS_RECORD_MALFORMED' })
  })
})

describe('error messages about untrusted values never throw themselves', () => {
  it('a commitment whose version DAG-JSON decodes to a BigInt gives UNSUPPORTED_VERSION, not a TypeError', () => {
    const p = validProof()
    for (const v of [2 ** 60, { '': -(2 ** 53) }, [2 ** 61]]) {
      p.commitment.version = v
      expect(() => parseCommitment(p.commitment)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_VERSION' }))
    }
  })
  it('parseProof and validateDrawSpec name BigInt values instead of failing to serialize them', async () => {
    const { validateDrawSpec } = await import('../../src/core/draw-spec.js')
    const p = validProof()
    expect(() => parseProof({ ...p, type: 10n })).toThrow(expect.objectContaining({ code: 'NOT_A_PROOF' }))
    expect(() => parseProof({ ...p, version: 1n })).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_VERSION' }))
    expect(() => parseProof({ ...p, outcome: { kind: 5n } })).toThrow(expect.objectContaining({ code: 'INVALID_FIELD' }))
    expect(() => parseProof({ ...p, participants: { disclosure: 5n } })).toThrow(expect.objectContaining({ code: 'INVALID_FIELD' }))
    expect(() => validateDrawSpec({ kind: 7n } as never, 1)).toThrow(expect.objectContaining({ code: 'INVALID_DRAW' }))
  })
})

describe('sparse arrays from JavaScript callers are refused, not skipped', () => {
  it('verify of a proof object whose outcome.winners has a hole fails "format", with no internal error', async () => {
    const p = validProof()
    delete p.outcome.winners[0]
    const r = await verify(p)
    expect(r.checks.map((c) => [c.name, c.ok])).toEqual([
      ['version', true],
      ['format', false],
    ])
    expect(r.checks[1]!.detail).toMatch(/\$\.outcome\.winners/)
    expect(() => parseProof({ ...validProof(), chain: { blocks: [undefined] } })).toThrow(expect.objectContaining({ code: 'INVALID_FIELD', path: '$.chain.blocks' }))
  })
})

describe('the emulator answers an over-long request body with 413', () => {
  it('POST /oauth/token with 100 KiB (declared, and chunked without a length) gets 413, not 500', async () => {
    const { startEmulator } = await import('../../src/emulator/index.js')
    const emu = await startEmulator({ beacon: { intervalMs: 0 } })
    try {
      const body = JSON.stringify({ client_id: 'x', pad: 'p'.repeat(100 * 1024) })
      const declared = await fetch(`${emu.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      expect(declared.status).toBe(413)
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode(body))
          c.close()
        },
      })
      const chunked = await fetch(`${emu.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit)
      expect(chunked.status).toBe(413)
    } finally {
      await emu.stop()
    }
  })
})
