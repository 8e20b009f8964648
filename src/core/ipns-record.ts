/**
 * IPNS records: strict parsing and V2 signature verification against a beacon name.
 *
 * The beacon's head is authenticated by a signed IPNS record (IPNS Record spec, V2 signatures): the
 * signature covers `"ipns-signature:" || data`, where `data` is the DAG-CBOR map
 * `{Value, Validity, ValidityType, Sequence, TTL}`. The key is either carried in the record
 * (`pubKey`, required for RSA `k2k4r8…` names whose multihash is a sha2-256 of the key) or inlined
 * in the name (Ed25519 `k51…` names use an identity multihash of the key). The key must hash to the
 * name.
 *
 * Expiry (`Validity`) is reported, never enforced here: a historical proof must still verify after
 * the record expired. The caller passes "now" when it wants the expiry state.
 *
 * Pure: no clock, no network; runs in browsers.
 *
 * @module
 */
import { publicKeyFromMultihash, publicKeyFromProtobuf, publicKeyToProtobuf } from '@libp2p/crypto/keys'
import type { PublicKey } from '@libp2p/interface'
import { unmarshalIPNSRecord } from 'ipns'
import { base36 } from 'multiformats/bases/base36'
import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { bytesEqual, bytesToHex, concatBytes, utf8Decode, utf8Encode } from './bytes.js'
import { IntegrityError, InvalidInputError, MismatchError, ParseError } from './errors.js'
import { LIMITS } from './limits.js'

/** Largest IPNS record accepted, in bytes (the IPNS spec's limit; {@link LIMITS}.maxIpnsRecordBytes). */
export const MAX_IPNS_RECORD_BYTES = LIMITS.maxIpnsRecordBytes

/** Multicodec of a libp2p public key CID (IPNS names are CIDv1 with this codec). */
const LIBP2P_KEY = 0x72
const IDENTITY = 0x00
const SHA2_256 = 0x12
const SIGNATURE_PREFIX = utf8Encode('ipns-signature:')
/** The legacy V1 signature's validity-type suffix: the only validity type, EOL, as its enum name. */
const V1_VALIDITY_EOL = utf8Encode('EOL')

/** A beacon's IPNS name, decoded. */
export interface IpnsName {
  /** The name in its canonical form: CIDv1 libp2p-key in base36 (`k2k4r8…` or `k51…`). */
  readonly name: string
  /** The name's multihash bytes (identity of an inlined key, or sha2-256 of the key's protobuf). */
  readonly multihash: Uint8Array
  /** `identity` when the key is inlined in the name (Ed25519 `k51…`), `sha2-256` otherwise (RSA `k2k4r8…`). */
  readonly hash: 'identity' | 'sha2-256'
}

/** The fields of an IPNS record, as signed (taken from the V2 `data`, never from unsigned fields). */
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

/** A record whose signature was checked against a name. */
export interface VerifiedIpnsRecord extends IpnsRecordInfo {
  /** The name the record was verified against (canonical base36). */
  readonly name: string
  /** The signing key type: `RSA`, `Ed25519`, `secp256k1` or `ECDSA`. */
  readonly keyType: string
  /** Where the key came from. */
  readonly keySource: 'record' | 'name'
  /** `true`/`false` when `now` was passed, `undefined` otherwise. Never a reason to reject. */
  readonly expired: boolean | undefined
}

/**
 * Decodes an IPNS name: a CIDv1 with the libp2p-key codec in any multibase (normally base36 `k…`),
 * a legacy base58 peer ID (`Qm…`, `12D3Koo…`), optionally prefixed by `/ipns/`.
 * @throws {@link ParseError} `INVALID_IPNS_NAME`.
 */
