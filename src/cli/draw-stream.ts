/**
 * `orbitdraw draw` of a participants file of lines, without ever holding the list (issue 15).
 *
 * First pass (before waiting for the block): the streaming reader of `commit`
 * (`participants-stream.ts`: the same entry rules, the same errors, a worker thread for the hashes) gives
 * the count, the digest, the byte offset of every line and a SHA-256 of the file's bytes; the core's
 * `prepareDrawFromDigest` checks them against the commitment with `prepareDraw`'s errors. After the
 * block, the core computes the outcome from the count and the seed (the kind's own `compute`, as for a
 * list in memory), and the winners' lines are read again by offset. Then:
 *
 * - a public (full disclosure) proof is written as a stream: the proof is serialized with a stand-in for
 *   its `participants`, and the real value is written in its place while a second pass reads the file
 *   again, each entry JSON-escaped as it comes (and each salt of a salted list derived as it goes);
 * - a winners-only (`--private`) proof gets its winners' audit paths from the first pass's block roots
 *   (the root of every aligned block of 2^14 entries, the last one partial: each is a node of the RFC
 *   9162 tree, so the tree over them as leaf hashes gives the upper part of every path) and from the
 *   winners' blocks, read again as byte ranges and hashed as whole trees (the lower part).
 *
 * Both give the bytes `serializeProof` gives for the in-memory draw of the same list
 * (`test/cli/draw-stream.test.ts`). What is read again is checked against the first pass (a public
 * proof's list: the same bytes by SHA-256, the same lines, the same winners; a private proof's blocks: the
 * same block roots and winners), else nothing is written.
 *
 * Only kinds that `drawsFromDigest` (plain entries, an outcome of ranked winners, no rule over the whole
 * list: `pick`) are streamed; the CLI reads other kinds' lists into memory.
 *
 * @module
 */
import { link, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { BeaconBlock } from '../core/block.js'
import { bytesToHex, utf8Length } from '../core/bytes.js'
import { LIMITS } from '../core/limits.js'
import { checkProofBytes, fullDisclosureFloor } from '../core/proof-size.js'
import type { Commitment } from '../core/commitment.js'
import { outcomeFromBlock, prepareDrawFromDigest, proofOf, type DrandEvidence, type PreparedDraw } from '../core/draw.js'
import { kindOf } from '../core/draw-spec.js'
import { InvalidInputError, MismatchError } from '../core/errors.js'
import type { DrawKinds } from '../core/kinds/kind.js'
import { MerkleTree } from '../core/merkle.js'
import { leafWords } from '../core/participants.js'
import { serializeProof, type ParticipantsDisclosure, type Proof } from '../core/proof.js'
import type { OrganizerSecret } from '../core/secret.js'
import { UsageError } from './exit-codes.js'
import { streamParticipantsFile, type StreamedParticipants } from './participants-stream.js'

/** Options of {@link readForDraw}. */
export interface StreamedDrawOptions {
  /** `'winners'` for `--private`; default `'full'`. */
  disclosure?: 'full' | 'winners'
  /** The organizer secret of a salted list. */
  secret?: OrganizerSecret
  /** The registry (default: the built-in kinds). */
  kinds?: DrawKinds
  /** Bytes read at a time (default 1 MiB; tests use tiny chunks). */
  chunkBytes?: number
  /** Progress of the first read (the hashing), as `streamParticipantsFile`'s `onProgress`. */
  onProgress?: (bytesRead: number, totalBytes: number) => void
  /** Threads for the hashes (default 2, as `commit`). */
  threads?: 1 | 2
  /** @internal Smallest file hashed on two threads (default 1 MiB). */
  parallelFromBytes?: number
  /** @internal log2 of the block size of both passes (default 14; tests use small blocks). */
  blockLog?: number
  /** @internal false: the passes wait for the worker's blocks at the end instead of hashing them here too (tests). */
  steal?: boolean
}

/** Where a proof goes: a file, or standard output (`-`) through `out`. */
export interface ProofOutput {
  readonly path: string
  readonly force: boolean
  readonly command: string
  out(text: string): void
}

/** A participants file read for a draw (first pass done): the checks, the proof and its writing. */
export interface StreamedDraw {
  /** Number of entries. */
  readonly count: number
  /** Their digest (salted with the secret for a salted list). */
  readonly root: Uint8Array
  /** A floor of the entries' UTF-8 bytes (their UTF-16 length), for the proof's size checks. */
  readonly entryBytes: number
  /** The checks made before waiting: `prepareDraw`'s, on the count and digest. */
  prepare(commitment: Commitment): PreparedDraw
  /** The proof from the target block (a public proof's `participants` is written by {@link StreamedDraw.write}). */
  prove(prepared: PreparedDraw, block: BeaconBlock, drand?: DrandEvidence): Promise<Proof>
  /** Writes `proof` (from {@link StreamedDraw.prove}, its chain added) as `serializeProof` would, streaming the list. */
  write(proof: Proof, output: ProofOutput): Promise<void>
}

/** The `participants` of a public proof before the list is written in its place. */
const STAND_IN: ParticipantsDisclosure = Object.freeze({ disclosure: 'full', entries: Object.freeze([]) as readonly string[] })

const utf8 = new TextEncoder()
/** What comes before the first entry of the list, and before each next one: the line break, the indent, the quote. */
const FIRST_ITEM = utf8.encode('\n      "')
const NEXT_ITEM = utf8.encode(',\n      "')

/** True when `bytes` equals `chunk[from .. to)`. */
function sameBytes(bytes: Uint8Array, chunk: Uint8Array, from: number, to: number): boolean {
  if (to - from !== bytes.length) return false
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== chunk[from + i]) return false
  return true
}

