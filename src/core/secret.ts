/**
 * The organizer's secret of a private (salted) participants list, and the leaf salts derived from it.
 *
 * `salt_i = HMAC-SHA256(key = secret, data = "orbitdraw/v1/leaf-salt" || 0x00 || u64be(i))` (see
 * docs/spec.md, Salted leaves). The core has no randomness source: the caller passes 32 random bytes
 * (the Node entry's `commit({ private: true })` and `orbitdraw commit --private` generate them).
 *
 * The secret is held in an {@link OrganizerSecret}, which never prints, logs or serializes its bytes
 * by accident (`toString`, `toJSON` and Node's `inspect` all say `[redacted]`); only
 * {@link OrganizerSecret.exportHex} and {@link serializeSecretFile} write it, on purpose.
 *
 * @module
 */
import { bytesToHex, utf8Encode, writeU64be } from './bytes.js'
import { InvalidInputError, ParseError } from './errors.js'
import * as v from 'valibot'
import { parseJsonText, show, type JsonObject } from './json.js'
import { parseShape, requiredFields, strictObject } from './schema/kit.js'
import { LIMITS } from './limits.js'
import { HmacSha256Short } from './sha256-fixed.js'
import { PROTOCOL_VERSION, SUPPORTED_VERSIONS } from './version.js'

/**
 * Size of an organizer secret and of every leaf salt, in bytes.
 * @category Draw
 */
export const SECRET_BYTES = 32

/**
 * Domain tag of the leaf-salt PRF: the 22 ASCII bytes `orbitdraw/v1/leaf-salt` (a 0x00 byte follows).
 * @category Draw
 */
export const LEAF_SALT_DOMAIN_V1 = 'orbitdraw/v1/leaf-salt'

/**
 * `type` of a secret file.
 * @category Formats
 */
export const SECRET_FILE_TYPE = 'orbitdraw-secret'

const REDACTED = '[orbitdraw organizer secret: redacted]'
const DOMAIN_BYTES = utf8Encode(LEAF_SALT_DOMAIN_V1)
const SALT_MESSAGE_BYTES = DOMAIN_BYTES.length + 1 + 8

/**
 * A 32-byte organizer secret. Keep it private: anyone holding it can recompute every leaf salt and so
 * test guesses of the unrevealed entries against the committed root.
 *
 * @example
 * ```ts
 * const secret = OrganizerSecret.fromBytes(crypto.getRandomValues(new Uint8Array(32)))
 * const { cid } = commit({ ...options, private: { secret } })
 * ```
 * @category Draw
 */
export class OrganizerSecret {
  readonly #key: Uint8Array
  /** HMAC with the inner and outer key states computed once: each salt is two SHA-256 compressions. */
  readonly #mac: HmacSha256Short
  /** The PRF message `domain || 0x00 || u64be(i)`, reused (only the index bytes change). */
  readonly #msg = new Uint8Array(SALT_MESSAGE_BYTES)

  private constructor(key: Uint8Array) {
    this.#key = key
    this.#mac = new HmacSha256Short(key)
    this.#msg.set(DOMAIN_BYTES, 0)
  }

  /**
   * Wraps 32 secret bytes (copied). Use fresh random bytes for every commitment.
   * @throws {@link InvalidInputError} `INVALID_SECRET` when not 32 bytes, or all zero (an unset buffer).
   */
  static fromBytes(bytes: Uint8Array): OrganizerSecret {
    if (!(bytes instanceof Uint8Array) || bytes.length !== SECRET_BYTES) {
      throw new InvalidInputError('INVALID_SECRET', `the organizer secret must be ${SECRET_BYTES} bytes (got ${bytes instanceof Uint8Array ? `${bytes.length} bytes` : typeof bytes})`, 'pass 32 random bytes, e.g. crypto.getRandomValues(new Uint8Array(32))')
    }
    if (bytes.every((b) => b === 0)) {
      throw new InvalidInputError('INVALID_SECRET', 'the organizer secret is all zero bytes', 'fill it with random bytes, e.g. crypto.getRandomValues(new Uint8Array(32))')
    }
    return new OrganizerSecret(bytes.slice())
  }

  /** Accepts an {@link OrganizerSecret} as is, or wraps bytes with {@link OrganizerSecret.fromBytes}. */
  static from(secret: OrganizerSecret | Uint8Array): OrganizerSecret {
    return secret instanceof OrganizerSecret ? secret : OrganizerSecret.fromBytes(secret)
  }

  /** The salt of entry `index`: 32 bytes (see the module comment). */
  saltOf(index: number): Uint8Array {
    if (!Number.isSafeInteger(index) || index < 0) {
      throw new InvalidInputError('INDEX_OUT_OF_RANGE', `salt index ${String(index)} is not a non-negative integer`, 'pass the 0-based position of an entry in the committed order')
    }
    const out = new Uint8Array(SECRET_BYTES)
    this.writeSalt(index, out, 0)
    return out
  }

  /**
   * @internal Writes salt `index` (a safe integer >= 0, not checked) into `out` at `at`. The hot path
   * of salted hashing: two compressions per entry, a reused message buffer, no allocation.
   */
  writeSalt(index: number, out: Uint8Array, at: number): void {
    const msg = this.#msg
    const p = LEAF_SALT_DOMAIN_V1.length
    msg[p] = 0
    writeU64be(msg, p + 1, index)
    this.#mac.mac(msg, SALT_MESSAGE_BYTES, out, at)
  }

