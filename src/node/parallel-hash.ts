/**
 * The participants digest on both cores (Node only): {@link participantsRootParallel} gives exactly
 * {@link participantsRoot}'s bytes, faster for large lists, by hashing part of the list in a worker thread.
 *
 * How: the list is cut at a multiple of a power-of-two chunk size (2^14 entries). In an RFC 9162 tree
 * built bottom-up, the root of every aligned chunk `[j·2^14, min(n, (j+1)·2^14))` is the tree's node j at
 * level 14, so each thread reduces its own chunks to their roots and the calling thread reduces the
 * chunk roots to the tree head. Validation (every entry rule and the duplicate check) runs first, in the
 * calling thread, while the worker starts; the calling thread then hashes the first part itself while
 * the worker hashes the rest (it receives its entries as one `\n`-joined string: validated entries
 * contain no line break, and one string crosses threads far faster than a million).
 *
 * Below {@link PARALLEL_MIN_ENTRIES} entries (or with `threads: 1`) it is `participantsRoot` itself:
 * starting a worker costs more than it saves. If the worker cannot run, the calling thread does all the
 * work: the result never depends on threads. Tests check the result equals `participantsRoot` for every
 * kind of list and chunk boundary (`test/node/parallel-hash.test.ts`).
 *
 * @module
 */
import { lowerLevels, MerkleTree, rootOfLeafWords } from '../core/merkle.js'
import { leafWords, normalize, participantsRoot, participantsTree, participantsTreeOf, saltSource, type ParticipantsHashOptions, type ParticipantsTree, type WeightedEntry } from '../core/participants.js'
import { OrganizerSecret } from '../core/secret.js'
import { chunkRoots } from './hash-job.js'
import { HashPool } from './hash-pool.js'

/**
 * Lists shorter than this are hashed in the calling thread only.
 * @category Draw
 */
export const PARALLEL_MIN_ENTRIES = 100_000

/** log2 of the chunk size: worker slices start at multiples of 2^14 entries. */
const CHUNK_LOG = 14

/** @internal Counts of slices hashed by a worker and of worker failures (the calling thread redid the slice); read by tests. */
export const workerStats = { hashed: 0, failed: 0 }

/**
 * Options of {@link participantsRootParallel}.
 * @category Draw
 */
export interface ParallelHashOptions extends ParticipantsHashOptions {
  /** Threads to use, the calling one included: 1 or 2 (default 2). */
  threads?: 1 | 2
}

/**
 * The participants digest, equal byte for byte to {@link participantsRoot} (same validation, same errors),
 * computed on two threads for lists of {@link PARALLEL_MIN_ENTRIES} entries or more.
 *
 * @example
 * ```ts
 * import { participantsRootParallel, bytesToHex } from 'orbitdraw'
 * const root = bytesToHex(await participantsRootParallel(entries))
 * ```
 * @throws the errors of {@link participantsRoot} (the promise rejects with them).
 * @category Draw
 */
export async function participantsRootParallel(list: readonly string[] | readonly WeightedEntry[], options: ParallelHashOptions = {}): Promise<Uint8Array> {
  const threads = options.threads ?? 2
  if (threads === 1 || !Array.isArray(list) || list.length < PARALLEL_MIN_ENTRIES) return participantsRoot(list, options)
  // Start the worker first: its start-up overlaps the validation below.
  const pool = HashPool.start()
  try {
    const { entries, weights } = normalize(list)
    const salts = saltSource(options, entries.length)
    const n = entries.length
    const chunk = 2 ** CHUNK_LOG
    const chunks = Math.ceil(n / chunk)
    const split = Math.min(n, Math.ceil(chunks / 2) * chunk) // the calling thread hashes [0, split)
    const rest = pool === null ? null : pool.run<Int32Array>({
      entries: entries.slice(split).join('\n'),
      weights: weights === null ? null : Float64Array.from(weights.slice(split)),
      secret: salts instanceof OrganizerSecret ? salts.exportBytes() : null,
      salts: salts === null || salts instanceof OrganizerSecret ? null : packSalts(salts, split, n),
      firstIndex: split,
      chunk,
      levels: 0,
    }).then(
      (roots) => (workerStats.hashed++, roots),
      () => (workerStats.failed++, null),
    )
    const endHere = rest === null ? n : split
    const mine = chunkRoots(leafWords(entries.slice(0, endHere), weights === null ? null : weights.slice(0, endHere), salts === null || salts instanceof OrganizerSecret ? salts : salts.slice(0, endHere)), endHere, chunk)
    const theirs = rest === null ? null : await rest
    // A worker that failed (it never sees invalid input) is replaced by the calling thread.
    const tail = rest === null ? new Int32Array(0) : theirs ?? chunkRoots(leafWords(entries.slice(split), weights === null ? null : weights.slice(split), salts === null || salts instanceof OrganizerSecret ? salts : salts.slice(split), split), n - split, chunk)
    const all = new Int32Array(mine.length + tail.length)
    all.set(mine, 0)
    all.set(tail, mine.length)
    return rootOfLeafWords(all, chunks)
  } finally {
    pool?.close()
  }
}

