/**
 * DER encoding (X.690 Distinguished Encoding Rules) of the few ASN.1 types the time-stamping client's
 * requests and the emulator's authority (its certificates, tokens and replies) are made of: each function
 * returns one whole TLV, built from TLVs. Lengths in their shortest form, INTEGERs minimal, a SET OF in
 * the order of its encodings (X.690 11.6), named-bit BIT STRINGs without trailing zero bits (11.2.2),
 * times as RFC 5280 wants them (UTCTime through 2049, then GeneralizedTime; whole seconds, "Z").
 *
 * The reader is `./der.ts`; `test/core/timestamp/der-writer.test.ts` reads every output back with it and
 * compares it byte for byte with the `@peculiar/asn1-*` encoding it replaced.
 *
 * @module
 */

/** Identifier octets of the universal types written here (class universal; SEQUENCE and SET constructed). */
const ID = { BOOLEAN: 0x01, INTEGER: 0x02, BIT_STRING: 0x03, OCTET_STRING: 0x04, NULL: 0x05, OID: 0x06, UTF8: 0x0c, SEQUENCE: 0x30, SET: 0x31, UTC_TIME: 0x17, GENERALIZED_TIME: 0x18 } as const

/** The concatenation of `parts`. */
function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** One TLV: `identifier` (a single octet: tag numbers below 31) and `content`, with the length in its shortest form. */
export function derTlv(identifier: number, content: Uint8Array): Uint8Array<ArrayBuffer> {
  if (!Number.isInteger(identifier) || identifier < 0 || identifier > 0xff || (identifier & 0x1f) === 0x1f) throw new RangeError(`identifier octet ${identifier} is not a low tag number`)
  const n = content.length
  const length: number[] = []
  if (n < 0x80) length.push(n)
  else {
    for (let v = n; v > 0; v = Math.floor(v / 256)) length.unshift(v % 256)
    length.unshift(0x80 | length.length)
  }
  return concat([Uint8Array.of(identifier, ...length), content])
}

/** SEQUENCE of the given TLVs, in order. */
export function derSequence(...items: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  return derTlv(ID.SEQUENCE, concat(items))
}

/** SET OF the given TLVs, in DER order: by their encodings, a shorter one first when it is a prefix (X.690 11.6). */
export function derSetOf(...items: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const sorted = [...items].sort((a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!
    return a.length - b.length
  })
  return derTlv(ID.SET, concat(sorted))
}

/** `[n] EXPLICIT`: the context-specific constructed tag `n` around one TLV. */
export function derExplicit(n: number, inner: Uint8Array): Uint8Array<ArrayBuffer> {
  return derTlv(0xa0 | n, inner)
}

/** `[n] IMPLICIT`: the context-specific tag `n` in place of a TLV's own (constructed when the TLV was). */
export function derImplicit(n: number, tlv: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = tlv.slice()
  out[0] = 0x80 | (tlv[0]! & 0x20) | n
  return out
}

/** INTEGER in its minimal two's complement form. */
export function derInteger(value: bigint | number): Uint8Array<ArrayBuffer> {
  let v = BigInt(value)
  const bytes: number[] = []
  // Little end first until the remaining value is the sign extension of the last byte written.
  for (;;) {
    const byte = Number(v & 0xffn)
    bytes.unshift(byte)
    v >>= 8n
    if ((v === 0n && (byte & 0x80) === 0) || (v === -1n && (byte & 0x80) !== 0)) break
  }
  return derTlv(ID.INTEGER, Uint8Array.from(bytes))
}

/** BOOLEAN (TRUE is 0xFF). */
export function derBoolean(value: boolean): Uint8Array<ArrayBuffer> {
  return derTlv(ID.BOOLEAN, Uint8Array.of(value ? 0xff : 0))
}

/** NULL. */
export function derNull(): Uint8Array<ArrayBuffer> {
  return derTlv(ID.NULL, new Uint8Array(0))
}

/** OCTET STRING. */
export function derOctetString(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return derTlv(ID.OCTET_STRING, bytes)
}

/** BIT STRING of whole bytes (no unused bits), as keys and signatures are. */
export function derBitString(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return derTlv(ID.BIT_STRING, concat([Uint8Array.of(0), bytes]))
}

/**
 * BIT STRING of named bits (KeyUsage, PKIFailureInfo): bit `i` set for each `i` in `bits` (bit 0 is the
 * first byte's high bit), trailing zero bits dropped as DER requires (X.690 11.2.2).
 */
export function derNamedBits(bits: readonly number[]): Uint8Array<ArrayBuffer> {
  if (bits.length === 0) return derTlv(ID.BIT_STRING, Uint8Array.of(0))
  const last = Math.max(...bits)
  const bytes = new Uint8Array(Math.floor(last / 8) + 1)
  for (const b of bits) bytes[b >> 3]! |= 0x80 >> (b & 7)
  return derTlv(ID.BIT_STRING, concat([Uint8Array.of(7 - (last & 7)), bytes]))
}

/** OBJECT IDENTIFIER from its dotted form. */
export function derOid(dotted: string): Uint8Array<ArrayBuffer> {
  if (!/^[0-2](\.(0|[1-9]\d*))+$/.test(dotted)) throw new RangeError(`"${dotted}" is not a dotted OBJECT IDENTIFIER`)
  const arcs = dotted.split('.').map((a) => BigInt(a))
  if (arcs[0]! < 2n && arcs[1]! >= 40n) throw new RangeError(`"${dotted}": the second arc must be below 40`)
  const out: number[] = []
  for (const arc of [arcs[0]! * 40n + arcs[1]!, ...arcs.slice(2)]) {
    const group = [Number(arc & 0x7fn)]
    for (let v = arc >> 7n; v > 0n; v >>= 7n) group.unshift(Number(v & 0x7fn) | 0x80)
    out.push(...group)
  }
  return derTlv(ID.OID, Uint8Array.from(out))
}

/** UTF8String. */
export function derUtf8String(text: string): Uint8Array<ArrayBuffer> {
  return derTlv(ID.UTF8, new TextEncoder().encode(text))
}

/** GeneralizedTime of unix `ms`, whole seconds (`YYYYMMDDHHMMSSZ`; the milliseconds are dropped). */
export function derGeneralizedTime(ms: number): Uint8Array<ArrayBuffer> {
  return derTlv(ID.GENERALIZED_TIME, new TextEncoder().encode(timeText(ms).slice(0, 14) + 'Z'))
}

/** A certificate's time (RFC 5280 4.1.2.5): UTCTime for 1950 through 2049, GeneralizedTime otherwise; whole seconds. */
export function derCertificateTime(ms: number): Uint8Array<ArrayBuffer> {
  const year = new Date(ms).getUTCFullYear()
  if (year < 1950 || year > 2049) return derGeneralizedTime(ms)
  return derTlv(ID.UTC_TIME, new TextEncoder().encode(timeText(ms).slice(2, 14) + 'Z'))
}

/** `YYYYMMDDHHMMSS` of unix `ms` (UTC; years 0 to 9999). */
function timeText(ms: number): string {
  const d = new Date(ms)
  const year = d.getUTCFullYear()
  if (!Number.isFinite(ms) || year < 0 || year > 9999) throw new RangeError(`${ms} is not a time of years 0 to 9999`)
  const two = (n: number): string => String(n).padStart(2, '0')
  return `${String(year).padStart(4, '0')}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`
}
