/**
 * An incremental JSON writer for proofs: it emits a proof's fields one by one, in the canonical order
 * ({@link PROOF_FIELD_ORDER}), each exactly as `JSON.stringify(proof, null, 2)` would, and writes the
 * large arrays of a full disclosure (its entries, its salts) and a ranking of every entry item by item as they are produced, so that a
 * proof of millions of entries is never one string. The bytes are `serializeProof`'s for the same proof
 * (`test/node/proof-writer.test.ts`).
 *
 * @module
 */
import type { OutcomeJson } from '../core/kinds/registry.js'
import type { ParticipantsDisclosure, Proof } from '../core/proof.js'
import type { OrganizerSecret } from '../core/secret.js'
import { bytesToHex, utf8Length } from '../core/bytes.js'
import { LIMITS } from '../core/limits.js'
import { checkProofBytes } from '../core/proof-size.js'

/**
 * The order of a proof's top-level fields as the library builds a proof (`drawPrepared`, then `draw`'s
 * chain and time-stamps), and so as `serializeProof` writes it. {@link writeProof} follows it.
 * @category Node
 */
export const PROOF_FIELD_ORDER = ['type', 'version', 'commitment', 'commitmentCid', 'participants', 'chain', 'seed', 'outcome', 'drand', 'timestamps', 'original'] as const

/**
 * Where streamed text goes: called with each piece in order (strings and UTF-8 bytes); a returned
 * promise is awaited before the next piece.
 * @category Node
 */
export type ProofSink = (piece: string | Uint8Array) => void | Promise<void>

/**
 * The items of one JSON array being written, one at a time or by the batch.
 * @category Node
 */
export interface ArrayItems {
  /** Writes one string item. */
  string(s: string): Promise<void>
  /**
   * Writes `lines` string items from UTF-8 bytes: item `k` is `chunk[bounds[2k] .. bounds[2k + 1])`,
   * a valid entry's bytes (JSON-escaped here; a byte under 0x20, which no valid entry has, is escaped as
   * `JSON.stringify` would).
   */
  utf8Lines(chunk: Uint8Array, bounds: Int32Array, lines: number): Promise<void>
  /** Writes one item of any JSON value (a weighted entry `{ entry, weight }`), as `JSON.stringify` would at its depth. */
  json(value: unknown): Promise<void>
  /**
   * Writes `n` ranked rows `{ rank, index, entry }` from UTF-8 bytes: row `k` has rank `rank + k`, index
   * `indices[k]` and entry `chunk[bounds[2k] .. bounds[2k + 1])` (a valid entry's bytes, JSON-escaped here).
   */
  rankedRows(chunk: Uint8Array, bounds: Int32Array, rank: number, indices: ArrayLike<number>, n: number): Promise<void>
}

/**
 * A ranking of every committed entry (`shuffle`, `tiebreak`) whose rows are written as they are read
 * from the file, so that its entries are never held together: in a proof written by {@link writeProof}
 * it stands for the outcome `{ kind, ranking: [{ rank, index, entry }, …] }`, the same bytes.
 * @category Node
 */
export interface StreamedRanking {
  readonly kind: string
  /** The committed index at each rank, rank 1 first (the permutation the seed gives). */
  readonly indices: readonly number[]
  /** The first `n` rows (at most the ranking's length), their entries read from the file. */
  head(n: number): Promise<{ readonly rank: number; readonly index: number; readonly entry: string }[]>
  /** Writes every row, rank 1 first, into the ranking's array. */
  rows(out: ArrayItems): Promise<void>
}

/**
 * A proof whose outcome may be a {@link StreamedRanking} (a ranking of every entry, written from the
 * file): what a streamed draw proves (`StreamedDraw.prove`), written by {@link writeProof}.
 * @category Node
 */
export type StreamedProof = Omit<Proof, 'outcome'> & { readonly outcome: OutcomeJson | StreamedRanking }

