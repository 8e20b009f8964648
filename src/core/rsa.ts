/**
 * RSA signature verification in pure JavaScript (BigInt), the same on every host: RSASSA-PKCS1-v1_5
 * and RSASSA-PSS (RFC 8017, §8.2.2 and §8.1.2) with SHA-256, SHA-384 or SHA-512. The Orbitport beacon's IPNS key and the public time-stamping
 * authorities' keys are RSA; a browser offers Web Crypto only in secure contexts (https, localhost,
 * `file://`), so a page served over plain http must check RSA without it, and must reach the same
 * verdict as Node and an https page. Web Crypto is therefore not used for RSA at all: one
 * implementation decides everywhere (a verification costs about 1 ms for a 2048-bit key, 5 ms for
 * 8192 bits).
 *
 * PKCS#1 v1.5 is checked by **re-encoding**: the expected `EM = 00 01 FF…FF 00 || DigestInfo || H` is
 * built from the message and compared with `s^e mod n` byte for byte (RFC 8017 §8.2.2 step 3-4), never
 * by parsing the decrypted block, so garbage after the digest, a short padding, other DigestInfo
 * encodings (absent NULL parameters, long-form lengths) and other Bleichenbacher-style forgeries for small
 * exponents cannot pass. The signature must be exactly as long as the modulus (`k` bytes) and below it.
 *
 * Keys are bounded before any arithmetic (docs/spec.md, "RSA keys"): the modulus is
 * {@link RSA_MIN_BITS} to {@link RSA_MAX_BITS} bits, the exponent odd, at least 3 and below
 * 2^{@link RSA_MAX_EXPONENT_BITS}, so one check costs at most a few milliseconds whatever the proof holds.
 *
 * Written here rather than taken from `micro-rsa-dsa-dh` (paulmillr's, the candidate library): the
 * verification is the 60 lines below, while that package's PSS helper refers to SHAKE at run time, so
 * it pulls all of SHA-3 and SHA-1 into the verifier page (+9 KiB minified, +3 KiB gzip, past the page's
 * budget). `test/core/rsa.test.ts` checks this code against node:crypto (OpenSSL) with fast-check.
 *
 * Pure: no network, no clock, no Node modules.
 *
 * @module
 */
import { sha256, sha384, sha512 } from '@noble/hashes/sha2.js'
import { bytesEqual, bytesToHex, hexToBytes } from './bytes.js'
import { bitString, decodeDer, DerError, expectTag, integer, oid, sequence, TAG } from './timestamp/der.js'

/** Smallest RSA modulus accepted, in bits (go-libp2p's floor; NIST's minimum since 2014). */
export const RSA_MIN_BITS = 2048
/** Largest RSA modulus accepted, in bits (js-libp2p's ceiling). */
export const RSA_MAX_BITS = 8192
/** The public exponent must be below 2^32 (65537 and 3 are the ones in use; a huge one only costs time). */
export const RSA_MAX_EXPONENT_BITS = 32

/** An RSA public key: modulus `n` (its size in `bits`) and public exponent `e`. */
export interface RsaPublicKey {
  readonly n: bigint
  readonly e: bigint
  readonly bits: number
}

/** The hashes RSA signatures may use here. */
export type RsaHash = 'SHA-256' | 'SHA-384' | 'SHA-512'

/** An RSA signature scheme: PKCS#1 v1.5, or PSS with MGF1 over the same hash and a fixed salt length. */
export type RsaScheme = { readonly family: 'rsa-pkcs1'; readonly hash: RsaHash } | { readonly family: 'rsa-pss'; readonly hash: RsaHash; readonly saltLength: number }

/** A key refused by {@link readRsaPublicKey}: `message` says why. */
export class RsaKeyError extends Error {
  override readonly name = 'RsaKeyError'
}

const RSA_ENCRYPTION = '1.2.840.113549.1.1.1'

/**
 * The problem with a modulus and exponent, or undefined when they are within the bounds: modulus
 * {@link RSA_MIN_BITS}..{@link RSA_MAX_BITS} bits and odd, exponent odd with 3 ≤ e < 2^32.
 */
export function rsaKeyProblem(n: bigint, e: bigint): string | undefined {
  if (n <= 0n) return 'the RSA modulus is not positive'
  const bits = n.toString(2).length
  if (bits < RSA_MIN_BITS || bits > RSA_MAX_BITS) return `the RSA modulus is ${bits} bits, outside ${RSA_MIN_BITS}..${RSA_MAX_BITS}`
  if (n % 2n === 0n) return 'the RSA modulus is even'
  if (e < 3n || e % 2n === 0n) return 'the RSA public exponent is not an odd integer >= 3'
  if (e >> BigInt(RSA_MAX_EXPONENT_BITS) !== 0n) return `the RSA public exponent is over ${RSA_MAX_EXPONENT_BITS} bits`
  return undefined
}

