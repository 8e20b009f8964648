/**
 * IPNS records: one strict decoder and V2 (plus, when carried, V1) signature verification against a
 * beacon name.
 *
 * The beacon's head is authenticated by a signed IPNS record (IPNS Record spec, V2 signatures): the
 * signature covers `"ipns-signature:" || data`, where `data` is the DAG-CBOR map
 * `{Value, Validity, ValidityType, Sequence, TTL}`. The key is either carried in the record
 * (`pubKey`, required for RSA `k2k4r8…` names whose multihash is a sha2-256 of the key) or inlined
 * in the name (Ed25519 `k51…` names use an identity multihash of the key). The key must hash to the
 * name.
 *
 * Decoding is strict (see docs/spec.md, "Strict decoding"): the `IpnsEntry` envelope through
 * `./protobuf.ts` (no unknown, repeated or out-of-order fields, no wrong wire types, no truncation,
 * minimal varints), `data` through `@ipld/dag-cbor` in strict mode and then re-encoded, which must
 * give the same bytes (canonical DAG-CBOR only); the legacy V1 fields, when present, must equal the
 * signed ones.
 *
 * Expiry (`Validity`) is reported, never enforced here: a historical proof must still verify after
 * the record expired. The caller passes "now" when it wants the expiry state.
 *
 * Pure: no clock, no network; runs in browsers.
 *
 * @module
 */
import { decode as decodeDagCbor, encode as encodeDagCbor } from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { bytesEqual, concatBytes, utf8Decode, utf8Encode } from '../bytes.js'
import { IntegrityError, InvalidInputError, MismatchError, ParseError } from '../errors.js'
import { LIMITS } from '../limits.js'
import { decodePublicKeyWith, ipnsNameOfKey, publicKeyMultihash, verifyKeySignature, type IpnsPublicKey } from './key-format.js'
import { parseIpnsName, type IpnsName } from './name.js'
import { decodeMessage, type MessageSchema } from './protobuf.js'

/** Largest IPNS record accepted, in bytes (the IPNS spec's limit; {@link LIMITS}.maxIpnsRecordBytes). */
export const MAX_IPNS_RECORD_BYTES = LIMITS.maxIpnsRecordBytes

/** What a V2 signature signs: this prefix, then `data`. */
export const SIGNATURE_PREFIX = utf8Encode('ipns-signature:')
/** The legacy V1 signature's validity-type suffix: the only validity type, EOL, as its enum name. */
export const V1_VALIDITY_EOL = utf8Encode('EOL')

/** The `IpnsEntry` protobuf (IPNS Record spec), field by field. */
export const IPNS_ENTRY_SCHEMA: MessageSchema = {
  1: ['value', 'bytes'],
  2: ['signatureV1', 'bytes'],
  3: ['validityType', 'varint'],
  4: ['validity', 'bytes'],
  5: ['sequence', 'varint'],
  6: ['ttl', 'varint'],
  7: ['pubKey', 'bytes'],
  8: ['signatureV2', 'bytes'],
  9: ['data', 'bytes'],
}

const MAX_UINT64 = (1n << 64n) - 1n

/**
 * The fields of an IPNS record, as signed (taken from the V2 `data`, never from unsigned fields).
 * @category Beacon
 */
export interface IpnsRecordInfo {
  /** The signed value, for example `/ipfs/bafkrei…`. */
  readonly value: string
  /** The CID named by `value` in canonical v1 form, when the value is an `/ipfs/<cid>` path. */
  readonly valueCid: string | undefined
  /** The record's sequence number (grows with each publication). */
  readonly sequence: bigint
  /** End of validity as signed (RFC 3339, often with nanoseconds). */
  readonly validity: string
  /** End of validity as a Date (millisecond precision). */
  readonly validUntil: Date
  /** Time-to-live hint in nanoseconds, if any (how long a resolver may cache the record). */
  readonly ttlNs: bigint | undefined
  /** `ttlNs` in whole milliseconds, if any. */
  readonly ttlMs: number | undefined
  /** Whether the record also carries a legacy V1 signature (checked too when present, see {@link checkRecordSignature}). */
  readonly hasV1Signature: boolean
  /** The legacy V1 signature, if any. */
  readonly signatureV1: Uint8Array | undefined
  /** What a V1 signature signs: `value || validity || "EOL"` (the protobuf's legacy fields), if present. */
  readonly v1Data: Uint8Array | undefined
  /** The record's embedded public key (libp2p protobuf), if any. */
  readonly pubKey: Uint8Array | undefined
  /** The record's V2 signature. */
  readonly signatureV2: Uint8Array
  /** The signed DAG-CBOR data. */
  readonly data: Uint8Array
}

