/**
 * DER decoding for the time-stamp checks, on top of `asn1js` (the ASN.1 library under PKI.js).
 * `asn1js` does the BER/DER work (tags, lengths, typed values); this module turns its result into a
 * small strict tree (definite lengths only, whole input consumed, every node's exact bytes kept for
 * signature checks) and offers typed accessors that throw {@link DerError} with the path of the
 * offending field.
 *
 * @module
 */
import * as asn1js from 'asn1js'

/** A structural problem in DER input; caught by the token parser and reported, never thrown out of the core. */
export class DerError extends Error {
  constructor(readonly where: string, what: string) {
    super(`${where}: ${what}`)
    this.name = 'DerError'
  }
}

/**
 * ASN.1 tag classes as numbered by X.690 (`asn1js` numbers them 1..4).
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
  /** The `asn1js` block, for its typed value decoders. */
  readonly block: asn1js.AsnType
}

/** Universal tag numbers used here. */
export const TAG = { BOOLEAN: 1, INTEGER: 2, BIT_STRING: 3, OCTET_STRING: 4, NULL: 5, OID: 6, UTF8: 12, SEQUENCE: 16, SET: 17, PRINTABLE: 19, TELETEX: 20, IA5: 22, UTC_TIME: 23, GENERALIZED_TIME: 24, BMP: 30 } as const

/**
 * Decodes one complete DER value. Refuses trailing bytes, indefinite lengths and anything `asn1js`
 * reports as an error; `maxNodes` bounds the work on hostile input.
 */
export function decodeDer(bytes: Uint8Array, where: string, maxNodes = 10_000): Der {
  if (bytes.length === 0) throw new DerError(where, 'empty input')
  const copy = bytes.slice()
  const decoded = asn1js.fromBER(copy)
  if (decoded.offset === -1 || decoded.result.error !== '') throw new DerError(where, `not valid DER (${decoded.result.error || 'decoding failed'})`)
  if (decoded.offset !== copy.length) throw new DerError(where, `${copy.length - decoded.offset} trailing byte(s) after the DER value`)
  const budget = { left: maxNodes }
  return convert(decoded.result, where, budget)
}

function convert(block: asn1js.AsnType, where: string, budget: { left: number }): Der {
  if (--budget.left < 0) throw new DerError(where, 'too many ASN.1 nodes')
  const base = block as asn1js.BaseBlock
  const id = base.idBlock
  const raw = base.valueBeforeDecodeView
  if (base.lenBlock.isIndefiniteForm) throw new DerError(where, 'indefinite length (BER, not DER)')
  const constructed = id.isConstructed
  const headerLength = base.lenBlock.blockLength + id.blockLength
  const content = raw.subarray(headerLength)
  const cls = CLASSES[id.tagClass - 1]
  if (cls === undefined) throw new DerError(where, 'unknown tag class')
  const children: Der[] = []
  if (constructed) {
    const value = (base.valueBlock as unknown as { value?: asn1js.AsnType[] }).value
    if (!Array.isArray(value)) throw new DerError(where, 'constructed value without children')
    value.forEach((child, i) => children.push(convert(child, `${where}[${i}]`, budget)))
  }
  return { cls, tag: id.tagNumber, constructed, raw, content, children, where, block }
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
  const value = (n.block as asn1js.ObjectIdentifier).getValue()
  if (value === '') throw new DerError(n.where, `${name} is not a valid OBJECT IDENTIFIER`)
  return value
}

/** An INTEGER (or an implicitly tagged one) as a bigint; refuses non-minimal encodings. */
export function integer(node: Der | undefined, where: string, name: string, implicit = false): bigint {
  if (node === undefined) throw new DerError(where, `missing ${name}`)
  if (!implicit) expectTag(node, TAG.INTEGER, where, `${name} (INTEGER)`)
  else if (node.constructed) throw new DerError(node.where, `${name} must be primitive`)
  const c = node.content
  if (c.length === 0) throw new DerError(node.where, `${name} is empty`)
  if (c.length > 1 && ((c[0] === 0 && (c[1]! & 0x80) === 0) || (c[0] === 0xff && (c[1]! & 0x80) !== 0))) throw new DerError(node.where, `${name} is not minimally encoded`)
  let v = 0n
  for (const b of c) v = (v << 8n) | BigInt(b)
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
  const ms = (node.block as asn1js.UTCTime).toDate().getTime()
  if (!Number.isFinite(ms)) throw new DerError(node.where, `${name} "${text}" is not a valid date`)
  const fraction = /\.(\d+)Z$/.exec(text)?.[1] ?? ''
  return { ms, subMillisecond: fraction.length > 3 }
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
