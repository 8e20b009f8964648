/**
 * A ranking of every committed entry (`shuffle`, `tiebreak`), written from the participants file without
 * holding its entries: the outcome's permutation is known from the count and the seed, and the rows
 * are written rank by rank in windows. Each window is the next run of ranks whose lines take at most
 * {@link RANKING_WINDOW_BYTES} in the file (by the first pass's line offsets): one more pass over the
 * file copies those lines' bytes into the window's slots (a line's rank from the inverse permutation),
 * then the window's rows are written. A pass checks the file against the first one (its bytes' SHA-256
 * and its line count) before its rows are written.
 *
 * Memory: the permutation (the outcome, as the kind computes it), its inverse (4 bytes an entry), the
 * line offsets (4 bytes an entry, from the first pass) and one window (at most
 * {@link RANKING_WINDOW_BYTES} of entry bytes, 8 bytes of bounds per rank in it). Passes: the entries'
 * bytes over the window, rounded up (2 for 1,000,000 entries of 20 bytes).
 *
 * @module
 */
import type { AnyDrawKind } from '../core/kinds/kind.js'
import { shuffleKind } from '../core/kinds/shuffle.js'
import { tiebreakKind } from '../core/kinds/tiebreak.js'
import { fileChanged } from './file-errors.js'
import { lineOffsetsOf, type StreamedParticipants } from './participants-stream.js'
import type { ArrayItems, StreamedRanking } from './proof-writer.js'

/** Bytes of entries gathered for one window of ranks (16 MiB). */
export const RANKING_WINDOW_BYTES = 16 * 1024 * 1024

/**
 * The built-in kinds whose outcome ranks every committed entry: their computed outcome is
 * `{ kind, indices }` (a permutation of the count) and its proof form `{ kind, ranking: [{ rank, index,
 * entry }] }`, rank 1 first. A draw of these writes its ranking from the file ({@link streamedRanking}).
 */
const RANKING_KINDS: ReadonlySet<AnyDrawKind> = new Set<AnyDrawKind>([shuffleKind as unknown as AnyDrawKind, tiebreakKind as unknown as AnyDrawKind])

/** True for a kind whose outcome ranks every entry (see {@link RANKING_KINDS}). */
export function ranksEveryEntry(kind: AnyDrawKind): boolean {
  return RANKING_KINDS.has(kind)
}

/** The ranking `indices` (committed index at each rank) of `list`, its rows written from the file at `path`. */
export function streamedRanking(path: string, list: StreamedParticipants, kind: string, indices: readonly number[], windowBytes = RANKING_WINDOW_BYTES): StreamedRanking {
  if (indices.length !== list.count) throw new Error(`ranking-stream: a ranking of ${indices.length} for ${list.count} entries`)
  return {
    kind,
    indices,
    async head(n) {
      const first = indices.slice(0, Math.max(0, Math.min(n, indices.length)))
      let texts: string[]
      try {
        texts = await list.entries(first)
      } catch (cause) {
        throw fileChanged(path, cause)
      }
      return first.map((index, k) => ({ rank: k + 1, index, entry: texts[k]! }))
    },
    rows: (out) => writeRows(path, list, indices, out, windowBytes),
  }
}

async function writeRows(path: string, list: StreamedParticipants, indices: readonly number[], out: ArrayItems, windowBytes: number): Promise<void> {
  const n = indices.length
  const offsets = lineOffsetsOf(list)
  const rankOf = new Uint32Array(n)
  for (let r = 0; r < n; r++) rankOf[indices[r]!] = r
  let buf = new Uint8Array(0)
  for (let r0 = 0; r0 < n; ) {
    // The window: ranks [r0, r1) whose lines, as the file holds them, fit in windowBytes (at least one).
    let bytes = 0
    let r1 = r0
    while (r1 < n) {
      const g = indices[r1]!
      const len = offsets[g + 1]! - offsets[g]!
      if (r1 > r0 && bytes + len > windowBytes) break
      bytes += len
      r1++
    }
    const w = r1 - r0
    // Slot k (rank r0 + k) starts at bounds[2k]; bounds[2k + 1] is its end once filled (-1 before).
    const bounds = new Int32Array(2 * w + 1)
    let at = 0
    for (let k = 0; k < w; k++) {
      const g = indices[r0 + k]!
      bounds[2 * k] = at
      bounds[2 * k + 1] = -1
      at += offsets[g + 1]! - offsets[g]!
    }
    bounds[2 * w] = at
    if (buf.length < bytes) buf = new Uint8Array(bytes)
    const from = r0
    await list.rescanBytes((chunk, lineBounds, lines, first) => {
      for (let k = 0; k < lines; k++) {
        const r = rankOf[first + k]!
        if (r < from || r >= r1) continue
        const slot = r - from
        const start = bounds[2 * slot]!
        const s = lineBounds[2 * k]!
        const e = lineBounds[2 * k + 1]!
        // The next slot's start (or the window's end) bounds this one: a longer line is another file.
        if (start + (e - s) > bounds[2 * slot + 2]!) throw fileChanged(path)
        buf.set(chunk.subarray(s, e), start)
        bounds[2 * slot + 1] = start + (e - s)
      }
    })
    for (let k = 0; k < w; k++) if (bounds[2 * k + 1]! < 0) throw fileChanged(path)
    await out.rankedRows(buf, bounds, r0 + 1, indices.slice(r0, r1), w)
    r0 = r1
  }
}
