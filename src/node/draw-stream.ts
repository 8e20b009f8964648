/**
 * The draw of a participants file of lines, without ever holding the list (issue 15, in the library
 * since issue 25).
 *
 * First pass (before waiting for the block): the streaming reader (`participants-stream.ts`: the same
 * entry rules, the same errors, a worker thread for the hashes) gives the count, the digest, the byte
 * offset of every line and a SHA-256 of the file's bytes; the core's `prepareDrawFromDigest` checks them
 * against the commitment with `prepareDraw`'s errors. After the block, the core computes the outcome from
 * the count and the seed (the kind's own `compute`, as for a list in memory), and the winners' lines are
 * read again by offset. Then:
 *
 * - a public (full disclosure) proof is written by the proof writer (`proof-writer.ts`) field by field,
 *   its `participants` list streamed while a second pass reads the file again, each entry JSON-escaped as
 *   it comes (and each salt of a salted list derived as it goes);
 * - a winners-only proof gets its winners' audit paths from the first pass's block roots (the root of
 *   every aligned block of 2^14 entries, the last one partial: each is a node of the RFC 9162 tree, so
 *   the tree over them as leaf hashes gives the upper part of every path) and from the winners' blocks,
 *   read again as byte ranges and hashed as whole trees (the lower part): memory O(count) as the first pass.
 *
 * Both give the bytes `serializeProof` gives for the in-memory draw of the same list. What is read again
 * is checked against the first pass (a public proof's list: the same bytes by SHA-256, the same lines,
 * the same winners; a private proof's blocks: the same block roots and winners), else nothing more is
 * written and the promise rejects with `PARTICIPANTS_MISMATCH`.
 *
 * Every kind that takes a list and has no rule over the whole list (`drawsFromDigest`) is streamed:
 * `pick` (its winners read by offset), `shuffle` and `tiebreak` (a ranking of every entry: its rows
 * written from the file in windows, `ranking-stream.ts`), `weighted` from a CSV's weight column
 * (`weighted-draw.ts`). `range` takes no list, and the sortition kinds check their entries against each
 * other: `prepare` refuses them with `INVALID_OPTION` (use `draw`).
 *
 * @module
 */
import { bytesToHex } from '../core/bytes.js'
import { outcomeFromBlock, prepareDrawFromDigest, proofOf, proofWith } from '../core/draw.js'
import { kindOf } from '../core/draw-spec.js'
import { MerkleTree } from '../core/merkle.js'
import { leafWords } from '../core/participants.js'
import { fullDisclosureFloor } from '../core/proof-size.js'
import type { WinnersDisclosure } from '../core/proof.js'
import type { OrganizerSecret } from '../core/secret.js'
import { definedFields } from './defined-fields.js'
import { fileChanged } from './file-errors.js'
import { streamParticipantsFile, type StreamedParticipants } from './participants-stream.js'
import { isStreamedRanking, saltItems, writeProof, writeProofWithinLimit, type StreamedFullDisclosure } from './proof-writer.js'
import { ranksEveryEntry, streamedRanking } from './ranking-stream.js'
import { namedEntries, type StreamDrawOptions, type StreamedDraw } from './streamed-draw.js'
import { streamWeightedDraw } from './weighted-draw.js'

const utf8 = new TextEncoder()

/**
 * Reads a participants file of lines for a draw (the first pass): every entry rule, its count, digest
 * (salted with `secret`) and line offsets; then {@link StreamedDraw.prepare}, {@link StreamedDraw.prove}
 * and {@link StreamedDraw.write} draw it in memory O(count), the list never held.
 *
 * @example
 * ```ts
 * import { streamDrawFile, writeProofFile } from 'orbitdraw/node'
 *
 * const list = await streamDrawFile('entrants.txt')
 * const prepared = list.prepare(commitment) // PARTICIPANTS_MISMATCH here, before any wait
 * const proof = await list.prove(prepared, block) // block: the committed target, { cid, bytes }
 * await writeProofFile('proof.json', (sink) => list.write(proof, sink))
 * ```
 * @throws the streaming reader's errors (see `streamParticipantsFile`).
 * @category Node
 */
