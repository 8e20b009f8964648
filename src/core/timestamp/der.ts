/**
 * DER decoding for the time-stamp checks and the IPNS record's RSA keys: a small strict reader of
 * X.690 Distinguished Encoding Rules into a tree (definite lengths only, whole input consumed, every
 * node's exact bytes kept for signature checks), with typed accessors that throw {@link DerError} with the
 * path of the offending field.
 *
 * It replaced `asn1js` (a general BER library) here: parsing a token, its certificates and the trust
 * anchors with `asn1js` was the largest single cost of a strict `orbitdraw verify` (docs/performance.md,
 * Start-up): about 110 KB of code to load and an object graph per node (it also tries to parse every
 * BIT STRING's contents as BER). Only DER is read, and more strictly than `asn1js` read it: lengths in
 * their shortest form, no indefinite lengths, tag numbers in their shortest form, no constructed strings,
 * NULL with no content, OBJECT IDENTIFIER sub-identifiers with no leading 0x80. Anything `asn1js`
 * refused is refused here (`test/core/timestamp/der.test.ts` compares the two on generated and mutated
 * input); the accessors are unchanged.
 *
 * @module
 */
import { bytesToHex } from '../bytes.js'

/** A structural problem in DER input; caught by the token parser and reported, never thrown out of the core. */
export class DerError extends Error {
  constructor(readonly where: string, what: string) {
    super(`${where}: ${what}`)
    this.name = 'DerError'
  }
}

/**
 * ASN.1 tag classes (X.690 8.1.2.2, the top two bits of the identifier octet).
 * @category Time-stamping
 */
export type TagClass = 'universal' | 'application' | 'context' | 'private'

const CLASSES: readonly TagClass[] = ['universal', 'application', 'context', 'private']

/**
 * One decoded TLV.
 * @category Time-stamping
 */
export interface Der {
  readonly cls: TagClass
  readonly tag: number
  readonly constructed: boolean
  /** The whole TLV as it appears in the input (what signatures cover). */
  readonly raw: Uint8Array
  /** The value octets (primitive nodes); for constructed nodes, the concatenated children. */
  readonly content: Uint8Array
  readonly children: readonly Der[]
  /** Where this node sits, for messages (for example `token.signedData.signerInfos[0]`). */
  readonly where: string
}

/** Universal tag numbers used here. */
export const TAG = { BOOLEAN: 1, INTEGER: 2, BIT_STRING: 3, OCTET_STRING: 4, NULL: 5, OID: 6, UTF8: 12, SEQUENCE: 16, SET: 17, PRINTABLE: 19, TELETEX: 20, IA5: 22, UTC_TIME: 23, GENERALIZED_TIME: 24, BMP: 30 } as const

/** Universal tags that X.690 requires to be primitive (`asn1js` refused them constructed too). */
const PRIMITIVE_ONLY = new Set([0, 1, 2, 3, 4, 5, 6, 9, 10, 13, 14, 23, 24, 31, 32, 33, 34])

/**
 * Decodes one complete DER value. Refuses trailing bytes, indefinite lengths and any encoding DER does
 * not allow (see the module's notes); `maxNodes` bounds the work on hostile input.
 */
export function decodeDer(bytes: Uint8Array, where: string, maxNodes = 10_000): Der {
  if (bytes.length === 0) throw new DerError(where, 'empty input')
  // A copy, so the tree's byte views cannot change under the caller's later writes.
  const copy = bytes.slice()
  const budget = { left: maxNodes }
  const node = readNode(copy, 0, copy.length, where, budget)
  const end = node.raw.byteOffset + node.raw.length
  if (end !== copy.length) throw new DerError(where, `${copy.length - end} trailing byte(s) after the DER value`)
  // A bare time as the whole input: read it now (`asn1js` refused a malformed one at the top level).
  if (node.cls === 'universal' && (node.tag === TAG.UTC_TIME || node.tag === TAG.GENERALIZED_TIME)) time(node, where, 'time')
  return node
}

