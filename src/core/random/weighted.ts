/**
 * Ranked distinct winners with probability proportional to positive integer weights.
 *
 * Rule, repeated `k` times: `W` = sum of the weights of the entries not yet drawn (exact, may exceed
 * 2^53); `r = uniformBigInt(stream, W)`; the winner is the first remaining entry, in the original order,
 * whose running sum of remaining weights exceeds `r`; it is removed.
 *
 * A Fenwick (binary indexed) tree over the weights makes each pick O(log n). It holds doubles while the
 * total weight is a safe integer (every partial sum is then an exact integer below 2^53) and bigints
 * otherwise; both give exactly the result of the linear scan.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { checkLimit } from '../limits.js'
import type { RandomStream } from './stream.js'
import { bigSampler, drawBig, drawIndex } from './uniform.js'

/**
 * `k` distinct winners drawn with probability proportional to `weights`, in rank order.
 *
 * `k = 0` returns `[]` without reading. When `k` equals the number of entries, the last winner is
 * forced and is still drawn by the rule (with `W` = its weight, so it consumes bytes unless `W = 1`).
 *
 * @param stream - the random stream to read from.
 * @param weights - one positive safe integer weight per entry (`1 <= w <= 2^53 - 1`).
 * @param k - number of winners, `0 <= k <= weights.length` and `k <= LIMITS.maxDrawCount`.
 * @returns `k` distinct indices into `weights`, first winner first.
 * @throws {@link InvalidInputError} when a weight is not a positive safe integer, `k` is not a
 *   non-negative safe integer, or `k > weights.length`.
 * @throws {@link LimitExceededError} when `weights.length > LIMITS.maxParticipants` or
 *   `k > LIMITS.maxDrawCount`.
 * @category Sampling
 */
export function weightedPick(stream: RandomStream, weights: readonly number[], k: number): number[] {
  if (!Array.isArray(weights)) {
    throw new InvalidInputError('INVALID_ARGUMENT', 'weights must be an array of positive integers', 'pass one weight per entry')
  }
  const n = weights.length
  checkLimit('maxParticipants', n, 'number of weights')
  if (!Number.isSafeInteger(k) || k < 0) {
    throw new InvalidInputError('INVALID_ARGUMENT', `winner count must be a non-negative integer, got ${String(k)}`, 'pass a whole number of winners')
  }
  if (k > n) {
    throw new InvalidInputError('INVALID_ARGUMENT', `cannot draw ${k} distinct winners from ${n} weighted entries`, 'draw at most as many winners as there are entries')
  }
  checkLimit('maxDrawCount', k, 'weighted winner count')
  let total = 0n
  let safe = true
  let sum = 0
  for (let i = 0; i < n; i++) {
    const w = weights[i]
    if (typeof w !== 'number' || !Number.isSafeInteger(w) || w < 1) {
      throw new InvalidInputError('INVALID_ARGUMENT', `weight ${i} must be a positive safe integer, got ${String(w)}`, 'use whole-number weights from 1 to 2^53 - 1')
    }
    if (safe) {
      sum += w
      if (!Number.isSafeInteger(sum)) safe = false
    }
  }
  if (k === 0) return []
  if (safe) return pickNumber(stream, weights, k)
  for (let i = 0; i < n; i++) total += BigInt(weights[i]!)
  return pickBig(stream, weights, k, total)
}

/** Largest power of two `<= n` (n >= 1). */
function topBit(n: number): number {
  let p = 1
  while (p * 2 <= n) p *= 2
  return p
}

/** Fenwick tree on doubles; valid because the total (hence every partial sum) is a safe integer. */
function pickNumber(stream: RandomStream, weights: readonly number[], k: number): number[] {
  const n = weights.length
  const tree = new Float64Array(n + 1)
  let total = 0
  for (let i = 1; i <= n; i++) {
    const w = weights[i - 1]!
    total += w
    tree[i] = tree[i]! + w
    const p = i + (i & -i)
    if (p <= n) tree[p] = tree[p]! + tree[i]!
  }
  const top = topBit(n)
  const out = new Array<number>(k)
  for (let t = 0; t < k; t++) {
    let rem = total === 1 ? 0 : drawIndex(stream, total)
    // Largest pos with prefix(pos) <= r; the winner is entry pos (0-based), the first whose running
    // sum of remaining weights exceeds r.
    let pos = 0
    for (let step = top; step > 0; step >>= 1) {
      const q = pos + step
      if (q <= n && tree[q]! <= rem) {
        pos = q
        rem -= tree[q]!
      }
    }
    out[t] = pos
    const w = weights[pos]!
    total -= w
    for (let i = pos + 1; i <= n; i += i & -i) tree[i] = tree[i]! - w
  }
  return out
}

/** Fenwick tree on bigints, for totals of 2^53 and above. */
function pickBig(stream: RandomStream, weights: readonly number[], k: number, total: bigint): number[] {
  const n = weights.length
  const tree = new Array<bigint>(n + 1).fill(0n)
  for (let i = 1; i <= n; i++) {
    tree[i] = tree[i]! + BigInt(weights[i - 1]!)
    const p = i + (i & -i)
    if (p <= n) tree[p] = tree[p]! + tree[i]!
  }
  const top = topBit(n)
  const maxSafe = BigInt(Number.MAX_SAFE_INTEGER)
  const out = new Array<number>(k)
  for (let t = 0; t < k; t++) {
    let rem = total === 1n ? 0n : total <= maxSafe ? BigInt(drawIndex(stream, Number(total))) : drawBig(stream, bigSampler(total))
    let pos = 0
    for (let step = top; step > 0; step >>= 1) {
      const q = pos + step
      if (q <= n && tree[q]! <= rem) {
        pos = q
        rem -= tree[q]!
      }
    }
    out[t] = pos
    const w = BigInt(weights[pos]!)
    total -= w
    for (let i = pos + 1; i <= n; i += i & -i) tree[i] = tree[i]! - w
  }
  return out
}
