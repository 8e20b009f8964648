import { generateKeyPair, publicKeyToProtobuf } from '@libp2p/crypto/keys'
import type { PrivateKey } from '@libp2p/interface'
import { createIPNSRecord, createIPNSRecordWithExpiration, marshalIPNSRecord, unmarshalIPNSRecord } from 'ipns'
import { base36 } from 'multiformats/bases/base36'
import { CID } from 'multiformats/cid'
import { beforeAll, describe, expect, it } from 'vitest'
import { IntegrityError, MismatchError, ParseError } from '../../../src/core/errors.js'
import { ipnsNameOfKey } from '../../../src/core/ipns/key-format.js'
import { parseIpnsName } from '../../../src/core/ipns/name.js'
import { parseIpnsRecord, parseRfc3339, verifyIpnsRecord } from '../../../src/core/ipns/record.js'

const HEAD = CID.parse('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy')
let rsa: PrivateKey
let ed: PrivateKey
let rsaName: string
let edName: string

beforeAll(async () => {
  rsa = await generateKeyPair('RSA', 2048)
  ed = await generateKeyPair('Ed25519')
  rsaName = ipnsNameOfKey(rsa.publicKey)
  edName = ipnsNameOfKey(ed.publicKey)
})

describe('IPNS names', () => {
  it('RSA names are k2k4r8… (sha2-256 of the key), Ed25519 names k51… (key inlined)', () => {
    expect(rsaName.startsWith('k2k4r8')).toBe(true)
    expect(edName.startsWith('k51qzi5uqu5')).toBe(true)
    expect(parseIpnsName(rsaName).hash).toBe('sha2-256')
    expect(parseIpnsName(edName).hash).toBe('identity')
    expect(rsaName).toBe(rsa.publicKey.toCID().toString(base36))
    expect(edName).toBe(ed.publicKey.toCID().toString(base36))
  })

  it('accepts the real Orbitport names, /ipns/ prefixes and other multibases; rejects junk', () => {
    const real = 'k2k4r8lvomw737sajfnpav0dpeernugnryng50uheyk1k39lursmn09f'
    expect(parseIpnsName(real).name).toBe(real)
    expect(parseIpnsName(`/ipns/${real}`).name).toBe(real)
    expect(parseIpnsName(CID.parse(real, base36).toString()).name).toBe(real)
    expect(parseIpnsName(ed.publicKey.toString()).name).toBe(edName) // base58 peer ID 12D3Koo…
    for (const bad of ['', 'hello', 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', '/ipns/']) {
      expect(() => parseIpnsName(bad)).toThrow(ParseError)
    }
  })
})

describe('verifyIpnsRecord', () => {
  for (const kind of ['RSA', 'Ed25519'] as const) {
    it(`${kind}: V1+V2 and V2-only records verify; fields come from the signed data`, async () => {
      const key = kind === 'RSA' ? rsa : ed
      const name = kind === 'RSA' ? rsaName : edName
      for (const v1Compatible of [true, false]) {
        const rec = marshalIPNSRecord(await createIPNSRecord(key, HEAD, 42n, 3_600_000, { v1Compatible, ttlNs: 30_000_000_000n }))
        const v = await verifyIpnsRecord(rec, name, { now: new Date() })
        expect(v.value).toBe(`/ipfs/${HEAD.toString()}`)
        expect(v.valueCid).toBe(HEAD.toString())
        expect(v.sequence).toBe(42n)
        expect(v.ttlMs).toBe(30_000)
        expect(v.keyType).toBe(kind)
        expect(v.keySource).toBe(kind === 'RSA' ? 'record' : 'name')
        expect(v.expired).toBe(false)
        expect(v.hasV1Signature).toBe(v1Compatible)
        expect(v.validUntil.getTime()).toBeGreaterThan(Date.now())
      }
    })
  }

  it('an expired record still verifies; expiry is reported, not enforced', async () => {
    const rec = marshalIPNSRecord(await createIPNSRecordWithExpiration(rsa, HEAD, 1n, '2020-02-03T04:05:06.123456789Z'))
    const v = await verifyIpnsRecord(rec, rsaName, { now: new Date('2026-01-01T00:00:00Z') })
    expect(v.expired).toBe(true)
    expect(v.validity).toBe('2020-02-03T04:05:06.123456789Z')
    expect(v.validUntil.toISOString()).toBe('2020-02-03T04:05:06.123Z')
    expect((await verifyIpnsRecord(rec, rsaName)).expired).toBeUndefined()
  })

  it('a record of another key: IPNS_KEY_NAME_MISMATCH (RSA) / IPNS_KEY_MISSING (Ed25519 record, RSA name)', async () => {
    const other = await generateKeyPair('RSA', 2048)
    const rec = marshalIPNSRecord(await createIPNSRecord(other, HEAD, 1n, 3_600_000))
    await expect(verifyIpnsRecord(rec, rsaName)).rejects.toMatchObject({ code: 'IPNS_KEY_NAME_MISMATCH' })
    const edRec = marshalIPNSRecord(await createIPNSRecord(ed, HEAD, 1n, 3_600_000))
    await expect(verifyIpnsRecord(edRec, rsaName)).rejects.toMatchObject({ code: 'IPNS_KEY_MISSING' })
    await expect(verifyIpnsRecord(edRec, ipnsNameOfKey((await generateKeyPair('Ed25519')).publicKey))).rejects.toBeInstanceOf(IntegrityError)
  })

  it('a forged signature: IPNS_SIGNATURE_INVALID', async () => {
    const r = await createIPNSRecord(rsa, HEAD, 7n, 3_600_000, { v1Compatible: false })
    const sig = r.signatureV2.slice()
    sig[10] = sig[10]! ^ 1
    await expect(verifyIpnsRecord(marshalIPNSRecord({ ...r, signatureV2: sig }), rsaName)).rejects.toMatchObject({ code: 'IPNS_SIGNATURE_INVALID' })
  })

  it('a record signed by the right key for another value cannot be re-pointed (data is signed)', async () => {
    const r = await createIPNSRecord(ed, HEAD, 7n, 3_600_000, { v1Compatible: false })
    const other = await createIPNSRecord(ed, CID.parse('bafkreiem4twkqzsq2aj4shbycd4yvoj2cx72vezicletlhi7dijjciqpui'), 8n, 3_600_000, { v1Compatible: false })
    const spliced = marshalIPNSRecord({ ...r, data: other.data })
    await expect(verifyIpnsRecord(spliced, edName)).rejects.toBeInstanceOf(IntegrityError)
  })

  it('protobuf fields that disagree with the signed CBOR: IPNS_RECORD_FIELD_MISMATCH', async () => {
    const r = await createIPNSRecord(ed, HEAD, 9n, 3_600_000, { v1Compatible: true })
    // Encode a V1+V2 record by hand whose legacy sequence differs (the ipns library's own check also catches it).
    const bytes = marshalIPNSRecord({ ...r, sequence: 10n })
    await expect(verifyIpnsRecord(bytes, edName)).rejects.toBeInstanceOf(MismatchError)
    // V2-only record with a stray legacy value field: append protobuf field 1 (value) by hand.
    const v2 = marshalIPNSRecord(await createIPNSRecord(ed, HEAD, 9n, 3_600_000, { v1Compatible: false }))
    const fake = new TextEncoder().encode('/ipfs/bafkreiem4twkqzsq2aj4shbycd4yvoj2cx72vezicletlhi7dijjciqpui')
    const withValue = new Uint8Array([0x0a, fake.length, ...fake, ...v2])
    await expect(verifyIpnsRecord(withValue, edName)).rejects.toMatchObject({ code: 'IPNS_RECORD_FIELD_MISMATCH' })
  })

  it('garbage, truncation, oversize: ParseError', async () => {
    const good = marshalIPNSRecord(await createIPNSRecord(ed, HEAD, 1n, 3_600_000))
    await expect(verifyIpnsRecord(new Uint8Array([1, 2, 3]), edName)).rejects.toBeInstanceOf(ParseError)
    await expect(verifyIpnsRecord(good.slice(0, good.length - 5), edName)).rejects.toBeInstanceOf(ParseError)
    await expect(verifyIpnsRecord(new Uint8Array(20_000), edName)).rejects.toMatchObject({ code: 'IPNS_RECORD_TOO_LARGE' })
    expect(() => parseIpnsRecord(new TextEncoder().encode('{"previous":""}'))).toThrow(ParseError)
  })

  it('the parsed public key round-trips (RSA pubKey field)', async () => {
    const rec = marshalIPNSRecord(await createIPNSRecord(rsa, HEAD, 1n, 3_600_000))
    expect(parseIpnsRecord(rec).pubKey).toEqual(publicKeyToProtobuf(rsa.publicKey))
    expect(unmarshalIPNSRecord(rec).value).toBe(`/ipfs/${HEAD.toString()}`)
  })
})

describe('parseRfc3339', () => {
  it('parses nanoseconds and offsets; rejects junk', () => {
    expect(parseRfc3339('2026-11-21T06:13:00.169000000Z').toISOString()).toBe('2026-11-21T06:13:00.169Z')
    expect(parseRfc3339('2026-11-21T08:13:00+02:00').toISOString()).toBe('2026-11-21T06:13:00.000Z')
    expect(() => parseRfc3339('yesterday')).toThrow(ParseError)
  })
})
