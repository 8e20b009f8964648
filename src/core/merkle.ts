/**
 * RFC 9162 (Certificate Transparency v2) §2.1 Merkle Tree Hash over SHA-256: leaf and node hashes, the
 * tree head (MTH), inclusion proofs (audit paths, §2.1.3.1) and their verification (§2.1.3.2).
 *
 * - `leafHash(d)   = SHA-256(0x00 || d)`
 * - `nodeHash(l,r) = SHA-256(0x01 || l || r)`
 * - `MTH({})       = SHA-256("")`, `MTH({d0}) = leafHash(d0)`, and for n > 1, with k the largest power of
 *   two strictly smaller than n: `MTH(D[n]) = nodeHash(MTH(D[0:k]), MTH(D[k:n]))`.
 *
 * Trees are computed bottom-up: each level hashes adjacent pairs and carries a last unpaired node up
 * unchanged. That gives exactly the RFC's recursive split (the tests check it against a literal recursive
 * implementation), in one pass per level over a packed array of hashes kept as 32-bit words (8 per hash)
 * and hashed with the specialised SHA-256 of `sha256-fixed.ts`; single hashes use `@noble/hashes`.
 *
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { InvalidInputError } from './errors.js'
import { hashesToWords, nodeHashWords, sha256Words, wordsToBytes } from './sha256-fixed.js'

/** Size of every hash in the tree, in bytes (SHA-256). */
export const HASH_BYTES = 32

/**
 * Leaf hash `SHA-256(0x00 || data)` (RFC 9162 §2.1.1).
 * @category Verify
 */
export function leafHash(data: Uint8Array): Uint8Array {
  const input = new Uint8Array(data.length + 1)
  input.set(data, 1)
  return sha256(input)
}

/**
 * Interior node hash `SHA-256(0x01 || left || right)` (RFC 9162 §2.1.1). Both children must be 32 bytes.
 * @category Verify
 */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length !== HASH_BYTES || right.length !== HASH_BYTES) {
    throw new InvalidInputError('INVALID_HASH_LENGTH', `node children must be ${HASH_BYTES}-byte hashes (got ${left.length} and ${right.length})`, 'pass SHA-256 digests')
  }
  const input = new Uint8Array(1 + 2 * HASH_BYTES)
  input[0] = 1
  input.set(left, 1)
  input.set(right, 1 + HASH_BYTES)
  return sha256(input)
}

/** MTH of the empty list: SHA-256 of the empty string (e3b0c442…b855). */
export function emptyRoot(): Uint8Array {
  return sha256(new Uint8Array(0))
}

/**
 * Merkle Tree Hash (RFC 9162 §2.1.1) of a list of leaf data, in order.
 * @category Verify
 */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  return rootOfLeafWords(packLeafData(leaves), leaves.length)
}

/**
 * Merkle Tree Hash from leaf hashes already computed (each `leafHash(d_i)`), so callers can hash leaves
 * as they stream in. Accepts an array of 32-byte hashes or one packed buffer of `n * 32` bytes.
 * The input is never modified (`overwrite` is kept for compatibility and has no effect).
 */
export function merkleRootFromLeafHashes(leafHashes: readonly Uint8Array[] | Uint8Array, options: { overwrite?: boolean } = {}): Uint8Array {
  if (leafHashes instanceof Uint8Array) {
    // The words are a new array either way: `overwrite` is accepted for compatibility and changes nothing.
    void options
    const n = packedCount(leafHashes)
    return rootOfLeafWords(hashesToWords(leafHashes, n), n)
  }
  return rootOfLeafWords(packHashes(leafHashes), leafHashes.length)
}

/**
 * Incremental MTH with O(log n) memory: add leaves (or leaf hashes) one at a time, read the root at any
 * point. Keeps the roots of the perfect subtrees of the current size (a "compact range").
 */
export class MerkleRootBuilder {
  readonly #stack: Uint8Array[] = []
  #size = 0

  /** Number of leaves added so far. */
  get size(): number {
    return this.#size
  }

  /** Adds one leaf by its data. */
  addLeaf(data: Uint8Array): this {
    return this.addLeafHash(leafHash(data))
  }

