/**
 * The version 2 seed of a mixed draw: the Orbitport block and the drand round, both bound.
 *
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { concatBytes, uintToBytesBE, utf8Encode } from '../bytes.js'
import { deriveSeed } from '../seed.js'
import { checkRound } from './chain.js'
import { roundRandomness } from './randomness.js'

/**
 * Domain-separation tag of the version 2 (mixed) seed (ASCII, followed by one zero byte).
 * @category Sampling
 */
export const SEED_DOMAIN_V2 = 'orbitdraw/v2/seed'

/**
 * Derives the seed of a mixed draw:
 * `SHA-256("orbitdraw/v2/seed" || 0x00 || S1 || u64be(R) || SHA-256(sig_R))`, where S1 is the
 * version 1 seed of the commitment and target block ({@link deriveSeed}: commitment CID, block CID and
 * `ctrng` values), R the committed round and sig_R its 48 signature bytes (SHA-256(sig_R) is drand's
 * randomness, recomputed, never read from a carried field).
 *
 * @throws {@link InvalidInputError} as {@link deriveSeed}, and `INVALID_DRAND_ROUND` / `INVALID_DRAND_SIGNATURE`.
 * @category Sampling
 */
export function deriveMixedSeed(commitmentCid: string, block: { readonly cid: string; readonly values: readonly Uint8Array[] }, drand: { readonly round: number; readonly signature: string }): Uint8Array {
  checkRound(drand.round)
  const s1 = deriveSeed(commitmentCid, block)
  return sha256(concatBytes(utf8Encode(SEED_DOMAIN_V2), new Uint8Array([0]), s1, uintToBytesBE(drand.round, 8), roundRandomness(drand.signature)))
}
