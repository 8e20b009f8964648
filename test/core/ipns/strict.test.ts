import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { concatBytes, utf8Encode } from '../../../src/core/bytes.js'
import { LIMITS } from '../../../src/core/limits.js'
import { decodeMessage, encodeMessage, type MessageSchema } from '../../../src/core/ipns/protobuf.js'
import { parseIpnsRecord, verifyIpnsRecord } from '../../../src/core/ipns/record.js'
import { recordKeyForName } from '../../../src/core/ipns/record-key.js'
import { recordKeyForNameAsync } from '../../../src/core/ipns/record.js'
import { canonicalData, cborBytes, cborHead, cborText, ED25519_PUBKEY_PROTOBUF, NAME, pb, v1Fields, v2Record, VALIDITY, VALUE } from '../../helpers/ipns.js'

/** The signed data map written by hand: keys in canonical order unless `order` says otherwise. */
function rawData(o: { seqWidth?: 0 | 1 | 2 | 4 | 8; order?: string[]; extra?: [string, Uint8Array][]; validityType?: number; value?: Uint8Array; indefinite?: boolean } = {}): Uint8Array {
  const entries: Record<string, Uint8Array> = {
    TTL: cborHead(0, 60_000_000_000),
    Value: o.value ?? cborBytes(utf8Encode(VALUE)),
    Sequence: cborHead(0, 7, o.seqWidth),
    Validity: cborBytes(utf8Encode(VALIDITY)),
    ValidityType: cborHead(0, o.validityType ?? 0),
  }
  const order = o.order ?? ['TTL', 'Value', 'Sequence', 'Validity', 'ValidityType']
  const body = order.map((k) => concatBytes(cborText(k), entries[k]!))
  for (const [k, v] of o.extra ?? []) body.push(concatBytes(cborText(k), v))
  return o.indefinite === true ? concatBytes(Uint8Array.of(0xbf), ...body, Uint8Array.of(0xff)) : concatBytes(cborHead(5, body.length), ...body)
}

const rsaSpki = (bits: number): Uint8Array => new Uint8Array(generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ type: 'spki', format: 'der' }))

const GOOD = v2Record(canonicalData(), { v1: v1Fields() })
const cut = (b: Uint8Array, n: number): Uint8Array => b.subarray(0, b.length - n)