/** Entries (or salts) per write of a public proof's list. */
const WRITE_BATCH = 16_384

/**
 * Reads a participants file of lines for a draw (the first pass): every entry rule of
 * `readParticipants`, its count, digest (salted with `secret`) and line offsets.
 * @throws the streaming reader's errors (`readParticipants`'s codes and messages).
 */
export async function readForDraw(path: string, options: StreamedDrawOptions = {}): Promise<StreamedDraw> {
  const threads = options.threads ?? 2
  const disclosure = options.disclosure ?? 'full'
  const list = await streamParticipantsFile(path, {
    // A public proof's list is read again (checked by the fingerprint); a private proof's paths come
    // from the blocks' roots and the winners' blocks read again (checked by their roots).
    fingerprint: disclosure === 'full',
    blockRoots: disclosure === 'winners',
    threads,
    ...(options.secret === undefined ? {} : { secret: options.secret }),
    ...(options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.parallelFromBytes === undefined ? {} : { parallelFromBytes: options.parallelFromBytes }),
    ...(options.blockLog === undefined ? {} : { blockLog: options.blockLog }),
    ...(options.steal === undefined ? {} : { steal: options.steal }),
  })
  const secret = options.secret
  // The winners' entries, read by offset after the block, checked again by the second pass.
  let winners = new Map<number, string>()
  return {
    count: list.count,
    root: list.root,
    entryBytes: list.entryBytes,
    prepare: (commitment) =>
      prepareDrawFromDigest(commitment, list, {
        disclosure,
        ...(secret === undefined ? {} : { secret }),
        ...(options.kinds === undefined ? {} : { kinds: options.kinds }),
      }),
    async prove(prepared, block, drand) {
      const drawn = outcomeFromBlock(prepared, block, drand)
      const kind = kindOf(prepared.commitment.draw, prepared.kinds)
      if (kind.winnersOnly === undefined) throw new Error('unreachable: prepareDrawFromDigest takes kinds with ranked winners only')
      const order = [...kind.winnersOnly.winners(drawn.outcome)]
      const indices = [...new Set(order)].sort((a, b) => a - b)
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
      let participants = STAND_IN
      if (prepared.disclosure === 'winners') {
        if (secret === undefined) throw new Error('unreachable: a winners-only draw has a salted list')
        const paths = await auditPaths(path, list, secret, order, winners, prepared.commitment.participants!.root)
        participants = { disclosure: 'winners', revealed: order.map((index, i) => ({ index, entry: entry(index), salt: bytesToHex(secret.saltOf(index)), path: paths[i]!.map(bytesToHex) })) }
      }
      return proofOf(prepared, drawn, participants, entry)
    },
    async write(proof, output) {
      const text = serializeProof(proof)
      if (proof.participants !== STAND_IN) {
        await writeWhole(output, text)
        return
      }
      // The participants value sits between these two keys of the proof object (2-space indent: a
      // top-level key is a newline and two spaces; a string never holds a raw newline).
      const key = '\n  "participants": '
      const at = text.indexOf(key)
      const end = text.indexOf(',\n  "chain": ', at)
      if (at < 0 || end < 0 || text.slice(at + key.length, end) !== JSON.stringify(STAND_IN, null, 2).replace(/\n/g, '\n  ')) {
        throw new Error('unreachable: the proof does not carry the stand-in participants where expected')
      }
      const produce = async (put: (text: string | Uint8Array) => Promise<void>): Promise<void> => {
        await put(text.slice(0, at + key.length))
        await put('{\n    "disclosure": "full",\n    "entries": [')
        // Each entry as JSON.stringify writes it, from the line's bytes: a valid entry has no control
        // character and no lone surrogate, so only '"' and '\\' are escaped; every other byte is copied.
        let n = 0
        let out = new Uint8Array(0)
        const winnerBytes = new Map([...winners].map(([g, e]) => [g, utf8.encode(e)]))
        await list.rescanBytes(async (chunk, bounds, lines, first) => {
          const most = 2 * chunk.length + 10 * lines
          if (out.length < most) out = new Uint8Array(most)
          let o = 0
          for (let k = 0; k < lines; k++) {
            const g = first + k
            const from = bounds[2 * k]!
            const to = bounds[2 * k + 1]!
            const known = winnerBytes.get(g)
            if (known !== undefined && !sameBytes(known, chunk, from, to)) throw fileChanged(path)
            const prefix = g === 0 ? FIRST_ITEM : NEXT_ITEM
            out.set(prefix, o)
            o += prefix.length
            for (let i = from; i < to; i++) {
              const b = chunk[i]!
              if (b === 0x22 || b === 0x5c) out[o++] = 0x5c
              out[o++] = b
            }
            out[o++] = 0x22
          }
          n += lines
          await put(out.subarray(0, o))
        })
        await put(n === 0 ? ']' : '\n    ]')
        if (secret !== undefined) {
          // A salted list's full disclosure carries every salt, in order (derived, not read).
          await put(',\n    "salts": [')
          for (let g = 0; g < list.count; g += WRITE_BATCH) {
            let batch = ''
            const to = Math.min(list.count, g + WRITE_BATCH)
            for (let i = g; i < to; i++) batch += `${i === 0 ? '\n      ' : ',\n      '}"${bytesToHex(secret.saltOf(i))}"`
            await put(batch)
          }
          await put(list.count === 0 ? ']' : '\n    ]')
        }
        await put('\n  }')
        await put(text.slice(end))
      }
      // No verifier reads a proof over maxProofBytes. The floor was checked before waiting for the block
      // (prepare); when the exact size could still be over (escapes, non-ASCII entries, the rest of the
      // proof), it is counted in a dry run first, so nothing is written, not even to standard output.
      // A ceiling: an entry's UTF-8 bytes, escaped, are at most 6 times its UTF-16 length; 200 bytes hold the
      // list's keys and brackets.
      const ceiling = utf8Length(text) + fullDisclosureFloor(list.count, 6 * list.entryBytes, secret !== undefined) + 200
      if (ceiling > LIMITS.maxProofBytes) {
        let bytes = 0
        await produce(async (t) => {
          bytes += typeof t === 'string' ? utf8Length(t) : t.length
        })
        checkProofBytes(bytes)
      }
      await writeStreamed(output, produce)
    },
  }
}