/**
 * Reads a DER `RSAPublicKey` (`SEQUENCE { modulus INTEGER, publicExponent INTEGER }`, PKCS #1) with the
 * core's strict DER reader and checks its bounds ({@link rsaKeyProblem}).
 *
 * @throws RsaKeyError when the bytes are not exactly one such structure or the key is out of bounds.
 */
export function readRsaPublicKey(der: Uint8Array, where = 'RSAPublicKey'): RsaPublicKey {
  let n: bigint
  let e: bigint
  try {
    const rsa = sequence(decodeDer(der, where, 16), where, 'RSAPublicKey')
    if (rsa.length !== 2) throw new RsaKeyError('the RSAPublicKey does not have exactly 2 fields')
    n = integer(rsa[0], `${where}.modulus`, 'modulus')
    e = integer(rsa[1], `${where}.publicExponent`, 'publicExponent')
  } catch (cause) {
    if (cause instanceof DerError) throw new RsaKeyError(`the RSA key is not valid DER: ${cause.message}`)
    throw cause
  }
  const problem = rsaKeyProblem(n, e)
  if (problem !== undefined) throw new RsaKeyError(problem)
  return { n, e, bits: n.toString(2).length }
}

/**
 * Reads a DER `SubjectPublicKeyInfo` holding an rsaEncryption key (algorithm parameters NULL, no unused
 * bits) and checks its bounds.
 *
 * @throws RsaKeyError naming the problem.
 */
export function readRsaSpki(spki: Uint8Array, where = 'subjectPublicKeyInfo'): RsaPublicKey {
  let key: Uint8Array
  try {
    const top = sequence(decodeDer(spki, where, 16), where, 'SubjectPublicKeyInfo')
    if (top.length !== 2) throw new RsaKeyError('the RSA SubjectPublicKeyInfo does not have exactly 2 fields')
    const alg = sequence(top[0], `${where}.algorithm`, 'AlgorithmIdentifier')
    if (oid(alg[0], `${where}.algorithm`, 'algorithm') !== RSA_ENCRYPTION) throw new RsaKeyError('the RSA key is not an rsaEncryption SubjectPublicKeyInfo')
    if (alg.length !== 2 || expectTag(alg[1], TAG.NULL, `${where}.algorithm`, 'NULL parameters').content.length !== 0) throw new RsaKeyError('rsaEncryption parameters must be NULL')
    const bits = bitString(top[1], `${where}.subjectPublicKey`, 'subjectPublicKey')
    if (bits.unused !== 0) throw new RsaKeyError('the RSA subjectPublicKey has unused bits')
    key = bits.bytes
  } catch (cause) {
    if (cause instanceof DerError) throw new RsaKeyError(`the RSA key is not valid DER: ${cause.message}`)
    throw cause
  }
  return readRsaPublicKey(key, `${where}.subjectPublicKey`)
}

const HASH = { 'SHA-256': sha256, 'SHA-384': sha384, 'SHA-512': sha512 } as const
/** DER `DigestInfo` up to the digest (RFC 8017 §9.2, note 1): the only encoding accepted. */
const DIGEST_INFO: Record<RsaHash, Uint8Array> = {
  'SHA-256': hexToBytes('3031300d060960864801650304020105000420'),
  'SHA-384': hexToBytes('3041300d060960864801650304020205000430'),
  'SHA-512': hexToBytes('3051300d060960864801650304020305000440'),
}