export function parseIpnsName(name: string, path = '$'): IpnsName {
  const fail = (why: string, cause?: unknown): never => {
    throw new ParseError('INVALID_IPNS_NAME', `not a valid IPNS name (${why}): ${JSON.stringify(String(name).slice(0, 80))}`, 'pass the beacon name, e.g. k2k4r8… (RSA) or k51… (Ed25519)', { path, cause })
  }
  if (typeof name !== 'string' || name.length === 0 || name.length > LIMITS.maxCidChars + '/ipns/'.length) fail('empty, too long or not a string')
  const text = name.startsWith('/ipns/') ? name.slice('/ipns/'.length) : name
  let digest: Digest.Digest<number, number> | undefined
  if (text.startsWith('Qm') || text.startsWith('1')) {
    try {
      digest = Digest.decode(base58btc.baseDecode(text))
    } catch (cause) {
      fail('bad base58 peer ID', cause)
    }
  } else {
    let cid: CID | undefined
    try {
      cid = text.startsWith('k') ? CID.parse(text, base36) : CID.parse(text)
    } catch (cause) {
      fail('not a CID', cause)
    }
    if (cid!.version !== 1 || cid!.code !== LIBP2P_KEY) fail('not a CIDv1 with the libp2p-key codec')
    digest = cid!.multihash
  }
  if (digest!.code !== IDENTITY && digest!.code !== SHA2_256) fail('multihash is neither identity nor sha2-256')
  if (digest!.code === SHA2_256 && digest!.digest.length !== 32) fail('sha2-256 digest is not 32 bytes')
  return {
    name: CID.createV1(LIBP2P_KEY, digest!).toString(base36),
    multihash: digest!.bytes,
    hash: digest!.code === IDENTITY ? 'identity' : 'sha2-256',
  }
}

/** The canonical base36 IPNS name of a public key (`k51…` for Ed25519, `k2k4r8…` for RSA). */
export function ipnsNameOfKey(key: PublicKey): string {
  return CID.createV1(LIBP2P_KEY, key.toMultihash()).toString(base36)
}

/**
 * Parses a marshalled IPNS record (protobuf `IpnsEntry`) strictly, without checking its signature.
 * The V2 `data` must be present; when the protobuf also carries the legacy fields (`value`,
 * `validity`, `validityType`, `sequence`, `ttl`) they must equal the signed CBOR fields.
 * @throws {@link ParseError} `IPNS_RECORD_TOO_LARGE` / `IPNS_RECORD_MALFORMED`,
 *   {@link MismatchError} `IPNS_RECORD_FIELD_MISMATCH`.
 */
export function parseIpnsRecord(bytes: Uint8Array, path = '$'): IpnsRecordInfo {
  if (!(bytes instanceof Uint8Array)) {
    throw new InvalidInputError('INVALID_IPNS_RECORD_BYTES', 'an IPNS record must be a Uint8Array', 'pass the marshalled record bytes as served with ?format=ipns-record', { path })
  }
  if (bytes.length > MAX_IPNS_RECORD_BYTES) {
    throw new ParseError('IPNS_RECORD_TOO_LARGE', `IPNS record is ${bytes.length} bytes, over the ${MAX_IPNS_RECORD_BYTES}-byte limit of the IPNS spec`, 'fetch the record again from another gateway', { path })
  }
  const pb = readProtobuf(bytes, path)
  if (pb.data === undefined || pb.signatureV2 === undefined) {
    throw new ParseError('IPNS_RECORD_MALFORMED', 'IPNS record lacks the V2 signature or its signed data', 'fetch the record again from another gateway (V1-only records are not accepted)', { path })
  }
  const cbor = readCborFields(pb.data, path)
  // Legacy (not covered by the V2 signature) protobuf fields, when present, must agree with the signed data.
  const mismatch = (field: string): never => {
    throw new MismatchError('IPNS_RECORD_FIELD_MISMATCH', `IPNS record field "${field}" differs between the protobuf and the signed CBOR data`, 'the record was altered; fetch it again from another gateway', { path })
  }
  if (pb.value !== undefined && !bytesEqual(pb.value, cbor.value)) mismatch('value')
  if (pb.validity !== undefined && !bytesEqual(pb.validity, cbor.validity)) mismatch('validity')
  if (pb.validityType !== undefined && pb.validityType !== cbor.validityType) mismatch('validityType')
  if (pb.sequence !== undefined && pb.sequence !== cbor.sequence) mismatch('sequence')
  if (pb.ttl !== undefined && pb.ttl !== cbor.ttl) mismatch('ttl')
  let rec: ReturnType<typeof unmarshalIPNSRecord>
  try {
    rec = unmarshalIPNSRecord(bytes)
  } catch (cause) {
    throw new ParseError('IPNS_RECORD_MALFORMED', `IPNS record does not decode: ${(cause as Error).message}`, 'fetch the record again from another gateway', { path, cause })
  }
  const data = rec.data
  if (rec.sequence !== cbor.sequence || rec.ttl !== cbor.ttl) {
    throw new ParseError('IPNS_RECORD_MALFORMED', 'IPNS record data decodes differently in two decoders', 'fetch the record again from another gateway', { path })
  }

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
  const ttlNs = rec.ttl
  return {
    value,
    valueCid,
    sequence: rec.sequence,
    validity,
    validUntil,
    ttlNs,
    ttlMs: ttlNs === undefined ? undefined : Number(ttlNs / 1_000_000n),
    hasV1Signature: pb.signatureV1 !== undefined && pb.signatureV1.length > 0,
    signatureV1: pb.signatureV1,
    v1Data: pb.value !== undefined && pb.validity !== undefined ? concatBytes(pb.value, pb.validity, V1_VALIDITY_EOL) : undefined,
    pubKey: rec.pubKey,
    signatureV2: rec.signatureV2,
    data,
  }
}