/**
 * A record whose signature was checked against a name.
 * @category Beacon
 */
export interface VerifiedIpnsRecord extends IpnsRecordInfo {
  /** The name the record was verified against (canonical base36). */
  readonly name: string
  /** The signing key type. */
  readonly keyType: IpnsPublicKey['type']
  /** Where the key came from. */
  readonly keySource: 'record' | 'name'
  /** `true`/`false` when `now` was passed, `undefined` otherwise. Never a reason to reject. */
  readonly expired: boolean | undefined
}

const malformed = (path: string) => (why: string): never => {
  throw new ParseError('IPNS_RECORD_MALFORMED', `IPNS record ${why}`, 'fetch the record again from another gateway', { path })
}

/**
 * Parses a marshalled IPNS record (protobuf `IpnsEntry`) strictly, without checking its signature.
 * The V2 `data` must be present and canonical DAG-CBOR; when the protobuf also carries the legacy
 * fields (`value`, `validity`, `validityType`, `sequence`, `ttl`) they must equal the signed CBOR fields.
 *
 * @example
 * ```ts
 * const info = parseIpnsRecord(recordBytes)
 * console.log(info.value, info.sequence, info.validity)
 * ```
 * @throws {@link ParseError} `IPNS_RECORD_TOO_LARGE` / `IPNS_RECORD_MALFORMED`,
 *   {@link MismatchError} `IPNS_RECORD_FIELD_MISMATCH`, {@link InvalidInputError} `INVALID_IPNS_RECORD_BYTES`.
 * @category Beacon
 */
export function parseIpnsRecord(bytes: Uint8Array, path = '$'): IpnsRecordInfo {
  if (!(bytes instanceof Uint8Array)) {
    throw new InvalidInputError('INVALID_IPNS_RECORD_BYTES', 'an IPNS record must be a Uint8Array', 'pass the marshalled record bytes as served with ?format=ipns-record', { path })
  }
  if (bytes.length > MAX_IPNS_RECORD_BYTES) {
    throw new ParseError('IPNS_RECORD_TOO_LARGE', `IPNS record is ${bytes.length} bytes, over the ${MAX_IPNS_RECORD_BYTES}-byte limit of the IPNS spec`, 'fetch the record again from another gateway', { path })
  }
  const fields = decodeMessage(bytes, IPNS_ENTRY_SCHEMA, (why) => malformed(path)(`is not a valid IpnsEntry protobuf: ${why}`))
  const pbBytes = (n: number): Uint8Array | undefined => fields.get(n) as Uint8Array | undefined
  const pbInt = (n: number): bigint | undefined => fields.get(n) as bigint | undefined
  const data = pbBytes(9)
  const signatureV2 = pbBytes(8)
  if (data === undefined || signatureV2 === undefined) {
    throw new ParseError('IPNS_RECORD_MALFORMED', 'IPNS record lacks the V2 signature or its signed data', 'fetch the record again from another gateway (V1-only records are not accepted)', { path })
  }
  const cbor = decodeData(data, `${path}.data`)
  // Legacy (not covered by the V2 signature) protobuf fields, when present, must agree with the signed data.
  const mismatch = (field: string): never => {
    throw new MismatchError('IPNS_RECORD_FIELD_MISMATCH', `IPNS record field "${field}" differs between the protobuf and the signed CBOR data`, 'the record was altered; fetch it again from another gateway', { path })
  }
  const pbValue = pbBytes(1)
  const pbValidity = pbBytes(4)
  if (pbValue !== undefined && !bytesEqual(pbValue, cbor.value)) mismatch('value')
  if (pbValidity !== undefined && !bytesEqual(pbValidity, cbor.validity)) mismatch('validity')
  if (pbInt(3) !== undefined && pbInt(3) !== cbor.validityType) mismatch('validityType')
  if (pbInt(5) !== undefined && pbInt(5) !== cbor.sequence) mismatch('sequence')
  if (pbInt(6) !== undefined && pbInt(6) !== cbor.ttl) mismatch('ttl')

  const validity = utf8Decode(cbor.validity, `${path}.data.Validity`)
  const validUntil = parseRfc3339(validity, `${path}.data.Validity`)
  const value = utf8Decode(cbor.value, `${path}.data.Value`)
  let valueCid: string | undefined
  if (value.startsWith('/ipfs/') && value.length <= '/ipfs/'.length + LIMITS.maxCidChars) {
    try {
      valueCid = CID.parse(value.slice('/ipfs/'.length).split('/')[0]!).toV1().toString()
    } catch {
      valueCid = undefined
    }
  }
  const signatureV1 = pbBytes(2)
  return {
    value,
    valueCid,
    sequence: cbor.sequence,
    validity,
    validUntil,
    ttlNs: cbor.ttl,
    ttlMs: cbor.ttl === undefined ? undefined : Number(cbor.ttl / 1_000_000n),
    hasV1Signature: signatureV1 !== undefined && signatureV1.length > 0,
    signatureV1,
    v1Data: pbValue !== undefined && pbValidity !== undefined ? concatBytes(pbValue, pbValidity, V1_VALIDITY_EOL) : undefined,
    pubKey: pbBytes(7),
    signatureV2,
    data,
  }
}

