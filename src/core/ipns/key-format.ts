/**
 * libp2p public keys as IPNS uses them: the `PublicKey` protobuf (`{ Type, Data }`), the multihash
 * that names a key (identity when the protobuf is at most 42 bytes, as for Ed25519; sha2-256
 * otherwise, as for RSA), and signature checks. Ed25519 and RSA are supported (the key types of IPNS
 * names in use); secp256k1 and ECDSA keys are refused as unsupported.
 *
 * - Ed25519: `Data` is the 32-byte public key (a canonical point, not of small order); signatures are
 *   checked as `@noble/curves` checks them in RFC 8032 mode (`zip215: false`: non-canonical encodings
 *   of the key or of `R` refused), with the host's Web Crypto Ed25519 as a fast path that cannot change
 *   the answer (see `verifyEd25519`).
 * - RSA: `Data` is a DER `SubjectPublicKeyInfo` (rsaEncryption); the modulus is 2048 to 8192 bits
 *   (go-libp2p's floor, js-libp2p's ceiling), odd, the exponent odd, 3 to 2^32 - 1; signatures are
 *   RSASSA-PKCS1-v1_5 with SHA-256, checked in pure JavaScript (`../rsa.ts`) so that a page without
 *   Web Crypto (plain http) reaches the same verdict as Node.
 *
 * This module holds everything but the Ed25519 arithmetic (`./ed25519.ts`, loaded only for an
 * Ed25519 key); `./keys.ts` adds the synchronous `decodePublicKey` that checks Ed25519 points too.
 *
 * Pure: no network, no clock, no Node modules.
 *
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { base36 } from 'multiformats/bases/base36'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { readRsaSpki, RsaKeyError, verifyRsa } from '../rsa.js'
import { decodeMessage, encodeMessage, type MessageSchema } from './protobuf.js'

/**
 * Key types this library can check IPNS signatures with.
 * @category Beacon
 */
export type IpnsKeyType = 'Ed25519' | 'RSA'

/**
 * A public key that signs IPNS records. Keys of other libraries with the same two fields (for
 * example `@libp2p/crypto` keys) fit this shape.
 * @category Beacon
 */
export interface IpnsPublicKey {
  /** The key type. */
  readonly type: IpnsKeyType
  /** Ed25519: the 32-byte key; RSA: the DER `SubjectPublicKeyInfo` (the `Data` of the libp2p protobuf). */
  readonly raw: Uint8Array
}

/** libp2p `KeyType` enum values. */
const KEY_TYPES: readonly string[] = ['RSA', 'Ed25519', 'secp256k1', 'ECDSA']
const PUBLIC_KEY_SCHEMA: MessageSchema = { 1: ['Type', 'varint'], 2: ['Data', 'bytes'] }
/** libp2p inlines keys whose protobuf is at most this long in the name (identity multihash). */
const MAX_INLINE_KEY_LENGTH = 42
/** Bounds on the RSA modulus in bits (`../rsa.ts`). */
export { RSA_MIN_BITS, RSA_MAX_BITS } from '../rsa.js'
const LIBP2P_KEY = 0x72
const IDENTITY = 0x00
const SHA2_256 = 0x12

/**
 * `decodePublicKey` (`./keys.ts`) with the Ed25519 point check passed in: `ed25519PointValid` is called, after
 * every structural check, only for a 32-byte Ed25519 key. With `() => true` it checks a key's form
 * without loading Ed25519; then, for an Ed25519 key, the same call with `ed25519KeyValid` gives
 * exactly `decodePublicKey`'s answer (`recordKeyForNameAsync` does this).
 */
export function decodePublicKeyWith(bytes: Uint8Array, fail: (why: string) => never, unsupported: (type: string) => never, ed25519PointValid: (raw: Uint8Array) => boolean): IpnsPublicKey {
  const fields = decodeMessage(bytes, PUBLIC_KEY_SCHEMA, (why) => fail(`the public key is not a valid libp2p PublicKey protobuf: ${why}`))
  const type = fields.get(1)
  const data = fields.get(2)
  if (typeof type !== 'bigint') return fail('the public key protobuf has no Type')
  if (!(data instanceof Uint8Array)) return fail('the public key protobuf has no Data')
  if (type === 1n) {
    if (data.length !== 32) fail(`an Ed25519 key is 32 bytes, not ${data.length}`)
    if (!ed25519PointValid(data)) fail('the Ed25519 key is not the canonical encoding of a curve point outside the small-order subgroup')
    return { type: 'Ed25519', raw: data }
  }
  if (type === 0n) {
    checkRsaSpki(data, fail)
    return { type: 'RSA', raw: data }
  }
  return type < BigInt(KEY_TYPES.length) ? unsupported(KEY_TYPES[Number(type)]!) : fail(`unknown key type ${type}`)
}

/** Checks a DER `SubjectPublicKeyInfo` holding an rsaEncryption key (`readRsaSpki`: structure and bounds). */
function checkRsaSpki(spki: Uint8Array, fail: (why: string) => never): void {
  try {
    readRsaSpki(spki, 'pubKey')
  } catch (cause) {
    if (cause instanceof RsaKeyError) return fail(cause.message)
    throw cause
  }
}

/** The libp2p `PublicKey` protobuf of a key: `{ Type, Data }`. */
export function publicKeyToProtobuf(key: IpnsPublicKey): Uint8Array {
  return encodeMessage([
    [1, key.type === 'RSA' ? 0n : 1n],
    [2, key.raw],
  ])
}

/** The multihash naming a key: identity of its protobuf when at most 42 bytes (Ed25519), sha2-256 of it otherwise (RSA). */
export function publicKeyMultihash(key: IpnsPublicKey): Uint8Array {
  const pb = publicKeyToProtobuf(key)
  return pb.length <= MAX_INLINE_KEY_LENGTH ? Digest.create(IDENTITY, pb).bytes : Digest.create(SHA2_256, sha256(pb)).bytes
}

/**
 * The canonical base36 IPNS name of a public key (`k51…` for Ed25519, `k2k4r8…` for RSA).
 *
 * @example
 * ```ts
 * import { ed25519 } from '@noble/curves/ed25519.js'
 * const name = ipnsNameOfKey({ type: 'Ed25519', raw: ed25519.getPublicKey(new Uint8Array(32).fill(1)) })
 * // name starts with 'k51'
 * ```
 * @category Beacon
 */
export function ipnsNameOfKey(key: IpnsPublicKey): string {
  return CID.createV1(LIBP2P_KEY, Digest.decode(publicKeyMultihash(key))).toString(base36)
}

/**
 * Checks `signature` over `data` with `key` (Ed25519: RFC 8032; RSA: RSASSA-PKCS1-v1_5 with SHA-256,
 * in pure JavaScript on every host, `../rsa.ts`). Resolves `false` on a bad signature or key. Loads
 * Ed25519 (`./ed25519.ts`) only for an Ed25519 key.
 */
export async function verifyKeySignature(key: IpnsPublicKey, data: Uint8Array, signature: Uint8Array): Promise<boolean> {
  if (key.type === 'Ed25519') return (await import('./ed25519.js')).verifyEd25519(key.raw, data, signature)
  if (key.type !== 'RSA') return false
  let rsa
  try {
    rsa = readRsaSpki(key.raw, 'pubKey')
  } catch {
    return false
  }
  return verifyRsa(rsa, { family: 'rsa-pkcs1', hash: 'SHA-256' }, data, signature)
}