/** Outcome of checking which key signs for a name. */
export interface RecordKeyResult {
  /** The key that must have signed (from the record's `pubKey`, else inlined in the name). */
  readonly key: PublicKey | undefined
  /** Where the key came from. */
  readonly source: 'record' | 'name' | undefined
  /** Whether the key hashes to the name. */
  readonly matchesName: boolean
  /** What was found, in words. */
  readonly detail: string
}

/**
 * Finds the record's signing key and checks that it hashes to `name` (never throws on a mismatch;
 * throws only on malformed input).
 */
export function recordKeyForName(record: IpnsRecordInfo, name: string | IpnsName): RecordKeyResult {
  const n = typeof name === 'string' ? parseIpnsName(name) : name
  let key: PublicKey | undefined
  let source: 'record' | 'name' | undefined
  if (record.pubKey !== undefined && record.pubKey.length > 0) {
    try {
      key = publicKeyFromProtobuf(record.pubKey)
      source = 'record'
    } catch (cause) {
      throw new ParseError('IPNS_RECORD_MALFORMED', `IPNS record's pubKey does not decode: ${(cause as Error).message}`, 'fetch the record again from another gateway', { path: '$.pubKey', cause })
    }
    // Only the canonical encoding of the key is accepted: a lenient decoder (missing key type read as
    // RSA, unknown wire types skipped) would otherwise accept bytes a strict implementation refuses.
    if (!bytesEqual(publicKeyToProtobuf(key), record.pubKey)) {
      throw new ParseError('IPNS_RECORD_MALFORMED', "IPNS record's pubKey is not the canonical protobuf encoding of its key", 'fetch the record again from another gateway', { path: '$.pubKey' })
    }
  } else if (n.hash === 'identity') {
    try {
      key = publicKeyFromMultihash(Digest.decode(n.multihash) as Digest.Digest<0x00, number>)
      source = 'name'
    } catch (cause) {
      throw new ParseError('INVALID_IPNS_NAME', `the key inlined in IPNS name ${n.name} does not decode`, 'check the beacon name', { cause })
    }
  }
  if (key === undefined) {
    return { key, source, matchesName: false, detail: `record carries no public key and name ${n.name} does not inline one (a sha2-256 name needs the record's pubKey)` }
  }
  const keyHash = key.toMultihash().bytes
  const matchesName = bytesEqual(keyHash, n.multihash)
  const keyName = ipnsNameOfKey(key)
  const detail = matchesName
    ? `${key.type} key from the ${source === 'record' ? "record's pubKey" : 'name itself'} hashes to ${n.name}`
    : `${key.type} key from the record's pubKey hashes to ${keyName}, not to the committed name ${n.name}`
  return { key, source, matchesName, detail }
}

/**
 * Checks a V2 signature (`"ipns-signature:" || data`) with `key`. Never throws on a bad signature.
 *
 * @throws {@link IntegrityError} `SIGNATURE_UNCHECKABLE` when this host cannot check the signature at
 *   all (RSA needs Web Crypto, which browsers only offer on https, localhost and file:// pages): the
 *   record is then *not checked*, which is different from *forged*.
 */