/**
 * The participants' whole Merkle tree, equal to {@link participantsTree}'s (same root, leaf data, salts
 * and inclusion proofs; same validation and errors), built on two threads for lists of
 * {@link PARALLEL_MIN_ENTRIES} entries or more: for draws of a salted list (salts, winners' paths) and
 * receipts. Each thread computes the tree's lowest 15 levels (leaves up to the 2^14-leaf chunk roots)
 * over its own aligned half of the chunks; the halves' levels are concatenated (an aligned slice's nodes
 * at those levels are the tree's) and the calling thread hashes the levels above.
 *
 * Memory: the tree keeps about 64 bytes per entry, as `participantsTree`'s; while the halves are joined
 * the lower levels exist twice.
 *
 * @example
 * ```ts
 * import { participantsTreeParallel } from 'orbitdraw'
 * const tree = await participantsTreeParallel(entries, { secret })
 * const paths = tree.inclusionProofs([17, 4_242])
 * ```
 * @throws the errors of {@link participantsTree} (the promise rejects with them).
 * @category Draw
 */
export async function participantsTreeParallel(list: readonly string[] | readonly WeightedEntry[], options: ParallelHashOptions = {}): Promise<ParticipantsTree> {
  const threads = options.threads ?? 2
  if (threads === 1 || !Array.isArray(list) || list.length < PARALLEL_MIN_ENTRIES) return participantsTree(list, options)
  const pool = HashPool.start()
  try {
    // participantsTree's order: the secret (checked), then the list (validated); given salts are not for trees.
    const secret = options.secret === undefined ? null : OrganizerSecret.from(options.secret)
    const normalized = normalize(list)
    const entries = normalized.entries.slice()
    const weights = normalized.weights === null ? null : normalized.weights.slice()
    const n = entries.length
    const chunk = 2 ** CHUNK_LOG
    const chunks = Math.ceil(n / chunk)
    const split = Math.min(n, Math.ceil(chunks / 2) * chunk) // the calling thread hashes [0, split)
    const rest = pool === null ? null : pool.run<Int32Array[]>({
      entries: entries.slice(split).join('\n'),
      weights: weights === null ? null : Float64Array.from(weights.slice(split)),
      secret: secret === null ? null : secret.exportBytes(),
      salts: null,
      firstIndex: split,
      chunk,
      levels: CHUNK_LOG,
    }).then(
      (levels) => (workerStats.hashed++, levels),
      () => (workerStats.failed++, null),
    )
    const endHere = rest === null ? n : split
    const mine = lowerLevels(leafWords(entries.slice(0, endHere), weights === null ? null : weights.slice(0, endHere), secret), endHere, CHUNK_LOG)
    const theirs = rest === null ? null : await rest
    const tail = rest === null ? null : theirs ?? lowerLevels(leafWords(entries.slice(split), weights === null ? null : weights.slice(split), secret, split), n - split, CHUNK_LOG)
    const lower = tail === null ? mine : mine.map((level, l) => {
      const joined = new Int32Array(level.length + tail[l]!.length)
      joined.set(level, 0)
      joined.set(tail[l]!, level.length)
      return joined
    })
    return participantsTreeOf(entries, weights, secret, MerkleTree.fromLowerLevels(lower, n))
  } finally {
    pool?.close()
  }
}

function packSalts(salts: readonly Uint8Array[], from: number, to: number): Uint8Array {
  const out = new Uint8Array((to - from) * 32)
  for (let i = from; i < to; i++) out.set(salts[i]!, (i - from) * 32)
  return out
}
