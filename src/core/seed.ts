/**
 * The draw seed: 32 bytes, domain-separated, binding the protocol version, the commitment's CID and
 * the target block (its CID and its `ctrng` values). Two draws committing to the same block have
 * different commitment CIDs and so independent seeds.
 *
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { CID } from 'multiformats/cid'
import { concatBytes, uintToBytesBE, utf8Encode } from './bytes.js'
import { InvalidInputError } from './errors.js'

/** Multicodec code of `raw`, the codec of beacon blocks. */
const RAW_CODEC = 0x55

/**
 * Domain-separation tag of the version 1 seed (ASCII, followed by one zero byte).
 * @category Sampling
 */
export const SEED_DOMAIN_V1 = 'orbitdraw/v1/seed'

/**
 * Derives the seed:
 * `SHA-256("orbitdraw/v1/seed" || 0x00 || u16be(len C) || C || u16be(len B) || B || u32be(m) || v_1 || … || v_m)`
 * where C is the binary CIDv1 of the commitment, B the binary CIDv1 (raw codec 0x55, sha2-256) of the
 * target block (whatever CID form was passed), and
 * v_1…v_m its `ctrng` values (32 bytes each) in block order.
 *
 * @throws {@link InvalidInputError} when the block carries no `ctrng` value (no randomness to draw from).
 * @category Sampling
 */
export function deriveSeed(commitmentCid: string, block: { readonly cid: string; readonly values: readonly Uint8Array[] }): Uint8Array {
  if (block.values.length === 0) {
    throw new InvalidInputError('NO_RANDOMNESS', 'the target block carries no ctrng values', 'a draw needs a block with randomness; this block (for example genesis) cannot decide a draw')
  }
  const c = CID.parse(commitmentCid).toV1().bytes
  // Always the raw-codec CIDv1 of the block's multihash, whatever form the caller's CID string has.
  const b = CID.createV1(RAW_CODEC, CID.parse(block.cid).multihash).bytes
  const parts: Uint8Array[] = [utf8Encode(SEED_DOMAIN_V1), new Uint8Array([0]), uintToBytesBE(c.length, 2), c, uintToBytesBE(b.length, 2), b, uintToBytesBE(block.values.length, 4)]
  for (const v of block.values) {
    if (v.length !== 32) throw new InvalidInputError('INVALID_CTRNG', `a ctrng value has ${v.length} bytes, expected 32`, 'use values parsed by parseBlock')
    parts.push(v)
  }
  return sha256(concatBytes(...parts))
}
