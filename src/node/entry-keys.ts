/**
 * Duplicate and look-alike detection over a list read as a stream, without holding it: each entry
 * leaves one 64-bit key (a 38-bit hash of the entry, or of its UTS #39 confusable skeleton, then its
 * 26-bit index); sorting the keys (one native typed-array sort) puts equal hashes side by side, and only
 * those few candidates are read again and compared exactly (`findRepeats`): the first duplicate (the
 * core's `ENTRY_DUPLICATE` pair) and the look-alike groups (`findConfusableEntries`'s).
 *
 * @module
 */
import { skeleton, type ConfusableGroup } from '../confusables.js'

/** Bits of a key that hold the entry's index (entries up to 2^26 - 1; checked against `LIMITS`). */
export const INDEX_BITS = 26
const INDEX_MASK = (1 << INDEX_BITS) - 1

/** A key function: writes entry `g`'s key into element `g` of the keys (as little-endian word pairs). */
export type KeyInto = (s: string, g: number, words: Uint32Array) => void

/** The key of entry `g`: 38 bits of a hash of the string's UTF-16 units, then the 26-bit index. */
export function entryHashInto(s: string, g: number, words: Uint32Array): void {
  let h1 = 0x811c9dc5
  let h2 = 0x01000193
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k)
    h1 = Math.imul(h1 ^ c, 0x01000193)
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15)
  }
  writeKey(h1, h2, g, words)
}

function writeKey(h1: number, h2: number, g: number, words: Uint32Array): void {
  h1 ^= h1 >>> 16
  h1 = Math.imul(h1, 0x85ebca6b)
  h1 ^= h1 >>> 13
  h2 ^= h2 >>> 16
  h2 = Math.imul(h2, 0xc2b2ae35)
  h2 ^= h2 >>> 16
  // Little-endian BigUint64 element g: low word at 2g, high word at 2g + 1.
  words[2 * g + 1] = h1 >>> 0
  words[2 * g] = (((h2 >>> 0) & ~INDEX_MASK) | g) >>> 0
}

/** Prototypes of the ASCII characters (UTS #39 skeleton of each), when every one is ASCII itself. */
let asciiSkeletons: string[] | null | undefined

function asciiTable(): string[] | null {
  if (asciiSkeletons !== undefined) return asciiSkeletons
  const table: string[] = []
  for (let c = 0; c < 128; c++) {
    const k = skeleton(String.fromCharCode(c))
    for (let i = 0; i < k.length; i++) if (k.charCodeAt(i) > 0x7f) return (asciiSkeletons = null)
    table.push(k)
  }
  return (asciiSkeletons = table)
}

/**
 * The key of entry `g` by its confusable skeleton: the same hash over the skeleton's UTF-16 units. An
 * ASCII entry's skeleton is the concatenation of its characters' skeletons (NFD leaves ASCII alone), so
 * it is hashed without building the string; any other entry goes through `skeleton()`.
 */
export function skeletonHashInto(s: string, g: number, words: Uint32Array): void {
  const table = asciiTable()
  let ascii = table !== null
  if (ascii) {
    for (let k = 0; k < s.length; k++) {
      if (s.charCodeAt(k) > 0x7f) {
        ascii = false
        break
      }
    }
  }
  if (!ascii) {
    entryHashInto(skeleton(s), g, words)
    return
  }
  let h1 = 0x811c9dc5
  let h2 = 0x01000193
  for (let k = 0; k < s.length; k++) {
    const p = table![s.charCodeAt(k)]!
    for (let m = 0; m < p.length; m++) {
      const c = p.charCodeAt(m)
      h1 = Math.imul(h1 ^ c, 0x01000193)
      h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15)
    }
  }
  writeKey(h1, h2, g, words)
}


/** What {@link findRepeats} found. */
export interface Repeats {
  /** The first duplicate: `[i, j]`, entry `j` (the smallest such) equal to the earlier entry `i`; or null. */
  readonly duplicate: readonly [number, number] | null
  /** The look-alike groups (with `confusables`), ordered by their first index. */
  readonly groups: ConfusableGroup[]
}

/**
 * Sorts `keys` (in place: they are garbage afterwards), reads the candidates (entries whose hashes
 * agree) with `read`, and compares them exactly.
 */
export async function findRepeats(keys: BigUint64Array, count: number, confusables: boolean, read: (indices: readonly number[]) => Promise<string[]>): Promise<Repeats> {
  keys.sort()
  const words = new Uint32Array(keys.buffer, keys.byteOffset, keys.length * 2)
  // Runs of keys whose 38 hash bits agree: the only entries that can be equal (or look alike).
  const candidates: number[][] = []
  for (let a = 0; a < count; ) {
    let b = a + 1
    const hi = words[2 * a + 1]!
    const lo = words[2 * a]! & ~INDEX_MASK
    while (b < count && words[2 * b + 1] === hi && (words[2 * b]! & ~INDEX_MASK) >>> 0 === lo >>> 0) b++
    if (b - a > 1) {
      const run: number[] = []
      for (let k = a; k < b; k++) run.push(words[2 * k]! & INDEX_MASK)
      candidates.push(run)
    }
    a = b
  }
  const all = [...new Set(candidates.flat())].sort((x, y) => x - y)
  const text = new Map<number, string>()
  const got = await read(all)
  all.forEach((g, k) => text.set(g, got[k]!))
  // Duplicates: the smallest later index j equal to an earlier entry, and that entry's first occurrence.
  let dup: [number, number] | null = null
  const groups: ConfusableGroup[] = []
  for (const run of candidates) {
    const firstOf = new Map<string, number>()
    for (const g of run) {
      const s = text.get(g)!
      const i = firstOf.get(s)
      if (i === undefined) firstOf.set(s, g)
      else if (dup === null || g < dup[1]) dup = [i, g]
    }
    if (confusables) {
      const bySkeleton = new Map<string, number[]>()
      for (const g of run) {
        const k = skeleton(text.get(g)!)
        const list = bySkeleton.get(k)
        if (list === undefined) bySkeleton.set(k, [g])
        else list.push(g)
      }
      for (const [k, indices] of bySkeleton) if (indices.length > 1) groups.push({ skeleton: k, indices: indices.sort((x, y) => x - y) })
    }
  }
  groups.sort((x, y) => x.indices[0]! - y.indices[0]!)
  return { duplicate: dup, groups }
}