// [case, record bytes, error code, message pattern]
const REJECTED: [string, Uint8Array, string, RegExp][] = [
  ['unknown field 10 appended', concatBytes(GOOD, pb(10, Uint8Array.of(0x41))), 'IPNS_RECORD_MALFORMED', /unknown field 10/],
  ['unknown varint field 15', concatBytes(GOOD, pb(15, 1n)), 'IPNS_RECORD_MALFORMED', /unknown field 15/],
  ['field number 0', concatBytes(Uint8Array.of(0x02, 0x00), GOOD), 'IPNS_RECORD_MALFORMED', /field number 0/],
  ['data (9) duplicated', concatBytes(GOOD, pb(9, canonicalData())), 'IPNS_RECORD_MALFORMED', /field 9 \(data\) repeated/],
  ['sequence (5) duplicated', v2Record(canonicalData(), { v1: concatBytes(v1Fields(), pb(5, 7n)) }), 'IPNS_RECORD_MALFORMED', /field 5 \(sequence\) after field 6|repeated/],
  ['fields out of order (data before signatureV2)', concatBytes(pb(9, canonicalData()), pb(8, new Uint8Array(64))), 'IPNS_RECORD_MALFORMED', /ascending order/],
  ['sequence (5) sent as bytes', v2Record(canonicalData(), { v1: concatBytes(pb(1, utf8Encode(VALUE)), pb(5, Uint8Array.of(7))) }), 'IPNS_RECORD_MALFORMED', /field 5 \(sequence\) has wire type 2, not 0/],
  ['data (9) sent as a varint', concatBytes(pb(8, new Uint8Array(64)), pb(9, 5n)), 'IPNS_RECORD_MALFORMED', /field 9 \(data\) has wire type 0, not 2/],
  ['a fixed64 field (wire type 1)', concatBytes(Uint8Array.of((3 << 3) | 1), new Uint8Array(8), GOOD), 'IPNS_RECORD_MALFORMED', /wire type 1/],
  ['truncated by one byte', cut(GOOD, 1), 'IPNS_RECORD_MALFORMED', /truncated/],
  ['truncated inside a varint', concatBytes(GOOD.subarray(0, 0), Uint8Array.of(0x28, 0x87)), 'IPNS_RECORD_MALFORMED', /truncated field 5/],
  ['truncated tag', Uint8Array.of(0x80), 'IPNS_RECORD_MALFORMED', /truncated field tag/],
  ['non-minimal varint (sequence 7 as 0x87 0x00)', v2Record(canonicalData(), { v1: concatBytes(pb(1, utf8Encode(VALUE)), Uint8Array.of(0x28, 0x87, 0x00)) }), 'IPNS_RECORD_MALFORMED', /non-minimal varint in field 5/],
  ['non-minimal length varint', concatBytes(Uint8Array.of(0x0a, 0x80, 0x00), pb(8, new Uint8Array(64))), 'IPNS_RECORD_MALFORMED', /non-minimal varint in length of field 1/],
  ['varint past 64 bits', concatBytes(Uint8Array.of(0x28), new Uint8Array(9).fill(0xff), Uint8Array.of(0x02)), 'IPNS_RECORD_MALFORMED', /past 64 bits/],
  ['varint longer than 10 bytes', concatBytes(Uint8Array.of(0x28), new Uint8Array(10).fill(0x80), Uint8Array.of(0x01)), 'IPNS_RECORD_MALFORMED', /longer than 10 bytes/],
  ['oversize (10 KiB + 1)', new Uint8Array(LIMITS.maxIpnsRecordBytes + 1), 'IPNS_RECORD_TOO_LARGE', /over the 10240-byte limit/],
  ['no V2 signature (V1 only)', v1Fields(), 'IPNS_RECORD_MALFORMED', /lacks the V2 signature/],
  ['non-minimal CBOR int (Sequence 7 as 0x18 0x07)', v2Record(rawData({ seqWidth: 1 })), 'IPNS_RECORD_MALFORMED', /not strict DAG-CBOR/],
  ['non-minimal CBOR int (Sequence 7 in 8 bytes)', v2Record(rawData({ seqWidth: 8 })), 'IPNS_RECORD_MALFORMED', /not strict DAG-CBOR/],
  ['CBOR map keys out of canonical order', v2Record(rawData({ order: ['Value', 'TTL', 'Sequence', 'Validity', 'ValidityType'] })), 'IPNS_RECORD_MALFORMED', /not canonical DAG-CBOR/],
  ['duplicate CBOR map key', v2Record(rawData({ extra: [['Sequence', cborHead(0, 8)]] })), 'IPNS_RECORD_MALFORMED', /not strict DAG-CBOR/],
  ['indefinite-length CBOR map', v2Record(rawData({ indefinite: true })), 'IPNS_RECORD_MALFORMED', /not strict DAG-CBOR/],
  ['CBOR trailing bytes', v2Record(concatBytes(rawData(), Uint8Array.of(0x00))), 'IPNS_RECORD_MALFORMED', /not strict DAG-CBOR/],
  ['data is a CBOR array', v2Record(Uint8Array.of(0x80)), 'IPNS_RECORD_MALFORMED', /not a DAG-CBOR map/],
  ['data.Value is a text string', v2Record(rawData({ value: cborText(VALUE) })), 'IPNS_RECORD_MALFORMED', /data.Value is missing or not a byte string/],
  ['data.ValidityType is 1', v2Record(rawData({ validityType: 1 })), 'IPNS_RECORD_MALFORMED', /ValidityType is 1/],
  ['data.Validity is not RFC 3339', v2Record(canonicalData({ validity: 'tomorrow' })), 'IPNS_RECORD_MALFORMED', /not an RFC 3339 time/],
  ['V1/V2 mismatch: value', v2Record(canonicalData(), { v1: v1Fields({ value: '/ipfs/bafkreie7j3kzjuabl2bbpw6fcos6oauwauqnefqzvuqvuajfrbxx2fcv3u' }) }), 'IPNS_RECORD_FIELD_MISMATCH', /"value"/],
  ['V1/V2 mismatch: validity', v2Record(canonicalData(), { v1: v1Fields({ validity: '2032-01-01T00:00:00.000000000Z' }) }), 'IPNS_RECORD_FIELD_MISMATCH', /"validity"/],
  ['V1/V2 mismatch: validityType', v2Record(canonicalData(), { v1: v1Fields({ validityType: 1n }) }), 'IPNS_RECORD_FIELD_MISMATCH', /"validityType"/],
  ['V1/V2 mismatch: sequence', v2Record(canonicalData(), { v1: v1Fields({ sequence: 8n }) }), 'IPNS_RECORD_FIELD_MISMATCH', /"sequence"/],
  ['V1/V2 mismatch: ttl', v2Record(canonicalData(), { v1: v1Fields({ ttl: 1n }) }), 'IPNS_RECORD_FIELD_MISMATCH', /"ttl"/],
]

