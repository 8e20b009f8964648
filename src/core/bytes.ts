/**
 * Byte helpers with strict input checks: hex, base64, UTF-8 and big-endian integers.
 * Nothing here accepts a malformed input silently.
 *
 * @module
 */
import { InvalidInputError, ParseError } from './errors.js'

const HEX_RE = /^(?:[0-9a-f]{2})*$/i

/** True when `s` is an even-length string of hexadecimal digits (either case). */
export function isHex(s: string): boolean {
  return HEX_RE.test(s)
}

/**
 * Decodes hexadecimal (either case). Throws {@link ParseError} on odd length or a non-hex digit.
 * @category Formats
 */
export function hexToBytes(hex: string, path = '$'): Uint8Array {
  if (typeof hex !== 'string' || !HEX_RE.test(hex)) {
    throw new ParseError('INVALID_HEX', 'expected an even-length hexadecimal string', 'pass hex digits 0-9a-f only, two per byte', { path })
  }
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = (hexValue(hex.charCodeAt(2 * i)) << 4) | hexValue(hex.charCodeAt(2 * i + 1))
  return out
}

/** The value of one hex digit's char code, already checked by `HEX_RE` (no slicing or `parseInt`: a verify decodes hex before the JIT warms up). */
function hexValue(c: number): number {
  return c <= 57 ? c - 48 : (c | 32) - 87
}

const HEX_DIGITS = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/**
 * Encodes bytes as lowercase hexadecimal.
 * @category Formats
 */
export function bytesToHex(bytes: Uint8Array): string {
  let s = ''
  for (let i = 0; i < bytes.length; i++) s += HEX_DIGITS[bytes[i]!]
  return s
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
/** Char code -> 6-bit value (every char is already checked by `B64_RE`). */
const B64_INDEX = /* @__PURE__ */ (() => {
  const t = new Uint8Array(128)
  for (let i = 0; i < B64.length; i++) t[B64.charCodeAt(i)] = i
  return t
})()
const B64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/**
 * Encodes bytes as standard base64 with padding (RFC 4648 §4).
 * @category Formats
 */
export function bytesToBase64(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!
    const b = bytes[i + 1]
    const c = bytes[i + 2]
    out += B64[a >> 2]! + B64[((a & 3) << 4) | ((b ?? 0) >> 4)]!
    out += b === undefined ? '=' : B64[((b & 15) << 2) | ((c ?? 0) >> 6)]!
    out += c === undefined ? '=' : B64[c & 63]!
  }
  return out
}

/**
 * Decodes standard padded base64 (RFC 4648 §4). Rejects whitespace, URL-safe letters, missing padding
 * and non-zero trailing bits, so that every byte string has exactly one accepted encoding.
 * @category Formats
 */
export function base64ToBytes(s: string, path = '$'): Uint8Array {
  if (typeof s !== 'string' || !B64_RE.test(s)) {
    throw new ParseError('INVALID_BASE64', 'expected standard padded base64 (RFC 4648 section 4)', 'encode bytes with standard base64 and "=" padding, without whitespace', { path })
  }
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0
  // The last data character carries 4 (one "=") or 2 (two "=") bits past the last byte: canonical
  // base64 has them zero. Checked on the character itself instead of re-encoding the output.
  if (pad > 0 && (B64_INDEX[s.charCodeAt(s.length - pad - 1)]! & (pad === 2 ? 15 : 3)) !== 0) {
    throw new ParseError('INVALID_BASE64', 'base64 has non-zero padding bits (not canonical)', 're-encode the bytes with a standard base64 encoder', { path })
  }
  const out = new Uint8Array((s.length / 4) * 3 - pad)
  const whole = s.length - (pad > 0 ? 4 : 0)
  let o = 0
  for (let i = 0; i < whole; i += 4) {
    const n = (B64_INDEX[s.charCodeAt(i)]! << 18) | (B64_INDEX[s.charCodeAt(i + 1)]! << 12) | (B64_INDEX[s.charCodeAt(i + 2)]! << 6) | B64_INDEX[s.charCodeAt(i + 3)]!
    out[o++] = n >> 16
    out[o++] = (n >> 8) & 255
    out[o++] = n & 255
  }
  if (pad > 0) {
    const n = (B64_INDEX[s.charCodeAt(whole)]! << 18) | (B64_INDEX[s.charCodeAt(whole + 1)]! << 12) | (pad === 1 ? B64_INDEX[s.charCodeAt(whole + 2)]! << 6 : 0)
    out[o] = n >> 16
    if (pad === 1) out[o + 1] = (n >> 8) & 255
  }
  return out
}

