// Cross-checks with the `ipns` package (a devDependency: an independent implementation of the IPNS
// Record spec). Records it writes decode identically with the core's strict decoder; records the
// core's encoder writes pass its validator and, for Ed25519 (deterministic signatures), are byte for
// byte the ones it writes; whatever the strict decoder accepts, the `ipns` package accepts too.
import { generateKeyPair, generateKeyPairFromSeed } from '@libp2p/crypto/keys'
import type { Ed25519PrivateKey, RSAPrivateKey } from '@libp2p/interface'
import fc from 'fast-check'
import { createIPNSRecordWithExpiration, marshalIPNSRecord, multihashToIPNSRoutingKey, unmarshalIPNSRecord } from 'ipns'
import { ipnsValidator } from 'ipns/validator'
import { base36 } from 'multiformats/bases/base36'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../../src/core/bytes.js'
import { createIpnsRecord } from '../../../src/core/ipns/encode.js'
import { ipnsNameOfKey, publicKeyToProtobuf } from '../../../src/core/ipns/key-format.js'
import { parseIpnsName } from '../../../src/core/ipns/name.js'
import { parseIpnsRecord, verifyIpnsRecord } from '../../../src/core/ipns/record.js'
import { generateBeaconKey } from '../../../src/emulator/keys.js'

const VALUE = '/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
const VALIDITY = '2099-01-01T00:00:00.000000000Z'
let keys: { Ed25519: Ed25519PrivateKey; RSA: RSAPrivateKey }

beforeAll(async () => {
  keys = { Ed25519: await generateKeyPairFromSeed('Ed25519', new Uint8Array(32).fill(3)), RSA: await generateKeyPair('RSA', 2048) }
})

const routingKey = (name: string): Uint8Array => multihashToIPNSRoutingKey(Digest.decode(parseIpnsName(name).multihash) as Digest.Digest<0x00 | 0x12, number>)