export async function checkRecordSignature(record: IpnsRecordInfo, key: PublicKey): Promise<boolean> {
  if (key.type === 'RSA' && (globalThis as { crypto?: { subtle?: unknown } }).crypto?.subtle === undefined) {
    throw new IntegrityError('SIGNATURE_UNCHECKABLE', 'this host has no Web Crypto API, so the RSA record signature cannot be checked here', 'verify in Node, or open the verifier over https, localhost or file://')
  }
  try {
    if ((await key.verify(concatBytes(SIGNATURE_PREFIX, record.data), record.signatureV2)) !== true) return false
    // Stricter than an IPNS resolver, on purpose: a carried legacy V1 signature must verify too, so
    // that no byte of the record in a proof is left unauthenticated (V1 covers value || validity || "EOL").
    if (record.signatureV1 !== undefined && record.signatureV1.length > 0) {
      if (record.v1Data === undefined) return false
      return (await key.verify(record.v1Data, record.signatureV1)) === true
    }
    return true
  } catch {
    return false
  }
}

/** Options for {@link verifyIpnsRecord}. */
export interface VerifyIpnsRecordOptions {
  /** "Now", to report (never enforce) expiry. Omit to skip the expiry report. */
  now?: Date
}

/**
 * Parses a record and verifies it was signed by the key of `name`.
 *
 * @returns the signed fields, the key type and, when `now` is given, whether the record has expired
 *   (an expired record is still returned: expiry is for resolvers, not for historical proofs).
 * @throws {@link ParseError} on malformed records or names; {@link MismatchError}
 *   `IPNS_RECORD_FIELD_MISMATCH` / `IPNS_KEY_NAME_MISMATCH` / `IPNS_KEY_MISSING`;
 *   {@link IntegrityError} `IPNS_SIGNATURE_INVALID`.
 */
export async function verifyIpnsRecord(bytes: Uint8Array, name: string, options: VerifyIpnsRecordOptions = {}): Promise<VerifiedIpnsRecord> {
  const n = parseIpnsName(name)
  const record = parseIpnsRecord(bytes)
  const k = recordKeyForName(record, n)
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

/** Public key protobuf bytes of a key (re-exported for emulator and tests). */
export function publicKeyBytes(key: PublicKey): Uint8Array {
  return publicKeyToProtobuf(key)
}

// ---------------------------------------------------------------------------------------------
// Strict minimal readers

interface PbFields {
  value?: Uint8Array
  signatureV1?: Uint8Array
  validity?: Uint8Array
  validityType?: bigint
  sequence?: bigint
  ttl?: bigint
  signatureV2?: Uint8Array
  data?: Uint8Array
}

/** Reads the `IpnsEntry` protobuf fields we cross-check; rejects bad wire types and repeated fields. */
function readProtobuf(bytes: Uint8Array, path: string): PbFields {
  const bad = (why: string): never => {
    throw new ParseError('IPNS_RECORD_MALFORMED', `IPNS record is not a valid IpnsEntry protobuf: ${why}`, 'fetch the record again from another gateway', { path })
  }
  let i = 0
  const varint = (): bigint => {
    let v = 0n
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (i >= bytes.length) bad('truncated varint')
      const b = bytes[i++]!
      v |= BigInt(b & 0x7f) << shift
      if ((b & 0x80) === 0) return v
    }
    return bad('varint too long')
  }
  const out: PbFields = {}
  const seen = new Set<number>()
  while (i < bytes.length) {
    const tag = varint()
    const fieldNo = Number(tag >> 3n)
    const wire = Number(tag & 7n)
    if (fieldNo === 0) bad('field number 0')
    // IpnsEntry has fields 1 to 9. An unknown field would be bytes that no signature covers.
    if (fieldNo > 9) bad(`unknown field ${fieldNo}`)
    if (seen.has(fieldNo)) bad(`field ${fieldNo} repeated`)
    seen.add(fieldNo)
    if (wire === 0) {
      const v = varint()
      if (fieldNo === 3) out.validityType = v
      else if (fieldNo === 5) out.sequence = v
      else if (fieldNo === 6) out.ttl = v
      else if (fieldNo <= 9) bad(`field ${fieldNo} has wire type 0`)
    } else if (wire === 2) {
      const len = varint()
      if (len > BigInt(bytes.length - i)) bad('length past the end')
      const v = bytes.subarray(i, i + Number(len))
      i += Number(len)
      if (fieldNo === 1) out.value = v
      else if (fieldNo === 2) out.signatureV1 = v
      else if (fieldNo === 4) out.validity = v
      else if (fieldNo === 8) out.signatureV2 = v
      else if (fieldNo === 9) out.data = v
      else if (fieldNo === 3 || fieldNo === 5 || fieldNo === 6) bad(`field ${fieldNo} has wire type 2`)
    } else if (wire === 1) {
      if (fieldNo <= 9) bad(`field ${fieldNo} has wire type 1`)
      i += 8
    } else if (wire === 5) {
      if (fieldNo <= 9) bad(`field ${fieldNo} has wire type 5`)
      i += 4
    } else {
      bad(`unsupported wire type ${wire}`)
    }
    if (i > bytes.length) bad('truncated field')
  }
  return out
}

