/**
 * A strict protobuf reader and writer for the two small messages IPNS needs: the record envelope
 * (`IpnsEntry`) and the libp2p `PublicKey`. Only varint (wire type 0) and length-delimited (wire
 * type 2) fields exist in them.
 *
 * Stricter than protobuf decoders in general, on purpose: the envelope is not covered by the
 * record's signatures, so every leeway a decoder allows is a second byte string that verifies as
 * the same record. The reader refuses
 *
 * - unknown field numbers (a generic decoder skips them: unsigned bytes in a proof),
 * - a field number that repeats or comes before a lower one (fields in ascending order, each at
 *   most once: the order every protobuf encoder writes),
 * - a wire type other than the field's,
 * - truncated tags, varints and lengths, and length-delimited fields that run past the end,
 * - non-minimal varints (a final `0x00` group, like `0x80 0x00` for 0) and varints past 64 bits.
 *
 * With these rules a message has exactly one encoding of its field values. Pure; runs in browsers.
 *
 * @module
 */

/** Wire types of the fields: `varint` (0) or `bytes` (2, length-delimited). */
export type WireKind = 'varint' | 'bytes'

/** A message schema: field number to name and wire kind. */
export type MessageSchema = Readonly<Record<number, readonly [name: string, kind: WireKind]>>

/** A decoded field value: `bigint` for varints, the (shared, not copied) bytes for length-delimited fields. */
export type FieldValue = bigint | Uint8Array

const MAX_UINT64 = (1n << 64n) - 1n

/**
 * Decodes `bytes` strictly against `schema`. Calls `fail` (which must throw) on the first problem.
 * @returns field number to value, for the fields present.
 */
export function decodeMessage(bytes: Uint8Array, schema: MessageSchema, fail: (why: string) => never): Map<number, FieldValue> {
  let i = 0
  const varint = (what: string): bigint => {
    let v = 0n
    for (let n = 0; n < 10; n++) {
      if (i >= bytes.length) return fail(`truncated ${what}`)
      const b = bytes[i++]!
      v |= BigInt(b & 0x7f) << BigInt(7 * n)
      if ((b & 0x80) === 0) {
        if (n > 0 && b === 0) return fail(`non-minimal varint in ${what}`)
        if (v > MAX_UINT64) return fail(`${what} is past 64 bits`)
        return v
      }
    }
    return fail(`${what} varint is longer than 10 bytes`)
  }
  const out = new Map<number, FieldValue>()
  let last = 0
  while (i < bytes.length) {
    const tag = varint('field tag')
    const fieldNo = tag >> 3n
    const wire = Number(tag & 7n)
    if (fieldNo === 0n) fail('field number 0')
    const spec = fieldNo <= 0xffffn ? schema[Number(fieldNo)] : undefined
    if (spec === undefined) fail(`unknown field ${fieldNo} (wire type ${wire})`)
    const [name, kind] = spec!
    const n = Number(fieldNo)
    if (n === last || out.has(n)) fail(`field ${n} (${name}) repeated`)
    if (n < last) fail(`field ${n} (${name}) after field ${last}: fields must come in ascending order`)
    last = n
    const expected = kind === 'varint' ? 0 : 2
    if (wire !== expected) fail(`field ${n} (${name}) has wire type ${wire}, not ${expected}`)
    if (kind === 'varint') {
      out.set(n, varint(`field ${n} (${name})`))
    } else {
      const len = varint(`length of field ${n} (${name})`)
      if (len > BigInt(bytes.length - i)) fail(`field ${n} (${name}) is truncated: ${len} bytes declared, ${bytes.length - i} left`)
      out.set(n, bytes.subarray(i, i + Number(len)))
      i += Number(len)
    }
  }
  return out
}

/** Encodes fields (in ascending field order, as given) with minimal varints: the encoding {@link decodeMessage} accepts. */
export function encodeMessage(fields: readonly (readonly [fieldNo: number, value: FieldValue])[]): Uint8Array {
  const parts: number[] = []
  const varint = (v: bigint): void => {
    if (v < 0n || v > MAX_UINT64) throw new RangeError(`varint ${v} is out of the uint64 range`)
    do {
      const b = Number(v & 0x7fn)
      v >>= 7n
      parts.push(v === 0n ? b : b | 0x80)
    } while (v !== 0n)
  }
  let last = 0
  for (const [n, value] of fields) {
    if (!Number.isSafeInteger(n) || n <= last) throw new RangeError(`field ${n} is out of order`)
    last = n
    if (typeof value === 'bigint') {
      varint(BigInt(n << 3))
      varint(value)
    } else {
      varint(BigInt((n << 3) | 2))
      varint(BigInt(value.length))
      for (const b of value) parts.push(b)
    }
  }
  return Uint8Array.from(parts)
}
