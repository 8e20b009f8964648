/**
 * RSAVP1 (RFC 8017 §5.2.2) with I2OSP: the one step of an RSA signature check that is arithmetic, `s^e
 * mod n` as bytes, in pure JavaScript (BigInt). Everything that decides (the key's bounds, the
 * signature's length, the encoding compared byte for byte, PSS) stays in `rsa.ts`, which calls this
 * only for a key within its bounds and a signature exactly as long as the modulus.
 *
 * A module of its own so that the CLI's verify bundle can put `src/node/native-rsa.ts` (the same step by
 * `node:crypto`) in its place (`scripts/build-cli.ts`); the library and the page keep this one.
 *
 * Pure: no network, no clock, no Node modules.
 *
 * @module
 */
import { bytesToHex, hexToBytes } from './bytes.js'

/** Big-endian bytes to an integer (OS2IP), in one step from hex (not a bigint per byte). */
export function toInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${bytesToHex(bytes)}`)
}

/** A non-negative integer below 256^len to `len` big-endian bytes (I2OSP), through hex (not a bigint per byte). */
export function toBytes(x: bigint, len: number): Uint8Array {
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
export function openSignature(key: { readonly n: bigint; readonly e: bigint }, signature: Uint8Array, len: number): Uint8Array | undefined {
  const s = toInt(signature)
  if (s >= key.n) return undefined
  return toBytes(modPow(s, key.e, key.n), len)
}