// Records that parse but whose pubKey is refused (when the key is looked up, before any signature check).
const BAD_KEYS: [string, Uint8Array, string, RegExp][] = [
  ['secp256k1 key (Type 2)', encodeMessage([[1, 2n], [2, new Uint8Array(33).fill(2)]]), 'IPNS_KEY_UNSUPPORTED', /secp256k1 key/],
  ['ECDSA key (Type 3)', encodeMessage([[1, 3n], [2, new Uint8Array(91)]]), 'IPNS_KEY_UNSUPPORTED', /ECDSA key/],
  ['unknown key type 7', encodeMessage([[1, 7n], [2, new Uint8Array(32)]]), 'IPNS_RECORD_MALFORMED', /unknown key type 7/],
  ['Ed25519 key of 31 bytes', encodeMessage([[1, 1n], [2, ED25519_PUBKEY_PROTOBUF.subarray(5)]]), 'IPNS_RECORD_MALFORMED', /32 bytes, not 31/],
  ['key protobuf without Type (a lenient decoder reads RSA)', encodeMessage([[2, ED25519_PUBKEY_PROTOBUF.subarray(4)]]), 'IPNS_RECORD_MALFORMED', /no Type/],
  ['key protobuf with Data before Type', concatBytes(pb(2, ED25519_PUBKEY_PROTOBUF.subarray(4)), pb(1, 1n)), 'IPNS_RECORD_MALFORMED', /ascending order/],
  ['key protobuf with an unknown field', concatBytes(ED25519_PUBKEY_PROTOBUF, pb(3, 0n)), 'IPNS_RECORD_MALFORMED', /unknown field 3/],
  ['Ed25519 key that is a point of small order (the identity)', encodeMessage([[1, 1n], [2, Uint8Array.of(1, ...new Uint8Array(31))]]), 'IPNS_RECORD_MALFORMED', /small-order subgroup/],
  ['Ed25519 key that is a point of order 2', encodeMessage([[1, 1n], [2, Uint8Array.of(0xec, ...new Uint8Array(30).fill(0xff), 0x7f)]]), 'IPNS_RECORD_MALFORMED', /small-order subgroup/],
  ['Ed25519 key with y >= p (not canonical)', encodeMessage([[1, 1n], [2, Uint8Array.of(0xee, ...new Uint8Array(30).fill(0xff), 0x7f)]]), 'IPNS_RECORD_MALFORMED', /canonical encoding/],
  ['RSA key of 1024 bits', encodeMessage([[1, 0n], [2, rsaSpki(1024)]]), 'IPNS_RECORD_MALFORMED', /modulus is 1024 bits/],
  ['RSA key that is not DER', encodeMessage([[1, 0n], [2, utf8Encode('not a key')]]), 'IPNS_RECORD_MALFORMED', /not valid DER/],
]

