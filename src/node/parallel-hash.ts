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
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { lowerLevels, MerkleTree, rootOfLeafWords } from '../core/merkle.js'
import { leafWords, normalize, participantsRoot, participantsTree, participantsTreeOf, saltSource, type ParticipantsHashOptions, type ParticipantsTree, type WeightedEntry } from '../core/participants.js'
import { OrganizerSecret } from '../core/secret.js'

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
   * `0..k` (an array of Int32Array, see `lowerLevels`), for {@link participantsTreeParallel}. Default 0.
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
  const worker = startWorker()
  try {
    const { entries, weights } = normalize(list)
    const salts = saltSource(options, entries.length)
    const n = entries.length
    const chunk = 2 ** CHUNK_LOG
    const chunks = Math.ceil(n / chunk)
    const split = Math.min(n, Math.ceil(chunks / 2) * chunk) // the calling thread hashes [0, split)
    const rest = worker === null ? null : hashInWorker<Int32Array>(worker, {
      entries: entries.slice(split).join('\n'),
      weights: weights === null ? null : Float64Array.from(weights.slice(split)),
      secret: salts instanceof OrganizerSecret ? salts.exportBytes() : null,
      salts: salts === null || salts instanceof OrganizerSecret ? null : packSalts(salts, split, n),
      firstIndex: split,
      chunk,
      levels: 0,
    })
    const endHere = rest === null ? n : split
    const mine = chunkRoots(leafWords(entries.slice(0, endHere), weights === null ? null : weights.slice(0, endHere), salts === null || salts instanceof OrganizerSecret ? salts : salts.slice(0, endHere)), endHere, chunk)
    const theirs = rest === null ? null : await rest.then(
      (roots) => (workerStats.hashed++, roots),
      () => (workerStats.failed++, null),
    )
    // A worker that failed (it never sees invalid input) is replaced by the calling thread.
    const tail = rest === null ? new Int32Array(0) : theirs ?? chunkRoots(leafWords(entries.slice(split), weights === null ? null : weights.slice(split), salts === null || salts instanceof OrganizerSecret ? salts : salts.slice(split), split), n - split, chunk)
    const all = new Int32Array(mine.length + tail.length)
    all.set(mine, 0)
    all.set(tail, mine.length)
    return rootOfLeafWords(all, chunks)
  } finally {
    void worker?.terminate()
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
  const worker = startWorker()
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
    const rest = worker === null ? null : hashInWorker<Int32Array[]>(worker, {
      entries: entries.slice(split).join('\n'),
      weights: weights === null ? null : Float64Array.from(weights.slice(split)),
      secret: secret === null ? null : secret.exportBytes(),
      salts: null,
      firstIndex: split,
      chunk,
      levels: CHUNK_LOG,
    })
    const endHere = rest === null ? n : split
    const mine = lowerLevels(leafWords(entries.slice(0, endHere), weights === null ? null : weights.slice(0, endHere), secret), endHere, CHUNK_LOG)
    const theirs = rest === null ? null : await rest.then(
      (levels) => (workerStats.hashed++, levels),
      () => (workerStats.failed++, null),
    )
    const tail = rest === null ? null : theirs ?? lowerLevels(leafWords(entries.slice(split), weights === null ? null : weights.slice(split), secret, split), n - split, CHUNK_LOG)
    const lower = tail === null ? mine : mine.map((level, l) => {
      const joined = new Int32Array(level.length + tail[l]!.length)
      joined.set(level, 0)
      joined.set(tail[l]!, level.length)
      return joined
    })
    return participantsTreeOf(entries, weights, secret, MerkleTree.fromLowerLevels(lower, n))
  } finally {
    void worker?.terminate()
  }
}

function packSalts(salts: readonly Uint8Array[], from: number, to: number): Uint8Array {
  const out = new Uint8Array((to - from) * 32)
  for (let i = from; i < to; i++) out.set(salts[i]!, (i - from) * 32)
  return out
}

/**
 * @internal The worker, or null when it cannot be started (also used by the CLI's streaming reader). Under a TypeScript loader (tests, `tsx`) this module is
 * a `.ts` file and the worker is loaded the same way (`--import tsx`); from `dist/` it is plain `.js`.
 */
export function startWorker(): Worker | null {
  try {
    if (!import.meta.url.endsWith('.ts')) return watch(new Worker(new URL('./hash-worker.js', import.meta.url)))
    // Under a TypeScript loader: register tsx's ESM hooks in the worker, then import the .ts worker.
    const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href
    const code = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./hash-worker.ts', import.meta.url).href)}) })`
    return watch(new Worker(code, { eval: true }))
  } catch {
    return null
  }
}

function watch(worker: Worker): Worker {
  worker.on('error', () => {})
  return worker
}

function hashInWorker<T extends Int32Array | Int32Array[]>(worker: Worker, job: HashJob): Promise<T> {
  return new Promise((resolve, reject) => {
    worker.once('message', (answer: T) => resolve(answer))
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`hash worker exited with code ${code}`)))
    const transfer = [job.weights?.buffer, job.secret?.buffer, job.salts?.buffer].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer)
    worker.postMessage(job, transfer)
  })
}
