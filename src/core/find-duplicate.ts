/**
 * Finding a repeated entry in a participants list in linear time (a hash table of 32-bit string hashes,
 * with a sort as the fallback when a hostile list makes the table probe too long). Used by
 * `participants.ts`, which re-exports it.
 *
 * @module
 */

function hash32(s: string): number {
  let h = 0x811c9dc5
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193)
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}

/**
 * @internal `[i, j]` with j the smallest index whose entry equals an earlier one (i its first occurrence),
 * or null. `probeBudget` bounds hash-table probing before falling back to sorting (exposed for tests).
 */
export function findDuplicate(entries: readonly string[], probeBudget = 64 * entries.length + 1024): [number, number] | null {
  const n = entries.length
  let cap = 16
  while (cap < n * 1.5) cap *= 2
  const mask = cap - 1
  const hashes = new Int32Array(n)
  for (let j = 0; j < n; j++) hashes[j] = hash32(entries[j]!)
  const table = new Int32Array(cap) // index + 1, 0 = empty
  let budget = probeBudget
  for (let j = 0; j < n; j++) {
    const h = hashes[j]!
    let slot = h & mask
    let t = table[slot]!
    while (t !== 0) {
      if (hashes[t - 1] === h && entries[t - 1] === entries[j]) return [t - 1, j]
      slot = (slot + 1) & mask
      t = table[slot]!
      if (--budget < 0) return findDuplicateBySort(entries)
    }
    table[slot] = j + 1
  }
  return null
}

function findDuplicateBySort(entries: readonly string[]): [number, number] | null {
  const idx = Array.from({ length: entries.length }, (_, i) => i)
  idx.sort((a, b) => {
    const x = entries[a]!
    const y = entries[b]!
    return x < y ? -1 : x > y ? 1 : a - b
  })
  let best: [number, number] | null = null
  for (let k = 1; k < idx.length; k++) {
    const a = idx[k - 1]!
    const b = idx[k]!
    // Within a run of equal strings (sorted by index) the pair (first, second) has the smallest later index.
    if (entries[a] === entries[b] && (k < 2 || entries[idx[k - 2]!] !== entries[a]) && (best === null || b < best[1])) best = [a, b]
  }
  return best
}