describe('strict IPNS decoding: the rejection table', () => {
  it('the well-formed record the table starts from verifies (V1 + V2, Ed25519)', async () => {
    await expect(verifyIpnsRecord(GOOD, NAME)).resolves.toMatchObject({ value: VALUE, sequence: 7n, ttlNs: 60_000_000_000n, hasV1Signature: true, keyType: 'Ed25519', keySource: 'name' })
    await expect(verifyIpnsRecord(v2Record(canonicalData(), { pubKey: ED25519_PUBKEY_PROTOBUF }), NAME)).resolves.toMatchObject({ keySource: 'record' })
    await expect(verifyIpnsRecord(v2Record(rawData()), NAME)).resolves.toMatchObject({ value: VALUE })
  })

  it('extra keys in the signed data map are allowed (the IPNS spec lets records extend data; they are signed)', async () => {
    const withExtra = rawData({ extra: [['ZZZZZZZZZZZZZZZ', cborBytes(Uint8Array.of(1))]] })
    await expect(verifyIpnsRecord(v2Record(withExtra), NAME)).resolves.toMatchObject({ value: VALUE })
  })

  it.each(REJECTED)('%s', async (_, bytes, code, message) => {
    expect(() => parseIpnsRecord(bytes)).toThrow(expect.objectContaining({ code, message: expect.stringMatching(message) }))
    await expect(verifyIpnsRecord(bytes, NAME)).rejects.toMatchObject({ code })
  })

  it.each(BAD_KEYS)('pubKey: %s', async (_, pubKey, code, message) => {
    const rec = v2Record(canonicalData(), { pubKey })
    const parsed = parseIpnsRecord(rec)
    expect(() => recordKeyForName(parsed, NAME)).toThrow(expect.objectContaining({ code, path: '$.pubKey', message: expect.stringMatching(message) }))
    // The verifier's asynchronous form (Ed25519 loaded only for an Ed25519 key) throws the very same error.
    const sync = (() => {
      try {
        recordKeyForName(parsed, NAME)
      } catch (e) {
        return e
      }
    })()
    await expect(recordKeyForNameAsync(parsed, NAME)).rejects.toEqual(sync)
    await expect(recordKeyForNameAsync(parsed, NAME)).rejects.toMatchObject({ code, path: '$.pubKey', message: expect.stringMatching(message) })
    await expect(verifyIpnsRecord(rec, NAME)).rejects.toMatchObject({ code })
  })

  it('recordKeyForNameAsync gives recordKeyForName\'s result for Ed25519 keys in the name and in the record, and for an RSA key', async () => {
    for (const rec of [GOOD, v2Record(canonicalData(), { pubKey: ED25519_PUBKEY_PROTOBUF }), v2Record(canonicalData(), { pubKey: encodeMessage([[1, 0n], [2, rsaSpki(2048)]]) })]) {
      const parsed = parseIpnsRecord(rec)
      await expect(recordKeyForNameAsync(parsed, NAME)).resolves.toEqual(recordKeyForName(parsed, NAME))
    }
  })

  it('an RSA key of 2048 bits in the record is accepted by the key check (then fails the name check for this Ed25519 name)', async () => {
    const rec = v2Record(canonicalData(), { pubKey: encodeMessage([[1, 0n], [2, rsaSpki(2048)]]) })
    expect(recordKeyForName(parseIpnsRecord(rec), NAME)).toMatchObject({ matchesName: false, source: 'record' })
    await expect(verifyIpnsRecord(rec, NAME)).rejects.toMatchObject({ code: 'IPNS_KEY_NAME_MISMATCH' })
  })
})

describe('the protobuf reader and writer', () => {
  const schema: MessageSchema = { 1: ['a', 'varint'], 2: ['b', 'bytes'] }
  const fail = (why: string): never => {
    throw new Error(why)
  }

  it('round-trips varints at the 7-bit boundaries and the uint64 maximum', () => {
    for (const v of [0n, 1n, 127n, 128n, 16383n, 16384n, (1n << 63n) - 1n, (1n << 64n) - 1n]) {
      const bytes = encodeMessage([[1, v], [2, Uint8Array.of(1, 2)]])
      expect(decodeMessage(bytes, schema, fail).get(1)).toBe(v)
    }
  })

  it('the writer refuses what the reader refuses: out-of-order fields, negative and 65-bit varints', () => {
    expect(() => encodeMessage([[2, Uint8Array.of(1)], [1, 1n]])).toThrow(RangeError)
    expect(() => encodeMessage([[1, -1n]])).toThrow(RangeError)
    expect(() => encodeMessage([[1, 1n << 64n]])).toThrow(RangeError)
  })
})