/** The signed fields of `data`, raw. */
interface SignedFields {
  readonly value: Uint8Array
  readonly validity: Uint8Array
  readonly validityType: bigint
  readonly sequence: bigint
  readonly ttl: bigint | undefined
}

/**
 * Decodes the signed DAG-CBOR data map with `@ipld/dag-cbor` (strict: minimal integers and lengths,
 * no duplicate keys, no indefinite lengths, no undefined/NaN/Infinity) and requires it to be the
 * canonical encoding of what it decodes to (key order, float and integer forms). Extra keys are
 * allowed (the IPNS spec lets records carry extensible data; they are signed).
 */
function decodeData(data: Uint8Array, path: string): SignedFields {
  const bad = malformed(path)
  let decoded: unknown
  try {
    decoded = decodeDagCbor(data)
  } catch (cause) {
    return bad(`data is not strict DAG-CBOR: ${(cause as Error).message}`)
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded) || decoded instanceof Uint8Array || CID.asCID(decoded) !== null) return bad('data is not a DAG-CBOR map')
  let canonical: Uint8Array
  try {
    canonical = encodeDagCbor(decoded)
  } catch (cause) {
    return bad(`data does not re-encode: ${(cause as Error).message}`)
  }
  if (!bytesEqual(canonical, data)) bad('data is not canonical DAG-CBOR (map keys out of order, or a value in a non-canonical form)')
  const m = decoded as Record<string, unknown>
  const uint = (key: string, required: boolean): bigint | undefined => {
    const v = m[key]
    if (v === undefined && !required) return undefined
    if (typeof v === 'bigint' && v >= 0n && v <= MAX_UINT64) return v
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v)
    return bad(`data.${key} is ${v === undefined ? 'missing' : 'not an unsigned 64-bit integer'}`)
  }
  if (!(m.Value instanceof Uint8Array)) bad('data.Value is missing or not a byte string')
  if (!(m.Validity instanceof Uint8Array)) bad('data.Validity is missing or not a byte string')
  const validityType = uint('ValidityType', true)!
  if (validityType !== 0n) bad(`data.ValidityType is ${validityType}, not 0 (EOL)`)
  return { value: m.Value as Uint8Array, validity: m.Validity as Uint8Array, validityType, sequence: uint('Sequence', true)!, ttl: uint('TTL', false) }
}

/**
 * Outcome of checking which key signs for a name.
 * @category Beacon
 */
