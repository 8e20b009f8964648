/**
 * Canonical DAG-JSON bytes of the plain values a commitment's IPLD form is made of, without building
 * `@ipld/dag-json`'s token list. `@ipld/dag-json` (cborg's JSON encoder) turns every value into token
 * objects, sorts each map's entries and writes the tokens one by one: warm, a 20 kB `panel`
 * commitment (about 9,000 numbers) takes it 4–7 ms, but in a fresh process, where that code runs for
 * the first time (an organizer's `orbitdraw commit` and `orbitdraw draw` processes), 18–80 ms, once in
 * `commit` and again in the draw (docs/performance.md, "A cold first panel's encoding and checks,
 * written and skipped"). This writes the same bytes as one string: keys sorted as cborg's `mapSorter`
 * sorts them (by UTF-16 code units: it compares `Token[…].key` strings), strings as cborg writes them
 * (`JSON.stringify`), safe integers in decimal, a CID as `{"/":"…"}` and bytes as
 * `{"/":{"bytes":"…"}}` (multiformats' base64, no padding), as `@ipld/dag-json` writes them.
 *
 * Anything else (a non-integer or unsafe number, `undefined`, a `Map`, another typed array, a class
 * instance, an object with a `/` or `asCID` key that `@ipld/dag-json` might read as a link, a cycle)
 * returns `undefined`, and the caller encodes with `@ipld/dag-json` itself, so its bytes and its
 * errors stay the library's. `test/core/dag-json-encode.test.ts` compares the two on the vectors'
 * commitments and on random values.
 *
 * @module
 */
import { CID } from 'multiformats/cid'
import { base64 } from 'multiformats/bases/base64'

/** `JSON.stringify` escapes lone surrogates, so the text is always well-formed: no check before encoding it. */
const encoder = new TextEncoder()

/** Deeper than any commitment's IPLD form (a cycle ends here too, then `@ipld/dag-json` refuses it). */
const MAX_DEPTH = 32

/** Thrown inside {@link plainDagJson} for a value it leaves to `@ipld/dag-json`. */
const NOT_PLAIN: unique symbol = Symbol('not plain')

/**
 * The canonical DAG-JSON bytes of `value` when it is made only of `null`, booleans, safe integers,
 * strings, arrays, plain objects, `Uint8Array`s and CIDs; else `undefined` (encode it with
 * `@ipld/dag-json`).
 */
export function plainDagJson(value: unknown): Uint8Array | undefined {
  let text: string
  try {
    text = write(value, 0)
  } catch (err) {
    if (err === NOT_PLAIN) return undefined
    throw err
  }
  return encoder.encode(text)
}

function write(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'number':
      if (!Number.isSafeInteger(value)) throw NOT_PLAIN
      return String(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'object':
      if (value === null) return 'null'
      if (depth >= MAX_DEPTH) throw NOT_PLAIN
      if (Array.isArray(value)) return writeArray(value, depth + 1)
      return writeObject(value, depth + 1)
    default:
      throw NOT_PLAIN
  }
}

function writeArray(a: readonly unknown[], depth: number): string {
  if (Object.getPrototypeOf(a) !== Array.prototype) throw NOT_PLAIN
  // A list of safe integers (a `panel` spec's 1,000+ types) in one native call: the same digits.
  if (safeIntegers(a)) return JSON.stringify(a)
  let out = '['
  for (let i = 0; i < a.length; i++) {
    if (i > 0) out += ','
    out += write(a[i], depth)
  }
  return out + ']'
}

function safeIntegers(a: readonly unknown[]): boolean {
  for (let i = 0; i < a.length; i++) if (!Number.isSafeInteger(a[i])) return false
  return true
}

function writeObject(o: object, depth: number): string {
  const proto: unknown = Object.getPrototypeOf(o)
  if (proto === Uint8Array.prototype) return `{"/":{"bytes":${JSON.stringify(base64.encode(o as Uint8Array).slice(1))}}}`
  if (o instanceof CID) return `{"/":${JSON.stringify(o.toString())}}`
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN
  const keys = Object.keys(o).sort()
  let out = '{'
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (key === '/' || key === 'asCID') throw NOT_PLAIN
    const x = (o as Record<string, unknown>)[key]
    if (i > 0) out += ','
    out += JSON.stringify(key) + ':' + write(x, depth)
  }
  return out + '}'
}
