/**
 * Signature verification for time-stamp tokens and certificates. RSA (PKCS #1 v1.5 and PSS) is checked
 * in pure JavaScript on every host (`../rsa.ts`), so a page without Web Crypto reaches Node's answer; ECDSA on P-256
 * and P-384 is decided by `@noble/curves`, so it works everywhere, with the host's Web Crypto as a fast
 * path that cannot change the answer (see {@link verifyEcdsa}). SHA-1 and MD5 are refused.
 *
 * @module
 */
import type { p256, p384 } from './nist.js'
import { algorithm, bitString, decodeDer, DerError, integer, isContext, oid, sequence, smallInteger, type Der } from './der.js'
import { digest } from './hash.js'
import { HASHES, OID, refusedHashName, type HashName } from './oids.js'
import { keyImporter, type KeyImporter } from '../webcrypto.js'
import { ecdsaFastPath, ecdsaWebCrypto } from './ecdsa-fast.js'
import { readRsaSpki, verifyRsa, type RsaPublicKey } from '../rsa.js'

/** Outcome of one signature check. */
export type SignatureOutcome =
  | { readonly kind: 'valid' }
  | { readonly kind: 'invalid' }
  /** The algorithm is refused or not implemented; `what` names it. */
  | { readonly kind: 'unsupported'; readonly what: string }
  /** This host lacks the primitive (no Web Crypto for RSA). */
  | { readonly kind: 'uncheckable'; readonly what: string }

type Scheme =
  | { readonly family: 'rsa-pkcs1'; readonly hash: HashName }
  | { readonly family: 'rsa-pss'; readonly hash: HashName; readonly saltLength: number }
  | { readonly family: 'ecdsa'; readonly hash: HashName }

const RSA_PKCS1: Readonly<Record<string, HashName>> = { [OID.sha256WithRsa]: 'SHA-256', [OID.sha384WithRsa]: 'SHA-384', [OID.sha512WithRsa]: 'SHA-512' }
const ECDSA: Readonly<Record<string, HashName>> = { [OID.ecdsaWithSha256]: 'SHA-256', [OID.ecdsaWithSha384]: 'SHA-384', [OID.ecdsaWithSha512]: 'SHA-512' }
type NobleCurve = typeof p256 | typeof p384

/**
 * `@noble/curves`' NIST curves, imported on first need: they are built when their module loads, which
 * is a measurable part of a strict `orbitdraw verify`'s start-up, and a valid signature (the common
 * case, confirmed by Web Crypto) never needs them (docs/performance.md, Start-up).
 */
let nist: Promise<typeof import('./nist.js')> | undefined
const loadNist = (): Promise<typeof import('./nist.js')> => (nist ??= import('./nist.js'))

/** The curves ECDSA keys may use: Web Crypto names, group orders, `@noble/curves` on demand, and a key importer each. */
const CURVES: Readonly<Record<string, EcdsaCurve>> = {
  [OID.p256]: nistCurve('P-256', 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n, 32),
  [OID.p384]: nistCurve('P-384', 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n, 48),
}

/** A NIST curve by its Web Crypto name, with its group order and size: noble's curve of that name (on demand) and a raw key importer. */
function nistCurve(name: EcdsaCurve['name'], order: bigint, size: number): EcdsaCurve {
  return {
    name,
    order,
    size,
    noble: async () => (await loadNist())[name === 'P-256' ? 'p256' : 'p384'],
    importKey: keyImporter('raw', { name: 'ECDSA', namedCurve: name }),
  }
}

/** One ECDSA curve as both implementations know it. */
export interface EcdsaCurve {
  readonly name: 'P-256' | 'P-384'
  /** The order n of the base point: a signature's r and s lie in 1..n-1. */
  readonly order: bigint
  /** Bytes of n (the length of r and of s in Web Crypto's raw form). */
  readonly size: number
  /** The `@noble/curves` curve (imported on first call). */
  readonly noble: () => Promise<NobleCurve>
  /** Imports the raw public point (an authority's signer and root keys come back with every token). */
  readonly importKey: KeyImporter
}

/** The curve for a named-curve OID, or undefined when not supported. */
export function ecdsaCurve(curveOid: string): EcdsaCurve | undefined {
  return CURVES[curveOid]
}