function fileChanged(path: string, cause?: unknown): MismatchError {
  return new MismatchError('PARTICIPANTS_MISMATCH', `participants file ${path} changed while it was being read for the draw`, 'leave the file alone until the draw is written, then run the draw again', cause === undefined ? {} : { cause })
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

/** Writes a small proof whole, as `writeOutput` does. */
async function writeWhole(output: ProofOutput, text: string): Promise<void> {
  await writeStreamed(output, (put) => put(text))
}

/**
 * Writes through `produce`: to standard output as it comes, or to a temporary file next to the output,
 * moved into place only once complete (so a failed pass leaves no half proof; without `force` an
 * existing file is never replaced).
 */
async function writeStreamed(output: ProofOutput, produce: (put: (text: string | Uint8Array) => Promise<void>) => Promise<void>): Promise<void> {
  if (output.path === '-') {
    const decoder = new TextDecoder()
    await produce(async (text) => output.out(typeof text === 'string' ? text : decoder.decode(text)))
    return
  }
  const temp = join(dirname(output.path), `.${basename(output.path)}.${process.pid}.partial`)
  let file: FileHandle
  try {
    file = await open(temp, 'wx')
  } catch (cause) {
    throw unwritable(output.path, cause)
  }
  let moved = false
  try {
    try {
      await produce(async (text) => {
        try {
          await file.writeFile(text)
        } catch (cause) {
          throw unwritable(output.path, cause)
        }
      })
    } finally {
      await file.close()
    }
    if (!output.force) {
      try {
        await link(temp, output.path) // fails with EEXIST rather than replace a file
      } catch (cause) {
        const code = (cause as NodeJS.ErrnoException).code
        if (code === 'EEXIST') throw new UsageError(`${output.path} already exists; pass --force to overwrite it, or choose another -o file`, output.command)
        // A file system without hard links: the existence check, then the move.
        if (await exists(output.path)) throw new UsageError(`${output.path} already exists; pass --force to overwrite it, or choose another -o file`, output.command)
        await moveInto(temp, output.path)
        moved = true
      }
    } else {
      await moveInto(temp, output.path)
      moved = true
    }
  } finally {
    if (!moved) await unlink(temp).catch(() => undefined)
  }
}

async function moveInto(temp: string, path: string): Promise<void> {
  try {
    await rename(temp, path)
  } catch (cause) {
    throw unwritable(path, cause)
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}

function unwritable(path: string, cause: unknown): InvalidInputError {
  const code = (cause as NodeJS.ErrnoException).code
  return new InvalidInputError('FILE_UNWRITABLE', `cannot write ${path}: ${code ?? (cause as Error).message}`, 'check the directory exists and is writable', { cause })
}