export interface RecordKeyResult {
  /** The key that must have signed (from the record's `pubKey`, else inlined in the name). */
  readonly key: IpnsPublicKey | undefined
  /** Where the key came from. */
  readonly source: 'record' | 'name' | undefined
  /** Whether the key hashes to the name. */
  readonly matchesName: boolean
  /** What was found, in words. */
  readonly detail: string
}

/**
 * `recordKeyForName` (`./record-key.ts`) with the Ed25519 point check passed in (see
 * `decodePublicKeyWith`): the same results and errors when passed `ed25519KeyValid`.
 */
export function recordKeyWith(record: IpnsRecordInfo, name: string | IpnsName, ed25519PointValid: (raw: Uint8Array) => boolean): RecordKeyResult {
  const n = typeof name === 'string' ? parseIpnsName(name) : name
  const unsupported = (path: string) => (type: string): never => {
    throw new ParseError('IPNS_KEY_UNSUPPORTED', `the IPNS key is a ${type} key; only Ed25519 and RSA keys are supported`, 'beacons sign with RSA (k2k4r8…) or Ed25519 (k51…) keys; check the name', { path })
  }
  let key: IpnsPublicKey | undefined
  let source: 'record' | 'name' | undefined
  if (record.pubKey !== undefined && record.pubKey.length > 0) {
    key = decodePublicKeyWith(record.pubKey, (why) => malformed('$.pubKey')(`pubKey: ${why}`), unsupported('$.pubKey'), ed25519PointValid)
    source = 'record'
  } else if (n.hash === 'identity') {
    const inlined = Digest.decode(n.multihash).digest
    key = decodePublicKeyWith(
      inlined,
      (why) => {
        throw new ParseError('INVALID_IPNS_NAME', `the key inlined in IPNS name ${n.name} does not decode: ${why}`, 'check the beacon name')
      },
      unsupported('$'),
      ed25519PointValid,
    )
    source = 'name'
  }
  if (key === undefined) {
    return { key, source, matchesName: false, detail: `record carries no public key and name ${n.name} does not inline one (a sha2-256 name needs the record's pubKey)` }
  }
  const matchesName = bytesEqual(publicKeyMultihash(key), n.multihash)
  const detail = matchesName
    ? `${key.type} key from the ${source === 'record' ? "record's pubKey" : 'name itself'} hashes to ${n.name}`
    : `${key.type} key from the record's pubKey hashes to ${ipnsNameOfKey(key)}, not to the committed name ${n.name}`
  return { key, source, matchesName, detail }
}

/**
 * `recordKeyForName`'s result and errors, loading Ed25519 (`./ed25519.ts`, `@noble/curves`) only when
 * the key is an Ed25519 key: the key's form is checked first without the point check, and only an
 * Ed25519 key is decoded again with it. The point check comes after every other check of the key
 * and nothing after it can throw, so a form error is the same error either way. Used by the
 * verifier's record check (`../chain.ts`) and {@link verifyIpnsRecord}.
 */
export async function recordKeyForNameAsync(record: IpnsRecordInfo, name: string | IpnsName): Promise<RecordKeyResult> {
  const form = recordKeyWith(record, name, () => true)
  if (form.key?.type !== 'Ed25519') return form
  const { ed25519KeyValid } = await import('./ed25519.js')
  return recordKeyWith(record, name, ed25519KeyValid)
}

/**
 * Checks the V2 signature (`"ipns-signature:" || data`) with `key` and, when the record carries
 * one, the legacy V1 signature (`value || validity || "EOL"`). Never throws on a bad signature.
 *
 * @example
 * ```ts
 * const record = parseIpnsRecord(bytes)
 * const { key } = recordKeyForName(record, name)
 * const ok = key !== undefined && (await checkRecordSignature(record, key))
 * ```
 * Both key types are checked in pure JavaScript on every host (RSA too: a page served over plain http,
 * without Web Crypto, reaches the same answer as Node).
 * @category Beacon
 */
