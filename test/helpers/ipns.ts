/**
 * Hand-built IPNS records for the strict-decoding tests: raw protobuf fields in any order, raw CBOR
 * with chosen head widths, Ed25519 signatures from a fixed seed (deterministic, RFC 8032).
 */
import { encode as encodeDagCbor } from '@ipld/dag-cbor'
import { ed25519 } from '@noble/curves/ed25519.js'
import { concatBytes, utf8Encode } from '../../src/core/bytes.js'
import { encodeMessage, type FieldValue } from '../../src/core/ipns/protobuf.js'
import { ipnsNameOfKey, publicKeyToProtobuf, type IpnsPublicKey } from '../../src/core/ipns/key-format.js'

export const SEED = new Uint8Array(32).fill(9)
export const PUBLIC_KEY: IpnsPublicKey = { type: 'Ed25519', raw: ed25519.getPublicKey(SEED) }
export const NAME = ipnsNameOfKey(PUBLIC_KEY)
export const VALUE = '/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
export const VALIDITY = '2031-01-01T00:00:00.000000000Z'

export const sign = (data: Uint8Array): Uint8Array => ed25519.sign(data, SEED)
export const signV2 = (data: Uint8Array): Uint8Array => sign(concatBytes(utf8Encode('ipns-signature:'), data))

/** One protobuf field, encoded alone (so tests can concatenate fields in any order, twice, …). */
export const pb = (n: number, v: FieldValue): Uint8Array => encodeMessage([[n, v]])

/** CBOR head of `major` with argument `n`, in `width` extra bytes (0 = inline; default: minimal). */
export function cborHead(major: number, n: number, width?: 0 | 1 | 2 | 4 | 8): Uint8Array {
  const w = width ?? (n < 24 ? 0 : n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x100000000 ? 4 : 8)
  if (w === 0) return Uint8Array.of((major << 5) | n)
  const info = { 1: 24, 2: 25, 4: 26, 8: 27 }[w]
  const out = new Uint8Array(1 + w)
  out[0] = (major << 5) | info
  let v = BigInt(n)
  for (let i = w; i >= 1; i--) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}
export const cborText = (s: string): Uint8Array => concatBytes(cborHead(3, utf8Encode(s).length), utf8Encode(s))
export const cborBytes = (b: Uint8Array): Uint8Array => concatBytes(cborHead(2, b.length), b)

/** The canonical signed data map. */
export function canonicalData(fields: { value?: string; validity?: string; sequence?: bigint; ttl?: bigint } = {}): Uint8Array {
  return encodeDagCbor({
    Value: utf8Encode(fields.value ?? VALUE),
    Validity: utf8Encode(fields.validity ?? VALIDITY),
    ValidityType: 0,
    Sequence: fields.sequence ?? 7n,
    TTL: fields.ttl ?? 60_000_000_000n,
  })
}

/** The legacy V1 fields (1 to 6), matching {@link canonicalData}'s defaults unless overridden. */
export function v1Fields(over: { value?: string; validity?: string; validityType?: bigint; sequence?: bigint; ttl?: bigint } = {}): Uint8Array {
  const value = utf8Encode(over.value ?? VALUE)
  const validity = utf8Encode(over.validity ?? VALIDITY)
  return concatBytes(
    pb(1, value),
    pb(2, sign(concatBytes(value, validity, utf8Encode('EOL')))),
    pb(3, over.validityType ?? 0n),
    pb(4, validity),
    pb(5, over.sequence ?? 7n),
    pb(6, over.ttl ?? 60_000_000_000n),
  )
}

/** A V2 record over `data` (signed), with optional legacy fields before and extra bytes after. */
export function v2Record(data = canonicalData(), options: { v1?: Uint8Array; pubKey?: Uint8Array; after?: Uint8Array } = {}): Uint8Array {
  return concatBytes(options.v1 ?? new Uint8Array(0), options.pubKey === undefined ? new Uint8Array(0) : pb(7, options.pubKey), pb(8, signV2(data)), pb(9, data), options.after ?? new Uint8Array(0))
}

export const ED25519_PUBKEY_PROTOBUF = publicKeyToProtobuf(PUBLIC_KEY)