export async function streamDrawFile(path: string, options: StreamDrawOptions = {}): Promise<StreamedDraw> {
  if (options.weightColumn !== undefined) return streamWeightedDraw(path, options.weightColumn, options)
  const disclosure = options.disclosure ?? (options.secret === undefined ? 'full' : 'winners')
  const list = await streamParticipantsFile(path, {
    // A public proof's list and a ranking's rows are read again (checked by the fingerprint); a private
    // proof's paths come from the blocks' roots and the winners' blocks read again (checked by their roots).
    fingerprint: true,
    blockRoots: disclosure === 'winners',
    threads: options.threads ?? 2,
    ...definedFields(options, ['secret', 'chunkBytes', 'onProgress', 'parallelFromBytes', 'blockLog', 'steal', 'signal']),
  })
  const secret = options.secret
  // The winners' entries, read by offset after the block, checked again by the second pass.
  let winners = new Map<number, string>()
  return {
    count: list.count,
    root: list.root,
    entryBytes: list.entryBytes,
    disclosure,
    prepare: (commitment) =>
      prepareDrawFromDigest(commitment, list, { disclosure, ...definedFields(options, ['secret', 'kinds']) }),
    async prove(prepared, block, drand) {
      const drawn = outcomeFromBlock(prepared, block, drand)
      const kind = kindOf(prepared.commitment.draw, prepared.kinds)
      if (ranksEveryEntry(kind)) {
        // Every entry is in the outcome: its rows are written from the file (ranking-stream.ts).
        const ranking = streamedRanking(path, list, kind.name, (drawn.outcome as unknown as { readonly indices: readonly number[] }).indices, options.rankingWindowBytes)
        return proofWith(prepared, drawn, undefined, ranking)
      }
      // The entries the outcome names (its winners: at most the kind's limit), read by offset.
      const named = namedEntries(kind, drawn.outcome)
      const order = kind.winnersOnly === undefined ? [...named] : [...kind.winnersOnly.winners(drawn.outcome)]
      const indices = [...new Set([...named, ...order])].sort((a, b) => a - b)
      let texts: string[]
      try {
        texts = await list.entries(indices)
      } catch (cause) {
        throw fileChanged(path, cause) // read by the offsets of the first pass: the file changed since
      }
      winners = new Map(indices.map((g, k) => [g, texts[k]!]))
      const entry = (i: number): string => {
        const e = winners.get(i)
        if (e === undefined) throw new Error(`unreachable: the outcome names entry ${i}, not one of its winners`)
        return e
      }
      if (prepared.disclosure === 'full') return proofOf(prepared, drawn, undefined, entry)
      if (secret === undefined) throw new Error('unreachable: a winners-only draw has a salted list')
      const paths = await auditPaths(path, list, secret, order, winners, prepared.commitment.participants!.root)
      const revealed: WinnersDisclosure = { disclosure: 'winners', revealed: order.map((index, i) => ({ index, entry: entry(index), salt: bytesToHex(secret.saltOf(index)), path: paths[i]!.map(bytesToHex) })) }
      return proofOf(prepared, drawn, revealed, entry)
    },
    async write(proof, sink) {
      const ranking = isStreamedRanking(proof.outcome) ? proof.outcome : undefined
      if (ranking === undefined && (disclosure === 'winners' || proof.participants !== undefined)) {
        await writeProof(proof, sink)
        return
      }
      const full = disclosure === 'winners' || proof.participants !== undefined ? undefined : fullDisclosure(path, list, secret, winners)
      // No verifier reads a proof over maxProofBytes. The floor was checked before waiting for the block
      // (prepare); the exact size could still be over (escapes, non-ASCII entries, the rest of the proof).
      // A ceiling of what is streamed: an entry's UTF-8 bytes, escaped, are at most 6 times its UTF-16
      // length; 200 bytes hold the list's keys and brackets; a ranked row's text, its two numbers and its
      // indent at most 120 more.
      const head = ranking === undefined ? proof : { ...proof, outcome: { ...ranking, rows: async () => {} } }
      const streamed = (full === undefined ? 0 : fullDisclosureFloor(list.count, 6 * list.entryBytes, secret !== undefined) + 200) + (ranking === undefined ? 0 : 6 * list.entryBytes + 120 * list.count)
      await writeProofWithinLimit(proof, sink, full, head, streamed)
    },
  }
}

/** A public proof's list, read again from the file (checked against the first pass and the winners read), and a salted list's salts. */
function fullDisclosure(path: string, list: StreamedParticipants, secret: OrganizerSecret | undefined, winners: ReadonlyMap<number, string>): StreamedFullDisclosure {
  const winnerBytes = new Map([...winners].map(([g, e]) => [g, utf8.encode(e)]))
  return {
    disclosure: 'full',
    entries: (out) =>
      list.rescanBytes(async (chunk, bounds, lines, first) => {
        for (const [g, bytes] of winnerBytes) {
          const k = g - first
          if (k >= 0 && k < lines && !sameBytes(bytes, chunk, bounds[2 * k]!, bounds[2 * k + 1]!)) throw fileChanged(path)
        }
        await out.utf8Lines(chunk, bounds, lines)
      }),
    // A salted list's full disclosure carries every salt, in order (derived, not read).
    ...(secret === undefined ? {} : { salts: saltItems(secret, list.count) }),
  }
}

/** True when `bytes` equals `chunk[from .. to)`. */
function sameBytes(bytes: Uint8Array, chunk: Uint8Array, from: number, to: number): boolean {
  if (to - from !== bytes.length) return false
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== chunk[from + i]) return false
  return true
}

/**
 * The audit paths of `order` (the winners, in rank order) in the tree of the salted list (see the module
 * comment): each block holding winners is read again (one byte range) and hashed as a whole tree, whose
 * root must be the one the first pass found for it; the tree over the first pass's block roots gives the
 * rest of each path.
 */
async function auditPaths(path: string, list: StreamedParticipants, secret: OrganizerSecret, order: readonly number[], winners: ReadonlyMap<number, string>, committedRoot: string): Promise<Uint8Array[][]> {
  const size = list.blockSize
  const upper = MerkleTree.fromLeafHashes(list.blockRoots)
  if (bytesToHex(upper.root()) !== committedRoot) throw new Error('draw-stream: the tree over the block roots differs from the committed root')
  const lower = new Map<number, Uint8Array[]>() // winner -> its path inside its block
  for (const b of new Set([...winners.keys()].map((w) => Math.floor(w / size)))) {
    const first = b * size
    const lines = await list.range(first, Math.min(list.count, first + size))
    const tree = MerkleTree.fromLeafWords(leafWords(lines, null, secret, first), lines.length)
    if (bytesToHex(tree.root()) !== bytesToHex(list.blockRoots[b]!)) throw fileChanged(path)
    for (const [w, entry] of winners) {
      if (Math.floor(w / size) !== b) continue
      if (lines[w - first] !== entry) throw fileChanged(path)
      lower.set(w, tree.inclusionProof(w - first))
    }
  }
  return order.map((w) => [...lower.get(w)!, ...upper.inclusionProof(Math.floor(w / size))])
}
