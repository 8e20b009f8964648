/**
 * drand round verification for the {@link DRAND_SCHEME} scheme (quicknet): the BLS12-381 signature of a
 * round under the chain's public key, and the round's randomness recomputed from its signature (a
 * carried `randomness` is never trusted). Pure: runs in browsers and Node.
 *
 * @module
 */
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '../bytes.js'
import { InvalidInputError } from '../errors.js'
import { checkRound, type DrandChainInfo } from './chain.js'
import { roundRandomness, SIGNATURE_HEX } from './randomness.js'

export { roundRandomness }

/**
 * The hash-to-curve domain-separation tag of {@link DRAND_SCHEME} (RFC 9380, G1, SHA-256, SSWU, random oracle).
 * @category Drand
 */
export const DRAND_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_'


/**
 * A drand round as published: its number and its signature (96 lowercase hex digits).
 * @category Drand
 */
export interface DrandRound {
  readonly round: number
  readonly signature: string
}

/**
 * The message a round signs: SHA-256 of the round number as 8 bytes big-endian.
 * @category Drand
 */
export function roundMessage(round: number): Uint8Array {
  checkRound(round)
  const m = new Uint8Array(8)
  new DataView(m.buffer).setBigUint64(0, BigInt(round))
  return sha256(m)
}

/**
 * Whether `signature` is the chain's valid signature of round `round`. Never throws on a bad
 * signature (wrong length, not a point, not in the subgroup, wrong round): returns false.
 *
 * @example
 * ```ts
 * verifyRoundSignature(DRAND_QUICKNET, { round: 657413, signature: 'b713718a…' }) // true
 * ```
 * @throws {@link InvalidInputError} only for a round that is not an integer from 1, or a malformed public key.
 * @category Drand
 */
export function verifyRoundSignature(chain: Pick<DrandChainInfo, 'publicKey'>, r: DrandRound): boolean {
  const message = roundMessage(r.round)
  if (typeof r.signature !== 'string' || !SIGNATURE_HEX.test(r.signature)) return false
  const bls = bls12_381.shortSignatures
  let publicKey
  try {
    publicKey = bls12_381.G2.Point.fromHex(chain.publicKey)
    publicKey.assertValidity()
  } catch (cause) {
    throw new InvalidInputError('INVALID_PUBLIC_KEY', 'the drand chain\'s public key is not a valid G2 point', 'pin the chain\'s public key exactly as its /info serves it', { cause })
  }
  try {
    const sig = bls12_381.G1.Point.fromHex(r.signature)
    sig.assertValidity()
    return bls.verify(sig, bls.hash(message, DRAND_DST), publicKey)
  } catch {
    return false
  }
}

/**
 * Signs round `round` with a BLS12-381 secret key in the {@link DRAND_SCHEME} scheme (the emulator's
 * drand chain and tests). Returns the signature as 96 hex digits.
 * @category Drand
 */
export function signRound(secretKey: Uint8Array, round: number): string {
  const bls = bls12_381.shortSignatures
  return bytesToHex(bls.sign(bls.hash(roundMessage(round), DRAND_DST), secretKey).toBytes(true))
}

/**
 * The compressed G2 public key (192 hex digits) of a BLS12-381 secret key (emulator and tests).
 * @category Drand
 */
export function publicKeyOf(secretKey: Uint8Array): string {
  return bytesToHex(bls12_381.shortSignatures.getPublicKey(secretKey).toBytes(true))
}
