/**
 * `core/rsa-vp1.ts` for the CLI's verify bundle (Node only): RSAVP1, `s^e mod n` as bytes, by
 * `node:crypto` (`publicDecrypt` without padding: OpenSSL's raw public-key operation) instead of BigInt
 * arithmetic. Only that step: the key's bounds, the signature's length, the PKCS#1 v1.5 encoding compared
 * byte for byte and the PSS check stay in `core/rsa.ts`, which calls this only for a key within its
 * bounds (2048..8192-bit odd modulus, odd exponent 3..2^32-1) and a signature as long as the modulus. The same
 * integer is the same bytes, so the answers do not change (`test/node/native-rsa.test.ts` compares them
 * on valid, tampered, wrong-key, wrong-hash, PSS and malformed inputs).
 *
 * OpenSSL is asked only about such a key (this module checks again, {@link rsaNative}): Node 20.20 does
 * not fail on degenerate ones (an empty result for a modulus 0, an error for an even modulus or an
 * exponent not below it, `e` 0 or 1 taken as such), so anything else, and anything OpenSSL refuses (a
 * signature not below the modulus), is left to the core's JavaScript, whose answer stands.
 *
 * Why: a strict `orbitdraw verify` checks the IPNS record's RSA signature (and an RSA-signed time-stamp
 * token's), and the BigInt exponentiation and hex conversions run cold in a fresh process;
 * `node:crypto` is loaded for the digests anyway (docs/performance.md, Start-up). `scripts/build-cli.ts`
 * puts this module in the place of `rsa-vp1.js` in the verify bundle only.
 *
 * @module
 */
import { constants, createPublicKey, publicDecrypt } from 'node:crypto'
import { openSignature as openSignatureJs } from '../core/rsa-vp1.js'

/** An unsigned integer as JWK's base64url of its big-endian bytes. */
const base64url = (x: bigint): string => {
  const hex = x.toString(16)
  return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex').toString('base64url')
}

/** Whether OpenSSL is asked: an odd modulus of `len` bytes (256 to 1024: 2041 to 8192 bits), an odd exponent 3 <= e < 2^32, a signature of `len` bytes. */
function inBounds(n: bigint, e: bigint, signature: Uint8Array, len: number): boolean {
  return (
    len >= 256 && len <= 1024 && signature.length === len && (n & 1n) === 1n && n >> BigInt(8 * len - 8) !== 0n && n >> BigInt(8 * len) === 0n && (e & 1n) === 1n && e >= 3n && e >> 32n === 0n
  )
}

/**
 * `s^e mod n` as `len` bytes by OpenSSL, or undefined when OpenSSL is not asked (a key or signature
 * outside the bounds above) or refuses (a signature not below the modulus).
 */
export function rsaNative(key: { readonly n: bigint; readonly e: bigint }, signature: Uint8Array, len: number): Uint8Array | undefined {
  if (!inBounds(key.n, key.e, signature, len)) return undefined
  try {
    const publicKey = createPublicKey({ key: { kty: 'RSA', n: base64url(key.n), e: base64url(key.e) }, format: 'jwk' })
    const out = publicDecrypt({ key: publicKey, padding: constants.RSA_NO_PADDING }, signature)
    return out.length === len ? new Uint8Array(out) : undefined
  } catch {
    return undefined
  }
}

/** RSAVP1 then I2OSP, `core/rsa-vp1.ts`'s function: {@link rsaNative}'s bytes, else the core's JavaScript answer (bytes, or undefined when the signature is not below `n`). */
export function openSignature(key: { readonly n: bigint; readonly e: bigint }, signature: Uint8Array, len: number): Uint8Array | undefined {
  return rsaNative(key, signature, len) ?? openSignatureJs(key, signature, len)
}
