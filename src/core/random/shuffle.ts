/**
 * Forward Fisher–Yates shuffle and O(k)-memory pick.
 *
 * Shuffle of `n` positions: for `i = 0 .. n - 2`, `j = i + uniformIndex(stream, n - i)`, swap positions
 * `i` and `j`. Position 0 is decided first, so `pick k` is exactly the first `k` positions of the
 * shuffle: the winners followed by a ranked, predetermined list of alternates.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { checkLimit } from '../limits.js'
import { ChaChaStream, type RandomStream } from './stream.js'
import { drawIndex } from './uniform.js'

function checkCount(name: string, v: number, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(v) || v < 0 || v > max) {
    throw new InvalidInputError('INVALID_ARGUMENT', `${name} must be an integer from 0 to ${max}, got ${String(v)}`, `pass a whole number ${name}`)
  }
}

/**
 * Shuffles `a` in place (forward Fisher–Yates): for `i = 0 .. n - 2`, `j = i + uniformIndex(n - i)`,
 * swap `a[i]` and `a[j]`.
 *
 * @internal
 */
export function shuffleInPlace(stream: RandomStream, a: Uint32Array): void {
  const n = a.length
  if (stream instanceof ChaChaStream) {
    shuffleFast(stream, a)
    return
  }
  for (let i = 0; i < n - 1; i++) {
    const j = i + drawIndex(stream, n - i)
    const t = a[i]!
    a[i] = a[j]!
    a[j] = t
  }
}

/**
 * The same loop as {@link shuffleInPlace} with the rejection sampler inlined and bytes read straight
 * from the keystream buffer (no call or allocation per draw). Identical output and consumption.
 * `a.length <= 2^32 - 1`, so every draw reads at most 4 bytes.
 */
function shuffleFast(s: ChaChaStream, a: Uint32Array): void {
  const n = a.length
  let buf = s.buf
  let pos = s.pos
  let end = s.end
  let m = n
  // L and topMask only change when the bit length b of m - 1 drops.
  let L = 0
  let topMask = 0
  let nextChange = 0 // recompute when m - 1 < 2^(b-1)
  for (let i = 0; i < n - 1; i++, m--) {
    if (m - 1 < nextChange || L === 0) {
      const b = 32 - Math.clz32(m - 1)
      L = (b + 7) >> 3
      topMask = (1 << (b - 8 * (L - 1))) - 1
      nextChange = 2 ** (b - 1)
    }
    let x: number
    do {
      if (pos + L > end) {
        s.pos = pos
        s.refill()
        buf = s.buf
        pos = s.pos
        end = s.end
      }
      switch (L) {
        case 1:
          x = buf[pos]! & topMask
          break
        case 2:
          x = ((buf[pos]! & topMask) << 8) | buf[pos + 1]!
          break
        case 3:
          x = ((buf[pos]! & topMask) << 16) | (buf[pos + 1]! << 8) | buf[pos + 2]!
          break
        default:
          x = (buf[pos]! & topMask) * 16777216 + ((buf[pos + 1]! << 16) | (buf[pos + 2]! << 8) | buf[pos + 3]!)
      }
      pos += L
    } while (x >= m)
    const j = i + x
    const t = a[i]!
    a[i] = a[j]!
    a[j] = t
  }
  s.pos = pos
}

/**
 * The shuffled order of positions `0 .. n - 1`: entry `r` is the original position placed at rank `r`.
 *
 * Returns a `Uint32Array` (compact and faster to shuffle than a `number[]`), so `n <= 2^32 - 1`; it
 * is also capped by `LIMITS.maxParticipants`.
 *
 * @param stream - the random stream to read from.
 * @param n - number of positions, `0 <= n <= LIMITS.maxParticipants`.
 * @throws {@link InvalidInputError} when `n` is not a non-negative safe integer.
 * @throws {@link LimitExceededError} when `n > LIMITS.maxParticipants`.
 * @category Sampling
 */
export function shuffleIndices(stream: RandomStream, n: number): Uint32Array {
  checkCount('n', n)
  checkLimit('maxParticipants', n, 'shuffle size')
  const a = new Uint32Array(n)
  for (let i = 0; i < n; i++) a[i] = i
  shuffleInPlace(stream, a)
  return a
}

/**
 * A shuffled copy of `items` (forward Fisher–Yates); `items` is not modified. The result equals
 * `Array.from(shuffleIndices(stream, items.length), (i) => items[i])` and consumes the same bytes.
 *
 * @param stream - the random stream to read from.
 * @param items - the entries to shuffle.
 * @returns a new array with the same entries in shuffled order.
 * @category Sampling
 */
export function shuffle<T>(stream: RandomStream, items: readonly T[]): T[] {
  const order = shuffleIndices(stream, items.length)
  const out = new Array<T>(order.length)
  for (let r = 0; r < order.length; r++) out[r] = items[order[r]!]!
  return out
}

/**
 * The first `k` positions of the shuffle of `0 .. n - 1`, in rank order, without materializing it:
 * sparse Fisher–Yates with a map of displaced positions, so time and memory are O(k) whatever `n`.
 * Equal to the first `k` entries of {@link shuffleIndices}`(stream, n)` (same bytes consumed too, when
 * `k = n`). `k = 0` is allowed and returns `[]` without reading.
 *
 * @param stream - the random stream to read from.
 * @param n - number of positions, a safe integer `0 <= n <= 2^53 - 1`.
 * @param k - number of picks, `0 <= k <= n` and `k <= LIMITS.maxDrawCount`.
 * @returns `k` distinct integers in `[0, n)`, ranked (winners first, then alternates).
 * @throws {@link InvalidInputError} when `n` or `k` is not a non-negative safe integer or `k > n`.
 * @throws {@link LimitExceededError} when `k > LIMITS.maxDrawCount`.
 * @category Sampling
 */
export function pickIndices(stream: RandomStream, n: number, k: number): number[] {
  checkCount('n', n)
  checkCount('k', k)
  if (k > n) {
    throw new InvalidInputError('INVALID_ARGUMENT', `cannot pick ${k} distinct positions out of ${n}`, 'pick at most n positions')
  }
  checkLimit('maxDrawCount', k, 'pick count')
  const out = new Array<number>(k)
  const moved = new Map<number, number>()
  for (let i = 0; i < k; i++) {
    const m = n - i
    const j = m === 1 ? i : i + drawIndex(stream, m)
    const atI = moved.get(i) ?? i
    if (j === i) {
      out[i] = atI
    } else {
      out[i] = moved.get(j) ?? j
      moved.set(j, atI)
    }
    // Position i is never read again (every later j is > i).
    moved.delete(i)
  }
  return out
}
