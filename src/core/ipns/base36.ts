/**
 * The base36 multibase codec of IPNS names (`k…`) with multiformats' `base36` answers, but converted
 * through one BigInt instead of base-x's digit-by-digit loop, which takes time quadratic in the length
 * and runs cold in a fresh process: a `verify` decodes and encodes its beacon's name and the record
 * key's name (docs/performance.md, Start-up). Text of base-x's alphabet (`0-9`, `a-z`, either case) and
 * byte arrays are converted here, by base-x's rules (a leading `0` for each leading zero byte);
 * anything else goes to multiformats' `base36`, for its own answer or error.
 * `test/core/ipns/base36.test.ts` compares the two.
 *
 * Pure: no network, no clock, no Node modules.
 *
 * @module
 */
import { base36 as baseX36 } from 'multiformats/bases/base36'
import type { MultibaseDecoder, MultibaseEncoder } from 'multiformats/bases/interface'
import { bytesToHex, hexToBytes } from '../bytes.js'

/** A base36 multibase string of base-x's alphabet, either case (multiformats' `base36` is case-insensitive). */
const DIGITS = /^k[0-9a-z]*$/i
/** Digits converted at once: 36^10 < 2^53, so `parseInt` of ten digits is exact. */
const CHUNK = 10

/** multiformats' `base36` (prefix `k`) as `CID.parse` and `CID.toString` use it, by BigInt. */
export const base36: MultibaseEncoder<'k'> & MultibaseDecoder<'k'> = {
  name: 'base36',
  prefix: 'k',
  encode(bytes: Uint8Array): string {
    if (!(bytes instanceof Uint8Array)) return baseX36.encode(bytes)
    let zeroes = 0
    while (zeroes < bytes.length && bytes[zeroes] === 0) zeroes++
    const rest = bytes.subarray(zeroes)
    return `k${'0'.repeat(zeroes)}${rest.length === 0 ? '' : BigInt(`0x${bytesToHex(rest)}`).toString(36)}`
  },
  decode(text: string): Uint8Array<ArrayBuffer> {
    if (typeof text !== 'string' || !DIGITS.test(text) || text[0] !== 'k') return baseX36.decode(text)
    let zeroes = 1
    while (text.charCodeAt(zeroes) === 0x30 /* 0 */) zeroes++
    let n = 0n
    for (let at = zeroes, len = (text.length - zeroes) % CHUNK || CHUNK; at < text.length; at += len, len = CHUNK) {
      n = n * 36n ** BigInt(len) + BigInt(parseInt(text.slice(at, at + len), 36))
    }
    const hex = n === 0n ? '' : n.toString(16)
    const out = new Uint8Array(zeroes - 1 + Math.ceil(hex.length / 2))
    out.set(hexToBytes(hex.length % 2 === 0 ? hex : `0${hex}`), zeroes - 1)
    return out
  },
}