/**
 * True when a streamed proof's outcome is a {@link StreamedRanking} (its rows are written from the file).
 *
 * @example
 * ```ts
 * import { drawFile, isStreamedRanking } from 'orbitdraw/node'
 *
 * const drawn = await drawFile(commitment, 'entrants.txt', { timestamps })
 * const outcome = drawn.proof.outcome
 * const top = isStreamedRanking(outcome) ? await outcome.head(10) : outcome
 * ```
 * @category Node
 */
export function isStreamedRanking(outcome: OutcomeJson | StreamedRanking): outcome is StreamedRanking {
  return typeof (outcome as StreamedRanking).rows === 'function'
}

/**
 * A full disclosure whose lists are written as they are produced: `entries` writes every entry (in
 * committed order) and, for a salted list, `salts` every salt (64 hex digits), into the array given.
 * @category Node
 */
export interface StreamedFullDisclosure {
  readonly disclosure: 'full'
  entries(out: ArrayItems): Promise<void>
  salts?(out: ArrayItems): Promise<void>
}

/** Salts written per batch by {@link saltItems}. */
const SALT_BATCH = 16_384

/**
 * The `salts` of a salted list's {@link StreamedFullDisclosure}: every salt of `count` entries, in
 * committed order, derived from the organizer's secret (never read from the file).
 */
export function saltItems(secret: OrganizerSecret, count: number): (out: ArrayItems) => Promise<void> {
  return async (out) => {
    for (let g = 0; g < count; g += SALT_BATCH) {
      const to = Math.min(count, g + SALT_BATCH)
      for (let i = g; i < to; i++) await out.string(bytesToHex(secret.saltOf(i)))
    }
  }
}

const utf8 = new TextEncoder()
/** Ranked rows handed to the sink at a time. */
const RANKED_BATCH = 8192
/** Text gathered before it is handed to the sink (characters). */
const FLUSH_CHARS = 1 << 16

/**
 * Writes JSON in the layout of `JSON.stringify(value, null, 2)` piece by piece: objects and arrays are
 * opened and closed explicitly, other values are stringified whole at their depth.
 */
class JsonWriter {
  readonly #sink: ProofSink
  /** Items written so far in each open container (the innermost last). */
  readonly #counts: number[] = []
  #text = ''
  #bytes = new Uint8Array(0)

  constructor(sink: ProofSink) {
    this.#sink = sink
  }

  /** The start of the next member of the open object: `"key": `. */
  async key(name: string): Promise<void> {
    await this.#next()
    this.#text += `${JSON.stringify(name)}: `
  }

