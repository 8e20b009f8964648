/** Test helpers for the sampling tests: streams that take the generic (non-fast) code paths. */
import { OrbitdrawError } from '../../../src/core/errors.js'
import type { RandomStream } from '../../../src/core/random/stream.js'

/** Wraps a stream so that samplers only see `nextBytes` (no fast path): same bytes, same consumption. */
export function opaque(inner: RandomStream): RandomStream {
  return {
    nextBytes: (n: number) => inner.nextBytes(n),
    get consumed() {
      return inner.consumed
    },
  }
}

/** A stream that yields exactly `bytes`, then throws. */
export function fixedStream(bytes: Uint8Array): RandomStream {
  let pos = 0
  return {
    nextBytes(n: number): Uint8Array {
      if (pos + n > bytes.length) throw new OrbitdrawError('TEST_STREAM_EXHAUSTED', 'fixed test stream exhausted', 'supply more bytes')
      const out = bytes.slice(pos, pos + n)
      pos += n
      return out
    },
    get consumed() {
      return pos
    },
  }
}

/** A 32-byte seed from a small integer label (fixed constants for statistical tests). */
export function seedOf(label: number): Uint8Array {
  const s = new Uint8Array(32)
  new DataView(s.buffer).setUint32(28, label)
  s[0] = 0x5e
  return s
}

/**
 * The rejection sampler exactly as the spec states it, on bigints over `nextBytes` only: reference for
 * the fast paths.
 */
export function specUniform(stream: RandomStream, n: bigint): bigint {
  if (n === 1n) return 0n
  const b = (n - 1n).toString(2).length
  const L = Math.ceil(b / 8)
  const mask = (1n << BigInt(b)) - 1n
  for (;;) {
    const bytes = stream.nextBytes(L)
    let v = 0n
    for (const x of bytes) v = (v << 8n) | BigInt(x)
    v &= mask
    if (v < n) return v
  }
}

/** Naive weighted rule (linear scan, bigints): reference for the Fenwick tree. */
export function naiveWeighted(stream: RandomStream, weights: readonly number[], k: number): number[] {
  const remaining = weights.map((w, i) => ({ w: BigInt(w), i }))
  const out: number[] = []
  for (let t = 0; t < k; t++) {
    const W = remaining.reduce((s, e) => s + e.w, 0n)
    const r = specUniform(stream, W)
    let run = 0n
    for (let p = 0; p < remaining.length; p++) {
      run += remaining[p]!.w
      if (run > r) {
        out.push(remaining[p]!.i)
        remaining.splice(p, 1)
        break
      }
    }
  }
  return out
}

/** Naive forward Fisher–Yates with the spec sampler, on a dense array. */
export function naiveShuffle(stream: RandomStream, n: number): number[] {
  const a = Array.from({ length: n }, (_, i) => i)
  for (let i = 0; i < n - 1; i++) {
    const j = i + Number(specUniform(stream, BigInt(n - i)))
    ;[a[i], a[j]] = [a[j]!, a[i]!]
  }
  return a
}
