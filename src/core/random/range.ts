/**
 * Integers in `[min, max]`, with or without repetition, of any size up to a width of 2^256.
 *
 * @module
 */
import { InvalidInputError, LimitExceededError } from '../errors.js'
import { LIMITS, checkLimit } from '../limits.js'
import type { RandomStream } from './stream.js'
import { bigSampler, drawBig, drawIndex } from './uniform.js'

const MAX_WIDTH = 1n << BigInt(LIMITS.maxRangeWidthBits)
const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER)

/** Uniform in `[0, n)` for `n >= 1n`; the same draw as `uniformBigInt`, without re-validating. */
function draw(stream: RandomStream, n: bigint): bigint {
  if (n === 1n) return 0n
  if (n <= MAX_SAFE_BIG) return BigInt(drawIndex(stream, Number(n)))
  return drawBig(stream, bigSampler(n))
}

/**
 * `count` integers in `[min, max]` (both included).
 *
 * With `width = max - min + 1`:
 * - `distinct = false`: each value is `min + uniformBigInt(stream, width)`, in order;
 * - `distinct = true`: the first `count` positions of a forward Fisher–Yates shuffle of `[0, width)`
 *   (sparse, O(count) memory: for `i = 0 .. count - 1`, `j = i + uniformBigInt(stream, width - i)`,
 *   swap positions `i` and `j`, output position `i`), each plus `min`. This is the same rule as
 *   `pickIndices`, on bigints.
 *
 * `count = 0` returns `[]` without reading.
 *
 * @param stream - the random stream to read from.
 * @param min - smallest possible value (may be negative).
 * @param max - largest possible value, `max >= min`, `max - min + 1 <= 2^256`.
 * @param count - number of values, `0 <= count <= LIMITS.maxDrawCount` (and `<= width` when distinct).
 * @param distinct - `true` for values without repetition.
 * @returns the values in draw order.
 * @throws {@link InvalidInputError} when a bound is not a bigint, `min > max`, `count` is not a
 *   non-negative safe integer, or `distinct` and `count > width`.
 * @throws {@link LimitExceededError} when the width exceeds 2^256 or `count > LIMITS.maxDrawCount`.
 * @category Sampling
 */
export function rangeValues(stream: RandomStream, min: bigint, max: bigint, count: number, distinct: boolean): bigint[] {
  if (typeof min !== 'bigint' || typeof max !== 'bigint') {
    throw new InvalidInputError('INVALID_ARGUMENT', 'range bounds must be bigints', 'pass min and max as bigint values, e.g. 1n and 6n')
  }
  if (min > max) {
    throw new InvalidInputError('INVALID_ARGUMENT', `range min ${min} is greater than max ${max}`, 'pass min <= max')
  }
  const width = max - min + 1n
  if (width > MAX_WIDTH) {
    throw new LimitExceededError('LIMIT_EXCEEDED', `range width is ${width}, over the limit 2^maxRangeWidthBits = 2^${LIMITS.maxRangeWidthBits}`, 'reduce the range below the documented limit (see docs/security.md)')
  }
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new InvalidInputError('INVALID_ARGUMENT', `range count must be a non-negative integer, got ${String(count)}`, 'pass a whole number of values')
  }
  checkLimit('maxDrawCount', count, 'range count')
  if (typeof distinct !== 'boolean') {
    throw new InvalidInputError('INVALID_ARGUMENT', 'range distinct flag must be a boolean', 'pass true or false')
  }
  const out = new Array<bigint>(count)
  if (!distinct) {
    if (width === 1n) return out.fill(min)
    if (width <= MAX_SAFE_BIG) {
      const w = Number(width)
      for (let i = 0; i < count; i++) out[i] = min + BigInt(drawIndex(stream, w))
    } else {
      const s = bigSampler(width)
      for (let i = 0; i < count; i++) out[i] = min + drawBig(stream, s)
    }
    return out
  }
  if (BigInt(count) > width) {
    throw new InvalidInputError('INVALID_ARGUMENT', `cannot draw ${count} distinct values from a range of ${width}`, 'draw at most max - min + 1 distinct values, or allow repetition')
  }
  const moved = new Map<bigint, bigint>()
  for (let i = 0; i < count; i++) {
    const bi = BigInt(i)
    const j = bi + draw(stream, width - bi)
    const atI = moved.get(bi) ?? bi
    if (j === bi) {
      out[i] = atI + min
    } else {
      out[i] = (moved.get(j) ?? j) + min
      moved.set(j, atI)
    }
    moved.delete(bi)
  }
  return out
}