/** Reads the TLV starting at `at` (which must end by `limit`). */
function readNode(buf: Uint8Array, at: number, limit: number, where: string, budget: { left: number }): Der {
  if (--budget.left < 0) throw new DerError(where, 'too many ASN.1 nodes')
  const bad = (what: string): DerError => new DerError(where, `not valid DER (${what})`)
  if (at >= limit) throw bad('end of input before the tag')
  const first = buf[at]!
  const cls = CLASSES[first >> 6]!
  const constructed = (first & 0x20) !== 0
  let tag = first & 0x1f
  let p = at + 1
  if (tag === 0x1f) {
    // High tag number form (X.690 8.1.2.4): base 128, shortest form, and only for tags of 31 and up.
    tag = 0
    for (let n = 0; ; n++) {
      if (p >= limit) throw bad('end of input inside the tag')
      const b = buf[p++]!
      if (n === 0 && b === 0x80) throw bad('tag number not in its shortest form')
      if (n === 4) throw bad('tag number too large')
      tag = tag * 128 + (b & 0x7f)
      if ((b & 0x80) === 0) break
    }
    if (tag < 31) throw bad('tag number not in its shortest form')
  }
  if (cls === 'universal' && constructed && PRIMITIVE_ONLY.has(tag)) throw bad(`constructed encoding of universal type ${tag}`)
  if (p >= limit) throw bad('end of input before the length')
  const lb = buf[p++]!
  let length = lb
  if (lb === 0x80) throw new DerError(where, 'indefinite length (BER, not DER)')
  if (lb === 0xff) throw bad('length octet 0xFF is reserved')
  if (lb > 0x80) {
    const count = lb & 0x7f
    if (count > 4) throw bad('length too large')
    if (p + count > limit) throw bad('end of input inside the length')
    if (buf[p] === 0) throw bad('length not in its shortest form')
    length = 0
    for (let i = 0; i < count; i++) length = length * 256 + buf[p++]!
    if (length < 0x80) throw bad('length not in its shortest form')
  }
  if (length > limit - p) throw bad('end of input before the end of the value')
  const end = p + length
  const raw = buf.subarray(at, end)
  const content = buf.subarray(p, end)
  const children: Der[] = []
  if (constructed) {
    let q = p
    while (q < end) {
      const child = readNode(buf, q, end, `${where}[${children.length}]`, budget)
      children.push(child)
      q += child.raw.length
    }
  } else if (cls === 'universal') checkPrimitive(tag, content, bad)
  return { cls, tag, constructed, raw, content, children, where }
}

/** The universal primitives whose content DER constrains whatever reads them (as `asn1js` did, or stricter). */
function checkPrimitive(tag: number, content: Uint8Array, bad: (what: string) => DerError): void {
  if (tag === 0) throw bad('end-of-contents octets')
  if (tag === TAG.NULL && content.length !== 0) throw bad('NULL with content')
  if (tag === TAG.BIT_STRING && content.length > 0 && content[0]! > 7) throw bad('BIT STRING unused-bits count over 7')
  if (tag === TAG.OID) {
    if (content.length === 0) throw bad('empty OBJECT IDENTIFIER')
    if ((content[content.length - 1]! & 0x80) !== 0) throw bad('OBJECT IDENTIFIER ends inside a sub-identifier')
  }
}

/** Asserts a universal tag (constructed for SEQUENCE/SET, primitive otherwise). */
export function expectTag(node: Der | undefined, tag: number, where: string, name: string): Der {
  if (node === undefined) throw new DerError(where, `missing ${name}`)
  const constructed = tag === TAG.SEQUENCE || tag === TAG.SET
  if (node.cls !== 'universal' || node.tag !== tag || node.constructed !== constructed) throw new DerError(node.where, `expected ${name}`)
  return node
}

/** True when `node` is the context-specific tag `[n]`. */
export function isContext(node: Der | undefined, n: number): node is Der & { readonly cls: 'context' } {
  return node !== undefined && node.cls === 'context' && node.tag === n
}