  /** The secret as 64 lowercase hex digits, for writing the secret file. Handle the result as a secret. */
  exportHex(): string {
    return bytesToHex(this.#key)
  }

  /** A copy of the 32 secret bytes. Handle the result as a secret. */
  exportBytes(): Uint8Array {
    return this.#key.slice()
  }

  /** Never the secret: `[orbitdraw organizer secret: redacted]`. */
  toString(): string {
    return REDACTED
  }

  /** Never the secret: JSON.stringify writes `"[orbitdraw organizer secret: redacted]"`. */
  toJSON(): string {
    return REDACTED
  }

  /** Never the secret (Node's `util.inspect`, `console.log`). */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return REDACTED
  }
}

/**
 * The salt of entry `index` under `secret` (32 bytes). Same as `OrganizerSecret.from(secret).saltOf(index)`.
 * @category Draw
 */
export function leafSalt(secret: OrganizerSecret | Uint8Array, index: number): Uint8Array {
  return OrganizerSecret.from(secret).saltOf(index)
}

/**
 * A parsed secret file: the commitment it belongs to and the secret.
 * @category Formats
 */
export interface SecretFile {
  /** CID of the commitment made with this secret. */
  readonly commitment: string
  /** The secret. */
  readonly secret: OrganizerSecret
}

/**
 * The organizer's secret file: `{"type":"orbitdraw-secret","version":1,"commitment":"<cid>","secret":"<64 hex>"}`
 * (2-space indented, trailing newline). Store it with owner-only permissions; never publish it.
 * @category Formats
 */
export function serializeSecretFile(secret: OrganizerSecret, commitmentCid: string): string {
  return `${JSON.stringify({ type: SECRET_FILE_TYPE, version: PROTOCOL_VERSION, commitment: commitmentCid, secret: secret.exportHex() }, null, 2)}\n`
}

const SECRET_HEX = /^[0-9a-f]{64}$/
const CID_TEXT = new RegExp(`^[a-zA-Z0-9]{1,${LIMITS.maxCidChars}}$`)

/** A secret file's head: an object with a `type`; then with a `version`; then exactly its four fields (their values judged below). */
const TYPE_HEAD = requiredFields('type')
const VERSION_HEAD = requiredFields('version')
const ONLY = strictObject({ type: v.unknown(), version: v.unknown(), commitment: v.optional(v.unknown()), secret: v.optional(v.unknown()) })
const COMMITMENT = requiredFields('commitment')
const SECRET = requiredFields('secret')

/**
 * Parses a secret file (strict JSON: no duplicate keys, no unknown fields). Error messages never
 * contain the secret or any part of it.
 * @throws {@link ParseError} with the path of the bad field.
 * @category Formats
 */
export function parseSecretFile(text: string): SecretFile {
  if (typeof text !== 'string' || text.length > 4096) {
    throw new ParseError('INVALID_SECRET_FILE', 'the secret file is not a short JSON text', 'pass the *.secret.json file written by orbitdraw commit --private', { path: '$' })
  }
  let raw: unknown
  try {
    raw = parseJsonText(text, 'secret file')
  } catch (cause) {
    // A duplicate key's error names the key only; the JSON parser's own message may quote the text
    // around the error (the secret): never pass that on.
    if ((cause as { code?: string }).code === 'DUPLICATE_KEY') throw cause
    throw new ParseError('INVALID_SECRET_FILE', 'the secret file is not valid JSON', 'pass the *.secret.json file written by orbitdraw commit --private', { path: '$', cause: (cause as { code?: string }).code })
  }
  const o = raw as JsonObject
  if (parseShape(TYPE_HEAD, raw).type !== SECRET_FILE_TYPE) {
    throw new ParseError('INVALID_SECRET_FILE', `type is ${show(o.type)}, expected "${SECRET_FILE_TYPE}"`, 'pass the *.secret.json file written by orbitdraw commit --private', { path: '$.type' })
  }
  const version = parseShape(VERSION_HEAD, o).version
  if (typeof version !== 'number' || !SUPPORTED_VERSIONS.includes(version)) {
    throw new ParseError('INVALID_SECRET_FILE', `secret file version ${show(version)} is not supported`, `this release reads version ${SUPPORTED_VERSIONS.join(', ')}`, { path: '$.version' })
  }
  parseShape(ONLY, o)
  const commitment = parseShape(COMMITMENT, o).commitment
  if (typeof commitment !== 'string' || !CID_TEXT.test(commitment)) {
    throw new ParseError('INVALID_SECRET_FILE', 'commitment must be the CID of the commitment', 'pass the secret file written with that commitment', { path: '$.commitment' })
  }
  const hex = parseShape(SECRET, o).secret
  if (typeof hex !== 'string' || !SECRET_HEX.test(hex)) {
    throw new ParseError('INVALID_SECRET_FILE', 'secret must be 64 lowercase hex digits', 'pass the secret file exactly as orbitdraw commit --private wrote it', { path: '$.secret' })
  }
  const bytes = new Uint8Array(SECRET_BYTES)
  for (let i = 0; i < SECRET_BYTES; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16)
  try {
    return { commitment, secret: OrganizerSecret.fromBytes(bytes) }
  } catch (err) {
    throw new ParseError('INVALID_SECRET_FILE', (err as InvalidInputError).detail, (err as InvalidInputError).hint, { path: '$.secret' })
  }
}
