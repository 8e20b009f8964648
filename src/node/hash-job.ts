/**
 * What crosses to a hash worker thread and back: one job over a contiguous slice of a validated
 * participants list, and the roots of its aligned chunks (shared by the worker, `hash-worker.ts`, and
 * every caller of the pool, `hash-pool.ts`).
 *
 * @module
 */
import { rootOfLeafWords } from '../core/merkle.js'

/** @internal A worker's job: one slice of a validated list. */
export interface HashJob {
  /** The slice's entries joined with `\n`. */
  entries: string
  /** Weights of the slice, or null. */
  weights: Float64Array | null
  /** The organizer secret (32 bytes), or null. */
  secret: Uint8Array | null
  /** The slice's given salts, packed (32 bytes each), or null. */
  salts: Uint8Array | null
  /** List position of the slice's first entry. */
  firstIndex: number
  /** Chunk size (a power of two). */
  chunk: number
  /**
   * 0: answer the roots of the slice's chunks (one Int32Array); k > 0: answer the slice's tree levels
   * `0..k` (an array of Int32Array, see `lowerLevels`), for `participantsTreeParallel`. Default 0.
   */
  levels?: number
}

/** @internal Roots of consecutive chunks of `chunk` leaves (the last may be shorter), as words. */
export function chunkRoots(words: Int32Array, n: number, chunk: number): Int32Array {
  const count = Math.ceil(n / chunk)
  const out = new Int32Array(count * 8)
  for (let j = 0; j < count; j++) {
    const size = Math.min(chunk, n - j * chunk)
    const root = rootOfLeafWords(words.subarray(j * chunk * 8, (j * chunk + size) * 8), size)
    for (let k = 0; k < 8; k++) out[j * 8 + k] = (root[4 * k]! << 24) | (root[4 * k + 1]! << 16) | (root[4 * k + 2]! << 8) | root[4 * k + 3]!
  }
  return out
}