/** ECDSA by `@noble/curves`: the answer on every host (high-S accepted, as Web Crypto and OpenSSL do). */
export async function verifyEcdsaNoble(curve: EcdsaCurve, hash: HashName, publicKey: Uint8Array, data: Uint8Array, der: Uint8Array): Promise<boolean> {
  const noble = await curve.noble()
  try {
    return noble.verify(der, digest(hash, data), publicKey, { prehash: false, lowS: false, format: 'der' })
  } catch {
    return false
  }
}

/**
 * An ECDSA signature (DER `SEQUENCE { r INTEGER, s INTEGER }`) in Web Crypto's raw form `r || s`, or
 * undefined when it is not one with `0 < r, s < n`. Read with the core's strict DER reader, which refuses
 * everything `@noble/curves`' signature parser refuses (shortest lengths, minimal non-negative integers,
 * no trailing bytes; `test/core/timestamp/signature.test.ts` compares them): a signature read here is read
 * alike by noble, so Web Crypto is only ever asked about one noble would also judge.
 */
export function ecdsaRawSignature(curve: EcdsaCurve, der: Uint8Array): Uint8Array | undefined {
  try {
    const parts = sequence(decodeDer(der, 'signature', 3), 'signature', 'ECDSA-Sig-Value')
    if (parts.length !== 2) return undefined
    const out = new Uint8Array(2 * curve.size)
    for (const [i, node] of parts.entries()) {
      const v = integer(node, 'signature', i === 0 ? 'r' : 's')
      if (v < 1n || v >= curve.order) return undefined
      let x = v
      for (let j = (i + 1) * curve.size - 1; j >= i * curve.size; j--, x >>= 8n) out[j] = Number(x & 0xffn)
    }
    return out
  } catch {
    return undefined
  }
}

/**
 * ECDSA by the host's Web Crypto: true or false, or undefined when it cannot say (no Web Crypto, a
 * signature that is not one DER `SEQUENCE { r, s }` with `0 < r, s < n` as `@noble/curves` reads it, a
 * point it refuses to import). Web Crypto takes the signature as raw `r || s`, each as long as the
 * curve's order, so the DER form is converted first ({@link ecdsaRawSignature}).
 */
export async function verifyEcdsaWebCrypto(subtle: SubtleCrypto, curve: EcdsaCurve, hash: HashName, publicKey: Uint8Array, data: Uint8Array, der: Uint8Array): Promise<boolean | undefined> {
  const raw = ecdsaRawSignature(curve, der)
  return raw === undefined ? undefined : await ecdsaWebCrypto(subtle, curve, hash, publicKey, data, raw)
}

/**
 * ECDSA whose answer is, by construction, the answer of `@noble/curves` on every host: a Web Crypto
 * "valid" stands (the same equation over the same point, hash and `(r, s)`: both implement FIPS 186 /
 * SEC 1 verification, truncating the digest to the order's length and accepting high S); anything else
 * (no Web Crypto, "invalid", a refused key) is decided by noble. Valid signatures, the common case, then
 * cost a native verification instead of a pure-JS one; a forged one costs both. (In the CLI's verify
 * bundle the fast path is `node:crypto`'s, the same OpenSSL verification: `ecdsa-fast.ts`.)
 */
export async function verifyEcdsa(curve: EcdsaCurve, hash: HashName, publicKey: Uint8Array, data: Uint8Array, der: Uint8Array): Promise<boolean> {
  const raw = ecdsaRawSignature(curve, der)
  if (raw !== undefined && (await ecdsaFastPath(curve, hash, publicKey, data, raw)) === true) return true
  return await verifyEcdsaNoble(curve, hash, publicKey, data, der)
}

/** Resolves a signature AlgorithmIdentifier; `digestHint` is the SignerInfo digest for bare `rsaEncryption`. */
function scheme(alg: { oid: string; params: Der | undefined }, digestHint: HashName | undefined): Scheme | string {
  const pkcs1 = RSA_PKCS1[alg.oid]
  if (pkcs1 !== undefined) return { family: 'rsa-pkcs1', hash: pkcs1 }
  const ec = ECDSA[alg.oid]
  if (ec !== undefined) return { family: 'ecdsa', hash: ec }
  if (alg.oid === OID.rsaEncryption) return digestHint === undefined ? 'rsaEncryption without a digest algorithm' : { family: 'rsa-pkcs1', hash: digestHint }
  if (alg.oid === OID.sha1WithRsa) return 'sha1WithRSAEncryption (SHA-1)'
  if (alg.oid === OID.rsassaPss) {
    try {
      return pssScheme(alg.params)
    } catch (e) {
      return `RSASSA-PSS with bad parameters (${e instanceof DerError ? e.message : String(e)})`
    }
  }
  return `signature algorithm OID ${alg.oid}`
}

