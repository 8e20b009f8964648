import { readFileSync } from 'node:fs'
import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { blockCid, parseBlock } from '../../../src/core/block.js'
import { bytesToHex, concatBytes, hexToBytes } from '../../../src/core/bytes.js'
import { checkChain } from '../../../src/core/chain.js'
import { parseIpnsName } from '../../../src/core/ipns/name.js'
import { verifyIpnsRecord } from '../../../src/core/ipns/record.js'

const v = JSON.parse(readFileSync(new URL('../../vectors/ipns-record.json', import.meta.url), 'utf8')) as {
  ed25519Seed: string
  publicKeyProtobuf: string
  name: string
  nameMultihash: string
  blocks: { cid: string; bytes: string }[]
  value: string
  sequence: number
  validity: string
  ttlNs: string
  data: string
  signatureV2: string
  record: string
}

describe('IPNS record vector (docs/spec.md (Beacon chain and IPNS record))', () => {
  it('the name is CIDv1 libp2p-key over an identity multihash of the key protobuf', () => {
    const pk = hexToBytes(v.publicKeyProtobuf)
    expect(v.nameMultihash).toBe(`0024${v.publicKeyProtobuf}`)
    expect(bytesToHex(parseIpnsName(v.name).multihash)).toBe(v.nameMultihash)
    expect(pk.slice(0, 4)).toEqual(new Uint8Array([0x08, 0x01, 0x12, 0x20]))
    // Independent derivation of the raw key from the seed (RFC 8032).
    expect(bytesToHex(ed25519.getPublicKey(hexToBytes(v.ed25519Seed)))).toBe(v.publicKeyProtobuf.slice(8))
  })

  it('the V2 signature verifies independently (noble ed25519 over "ipns-signature:" || data)', () => {
    const msg = concatBytes(new TextEncoder().encode('ipns-signature:'), hexToBytes(v.data))
    expect(ed25519.verify(hexToBytes(v.signatureV2), msg, hexToBytes(v.publicKeyProtobuf.slice(8)))).toBe(true)
    expect(bytesToHex(ed25519.sign(msg, hexToBytes(v.ed25519Seed)))).toBe(v.signatureV2)
  })

  it('verifyIpnsRecord and checkChain accept it, with the documented fields', async () => {
    const r = await verifyIpnsRecord(hexToBytes(v.record), v.name, { now: new Date('2031-01-01T00:00:00Z') })
    expect(r.value).toBe(v.value)
    expect(r.sequence).toBe(BigInt(v.sequence))
    expect(r.validity).toBe(v.validity)
    expect(r.ttlNs).toBe(BigInt(v.ttlNs))
    expect(r.expired).toBe(true)
    const blocks = v.blocks.map((b) => parseBlock(new TextEncoder().encode(b.bytes), b.cid))
    for (const b of v.blocks) expect(blockCid(new TextEncoder().encode(b.bytes))).toBe(b.cid)
    const res = await checkChain({ beacon: v.name, target: 1, after: { sequence: 0, block: v.blocks[1]!.cid }, blocks, ipnsRecord: hexToBytes(v.record) })
    expect(res.checks.map((c) => [c.name, c.ok])).toEqual([
      ['chain-links', true],
      ['chain-target', true],
      ['after-block', true],
      ['ipns-record-signature', true],
      ['ipns-record-name', true],
      ['ipns-record-value', true],
    ])
    expect(res.authenticated).toBe(true)
  })
})