  /** A whole value at the current depth (after {@link JsonWriter.key}, or as the next array item with `item`). */
  async value(v: unknown, item = false): Promise<void> {
    if (item) await this.#next()
    const depth = this.#counts.length
    this.#text += depth === 0 ? JSON.stringify(v, null, 2) : JSON.stringify(v, null, 2).replace(/\n/g, `\n${'  '.repeat(depth)}`)
    if (this.#text.length >= FLUSH_CHARS) await this.flush()
  }

  async open(bracket: '{' | '['): Promise<void> {
    this.#text += bracket
    this.#counts.push(0)
  }

  async close(bracket: '}' | ']'): Promise<void> {
    const n = this.#counts.pop()!
    this.#text += n === 0 ? bracket : `\n${'  '.repeat(this.#counts.length)}${bracket}`
  }

  async raw(text: string): Promise<void> {
    this.#text += text
  }

  /** The array items of the open array. */
  items(): ArrayItems {
    return {
      string: (s) => this.value(s, true),
      utf8Lines: (chunk, bounds, lines) => this.#utf8Lines(chunk, bounds, lines),
      json: (v) => this.value(v, true),
      rankedRows: (chunk, bounds, rank, indices, n) => this.#rankedRows(chunk, bounds, rank, indices, n),
    }
  }

  async flush(): Promise<void> {
    if (this.#text === '') return
    const t = this.#text
    this.#text = ''
    await this.#sink(t)
  }

  async #next(): Promise<void> {
    const depth = this.#counts.length
    const n = this.#counts[depth - 1]!
    this.#counts[depth - 1] = n + 1
    this.#text += `${n === 0 ? '' : ','}\n${'  '.repeat(depth)}`
  }

  /**
   * Ranked rows as `JSON.stringify({ rank, index, entry }, null, 2)` at the current depth, each entry's
   * bytes copied as {@link JsonWriter.#utf8Lines} copies them.
   */
  async #rankedRows(chunk: Uint8Array, bounds: Int32Array, rank: number, indices: ArrayLike<number>, n: number): Promise<void> {
    await this.flush()
    const depth = this.#counts.length
    const pad = '  '.repeat(depth)
    const inner = `${pad}  `
    const close = utf8.encode(`"\n${pad}}`)
    // Handed to the sink by batches of rows, so the text buffer stays small whatever the window.
    for (let from = 0; from < n; from += RANKED_BATCH) {
      const to = Math.min(n, from + RANKED_BATCH)
      let bytes = 0
      for (let k = from; k < to; k++) bytes += bounds[2 * k + 1]! - bounds[2 * k]!
      // At most: every byte escaped, plus each row's fixed text and its two numbers.
      const most = 6 * bytes + (to - from) * (4 * inner.length + 2 * pad.length + 80)
      if (this.#bytes.length < most) this.#bytes = new Uint8Array(most)
      const out = this.#bytes
      let o = 0
      let count = this.#counts[depth - 1]!
      for (let k = from; k < to; k++) {
        const head = `${count++ === 0 ? '' : ','}\n${pad}{\n${inner}"rank": ${rank + k},\n${inner}"index": ${indices[k]!},\n${inner}"entry": "`
        o += utf8.encodeInto(head, out.subarray(o)).written
        o = escapeInto(chunk, bounds[2 * k]!, bounds[2 * k + 1]!, out, o)
        out.set(close, o)
        o += close.length
      }
      this.#counts[depth - 1] = count
      await this.#sink(out.subarray(0, o))
    }
  }

  /** Each line's bytes as a JSON string, copied byte by byte (only '"' and '\\' are escaped in a valid entry). */
  async #utf8Lines(chunk: Uint8Array, bounds: Int32Array, lines: number): Promise<void> {
    await this.flush()
    const depth = this.#counts.length
    const first = utf8.encode(`\n${'  '.repeat(depth)}"`)
    const next = utf8.encode(`,\n${'  '.repeat(depth)}"`)
    // At most: every byte escaped (6 bytes for a control byte), plus each item's prefix and quote.
    const most = 6 * chunk.length + (next.length + 1) * lines
    if (this.#bytes.length < most) this.#bytes = new Uint8Array(most)
    const out = this.#bytes
    let o = 0
    let n = this.#counts[depth - 1]!
    for (let k = 0; k < lines; k++) {
      const prefix = n++ === 0 ? first : next
      out.set(prefix, o)
      o += prefix.length
      o = escapeInto(chunk, bounds[2 * k]!, bounds[2 * k + 1]!, out, o)
      out[o++] = 0x22
    }
    this.#counts[depth - 1] = n
    await this.#sink(out.subarray(0, o))
  }
}

/** Copies `chunk[from .. to)` into `out` at `o` as the inside of a JSON string (only '"', '\\' and bytes under 0x20 escaped, as `JSON.stringify` escapes them); returns the end. */
function escapeInto(chunk: Uint8Array, from: number, to: number, out: Uint8Array, o: number): number {
  for (let i = from; i < to; i++) {
    const b = chunk[i]!
    if (b === 0x22 || b === 0x5c) out[o++] = 0x5c
    else if (b < 0x20) {
      const esc = utf8.encode(JSON.stringify(String.fromCharCode(b)).slice(1, -1))
      out.set(esc, o)
      o += esc.length
      continue
    }
    out[o++] = b
  }
  return o
}

/**
 * Writes `proof` as `serializeProof` would (2-space indent, trailing newline), its fields in
 * {@link PROOF_FIELD_ORDER}, with `participants` (when given) in place of the proof's own: a disclosure
 * held in memory, or a {@link StreamedFullDisclosure} whose lists are written as they are produced; an
 * outcome that is a {@link StreamedRanking} is written row by row as its file is read.
 * The sink sees the text in pieces; a failure midway leaves it incomplete (write to a temporary file and
 * move it into place, as `orbitdraw draw` does).
 *
 * @example
 * ```ts
 * import { createWriteStream } from 'node:fs'
 * import { writeProof } from 'orbitdraw/node'
 *
 * const file = createWriteStream('proof.json')
 * await writeProof(proof, (piece) => new Promise<void>((ok, fail) => file.write(piece, (e) => (e ? fail(e) : ok()))))
 * file.end()
 * ```
 * @throws `TypeError` for a field outside {@link PROOF_FIELD_ORDER}; whatever the sink or the disclosure's lists throw.
 * @category Node
 */
export async function writeProof(proof: Proof | StreamedProof, sink: ProofSink, participants?: ParticipantsDisclosure | StreamedFullDisclosure): Promise<void> {
  for (const k of Object.keys(proof)) {
    if (!(PROOF_FIELD_ORDER as readonly string[]).includes(k)) throw new TypeError(`writeProof: unknown proof field ${JSON.stringify(k)}`)
  }
  const w = new JsonWriter(sink)
  await w.open('{')
  for (const k of PROOF_FIELD_ORDER) {
    const value = k === 'participants' && participants !== undefined ? participants : (proof as Record<string, unknown>)[k]
    if (value === undefined) continue
    await w.key(k)
    if (k === 'participants' && isStreamed(value)) {
      await w.open('{')
      await w.key('disclosure')
      await w.value('full')
      await w.key('entries')
      await w.open('[')
      await value.entries(w.items())
      await w.close(']')
      if (value.salts !== undefined) {
        await w.key('salts')
        await w.open('[')
        await value.salts(w.items())
        await w.close(']')
      }
      await w.close('}')
    } else if (k === 'outcome' && isStreamedRanking(value as OutcomeJson | StreamedRanking)) {
      const ranking = value as StreamedRanking
      await w.open('{')
      await w.key('kind')
      await w.value(ranking.kind)
      await w.key('ranking')
      await w.open('[')
      await ranking.rows(w.items())
      await w.close(']')
      await w.close('}')
    } else {
      await w.value(value)
    }
  }
  await w.close('}')
  await w.raw('\n')
  await w.flush()
}

/**
 * Writes `proof` to `sink` as {@link writeProof} does, refusing before its first byte a proof no verifier
 * reads (over `LIMITS.maxProofBytes`): `head` (the proof without what is streamed from the file) is
 * counted, and `streamedCeiling` (a ceiling of the streamed parts' bytes) added; only when that sum
 * could be over is the exact size counted in a dry run, so nothing is written, not even to standard output.
 * @throws `LimitExceededError` `LIMIT_EXCEEDED`; what {@link writeProof} throws.
 */
export async function writeProofWithinLimit(proof: StreamedProof, sink: ProofSink, participants: StreamedFullDisclosure | undefined, head: StreamedProof, streamedCeiling: number): Promise<void> {
  let rest = 0
  await writeProof(head, (t) => void (rest += typeof t === 'string' ? utf8Length(t) : t.length))
  if (rest + streamedCeiling > LIMITS.maxProofBytes) {
    let bytes = 0
    await writeProof(proof, (t) => void (bytes += typeof t === 'string' ? utf8Length(t) : t.length), participants)
    checkProofBytes(bytes)
  }
  await writeProof(proof, sink, participants)
}

function isStreamed(v: unknown): v is StreamedFullDisclosure {
  return typeof (v as StreamedFullDisclosure).entries === 'function'
}
