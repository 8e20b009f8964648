/**
 * `core/timestamp/ecdsa-fast.ts` for the CLI's verify bundle (Node only): the fast path of ECDSA
 * verification by `node:crypto` (`createPublicKey`, one-shot `verify` with `dsaEncoding: 'ieee-p1363'`)
 * instead of Web Crypto. Node's Web Crypto and `node:crypto` verify with the same OpenSSL call on the
 * same key, signature and hash, so they give the same answer (`test/node/native-ecdsa.test.ts` compares
 * them on valid, tampered, high-S, wrong-key and refused-point cases); and as before only `true`
 * stands, anything else is decided by `@noble/curves` (`verifyEcdsa` in `core/timestamp/signature.ts`).
 *
 * Why: a strict `orbitdraw verify` loads `node:crypto` for its digests anyway; Web Crypto adds its own
 * modules (`internal/crypto/webcrypto`, `webidl`, `ec`), a key import and two promises per signature:
 * about 2 M instructions of its start-up (docs/performance.md, Start-up). `scripts/build-cli.ts` puts
 * this module in the place of `ecdsa-fast.js` in the verify bundle only.
 *
 * @module
 */
import { createPublicKey, verify } from 'node:crypto'
import type { HashName } from '../core/timestamp/oids.js'
import type { FastCurve } from '../core/timestamp/ecdsa-fast.js'

export { ecdsaWebCrypto } from '../core/timestamp/ecdsa-fast.js'

/** The DER of the key algorithm of an EC public key on each curve: `SEQUENCE { id-ecPublicKey, namedCurve }`. */
const ALGORITHM: Readonly<Record<FastCurve['name'], string>> = {
  'P-256': '301306072a8648ce3d020106082a8648ce3d030107',
  'P-384': '301006072a8648ce3d020106052b81040022',
}
const NODE_HASH: Readonly<Record<string, string>> = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' }

/** A DER element with a short-form length (every field here is under 128 bytes). */
function der(tag: number, content: Uint8Array): Buffer {
  if (content.length > 127) throw new RangeError('too long for a short DER length')
  return Buffer.concat([Buffer.from([tag, content.length]), content])
}

/** The SubjectPublicKeyInfo of a raw point (compressed or not: OpenSSL reads both, as Web Crypto's `raw` import does). */
export function ecSpki(curve: FastCurve['name'], point: Uint8Array): Buffer {
  return der(0x30, Buffer.concat([Buffer.from(ALGORITHM[curve], 'hex'), der(0x03, Buffer.concat([Buffer.from([0]), point]))]))
}

/** Bytes of a coordinate on each curve. */
const SIZE: Readonly<Record<FastCurve['name'], number>> = { 'P-256': 32, 'P-384': 48 }

/**
 * Whether `point` has the form of a point other than infinity: compressed (`02`/`03` and x), uncompressed
 * (`04`, x, y) or hybrid (`06`/`07`, x, y), as Web Crypto's `raw` import accepts. Node 20's
 * `createPublicKey` takes the point at infinity (the one byte `00`) that Web Crypto refuses, and
 * `crypto.verify` with that key ends the process (a segmentation fault): such a point, and any other
 * form, is left to noble (undefined), which refuses it.
 */
function pointForm(curve: FastCurve['name'], point: Uint8Array): boolean {
  const size = SIZE[curve]
  const form = point[0]
  return ((form === 0x02 || form === 0x03) && point.length === 1 + size) || ((form === 0x04 || form === 0x06 || form === 0x07) && point.length === 1 + 2 * size)
}

/** ECDSA over `data` by `node:crypto`: true or false, or undefined when it cannot say (a point it refuses, a hash it lacks). */
export function ecdsaNative(curve: FastCurve['name'], hash: HashName, publicKey: Uint8Array, data: Uint8Array, raw: Uint8Array): boolean | undefined {
  const name = NODE_HASH[hash]
  if (name === undefined || !pointForm(curve, publicKey)) return undefined
  try {
    const key = createPublicKey({ key: ecSpki(curve, publicKey), format: 'der', type: 'spki' })
    return verify(name, data, { key, dsaEncoding: 'ieee-p1363' }, raw)
  } catch {
    return undefined
  }
}

/** The fast path of `verifyEcdsa` in the verify bundle: {@link ecdsaNative} (the core's signature: a promise). */
export function ecdsaFastPath(curve: FastCurve, hash: HashName, publicKey: Uint8Array, data: Uint8Array, raw: Uint8Array): Promise<boolean | undefined> {
  return Promise.resolve(ecdsaNative(curve.name, hash, publicKey, data, raw))
}