export async function checkRecordSignature(record: IpnsRecordInfo, key: IpnsPublicKey): Promise<boolean> {
  if (key.type !== 'RSA' && key.type !== 'Ed25519') return false
  if (!(await verifyKeySignature(key, concatBytes(SIGNATURE_PREFIX, record.data), record.signatureV2))) return false
  // Stricter than an IPNS resolver, on purpose: a carried legacy V1 signature must verify too, so
  // that no byte of the record in a proof is left unauthenticated (V1 covers value || validity || "EOL").
  if (record.signatureV1 !== undefined && record.signatureV1.length > 0) {
    if (record.v1Data === undefined) return false
    return verifyKeySignature(key, record.v1Data, record.signatureV1)
  }
  return true
}

/**
 * Options for {@link verifyIpnsRecord}.
 * @category Beacon
 */
export interface VerifyIpnsRecordOptions {
  /** "Now", to report (never enforce) expiry. Omit to skip the expiry report. */
  now?: Date
}

/**
 * Parses a record and verifies it was signed by the key of `name`.
 *
 * @example
 * ```ts
 * const rec = await verifyIpnsRecord(recordBytes, 'k51qzi5uqu5dj…', { now: new Date() })
 * console.log(rec.value, rec.keyType, rec.expired)
 * ```
 * @returns the signed fields, the key type and, when `now` is given, whether the record has expired
 *   (an expired record is still returned: expiry is for resolvers, not for historical proofs).
 * @throws {@link ParseError} on malformed records or names (`IPNS_RECORD_MALFORMED`,
 *   `IPNS_KEY_UNSUPPORTED`, …); {@link MismatchError} `IPNS_RECORD_FIELD_MISMATCH` /
 *   `IPNS_KEY_NAME_MISMATCH` / `IPNS_KEY_MISSING`; {@link IntegrityError} `IPNS_SIGNATURE_INVALID`.
 * @category Beacon
 */
export async function verifyIpnsRecord(bytes: Uint8Array, name: string, options: VerifyIpnsRecordOptions = {}): Promise<VerifiedIpnsRecord> {
  const n = parseIpnsName(name)
  const record = parseIpnsRecord(bytes)
  const k = await recordKeyForNameAsync(record, n)
  if (k.key === undefined) {
    throw new MismatchError('IPNS_KEY_MISSING', k.detail, 'fetch the record from a gateway that serves it whole (?format=ipns-record)')
  }
  if (!k.matchesName) {
    throw new MismatchError('IPNS_KEY_NAME_MISMATCH', k.detail, 'the record was not published under this beacon name; check the name or the gateway')
  }
  if (!(await checkRecordSignature(record, k.key))) {
    throw new IntegrityError('IPNS_SIGNATURE_INVALID', `IPNS record signature does not verify with the ${k.key.type} key of ${n.name}`, 'the record was forged or altered; fetch it from another gateway')
  }
  return {
    ...record,
    name: n.name,
    keyType: k.key.type,
    keySource: k.source!,
    expired: options.now === undefined ? undefined : options.now.getTime() > record.validUntil.getTime(),
  }
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/

/** Parses an RFC 3339 timestamp (nanosecond precision accepted, truncated to milliseconds). */
export function parseRfc3339(text: string, path = '$'): Date {
  const m = RFC3339.exec(text)
  if (m === null) {
    throw new ParseError('IPNS_RECORD_MALFORMED', `IPNS validity is not an RFC 3339 time: ${JSON.stringify(text.slice(0, 60))}`, 'fetch the record again from another gateway', { path })
  }
  const [, y, mo, d, h, mi, s, frac, tz] = m
  const ms = frac === undefined ? 0 : Number(frac.padEnd(3, '0').slice(0, 3))
  let t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms)
  if (tz !== 'Z' && tz !== 'z') {
    const sign = tz!.startsWith('-') ? -1 : 1
    t -= sign * (Number(tz!.slice(1, 3)) * 60 + Number(tz!.slice(4, 6))) * 60_000
  }
  if (!Number.isFinite(t)) {
    throw new ParseError('IPNS_RECORD_MALFORMED', `IPNS validity is out of range: ${text}`, 'fetch the record again from another gateway', { path })
  }
  return new Date(t)
}

/** Formats a date as IPNS writes validity: RFC 3339 in UTC with nanoseconds (`2026-11-21T06:13:00.169000000Z`). */
export function formatRfc3339Nano(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000000Z`
}