  /** Adds one leaf by its 32-byte leaf hash. */
  addLeafHash(hash: Uint8Array): this {
    if (hash.length !== HASH_BYTES) {
      throw new InvalidInputError('INVALID_HASH_LENGTH', `a leaf hash must be ${HASH_BYTES} bytes (got ${hash.length})`, 'pass leafHash(data) digests')
    }
    let h: Uint8Array = hash.slice()
    let n = this.#size
    // Each trailing 1 bit of the old size is a perfect subtree of equal height: merge it.
    while (n % 2 === 1) {
      h = nodeHash(this.#stack.pop()!, h)
      n = Math.floor(n / 2)
    }
    this.#stack.push(h)
    this.#size++
    return this
  }

  /** MTH of the leaves added so far (SHA-256("") when none). Does not change the builder. */
  root(): Uint8Array {
    const s = this.#stack
    if (s.length === 0) return emptyRoot()
    let r = s[s.length - 1]!
    for (let i = s.length - 2; i >= 0; i--) r = nodeHash(s[i]!, r)
    return r.slice()
  }
}

/**
 * @internal The same compact range as {@link MerkleRootBuilder}, on words (8 per hash, as
 * `sha256-fixed.ts` writes them) and without allocation per leaf: for streaming a participants file of
 * millions of entries through the specialised SHA-256. At most 64 subtree roots are kept.
 */
export class MerkleWordsBuilder {
  readonly #stack = new Int32Array(65 * WORDS)
  #depth = 0
  #size = 0

  /** Number of leaves added so far. */
  get size(): number {
    return this.#size
  }

  /** Adds the leaf hashes `words[at .. at + 8 * count)` (8 words each), in order. */
  addLeafWords(words: Int32Array, at: number, count: number): void {
    for (let k = 0; k < count; k++) {
      this.#push(words, at + k * WORDS, this.#size)
      this.#size++
    }
  }

  /**
   * Pushes the 8 words at `words[at..]` as the root of the next perfect subtree and merges it with
   * the stack: each trailing 1 bit of `n` (the size so far, in units of that subtree) is a perfect
   * subtree of equal height on the stack.
   */
  #push(words: Int32Array, at: number, n: number): void {
    const st = this.#stack
    const to = this.#depth * WORDS
    for (let w = 0; w < WORDS; w++) st[to + w] = words[at + w]!
    let d = this.#depth
    while (n % 2 === 1) {
      nodeHashWords(st, (d - 1) * WORDS, d * WORDS, st, (d - 1) * WORDS)
      d--
      n = Math.floor(n / 2)
    }
    this.#depth = d + 1
  }

