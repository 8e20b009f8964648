/**
 * Shapes shared by several wire formats: hashes, CIDs, base64, decimal integers, DAG-JSON links and
 * bytes, time-stamp tokens.
 *
 * @module
 */
import { LIMITS } from '../limits.js'
import * as v from 'valibot'
import { described, expected, integer, message, pattern, publishedAs, strictObject, text } from './kit.js'

/** 64 lowercase hex digits (SHA-256 hashes, salts, seeds). */
export const HEX32_RE = /^[0-9a-f]{64}$/
/** A CID as text before decoding: alphanumeric, at most `LIMITS.maxCidChars` characters. */
export const CID_TEXT_RE = new RegExp(`^[a-zA-Z0-9]{1,${LIMITS.maxCidChars}}$`)
/** Standard padded base64 (RFC 4648 section 4) in its one canonical spelling: zero padding bits. */
export const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/
/** A canonical decimal integer (no sign on zero, no leading zeros). */
export const DECIMAL_RE = /^(?:0|-?[1-9][0-9]*)$/
/** 32 bytes in canonical DAG-JSON form: standard base64, no padding, zero trailing bits (43 characters). */
export const BYTES32_RE = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]$/

/** A SHA-256 hash, salt or seed: 64 lowercase hex digits. */
export const hash = pattern(HEX32_RE, '64 lowercase hex digits')

/** A CID string (decoded later, by the checks that use it). */
export const cidText = described(pattern(CID_TEXT_RE, `a CID string of at most ${LIMITS.maxCidChars} characters`), 'A CID as text (alphanumeric, at most 256 characters); decoded by the checks that use it.')

const base64Message = expected('standard padded base64 (RFC 4648 section 4) with zero padding bits', 'INVALID_BASE64', 'encode bytes with standard base64 and "=" padding, without whitespace')

/** Standard padded base64 in canonical form (`INVALID_BASE64`). */
export const base64 = v.pipe(text(), v.regex(BASE64_RE, base64Message))


/** A canonical decimal integer string (for values past 2^53). */
export const decimal = pattern(DECIMAL_RE, 'a canonical decimal integer string')

/** Most characters of a `range` bound: a sign and the 78 digits of 2^256. */
const RANGE_BOUND_CHARS = 1 + (2n ** BigInt(LIMITS.maxRangeBoundBits)).toString().length

/**
 * A canonical decimal integer string, read as a bigint; published as {@link decimal} (a pipe is
 * published from its last schema on: the last step, which accepts the bigint, says so).
 */
export const bigDecimal = v.pipe(
  decimal,
  // At most 79 characters (2^256 has 78 digits), before BigInt reads them (docs/spec.md, range).
  v.maxLength(
    RANGE_BOUND_CHARS,
    message('LIMIT_EXCEEDED', (t) => `an integer of ${(t as string).length} characters, over ${RANGE_BOUND_CHARS} (|min|, |max| ≤ 2^${LIMITS.maxRangeBoundBits}: LIMITS.maxRangeBoundBits)`, `use bounds within ±2^${LIMITS.maxRangeBoundBits}`),
  ),
  v.rawTransform<string, bigint>(({ dataset }) => BigInt(dataset.value)),
  publishedAs(v.custom<bigint>(() => true), v.pipe(decimal, v.maxLength(RANGE_BOUND_CHARS))),
)

/** A 0-based position or a sequence number. */
export const index = integer(0)

/** Base64 characters of the largest time-stamp token. */
export const MAX_TOKEN_CHARS = Math.ceil(LIMITS.maxTimestampTokenBytes / 3) * 4

/**
 * One RFC 3161 time-stamp token: the padded base64 of a DER `TimeStampToken`, not empty, at most
 * `LIMITS.maxTimestampTokenBytes` bytes (its length is checked before its characters).
 */
export const token =
  v.pipe(
    text(),
    v.minLength(1, message('INVALID_FIELD', () => 'empty time-stamp token', 'remove the empty entry')),
    v.maxLength(
      MAX_TOKEN_CHARS,
      message('LIMIT_EXCEEDED', (t) => `time-stamp token is ${(t as string).length} base64 characters, over the limit maxTimestampTokenBytes = ${LIMITS.maxTimestampTokenBytes} bytes`, 'real tokens are a few KiB; drop this one'),
    ),
    v.regex(BASE64_RE, base64Message),
  )

function isLinkForm(x: unknown): boolean {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false
  const keys = Object.keys(x)
  return keys.length === 1 && keys[0] === '/' && typeof (x as { '/': unknown })['/'] === 'string'
}

/** A DAG-JSON link `{"/": "<cid>"}`; anything else is refused at the link's own path. */
export const link =
  described(
    v.pipe(v.unknown(), v.check(isLinkForm, expected('a CID link {"/": "<cid>"}', 'INVALID_FIELD', 'use the DAG-JSON link form')), strictObject({ '/': cidText })),
    'A DAG-JSON link.',
  )

function bytesText(x: unknown): string | undefined {
  if (typeof x !== 'object' || x === null || Array.isArray(x) || Object.keys(x).length !== 1) return undefined
  const inner = (x as { '/'?: unknown })['/']
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner) || Object.keys(inner).length !== 1) return undefined
  const bytes = (inner as { bytes?: unknown }).bytes
  return typeof bytes === 'string' ? bytes : undefined
}

/**
 * 32 bytes in DAG-JSON form `{"/": {"bytes": "<base64>"}}`, written canonically (standard base64
 * without "=" padding, zero trailing bits: one spelling per value, `NON_CANONICAL_BYTES`).
 */
export const bytes32 =
  described(
    v.pipe(
      v.unknown(),
      v.check((x) => bytesText(x)?.replace(/=+$/, '').length === 43, message('INVALID_FIELD', () => 'expected 32 bytes {"/": {"bytes": "<base64>"}}', 'use the root produced by commit()')),
      v.check(
        (x) => BYTES32_RE.test(bytesText(x)!),
        message('NON_CANONICAL_BYTES', (x) => `the bytes are written ${JSON.stringify(bytesText(x))}, not in canonical DAG-JSON form (standard base64 without "=" padding, zero trailing bits)`, 'write them as standard base64 without "=" padding, as commit() does'),
      ),
      strictObject({ '/': strictObject({ bytes: pattern(BYTES32_RE, '43 base64 characters') }) }),
    ),
    'DAG-JSON bytes: standard base64 without padding; 32 bytes are 43 characters.',
  )
