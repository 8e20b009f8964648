/**
 * Reading untrusted JSON text safely (size, depth, UTF-8, duplicate keys) and describing untrusted
 * values in error messages. Fields are read by their declared shapes: src/core/schema/kit.ts.
 *
 * @module
 */
import { LimitExceededError, ParseError, type OrbitdrawError } from './errors.js'
import { LIMITS } from './limits.js'
import { firstLoneSurrogate, utf8Length } from './bytes.js'

/**
 * A JSON object as parsed (prototype-free access via own keys only).
 * @category Formats
 */
export type JsonObject = { readonly [key: string]: unknown }

/** Describes a JSON value briefly for error messages (never echoes long or secret content). */
export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return value.length > 40 ? 'a long string' : `the string ${JSON.stringify(value)}`
  if (typeof value === 'object') return 'an object'
  return `${typeof value} ${String(value)}`
}

/**
 * `JSON.stringify` for error messages about untrusted values, which never throws (a BigInt from a
 * DAG-JSON decoder, a cycle or a throwing `toJSON` get {@link describe}d instead) and stays short.
 */
export function show(value: unknown): string {
  let text: string | undefined
  try {
    text = typeof value === 'bigint' ? `${value}` : JSON.stringify(value)
  } catch {
    return describe(value)
  }
  if (text === undefined) return String(typeof value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

/** Options of {@link parseJsonText}. */
export interface JsonTextOptions {
  /**
   * Refuse every number not written as a canonical integer (`0` or `-?[1-9][0-9]*`, not `-0`): no
   * fraction, no exponent (`8.0`, `8e0` are refused). Proofs and commitments hold no other numbers.
   */
  readonly integersOnly?: boolean
}

/**
 * Parses JSON text, turning syntax errors into a {@link ParseError}. Before `JSON.parse` runs, the
 * nesting depth is bounded by `LIMITS.maxJsonDepth` and the members of an object by
 * `LIMITS.maxObjectKeys` in one iterative pass (`JSON_TOO_DEEP`, `LIMIT_EXCEEDED`), so a document of
 * nested brackets costs no memory beyond its text, nor one of millions of keys superlinear time. Duplicate keys in an object are
 * rejected (`DUPLICATE_KEY`, with the path): JSON parsers disagree on which value wins (JavaScript,
 * Go and Python keep the last, others the first or refuse), so a document with duplicates could
 * mean different things to different verifiers. With `integersOnly`, a number written with a
 * fraction or an exponent is refused (`NON_CANONICAL_NUMBER`, with the path).
 */
export function parseJsonText(text: string, what: string, options: JsonTextOptions = {}): unknown {
  checkJsonDepth(text, what)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (cause) {
    throw new ParseError('INVALID_JSON', `${what} is not valid JSON: ${(cause as Error).message}`, `supply the ${what} as a JSON document`, { path: '$', cause })
  }
  const found = scanJson(text, options.integersOnly === true)
  if (found?.kind === 'duplicate') {
    throw new ParseError('DUPLICATE_KEY', `${what} has the key ${JSON.stringify(found.key)} twice in one object`, `remove the duplicate: every key may appear once per object (parsers disagree on which one wins)`, { path: found.path })
  }
  if (found?.kind === 'number') {
    throw new ParseError('NON_CANONICAL_NUMBER', `${what} has the number ${show(found.text)} where only integers in plain decimal are allowed`, 'write integers without fraction or exponent (8, not 8.0 or 8e0; 0, not -0)', { path: found.path })
  }
  return value
}

/**
 * Refuses JSON text nested deeper than `LIMITS.maxJsonDepth` arrays and objects, or with an object of
 * more than `LIMITS.maxObjectKeys` members (counted as its commas plus one). One pass over the text, no
 * recursion, one small table per call: brackets and commas inside strings are skipped
 * ({@link stringEnd}). Runs on any text (valid JSON or not), so it is safe before `JSON.parse`.
 * @throws {@link LimitExceededError} `JSON_TOO_DEEP` naming the character offset of the first bracket
 *   too deep; `LIMIT_EXCEEDED` naming the offset of the comma that starts the member over the limit.
 */
export function checkJsonDepth(text: string, what = 'JSON'): void {
  const max = LIMITS.maxJsonDepth
  const maxKeys = LIMITS.maxObjectKeys
  // Per open bracket: its members so far (counting commas) when it is an object, -1 for an array.
  const members = new Int32Array(max + 1)
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22 /* " */) {
      i = stringEnd(text, i)
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) {
        throw new LimitExceededError('JSON_TOO_DEEP', `${what} nests arrays and objects more than ${max} deep (character ${i}), over the limit maxJsonDepth = ${max}`, 'no orbitdraw document nests that deep: supply the file exactly as orbitdraw wrote it', { path: '$' })
      }
      members[depth] = c === 0x7b ? 1 : -1
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (depth > 0) depth--
    } else if (c === 0x2c /* , */ && depth > 0 && members[depth]! > 0) {
      if (++members[depth]! > maxKeys) {
        throw new LimitExceededError('LIMIT_EXCEEDED', `${what} has an object of more than ${maxKeys} members (character ${i}), over the limit maxObjectKeys = ${maxKeys}`, 'no orbitdraw object has that many: supply the file exactly as orbitdraw wrote it', { path: '$' })
      }
    }
  }
}