/** Big-endian bytes to an integer (OS2IP), in one step from hex (not a bigint per byte). */
function toInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${bytesToHex(bytes)}`)
}

/** A non-negative integer below 256^len to `len` big-endian bytes (I2OSP), through hex (not a bigint per byte). */
function toBytes(x: bigint, len: number): Uint8Array {
  const hex = x.toString(16).padStart(2 * len, '0')
  return hexToBytes(hex.length > 2 * len ? hex.slice(hex.length - 2 * len) : hex)
}

/** `base^e mod n` by square-and-multiply (e has at most 32 bits here: at most 64 multiplications). */
function modPow(base: bigint, e: bigint, n: bigint): bigint {
  let result = 1n
  let b = base % n
  for (; e > 0n; e >>= 1n) {
    if ((e & 1n) === 1n) result = (result * b) % n
    b = (b * b) % n
  }
  return result
}

/** RSAVP1 then I2OSP: `s^e mod n` as `len` bytes, or undefined when the signature is not below `n`. */
function openSignature(key: RsaPublicKey, signature: Uint8Array, len: number): Uint8Array | undefined {
  const s = toInt(signature)
  if (s >= key.n) return undefined
  return toBytes(modPow(s, key.e, key.n), len)
}

/** MGF1 (RFC 8017 B.2.1) with `hash`: `len` bytes of mask from `seed`. */
function mgf1(hash: (typeof HASH)[RsaHash], seed: Uint8Array, len: number): Uint8Array {
  const out = new Uint8Array(len)
  const input = new Uint8Array(seed.length + 4)
  input.set(seed)
  for (let counter = 0, at = 0; at < len; counter++) {
    new DataView(input.buffer).setUint32(seed.length, counter)
    const block = hash(input)
    out.set(block.subarray(0, Math.min(block.length, len - at)), at)
    at += block.length
  }
  return out
}

/** EMSA-PKCS1-v1_5 (RFC 8017 §9.2): `00 01 FF…FF 00 || DigestInfo || H(data)`, `len` bytes. */
function pkcs1Encoding(hash: RsaHash, data: Uint8Array, len: number): Uint8Array | undefined {
  const prefix = DIGEST_INFO[hash]
  const h = HASH[hash](data)
  const tLen = prefix.length + h.length
  if (len < tLen + 11) return undefined
  const em = new Uint8Array(len).fill(0xff, 2, len - tLen - 1)
  em[1] = 0x01
  em.set(prefix, len - tLen)
  em.set(h, len - h.length)
  return em
}

/** EMSA-PSS-VERIFY (RFC 8017 §9.1.2) with MGF1 over the same hash and a fixed salt length. */
function pssVerify(hash: RsaHash, data: Uint8Array, em: Uint8Array, emBits: number, saltLength: number): boolean {
  const H = HASH[hash]
  const hLen = H.outputLen
  const emLen = em.length
  if (emLen < hLen + saltLength + 2 || em[emLen - 1] !== 0xbc) return false
  const maskedDb = em.subarray(0, emLen - hLen - 1)
  const h = em.subarray(emLen - hLen - 1, emLen - 1)
  const topBits = 8 * emLen - emBits
  if ((maskedDb[0]! & ~(0xff >> topBits) & 0xff) !== 0) return false
  const db = mgf1(H, h, maskedDb.length).map((m, i) => m ^ maskedDb[i]!)
  db[0]! &= 0xff >> topBits
  const psLen = emLen - hLen - saltLength - 2
  for (let i = 0; i < psLen; i++) if (db[i] !== 0) return false
  if (db[psLen] !== 0x01) return false
  const mPrime = new Uint8Array(8 + hLen + saltLength)
  mPrime.set(H(data), 8)
  mPrime.set(db.subarray(db.length - saltLength), 8 + hLen)
  return bytesEqual(H(mPrime), h)
}

/**
 * Verifies an RSA signature over `data` (the message itself: it is hashed here). True only for a
 * signature exactly `k` bytes long (the modulus' length), below the modulus, whose `s^e mod n` is
 * byte for byte the encoding of `data` under `scheme` (PKCS#1 v1.5: re-encoded and compared; PSS: the
 * RFC 8017 §9.1.2 check with the fixed salt length). Never throws: anything malformed is `false`.
 */
export function verifyRsa(key: RsaPublicKey, scheme: RsaScheme, data: Uint8Array, signature: Uint8Array): boolean {
  if (rsaKeyProblem(key.n, key.e) !== undefined || key.bits !== key.n.toString(2).length) return false
  const k = Math.ceil(key.bits / 8)
  if (signature.length !== k) return false
  if (scheme.family === 'rsa-pkcs1') {
    const expected = pkcs1Encoding(scheme.hash, data, k)
    const em = openSignature(key, signature, k)
    return expected !== undefined && em !== undefined && bytesEqual(em, expected)
  }
  if (!Number.isSafeInteger(scheme.saltLength) || scheme.saltLength < 0) return false
  // emBits = modBits - 1; the encoded message is one byte shorter when modBits - 1 is a multiple of 8
  const emBits = key.bits - 1
  const emLen = Math.ceil(emBits / 8)
  const opened = openSignature(key, signature, k)
  if (opened === undefined) return false
  if (emLen < k && opened[0] !== 0) return false
  return pssVerify(scheme.hash, data, opened.subarray(k - emLen), emBits, scheme.saltLength)
}