/**
 * Reads the signed DAG-CBOR data map `{Value, Validity, ValidityType, Sequence, TTL}`. The ipns
 * library decodes it too (and normalizes `Value`); the raw byte strings are taken from here.
 */
function readCborFields(data: Uint8Array, path: string): { value: Uint8Array; validity: Uint8Array; validityType: bigint; sequence: bigint; ttl: bigint | undefined } {
  const fields = decodeCborMap(data)
  const value = fields.get('Value')
  const validity = fields.get('Validity')
  const validityType = fields.get('ValidityType')
  const sequence = fields.get('Sequence')
  const ttl = fields.get('TTL')
  const bad = (what: string): never => {
    throw new ParseError('IPNS_RECORD_MALFORMED', `IPNS record data: ${what}`, 'fetch the record again from another gateway', { path: `${path}.data` })
  }
  if (!(value instanceof Uint8Array)) bad('Value is missing or not a byte string')
  if (!(validity instanceof Uint8Array)) bad('Validity is missing or not a byte string')
  if (validityType !== 0n) bad('ValidityType is not 0 (EOL)')
  if (typeof sequence !== 'bigint') bad('Sequence is missing or not an unsigned integer')
  if (ttl !== undefined && typeof ttl !== 'bigint') bad('TTL is not an unsigned integer')
  return { value: value as Uint8Array, validity: validity as Uint8Array, validityType: 0n, sequence: sequence as bigint, ttl: ttl as bigint | undefined }
}

/**
 * Minimal strict reader of a top-level CBOR map with text keys and byte-string or unsigned-integer
 * values (the shape of the IPNS data map). Anything else, duplicate keys or trailing bytes: rejected.
 */
function decodeCborMap(buf: Uint8Array): Map<string, Uint8Array | bigint> {
  const bad = (why: string): never => {
    throw new ParseError('IPNS_RECORD_MALFORMED', `IPNS record data is not the expected CBOR map: ${why}`, 'fetch the record again from another gateway', { path: '$.data' })
  }
  let i = 0
  const head = (): { major: number; arg: bigint } => {
    if (i >= buf.length) bad('truncated')
    const b = buf[i++]!
    const major = b >> 5
    const info = b & 31
    if (info < 24) return { major, arg: BigInt(info) }
    const n = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : bad('indefinite or reserved length')
    if (i + n > buf.length) bad('truncated')
    let v = 0n
    for (let k = 0; k < n; k++) v = (v << 8n) | BigInt(buf[i++]!)
    return { major, arg: v }
  }
  const m = head()
  if (m.major !== 5) bad('top level is not a map')
  const out = new Map<string, Uint8Array | bigint>()
  for (let e = 0n; e < m.arg; e++) {
    const k = head()
    if (k.major !== 3) bad('a key is not a text string')
    if (k.arg > BigInt(buf.length - i)) bad('truncated key')
    const key = utf8Decode(buf.subarray(i, i + Number(k.arg)), '$.data')
    i += Number(k.arg)
    if (out.has(key)) bad(`duplicate key ${key}`)
    const v = head()
    if (v.major === 2) {
      if (v.arg > BigInt(buf.length - i)) bad('truncated byte string')
      out.set(key, buf.subarray(i, i + Number(v.arg)))
      i += Number(v.arg)
    } else if (v.major === 0) {
      out.set(key, v.arg)
    } else {
      bad(`value of ${key} has an unexpected CBOR type`)
    }
  }
  if (i !== buf.length) bad('trailing bytes')
  return out
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

/** Hex of a name's multihash, handy as a map key. */
export function ipnsNameKey(name: string): string {
  return bytesToHex(parseIpnsName(name).multihash)
}