function pssScheme(params: Der | undefined): Scheme | string {
  const fields = sequence(params, 'RSASSA-PSS-params', 'RSASSA-PSS-params')
  let hash: string = OID.sha1
  let mgfHash: string = OID.sha1
  let saltLength = 20
  for (const f of fields) {
    if (isContext(f, 0)) hash = algorithm(f.children[0], 'hashAlgorithm', 'hashAlgorithm').oid
    else if (isContext(f, 1)) {
      const mgf = algorithm(f.children[0], 'maskGenAlgorithm', 'maskGenAlgorithm')
      if (mgf.oid !== OID.mgf1) return `RSASSA-PSS with mask generation ${mgf.oid}`
      mgfHash = algorithm(mgf.params, 'MGF1 hash', 'MGF1 hash').oid
    } else if (isContext(f, 2)) saltLength = smallInteger(f.children[0], 'saltLength', 'saltLength', 1024)
    else if (isContext(f, 3)) {
      if (integer(f.children[0], 'trailerField', 'trailerField') !== 1n) return 'RSASSA-PSS with a trailer field other than 1'
    }
  }
  const name = HASHES[hash]
  if (name === undefined) return `RSASSA-PSS with ${refusedHashName(hash)}`
  if (mgfHash !== hash) return 'RSASSA-PSS with an MGF1 hash different from its message hash'
  return { family: 'rsa-pss', hash: name, saltLength }
}

/** The name of a signature algorithm as resolved here, or undefined when refused. */
export function signatureSchemeProblem(alg: { oid: string; params: Der | undefined }, digestHint?: HashName): string | undefined {
  const s = scheme(alg, digestHint)
  return typeof s === 'string' ? s : undefined
}

/**
 * Verifies `signature` over `data` with the key in `spki` (DER SubjectPublicKeyInfo). Never throws.
 */
export async function verifySignature(alg: { oid: string; params: Der | undefined }, spki: Uint8Array, data: Uint8Array, signature: Uint8Array, digestHint?: HashName): Promise<SignatureOutcome> {
  const s = scheme(alg, digestHint)
  if (typeof s === 'string') return { kind: 'unsupported', what: s }
  let keyAlg: { oid: string; params: Der | undefined }
  let publicKey: Uint8Array
  try {
    const [algNode, keyNode] = sequence(decodeDer(spki, 'subjectPublicKeyInfo'), 'subjectPublicKeyInfo', 'SubjectPublicKeyInfo')
    keyAlg = algorithm(algNode, 'subjectPublicKeyInfo.algorithm', 'key algorithm')
    publicKey = bitString(keyNode, 'subjectPublicKey', 'subjectPublicKey').bytes
  } catch (e) {
    return { kind: 'unsupported', what: `an unreadable public key (${e instanceof Error ? e.message : String(e)})` }
  }
  if (s.family === 'ecdsa') {
    if (keyAlg.oid !== OID.ecPublicKey || keyAlg.params === undefined) return { kind: 'invalid' }
    let curveOid: string
    try {
      curveOid = oid(keyAlg.params, 'namedCurve', 'namedCurve')
    } catch {
      return { kind: 'unsupported', what: 'an EC key without a named curve' }
    }
    const curve = ecdsaCurve(curveOid)
    if (curve === undefined) return { kind: 'unsupported', what: `EC curve ${curveOid}` }
    return (await verifyEcdsa(curve, s.hash, publicKey, data, signature)) ? { kind: 'valid' } : { kind: 'invalid' }
  }
  if (keyAlg.oid !== OID.rsaEncryption) return keyAlg.oid === OID.rsassaPss ? { kind: 'unsupported', what: 'RSASSA-PSS-only public keys' } : { kind: 'invalid' }
  // RSA in pure JavaScript on every host (../rsa.ts): a page without Web Crypto (plain http) reaches
  // the same answer as Node. The key's bounds (2048..8192 bits, 3 <= e < 2^32) are checked first.
  let rsa: RsaPublicKey
  try {
    rsa = readRsaSpki(spki)
  } catch (e) {
    return { kind: 'unsupported', what: `an RSA key outside this checker's bounds (${e instanceof Error ? e.message : String(e)})` }
  }
  return verifyRsa(rsa, s, data, signature) ? { kind: 'valid' } : { kind: 'invalid' }
}