/**
 * The offset of the quote that ends the string opened by the quote at `open` (a backslash escapes the
 * character after it), or `text.length` when the string is not closed. Found with `indexOf` (the
 * engine's own search, not a loop over each character: most of a document's characters are inside
 * strings, and a fresh process would run that loop cold, docs/performance.md, Start-up): a quote ends
 * the string when the run of backslashes just before it is of even length.
 */
function stringEnd(text: string, open: number): number {
  for (let q = open; ; ) {
    q = text.indexOf('"', q + 1)
    if (q < 0) return text.length
    let b = q - 1
    while (text.charCodeAt(b) === 0x5c /* \ */) b--
    if ((q - 1 - b) % 2 === 0) return q
  }
}

/** Options of {@link decodeJsonInput}. */
export interface JsonInputOptions extends JsonTextOptions {
  /** What the document is, for messages (`"proof"`, `"commitment"`). */
  readonly what: string
  /** Largest input, in UTF-8 bytes (a string counts as its UTF-8 encoding). */
  readonly maxBytes: number
  /** The error for an input of `size` bytes over `maxBytes`. */
  readonly tooLarge: (size: number) => OrbitdrawError
}

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const
const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * The one byte-level entry point for untrusted JSON documents (proofs, commitments): every front end
 * (library, CLI, verifier page) hands the file's bytes, or text, to this function. Rules, in order
 * (docs/spec.md, "Reading a document"):
 *
 * 1. size: bytes over `maxBytes` are refused before decoding; a string is measured as its UTF-8
 *    encoding (at most 3 bytes per UTF-16 unit, so long strings are refused unread);
 * 2. encoding: bytes must be strict UTF-8 (fatal decoding: no U+FFFD replacement); a string must be
 *    well-formed (no lone surrogate: it would have no UTF-8 form);
 * 3. a leading byte order mark (bytes EF BB BF, or U+FEFF) is refused, not skipped;
 * 4. nesting depth at most `LIMITS.maxJsonDepth`, and at most `LIMITS.maxObjectKeys` members in any
 *    object, checked before parsing;
 * 5. JSON syntax (RFC 8259), then no duplicate key in any object, then (with `integersOnly`) every
 *    number a canonical integer.
 *
 * @returns the parsed JSON value.
 * @throws `tooLarge(size)`; {@link ParseError} `INVALID_UTF8`, `UNEXPECTED_BOM`, `INVALID_JSON`,
 *   `DUPLICATE_KEY`, `NON_CANONICAL_NUMBER`; {@link LimitExceededError} `JSON_TOO_DEEP`.
 * @example
 * ```ts
 * const value = decodeJsonInput(await readFile('proof.json'), {
 *   what: 'proof', maxBytes: LIMITS.maxProofBytes, integersOnly: true,
 *   tooLarge: (n) => new ParseError('PROOF_TOO_LARGE', `proof is ${n} bytes`, 'proofs this large are not accepted'),
 * })
 * ```
 */