/** A SEQUENCE's children. */
export function sequence(node: Der | undefined, where: string, name: string): readonly Der[] {
  return expectTag(node, TAG.SEQUENCE, where, `${name} (SEQUENCE)`).children
}

/** A SET's children. */
export function set(node: Der | undefined, where: string, name: string): readonly Der[] {
  return expectTag(node, TAG.SET, where, `${name} (SET)`).children
}

/** An OBJECT IDENTIFIER in dotted form. */
export function oid(node: Der | undefined, where: string, name: string): string {
  const n = expectTag(node, TAG.OID, where, `${name} (OBJECT IDENTIFIER)`)
  const value = oidText(n.content)
  if (value === undefined) throw new DerError(n.where, `${name} is not a valid OBJECT IDENTIFIER`)
  return value
}

/**
 * An OBJECT IDENTIFIER's content in dotted form (X.690 8.19), or undefined when it is not one: empty,
 * ending inside a sub-identifier, or a sub-identifier starting with 0x80 (not its shortest form).
 */
function oidText(c: Uint8Array): string | undefined {
  if (c.length === 0 || (c[c.length - 1]! & 0x80) !== 0) return undefined
  const arcs: bigint[] = []
  let v = 0n
  let start = true
  for (const b of c) {
    if (start && b === 0x80) return undefined
    v = (v << 7n) | BigInt(b & 0x7f)
    start = (b & 0x80) === 0
    if (start) {
      arcs.push(v)
      v = 0n
    }
  }
  const first = arcs[0]!
  const head = first < 40n ? [0n, first] : first < 80n ? [1n, first - 40n] : [2n, first - 80n]
  return [...head, ...arcs.slice(1)].join('.')
}

/** An INTEGER (or an implicitly tagged one) as a bigint; refuses non-minimal encodings. */
export function integer(node: Der | undefined, where: string, name: string, implicit = false): bigint {
  if (node === undefined) throw new DerError(where, `missing ${name}`)
  if (!implicit) expectTag(node, TAG.INTEGER, where, `${name} (INTEGER)`)
  else if (node.constructed) throw new DerError(node.where, `${name} must be primitive`)
  const c = node.content
  if (c.length === 0) throw new DerError(node.where, `${name} is empty`)
  if (c.length > 1 && ((c[0] === 0 && (c[1]! & 0x80) === 0) || (c[0] === 0xff && (c[1]! & 0x80) !== 0))) throw new DerError(node.where, `${name} is not minimally encoded`)
  // In one step from hex, not a shift per byte: a fresh process would build (and collect) a bigint per
  // byte of every RSA modulus and certificate serial (docs/performance.md, Start-up).
  let v = BigInt(`0x${bytesToHex(c)}`)
  if ((c[0]! & 0x80) !== 0) v -= 1n << BigInt(8 * c.length)
  return v
}

/** A small non-negative INTEGER as a number (refuses values past `max`). */
export function smallInteger(node: Der | undefined, where: string, name: string, max: number, implicit = false): number {
  const v = integer(node, where, name, implicit)
  if (v < 0n || v > BigInt(max)) throw new DerError(node!.where, `${name} is ${v}, outside 0..${max}`)
  return Number(v)
}

/** An OCTET STRING's bytes. */
export function octets(node: Der | undefined, where: string, name: string): Uint8Array {
  return expectTag(node, TAG.OCTET_STRING, where, `${name} (OCTET STRING)`).content
}

/** A BIT STRING's bytes (refuses unused bits unless `allowUnused`) and its unused-bit count. */
export function bitString(node: Der | undefined, where: string, name: string): { bytes: Uint8Array; unused: number } {
  const n = expectTag(node, TAG.BIT_STRING, where, `${name} (BIT STRING)`)
  if (n.content.length === 0) throw new DerError(n.where, `${name} is empty`)
  const unused = n.content[0]!
  if (unused > 7 || (unused > 0 && n.content.length === 1)) throw new DerError(n.where, `${name} has a bad unused-bits count`)
  return { bytes: n.content.subarray(1), unused }
}

