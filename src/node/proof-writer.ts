/**
 * An incremental JSON writer for proofs: it emits a proof's fields one by one, in the canonical order
 * ({@link PROOF_FIELD_ORDER}), each exactly as `JSON.stringify(proof, null, 2)` would, and writes the
 * large arrays of a full disclosure (its entries, its salts) item by item as they are produced, so that a
 * proof of millions of entries is never one string. The bytes are `serializeProof`'s for the same proof
 * (`test/node/proof-writer.test.ts`).
 *
 * @module
 */
import type { ParticipantsDisclosure, Proof } from '../core/proof.js'

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

const utf8 = new TextEncoder()
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
      for (let i = bounds[2 * k]!, to = bounds[2 * k + 1]!; i < to; i++) {
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
      out[o++] = 0x22
    }
    this.#counts[depth - 1] = n
    await this.#sink(out.subarray(0, o))
  }
}

/**
 * Writes `proof` as `serializeProof` would (2-space indent, trailing newline), its fields in
 * {@link PROOF_FIELD_ORDER}, with `participants` (when given) in place of the proof's own: a disclosure
 * held in memory, or a {@link StreamedFullDisclosure} whose lists are written as they are produced.
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
export async function writeProof(proof: Proof, sink: ProofSink, participants?: ParticipantsDisclosure | StreamedFullDisclosure): Promise<void> {
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
    } else {
      await w.value(value)
    }
  }
  await w.close('}')
  await w.raw('\n')
  await w.flush()
}

function isStreamed(v: unknown): v is StreamedFullDisclosure {
  return typeof (v as StreamedFullDisclosure).entries === 'function'
}
