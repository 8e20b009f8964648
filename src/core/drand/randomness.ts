/**
 * A drand round's randomness, SHA-256 of its signature bytes: no pairing code (the seed needs only this;
 * the signature itself is checked by `beacon.ts`, which the verifier loads lazily).
 *
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { hexToBytes } from '../bytes.js'
import { InvalidInputError } from '../errors.js'

/** Hex digits of a compressed G1 signature (48 bytes). */
export const SIGNATURE_HEX = /^[0-9a-f]{96}$/

/**
 * The round's randomness: SHA-256 of its signature bytes (what drand serves as `randomness`).
 * @throws {@link InvalidInputError} `INVALID_DRAND_SIGNATURE` unless the signature is 96 lowercase hex digits.
 * @category Drand
 */
export function roundRandomness(signature: string): Uint8Array {
  if (typeof signature !== 'string' || !SIGNATURE_HEX.test(signature)) {
    throw new InvalidInputError('INVALID_DRAND_SIGNATURE', 'a drand signature must be 96 lowercase hex digits (a compressed G1 point)', 'copy "signature" from the round as drand serves it')
  }
  return sha256(hexToBytes(signature))
}