/** A BOOLEAN. */
export function boolean(node: Der | undefined, where: string, name: string): boolean {
  const n = expectTag(node, TAG.BOOLEAN, where, `${name} (BOOLEAN)`)
  if (n.content.length !== 1 || (n.content[0] !== 0 && n.content[0] !== 0xff)) throw new DerError(n.where, `${name} is not a DER BOOLEAN`)
  return n.content[0] === 0xff
}

/**
 * A UTCTime or GeneralizedTime as unix milliseconds. `roundedUp` is true when the encoding had
 * finer than millisecond precision (the value was truncated, so comparisons against a deadline add 1 ms).
 */
export function time(node: Der | undefined, where: string, name: string, generalizedOnly = false): { ms: number; subMillisecond: boolean } {
  if (node === undefined) throw new DerError(where, `missing ${name}`)
  const isGen = node.cls === 'universal' && node.tag === TAG.GENERALIZED_TIME && !node.constructed
  const isUtc = node.cls === 'universal' && node.tag === TAG.UTC_TIME && !node.constructed
  if (!isGen && !(isUtc && !generalizedOnly)) throw new DerError(node.where, `expected ${name} (${generalizedOnly ? 'GeneralizedTime' : 'UTCTime or GeneralizedTime'})`)
  const text = String.fromCharCode(...node.content)
  // DER: UTC ("Z"), seconds present, no trailing zeros in a fraction (X.690 11.7).
  const pattern = isGen ? /^\d{14}(\.\d*[1-9])?Z$/ : /^\d{12}Z$/
  if (!pattern.test(text)) throw new DerError(node.where, `${name} "${text}" is not a DER time`)
  const ms = timeMs(text, isGen)
  if (!Number.isFinite(ms)) throw new DerError(node.where, `${name} "${text}" is not a valid date`)
  const fraction = /\.(\d+)Z$/.exec(text)?.[1] ?? ''
  return { ms, subMillisecond: fraction.length > 3 }
}

/**
 * Unix milliseconds of a DER time already matched against its pattern, or `NaN` when a field is out of
 * range (month 13, 31 April, 29 February of a common year, hour 24, minute or second 60): such a time is
 * refused, never rolled over into another date (`asn1js`, which this reader replaced, rolled it over as
 * `Date.UTC` does). A UTCTime's two-digit year is 1950..2049 (RFC 5280, 4.1.2.5.1); a fraction of a
 * second is truncated to milliseconds.
 */
function timeMs(text: string, generalized: boolean): number {
  const digits = (from: number, n: number): number => Number(text.slice(from, from + n))
  const at = generalized ? 2 : 0
  const yy = digits(0, 2)
  const year = generalized ? digits(0, 4) : yy >= 50 ? 1900 + yy : 2000 + yy
  const [month, day, hour, minute, second] = [digits(at + 2, 2), digits(at + 4, 2), digits(at + 6, 2), digits(at + 8, 2), digits(at + 10, 2)]
  const dot = text.indexOf('.')
  const ms = generalized && dot >= 0 ? Math.floor(1000 * Number(`0${text.slice(dot, -1)}`)) : 0
  const date = new Date(0)
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0..99 as 1900..1999.
  date.setUTCFullYear(year, month - 1, day)
  date.setUTCHours(hour, minute, second, ms)
  const exact = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && date.getUTCHours() === hour && date.getUTCMinutes() === minute && date.getUTCSeconds() === second
  return exact ? date.getTime() : Number.NaN
}

/** AlgorithmIdentifier: the OID and the raw parameters node (absent or NULL are both `undefined`). */
export function algorithm(node: Der | undefined, where: string, name: string): { oid: string; params: Der | undefined } {
  const parts = sequence(node, where, name)
  const id = oid(parts[0], `${where}.algorithm`, `${name} algorithm`)
  const p = parts[1]
  if (parts.length > 2) throw new DerError(node!.where, `${name} has extra fields`)
  const params = p === undefined || (p.cls === 'universal' && p.tag === TAG.NULL) ? undefined : p
  return { oid: id, params }
}