/** Writes a safe integer (0 ≤ n < 2^53) as 8 big-endian bytes at `at` (no allocation: hot paths use it). */
export function writeU64be(buf: Uint8Array, at: number, n: number): void {
  const hi = Math.floor(n / 0x1_0000_0000)
  const lo = n >>> 0
  buf[at] = hi >>> 24
  buf[at + 1] = (hi >>> 16) & 255
  buf[at + 2] = (hi >>> 8) & 255
  buf[at + 3] = hi & 255
  buf[at + 4] = lo >>> 24
  buf[at + 5] = (lo >>> 16) & 255
  buf[at + 6] = (lo >>> 8) & 255
  buf[at + 7] = lo & 255
}

const encoder = new TextEncoder()
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * UTF-8 length in bytes of a well-formed string (a surrogate pair counts 4), without encoding it:
 * sizes are checked before any copy is made.
 */
export function utf8Length(s: string): number {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4
      i++
    } else n += 3
  }
  return n
}

/** Encodes a string as UTF-8. Throws {@link InvalidInputError} on a lone surrogate (not encodable). */
export function utf8Encode(s: string, path = '$'): Uint8Array {
  if (!isWellFormed(s)) {
    throw new InvalidInputError('INVALID_STRING', 'string contains a lone UTF-16 surrogate and has no UTF-8 encoding', 'remove or repair the broken character', { path })
  }
  return encoder.encode(s)
}

/** Decodes strict UTF-8 (no replacement characters, BOM kept as data). Throws {@link ParseError}. */
export function utf8Decode(bytes: Uint8Array, path = '$'): string {
  try {
    return strictDecoder.decode(bytes)
  } catch (cause) {
    throw new ParseError('INVALID_UTF8', 'bytes are not valid UTF-8', 'supply UTF-8 encoded text', { path, cause })
  }
}

/** True when the string has no lone surrogates (so it has a UTF-8 encoding). */
export function isWellFormed(s: string): boolean {
  return firstLoneSurrogate(s) === -1
}

/** Index of the first lone surrogate in `s` (a UTF-16 unit with no UTF-8 encoding), or -1. */
export function firstLoneSurrogate(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1)
      if (!(d >= 0xdc00 && d <= 0xdfff)) return i
      i++
    } else if (c >= 0xdc00 && c <= 0xdfff) return i
  }
  return -1
}

/** Concatenates byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let len = 0
  for (const p of parts) len += p.length
  const out = new Uint8Array(len)
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

/** Constant-shape equality of two byte arrays. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let d = 0
  for (let i = 0; i < a.length; i++) d |= a[i]! ^ b[i]!
  return d === 0
}

/** Big-endian encoding of a non-negative integer into exactly `width` bytes. */
export function uintToBytesBE(value: number | bigint, width: number): Uint8Array {
  let v = BigInt(value)
  if (v < 0n || v >= 1n << BigInt(8 * width)) {
    throw new InvalidInputError('INTEGER_OUT_OF_RANGE', `integer ${v} does not fit in ${width} unsigned bytes`, 'use a smaller non-negative integer')
  }
  const out = new Uint8Array(width)
  for (let i = width - 1; i >= 0; i--) {
    out[i] = Number(v & 255n)
    v >>= 8n
  }
  return out
}
