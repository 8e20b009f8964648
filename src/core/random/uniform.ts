/**
 * Exact uniform integers in `[0, n)` by rejection sampling. One algorithm for every size:
 *
 * - `n = 1`: the result is 0 and nothing is read;
 * - otherwise let `b` = bit length of `n - 1` and `L = ceil(b / 8)`; read `L` bytes, interpret them as a
 *   big-endian unsigned integer, keep its low `b` bits; accept the value if it is `< n`, else read again.
 *
 * {@link uniformIndex} (numbers) and {@link uniformBigInt} (bigints) give identical values and consume
 * identical bytes for the same `n`. No floating-point arithmetic takes part in any decision: every
 * number handled is an integer below 2^53, where doubles are exact.
 *
 * @module
 */
import { InvalidInputError, LimitExceededError } from '../errors.js'
import { LIMITS } from '../limits.js'
import { ChaChaStream, type RandomStream } from './stream.js'

const TWO32 = 4294967296
/** Largest `n` accepted by {@link uniformBigInt}: 2^LIMITS.maxRangeWidthBits. */
const MAX_BIG_N = 1n << BigInt(LIMITS.maxRangeWidthBits)
const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER)

/** Bit length of `m` for a safe integer `m >= 0` (0 for 0). */
export function bitLength(m: number): number {
  if (m < TWO32) return 32 - Math.clz32(m)
  return 64 - Math.clz32(Math.floor(m / TWO32))
}

/**
 * Draws from `[0, n)` for a safe integer `n >= 2` that the caller has validated. Internal hot path
 * shared by the shuffle, pick and weighted samplers.
 *
 * @internal
 */
export function drawIndex(stream: RandomStream, n: number): number {
  const b = bitLength(n - 1)
  const L = (b + 7) >> 3
  // Masking the low b bits of an L-byte big-endian integer = masking the top byte to its low bits.
  const topMask = (1 << (b - 8 * (L - 1))) - 1
  if (stream instanceof ChaChaStream) {
    for (;;) {
      let pos = stream.pos
      if (pos + L > stream.end) {
        stream.refill()
        pos = stream.pos
      }
      const buf = stream.buf
      let x = buf[pos]! & topMask
      for (let k = 1; k < L; k++) x = x * 256 + buf[pos + k]!
      stream.pos = pos + L
      if (x < n) return x
    }
  }
  for (;;) {
    const bytes = stream.nextBytes(L)
    let x = bytes[0]! & topMask
    for (let k = 1; k < L; k++) x = x * 256 + bytes[k]!
    if (x < n) return x
  }
}

/**
 * Exact uniform integer in `[0, n)` for a safe integer `n`.
 *
 * Same result and same bytes consumed as {@link uniformBigInt} with `BigInt(n)`.
 *
 * @param stream - the random stream to read from.
 * @param n - the number of possible values, a safe integer with `1 <= n <= 2^53 - 1`.
 * @returns an integer `0 <= x < n`; for `n = 1` returns 0 without reading.
 * @throws {@link InvalidInputError} (`INVALID_ARGUMENT`) when `n` is not a safe integer `>= 1`.
 * @category Sampling
 */
export function uniformIndex(stream: RandomStream, n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new InvalidInputError('INVALID_ARGUMENT', `uniformIndex needs a safe integer n >= 1, got ${String(n)}`, 'use uniformBigInt for bounds of 2^53 and above')
  }
  return n === 1 ? 0 : drawIndex(stream, n)
}

/** Precomputed shape of the rejection sampler for one bigint bound. @internal */
export interface BigSampler {
  readonly n: bigint
  readonly L: number
  readonly topMask: number
}

/** Precomputes {@link BigSampler} for `n >= 2`. @internal */
export function bigSampler(n: bigint): BigSampler {
  const b = (n - 1n).toString(2).length
  const L = (b + 7) >> 3
  return { n, L, topMask: (1 << (b - 8 * (L - 1))) - 1 }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/**
 * The rejection sampler on bigints, for any `n >= 2`, with no fast path. Used for `n >= 2^53` and, in
 * tests, as the reference the number path is checked against.
 *
 * @internal
 */
export function drawBig(stream: RandomStream, s: BigSampler): bigint {
  for (;;) {
    const bytes = stream.nextBytes(s.L)
    let hex = '0x' + HEX[bytes[0]! & s.topMask]!
    for (let k = 1; k < bytes.length; k++) hex += HEX[bytes[k]!]!
    const x = BigInt(hex)
    if (x < s.n) return x
  }
}

/**
 * Exact uniform integer in `[0, n)` for a bigint `n` of any size up to 2^{@link LIMITS.maxRangeWidthBits}.
 *
 * For `n <= 2^53 - 1` this reads exactly what {@link uniformIndex} reads and returns the same value.
 *
 * @param stream - the random stream to read from.
 * @param n - the number of possible values, `1n <= n <= 2n ** 256n`.
 * @returns a bigint `0n <= x < n`; for `n = 1n` returns `0n` without reading.
 * @throws {@link InvalidInputError} (`INVALID_ARGUMENT`) when `n` is not a bigint `>= 1n`.
 * @throws {@link LimitExceededError} (`LIMIT_EXCEEDED`) when `n > 2^256`.
 * @category Sampling
 */
export function uniformBigInt(stream: RandomStream, n: bigint): bigint {
  if (typeof n !== 'bigint' || n < 1n) {
    throw new InvalidInputError('INVALID_ARGUMENT', `uniformBigInt needs a bigint n >= 1n, got ${String(n)}`, 'pass the number of possible values as a positive bigint')
  }
  if (n > MAX_BIG_N) {
    throw new LimitExceededError('LIMIT_EXCEEDED', `uniformBigInt bound is ${n}, over the limit 2^maxRangeWidthBits = 2^${LIMITS.maxRangeWidthBits}`, 'reduce the range below the documented limit (see docs/security.md)')
  }
  if (n === 1n) return 0n
  if (n <= MAX_SAFE_BIG) return BigInt(drawIndex(stream, Number(n)))
  return drawBig(stream, bigSampler(n))
}