export function decodeJsonInput(input: Uint8Array | string, options: JsonInputOptions): unknown {
  const { what } = options
  let text: string
  if (typeof input === 'string') {
    if (input.length > options.maxBytes) throw options.tooLarge(input.length)
    const bad = firstLoneSurrogate(input)
    if (bad >= 0) {
      throw new ParseError('INVALID_UTF8', `${what} text has a lone UTF-16 surrogate at character ${bad}, so it has no UTF-8 encoding`, `supply the ${what} file exactly as written (read it as bytes, not as repaired text)`, { path: '$' })
    }
    if (input.length * 3 > options.maxBytes) {
      const size = utf8Length(input)
      if (size > options.maxBytes) throw options.tooLarge(size)
    }
    if (input.charCodeAt(0) === 0xfeff) throw bomError(what)
    text = input
  } else if (input instanceof Uint8Array) {
    if (input.length > options.maxBytes) throw options.tooLarge(input.length)
    if (input[0] === UTF8_BOM[0] && input[1] === UTF8_BOM[1] && input[2] === UTF8_BOM[2]) throw bomError(what)
    try {
      text = fatalDecoder.decode(input)
    } catch (cause) {
      const at = firstInvalidUtf8(input)
      throw new ParseError('INVALID_UTF8', `${what} bytes are not valid UTF-8 (first bad byte at offset ${at}: 0x${(input[at] ?? 0).toString(16).padStart(2, '0')})`, `supply the ${what} file exactly as written; re-encode text files as UTF-8 (for example iconv -f latin1 -t utf-8)`, { path: '$', cause })
    }
  } else {
    throw new ParseError('INVALID_INPUT', `${what} must be given as bytes or text, got ${describe(input)}`, `pass the ${what} file's bytes (Uint8Array) or its text`, { path: '$' })
  }
  return parseJsonText(text, what, options)
}

function bomError(what: string): ParseError {
  return new ParseError('UNEXPECTED_BOM', `${what} starts with a byte order mark (EF BB BF)`, `save the ${what} as UTF-8 without a byte order mark (orbitdraw never writes one)`, { path: '$' })
}

/**
 * Byte offset of the first byte that breaks strict UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF), or `bytes.length` for a truncated final sequence.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i]!
    if (b < 0x80) {
      i++
      continue
    }
    let need: number
    let lo = 0x80
    let hi = 0xbf
    if (b >= 0xc2 && b <= 0xdf) need = 1
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2
      if (b === 0xe0) lo = 0xa0
      if (b === 0xed) hi = 0x9f
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3
      if (b === 0xf0) lo = 0x90
      if (b === 0xf4) hi = 0x8f
    } else return i
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k]
      if (c === undefined) return i
      if (c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i
    }
    i += need + 1
  }
  return bytes.length
}

interface Frame {
  readonly path: string
  readonly keys: Set<string> | undefined
  expectKey: boolean
  lastKey: string
  index: number
}

/**
 * Finds the first object key that appears twice in the same object of a *valid* JSON text (keys
 * compared after unescaping, so `"a"` and `"\u0061"` are the same key). One linear pass, no recursion.
 * @returns the duplicate key and the JSON path of its second occurrence, or `undefined`.
 */
export function findDuplicateKey(text: string): { key: string; path: string } | undefined {
  const found = scanJson(text, false)
  return found?.kind === 'duplicate' ? { key: found.key, path: found.path } : undefined
}

type ScanFinding = { kind: 'duplicate'; key: string; path: string } | { kind: 'number'; text: string; path: string }

const CANONICAL_INTEGER = /^(?:0|-?[1-9][0-9]*)$/

/**
 * One pass over a valid JSON text of bounded depth: the first duplicate key, or with `integersOnly`
 * the first number not written as a canonical integer, whichever comes first.
 */
function scanJson(text: string, integersOnly: boolean): ScanFinding | undefined {
  const stack: Frame[] = []
  const childPath = (): string => {
    const top = stack[stack.length - 1]
    if (top === undefined) return '$'
    return top.keys !== undefined ? `${top.path}${memberPath(top.lastKey)}` : `${top.path}[${top.index}]`
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x7b /* { */) {
      stack.push({ path: childPath(), keys: new Set(), expectKey: true, lastKey: '', index: 0 })
    } else if (c === 0x5b /* [ */) {
      stack.push({ path: childPath(), keys: undefined, expectKey: false, lastKey: '', index: 0 })
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop()
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1]
      if (top !== undefined) {
        if (top.keys !== undefined) top.expectKey = true
        else top.index++
      }
    } else if (c === 0x22 /* " */) {
      const j = stringEnd(text, i)
      const top = stack[stack.length - 1]
      if (top?.keys !== undefined && top.expectKey) {
        const raw = text.slice(i + 1, j)
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, j + 1)) as string) : raw
        if (top.keys.has(key)) return { kind: 'duplicate', key, path: `${top.path}${memberPath(key)}` }
        top.keys.add(key)
        top.expectKey = false
        top.lastKey = key
      }
      i = j
    } else if (integersOnly && (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39))) {
      let j = i + 1
      for (; j < text.length; j++) {
        const d = text.charCodeAt(j)
        if (!((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d)) break
      }
      const token = text.slice(i, j)
      if (!CANONICAL_INTEGER.test(token) || token === '-0') return { kind: 'number', text: token, path: childPath() }
      i = j - 1
    }
  }
  return undefined
}

function memberPath(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`
}