describe('the core and the ipns package agree', () => {
  it.each(['Ed25519', 'RSA'] as const)('%s: names, key protobufs and every field of records the ipns package writes', async (type) => {
    const key = keys[type]
    expect(ipnsNameOfKey(key.publicKey)).toBe(key.publicKey.toCID().toString(base36))
    const { publicKeyToProtobuf: libp2pProtobuf } = await import('@libp2p/crypto/keys')
    expect(bytesToHex(publicKeyToProtobuf(key.publicKey))).toBe(bytesToHex(libp2pProtobuf(key.publicKey)))
    for (const v1Compatible of [true, false]) {
      for (const ttlNs of [0n, 60_000_000_000n, (1n << 64n) - 1n]) {
        const rec = await createIPNSRecordWithExpiration(key, VALUE, 42n, VALIDITY, { v1Compatible, ttlNs })
        const bytes = marshalIPNSRecord(rec)
        const ours = await verifyIpnsRecord(bytes, ipnsNameOfKey(key.publicKey))
        const theirs = unmarshalIPNSRecord(bytes)
        expect(ours.value).toBe(theirs.value)
        expect(ours.sequence).toBe(theirs.sequence)
        expect(ours.validity).toBe(theirs.validity)
        expect(ours.ttlNs).toBe(theirs.ttl)
        expect(bytesToHex(ours.data)).toBe(bytesToHex(theirs.data))
        expect(bytesToHex(ours.signatureV2)).toBe(bytesToHex(theirs.signatureV2))
        expect(ours.pubKey === undefined ? undefined : bytesToHex(ours.pubKey)).toBe(theirs.pubKey === undefined ? undefined : bytesToHex(theirs.pubKey))
        expect(ours.hasV1Signature).toBe(v1Compatible)
        expect(ours.keyType).toBe(type)
      }
    }
  })

  it.each(['Ed25519', 'RSA'] as const)('%s: records the core writes pass the ipns validator and decode to the same fields', async (type) => {
    const key = keys[type]
    const name = ipnsNameOfKey(key.publicKey)
    for (const v1Compatible of [true, false]) {
      const bytes = await createIpnsRecord(key, { value: VALUE, validity: VALIDITY, sequence: 9n, ttlNs: 5_000_000_000n, v1Compatible })
      await expect(ipnsValidator(routingKey(name), bytes)).resolves.toBeUndefined()
      const theirs = unmarshalIPNSRecord(bytes)
      expect([theirs.value, theirs.sequence, theirs.validity, theirs.ttl]).toEqual([VALUE, 9n, VALIDITY, 5_000_000_000n])
      await expect(verifyIpnsRecord(bytes, name)).resolves.toMatchObject({ value: VALUE, sequence: 9n, hasV1Signature: v1Compatible })
    }
  })

  it('Ed25519: the core encoder writes byte for byte what the ipns package writes (V1+V2 and V2 only)', async () => {
    for (const v1Compatible of [true, false]) {
      for (const sequence of [0n, 1n, 300n, (1n << 64n) - 1n]) {
        const theirs = marshalIPNSRecord(await createIPNSRecordWithExpiration(keys.Ed25519, VALUE, sequence, VALIDITY, { v1Compatible, ttlNs: 60_000_000_000n }))
        const ours = await createIpnsRecord(keys.Ed25519, { value: VALUE, validity: VALIDITY, sequence, ttlNs: 60_000_000_000n, v1Compatible })
        expect(bytesToHex(ours)).toBe(bytesToHex(theirs))
      }
    }
  })

  it('keys from the emulator (noble Ed25519, node:crypto RSA) make records the ipns validator accepts', async () => {
    for (const key of [await generateBeaconKey('Ed25519', { seed: new Uint8Array(32).fill(3) }), await generateBeaconKey('RSA')]) {
      const bytes = await createIpnsRecord(key, { value: VALUE, validity: VALIDITY, sequence: 1n })
      await expect(ipnsValidator(routingKey(ipnsNameOfKey(key.publicKey)), bytes)).resolves.toBeUndefined()
    }
    // the same seed gives the same name as @libp2p/crypto
    expect(ipnsNameOfKey((await generateBeaconKey('Ed25519', { seed: new Uint8Array(32).fill(3) })).publicKey)).toBe(ipnsNameOfKey(keys.Ed25519.publicKey))
  })

  it('no change of 1 to 4 bytes leaves a record valid for the strict decoder (and any that did would have to pass the ipns package with the same fields)', async () => {
    const name = ipnsNameOfKey(keys.Ed25519.publicKey)
    const base = await createIpnsRecord(keys.Ed25519, { value: VALUE, validity: VALIDITY, sequence: 5n, ttlNs: 1_000_000_000n, v1Compatible: false })
    let acceptedByUs = 0
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat({ max: base.length - 1 }), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }), async (edits) => {
        const bytes = base.slice()
        for (const [at, x] of edits) bytes[at] = bytes[at]! ^ x
        let ours
        try {
          ours = await verifyIpnsRecord(bytes, name)
        } catch {
          return
        }
        acceptedByUs++
        await ipnsValidator(routingKey(name), bytes)
        const theirs = unmarshalIPNSRecord(bytes)
        expect([ours.value, ours.sequence, ours.validity, ours.ttlNs]).toEqual([theirs.value, theirs.sequence, theirs.validity, theirs.ttl])
      }),
      { seed: 20261123, numRuns: 400 },
    )
    // byte changes to a signed record almost never verify (a changed signature byte, a changed key
    // byte or a changed data byte each break it); the property guards the few that could
    expect(acceptedByUs).toBe(0)
  })

  it('random contents: both encoders write the same bytes and both decoders read the same fields (fast-check, fixed seed)', async () => {
    const name = ipnsNameOfKey(keys.Ed25519.publicKey)
    const cid = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((d) => `/ipfs/${CID.createV1(0x55, Digest.create(0x12, d)).toString()}`)
    const time = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => `${d.toISOString().slice(0, 23)}000000Z`)
    await fc.assert(
      fc.asyncProperty(cid, time, fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.option(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { nil: undefined }), fc.boolean(), async (value, validity, sequence, ttlNs, v1Compatible) => {
        const ours = await createIpnsRecord(keys.Ed25519, { value, validity, sequence, ...(ttlNs === undefined ? {} : { ttlNs }), v1Compatible })
        const parsed = await verifyIpnsRecord(ours, name)
        expect([parsed.value, parsed.validity, parsed.sequence, parsed.ttlNs]).toEqual([value, validity, sequence, ttlNs])
        if (ttlNs !== undefined) {
          // the ipns package always writes a TTL
          const theirs = marshalIPNSRecord(await createIPNSRecordWithExpiration(keys.Ed25519, value, sequence, validity, { v1Compatible, ttlNs }))
          expect(bytesToHex(ours)).toBe(bytesToHex(theirs))
        }
        const t = unmarshalIPNSRecord(ours)
        expect([t.value, t.validity, t.sequence, t.ttl]).toEqual([value, validity, sequence, ttlNs])
      }),
      { seed: 424242, numRuns: 60 },
    )
  })

  it('a record with an unknown protobuf field: the ipns package accepts it, the strict decoder refuses it', async () => {
    const bytes = marshalIPNSRecord(await createIPNSRecordWithExpiration(keys.Ed25519, VALUE, 1n, VALIDITY, { v1Compatible: false }))
    const extra = new Uint8Array([...bytes, (10 << 3) | 2, 1, 0x41])
    await expect(ipnsValidator(routingKey(ipnsNameOfKey(keys.Ed25519.publicKey)), extra)).resolves.toBeUndefined()
    expect(() => parseIpnsRecord(extra)).toThrow(expect.objectContaining({ code: 'IPNS_RECORD_MALFORMED' }))
  })
})
