/**
 * A literal, slow transcription of RFC 9162 §2.1.1 (MTH) and §2.1.3.1 (PATH), recursive on the largest
 * power of two strictly smaller than n, and of the participants leaf encoding. Used as the independent
 * reference by the property tests and by scripts/make-merkle-vectors.ts. Shares no code with src/core.
 */
import { sha256 } from '@noble/hashes/sha2.js'

const cat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

/** Largest power of two strictly smaller than n (n > 1). */
export function splitPoint(n: number): number {
  let k = 1
  while (k * 2 < n) k *= 2
  return k
}

export function refLeafHash(d: Uint8Array): Uint8Array {
  return sha256(cat(Uint8Array.of(0), d))
}

export function refNodeHash(l: Uint8Array, r: Uint8Array): Uint8Array {
  return sha256(cat(Uint8Array.of(1), l, r))
}

/** MTH(D[n]) of RFC 9162 §2.1.1, literally. */
export function refMth(d: readonly Uint8Array[]): Uint8Array {
  const n = d.length
  if (n === 0) return sha256(new Uint8Array(0))
  if (n === 1) return refLeafHash(d[0]!)
  const k = splitPoint(n)
  return refNodeHash(refMth(d.slice(0, k)), refMth(d.slice(k)))
}

/** PATH(m, D[n]) of RFC 9162 §2.1.3.1, literally. */
export function refPath(m: number, d: readonly Uint8Array[]): Uint8Array[] {
  const n = d.length
  if (n === 1) return []
  const k = splitPoint(n)
  if (m < k) return [...refPath(m, d.slice(0, k)), refMth(d.slice(k))]
  return [...refPath(m - k, d.slice(k)), refMth(d.slice(0, k))]
}

/** Side of each audit-path sibling of leaf m in a tree of n leaves ('L' or 'R'), leaf level first: the path's shape. */
export function refDirections(m: number, n: number): string[] {
  if (n === 1) return []
  const k = splitPoint(n)
  if (m < k) return [...refDirections(m, k), 'R']
  return [...refDirections(m - k, n - k), 'L']
}

/** Leaf data of an unweighted entry: UTF-8 bytes. */
export function refLeaf(entry: string): Uint8Array {
  return new TextEncoder().encode(entry)
}

/** Leaf data of a weighted entry: 8-byte big-endian weight || UTF-8 bytes. */
export function refWeightedLeaf(entry: string, weight: number): Uint8Array {
  const w = new Uint8Array(8)
  new DataView(w.buffer).setBigUint64(0, BigInt(weight), false)
  return cat(w, refLeaf(entry))
}

export const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
export const fromHex = (h: string): Uint8Array => Uint8Array.from(h.match(/../g) ?? [], (x) => parseInt(x, 16))