  /**
   * Adds a perfect subtree of `2^height` leaves by its root (the 8 words at `words[at..]`): the next
   * `2^height` leaves at once. The size so far must be a multiple of `2^height` (an aligned chunk).
   */
  addSubtreeWords(words: Int32Array, at: number, height: number): void {
    const span = 2 ** height
    if (this.#size % span !== 0) throw new RangeError(`a subtree of 2^${height} leaves must start at a multiple of ${span} (size ${this.#size})`)
    this.#push(words, at, this.#size / span)
    this.#size += span
  }

  /** MTH of the leaves added so far (SHA-256("") when none). Does not change the builder. */
  root(): Uint8Array {
    if (this.#depth === 0) return emptyRoot()
    const acc = this.#stack.slice(0, this.#depth * WORDS)
    for (let i = this.#depth - 2; i >= 0; i--) nodeHashWords(acc, i * WORDS, (i + 1) * WORDS, acc, i * WORDS)
    return hashAt(acc, 0)
  }
}

/**
 * A whole tree kept in memory (every level, about 64 bytes per leaf) so that many inclusion proofs can be
 * produced without rebuilding it.
 */
export class MerkleTree {
  /** Number of leaves. */
  readonly size: number
  /** levels[0] = leaf hashes, levels[last] = the root (absent for the empty tree); 8 words per hash. */
  readonly #levels: Int32Array[]

  private constructor(leafWords: Int32Array, size: number, lower: readonly Int32Array[] = [leafWords]) {
    this.size = size
    const levels = [...lower]
    let cur = levels[levels.length - 1]!
    let m = Math.ceil(size / 2 ** (levels.length - 1))
    while (m > 1) {
      const next = new Int32Array(Math.ceil(m / 2) * WORDS)
      hashPairs(cur, m, next)
      levels.push(next)
      cur = next
      m = Math.ceil(m / 2)
    }
    this.#levels = levels
  }

  /** Builds the tree over leaf data, in order. */
  static fromLeaves(leaves: readonly Uint8Array[]): MerkleTree {
    return new MerkleTree(packLeafData(leaves), leaves.length)
  }

  /** @internal Builds the tree over leaf hashes given as words (8 per hash), adopting the array. */
  static fromLeafWords(leafWords: Int32Array, size: number): MerkleTree {
    return new MerkleTree(leafWords, size)
  }

  /**
   * @internal Builds the tree from its lowest levels already computed (`lower[0]` the leaf hashes, each
   * next level `ceil(m / 2)` hashes of the one below, as {@link lowerLevels} makes them), adopting the
   * arrays, and hashes the levels above the last one given. Worker threads compute the lower levels of
   * aligned slices (`src/node/parallel-hash.ts`); their concatenation is the tree's.
   */
  static fromLowerLevels(lower: readonly Int32Array[], size: number): MerkleTree {
    // Keep the given levels up to the first of one hash (the root); check each level's length.
    const kept: Int32Array[] = []
    let m = size
    for (const level of lower) {
      if (level.length !== m * WORDS) throw new RangeError(`a level of ${m} hashes needs ${m * WORDS} words, got ${level.length}`)
      kept.push(level)
      if (m <= 1) break
      m = Math.ceil(m / 2)
    }
    if (kept.length === 0) throw new RangeError('no levels given')
    return new MerkleTree(kept[0]!, size, kept)
  }

  /**
   * Builds the tree over leaf hashes already computed: an array of 32-byte hashes, or a packed buffer of
   * `n * 32` bytes (never modified or kept; `adopt` is accepted for compatibility).
   */
  static fromLeafHashes(leafHashes: readonly Uint8Array[] | Uint8Array, options: { adopt?: boolean } = {}): MerkleTree {
    if (leafHashes instanceof Uint8Array) {
      // The tree keeps its own word array either way: `adopt` is kept for compatibility.
      void options
      const n = packedCount(leafHashes)
      return new MerkleTree(hashesToWords(leafHashes, n), n)
    }
    return new MerkleTree(packHashes(leafHashes), leafHashes.length)
  }

  /** The Merkle Tree Hash. */
  root(): Uint8Array {
    if (this.size === 0) return emptyRoot()
    return hashAt(this.#levels[this.#levels.length - 1]!, 0)
  }

  /** Leaf hash at `index`. */
  leafHash(index: number): Uint8Array {
    this.#checkIndex(index, '$')
    return hashAt(this.#levels[0]!, index)
  }

  /**
   * Audit path PATH(index, D[n]) of RFC 9162 §2.1.3.1: sibling hashes from the leaf's level up to the
   * root's children. Throws {@link InvalidInputError} when `index` is not in `[0, size)`.
   */
  inclusionProof(index: number): Uint8Array[] {
    this.#checkIndex(index, '$')
    const path: Uint8Array[] = []
    let j = index
    let m = this.size
    for (let level = 0; m > 1; level++) {
      const sib = j % 2 === 1 ? j - 1 : j + 1
      // An even last node with no right sibling is carried up unchanged: no path element at this level.
      if (sib < m) path.push(hashAt(this.#levels[level]!, sib))
      j = Math.floor(j / 2)
      m = Math.ceil(m / 2)
    }
    return path
  }

  /** Audit paths for several indices (each checked like {@link MerkleTree.inclusionProof}), in the order given. */
  inclusionProofs(indices: readonly number[]): Uint8Array[][] {
    indices.forEach((index, k) => this.#checkIndex(index, `$[${k}]`))
    return indices.map((index) => this.inclusionProof(index))
  }

  #checkIndex(index: number, path: string): void {
    if (!Number.isSafeInteger(index) || index < 0 || index >= this.size) {
      throw new InvalidInputError('INDEX_OUT_OF_RANGE', `leaf index ${String(index)} is not an integer in [0, ${this.size})`, 'pass the 0-based position of a leaf in the committed order', { path })
    }
  }
}

/**
 * Audit path of leaf `index` in the tree over `leaves` (RFC 9162 §2.1.3.1).
 * @category Verify
 */
export function inclusionProof(leaves: readonly Uint8Array[], index: number): Uint8Array[] {
  return MerkleTree.fromLeaves(leaves).inclusionProof(index)
}

/**
 * Audit paths of several leaves, building the tree once.
 * @category Verify
 */
export function inclusionProofs(leaves: readonly Uint8Array[], indices: readonly number[]): Uint8Array[][] {
  return MerkleTree.fromLeaves(leaves).inclusionProofs(indices)
}

/**
 * What {@link verifyInclusion} checks: `leafData` is leaf number `index` of the tree of `size` leaves with head `root`.
 * @category Verify
 */
export interface InclusionCheck {
  /** Expected Merkle Tree Hash (32 bytes). */
  root: Uint8Array
  /** Number of leaves in the tree. */
  size: number
  /** 0-based leaf index. */
  index: number
  /** The leaf's data (hashed here with {@link leafHash}). */
  leafData: Uint8Array
  /** Audit path, leaf level first (each 32 bytes). */
  path: readonly Uint8Array[]
}

/**
 * RFC 9162 §2.1.3.2 inclusion verification, exactly. Returns `false` (never throws) on any bad input:
 * index ≥ size, non-integer or negative numbers, a hash that is not 32 bytes, a path too short or too long,
 * or a root that does not match.
 * @category Verify
 */
export function verifyInclusion(check: InclusionCheck): boolean {
  try {
    if (typeof check !== 'object' || check === null || !(check.leafData instanceof Uint8Array)) return false
    return verifyInclusionHash({ root: check.root, size: check.size, index: check.index, leafHash: leafHash(check.leafData), path: check.path })
  } catch {
    return false
  }
}

/** {@link verifyInclusion} for a leaf given by its leaf hash instead of its data. */
export function verifyInclusionHash(check: { root: Uint8Array; size: number; index: number; leafHash: Uint8Array; path: readonly Uint8Array[] }): boolean {
  try {
    if (typeof check !== 'object' || check === null) return false
    const { root, size, index, path } = check
    if (!isHash(root) || !isHash(check.leafHash) || !Array.isArray(path)) return false
    if (!Number.isSafeInteger(size) || !Number.isSafeInteger(index) || index < 0 || size < 0) return false
    // 1. If leaf_index >= tree_size, fail.
    if (index >= size) return false
    // 2. fn = leaf_index, sn = tree_size - 1.  (Numbers: values stay below 2^53; no 32-bit shifts.)
    let fn = index
    let sn = size - 1
    // 3. r = hash.
    let r: Uint8Array = check.leafHash
    const buf = new Uint8Array(1 + 2 * HASH_BYTES)
    buf[0] = 1
    // 4. For each p in the path:
    for (const p of path as readonly unknown[]) {
      if (!isHash(p)) return false
      // a. If sn is 0, fail.
      if (sn === 0) return false
      // b. If LSB(fn) is set, or fn == sn: r = HASH(0x01 || p || r); then if LSB(fn) is not set,
      //    right-shift fn and sn equally until LSB(fn) is set or fn is 0.
      if (fn % 2 === 1 || fn === sn) {
        buf.set(p, 1)
        buf.set(r, 1 + HASH_BYTES)
        r = sha256(buf)
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2)
          sn = Math.floor(sn / 2)
        }
      } else {
        // Otherwise r = HASH(0x01 || r || p).
        buf.set(r, 1)
        buf.set(p, 1 + HASH_BYTES)
        r = sha256(buf)
      }
      // c. Right-shift fn and sn once.
      fn = Math.floor(fn / 2)
      sn = Math.floor(sn / 2)
    }
    // 5. Succeed iff sn == 0 and r == root.
    return sn === 0 && equal32(r, root)
  } catch {
    return false
  }
}

// ---------------------------------------------------------------------------------------------------------
// Internals shared with participants.ts (not part of the public API surface re-exported by core/index.ts).

/** Words per hash (SHA-256: 8 big-endian 32-bit words). */
const WORDS = 8

/** Hash number `i` of a word array, as 32 bytes. */
function hashAt(words: Int32Array, i: number): Uint8Array {
  const out = new Uint8Array(HASH_BYTES)
  wordsToBytes(words, i * WORDS, out, 0)
  return out
}

/**
 * @internal Reduces `n` leaf hashes, given as words (8 per hash), to the MTH, overwriting `words`.
 * Returns the root as 32 fresh bytes.
 */
export function rootOfLeafWords(words: Int32Array, n: number): Uint8Array {
  if (n === 0) return emptyRoot()
  let m = n
  while (m > 1) m = hashPairs(words, m, words)
  return hashAt(words, 0)
}

/**
 * @internal Levels `0..top` of the tree over `n` leaf hashes given as words (level 0 is `leafWords`
 * itself; level l holds `ceil(n / 2^l)` hashes, a last unpaired one carried up). When the slice starts
 * at a multiple of `2^top` in a larger list, these are exactly the larger tree's nodes over the slice at
 * those levels, so slices hashed by different threads concatenate into the tree's lower levels.
 */
export function lowerLevels(leafWords: Int32Array, n: number, top: number): Int32Array[] {
  const levels = [leafWords]
  let cur = leafWords
  let m = n
  for (let l = 0; l < top; l++) {
    const next = new Int32Array(Math.ceil(m / 2) * WORDS)
    hashPairs(cur, m, next)
    levels.push(next)
    cur = next
    m = Math.ceil(m / 2)
  }
  return levels
}

/**
 * Hashes adjacent pairs of the first `m` hashes of `src` into `dst` (which may be `src`: output p is
 * written at words [8p, 8p + 8) after its own input [16p, 16p + 16) was read, and never over an input of
 * a later pair), carrying a last unpaired node up. Returns the new count, ceil(m / 2).
 */
function hashPairs(src: Int32Array, m: number, dst: Int32Array): number {
  const pairs = Math.floor(m / 2)
  for (let p = 0; p < pairs; p++) nodeHashWords(src, 2 * p * WORDS, (2 * p + 1) * WORDS, dst, p * WORDS)
  if (m % 2 === 1) {
    if (dst === src) dst.copyWithin(pairs * WORDS, (m - 1) * WORDS, m * WORDS)
    else dst.set(src.subarray((m - 1) * WORDS, m * WORDS), pairs * WORDS)
  }
  return pairs + (m % 2)
}

function packLeafData(leaves: readonly Uint8Array[]): Int32Array {
  const out = new Int32Array(leaves.length * WORDS)
  let max = 0
  for (const d of leaves) {
    if (!(d instanceof Uint8Array)) throw new InvalidInputError('INVALID_LEAF', 'every leaf must be a Uint8Array', 'encode each leaf as bytes')
    if (d.length > max) max = d.length
  }
  const input = new Uint8Array(max + 1)
  for (let i = 0; i < leaves.length; i++) {
    const d = leaves[i]!
    input.set(d, 1)
    sha256Words(input, d.length + 1, out, i * WORDS)
  }
  return out
}

function packHashes(hashes: readonly Uint8Array[]): Int32Array {
  const packed = new Uint8Array(hashes.length * HASH_BYTES)
  hashes.forEach((h, i) => {
    if (!isHash(h)) {
      throw new InvalidInputError('INVALID_HASH_LENGTH', `leaf hash ${i} is not a ${HASH_BYTES}-byte Uint8Array`, 'pass leafHash(data) digests', { path: `$[${i}]` })
    }
    packed.set(h, i * HASH_BYTES)
  })
  return hashesToWords(packed, hashes.length)
}

function packedCount(packed: Uint8Array): number {
  if (packed.length % HASH_BYTES !== 0) {
    throw new InvalidInputError('INVALID_HASH_LENGTH', `packed leaf hashes must be a multiple of ${HASH_BYTES} bytes (got ${packed.length})`, 'concatenate whole 32-byte leaf hashes')
  }
  return packed.length / HASH_BYTES
}

function isHash(x: unknown): x is Uint8Array {
  return x instanceof Uint8Array && x.length === HASH_BYTES
}

function equal32(a: Uint8Array, b: Uint8Array): boolean {
  let d = 0
  for (let i = 0; i < HASH_BYTES; i++) d |= a[i]! ^ b[i]!
  return d === 0
}
