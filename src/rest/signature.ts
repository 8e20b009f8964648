/**
 * Verification of cTRNG value signatures.
 *
 * The service does not publish the signature scheme: `signature.value` has been seen as a
 * DER-encoded ECDSA signature with `pk` empty, and neither the curve, the hash nor the signed message
 * is documented. So verification takes everything from the caller:
 *
 * - `publicKey` (one or several trusted keys): SEC1 bytes (33 or 65) for ECDSA, 32 bytes for Ed25519,
 *   or a DER SubjectPublicKeyInfo, as bytes, hex or PEM. The `pk` field of a response is never
 *   trusted: a signature only counts when it verifies under a key you configured.
 * - `curve`: `p256` (default), `secp256k1` or `ed25519`.
 * - `encoding` (ECDSA only): `der`, `compact` (64 bytes r‖s) or `auto` (default: DER when the bytes
 *   parse as DER, else compact).
 * - `message`: how the signed bytes are made from the 32 data bytes. **Assumption, default
 *   `'sha256'`**: the signed message digest is SHA-256 over the 32 raw data bytes (for ECDSA this is
 *   the usual "ECDSA with SHA-256" over the data; for Ed25519 the 32-byte digest is the message).
 *   `'sha256-hex'` hashes the 64-character lowercase hex text, and a function can build any other
 *   message: for ECDSA its output is hashed with SHA-256 (ECDSA with SHA-256 over that message), for
 *   Ed25519 it is the message itself.
 *
 *   There is no mode that takes the data as the ECDSA digest (the former `'raw'`, now refused): the
 *   data comes from the server, and when the verifier does not hash, whoever picks the "digest" can
 *   forge a valid signature under any public key without the private key (choose u1, u2, set
 *   R = u1·G + u2·Q, r = R.x, s = r/u2, digest = u1·s).
 * - `lowS` (ECDSA): reject high-S signatures. Default `false`, since OpenSSL-style signers do not
 *   normalise S.
 *
 * @module
 */
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { InvalidInputError } from '../core/errors.js'
import { base64ToBytes, bytesToHex, hexToBytes, utf8Encode } from '../core/bytes.js'
import { SignatureError } from './errors.js'

/**
 * Curves supported for value signatures.
 * @category REST
 */
export type SignatureCurve = 'p256' | 'secp256k1' | 'ed25519'

/**
 * ECDSA signature encodings.
 * @category REST
 */
export type SignatureEncoding = 'der' | 'compact' | 'auto'

/**
 * How the signed message is built from a value: a preset, or a function of the 32 data bytes (and
 * their lowercase hex) returning the message that was signed (ECDSA: hashed with SHA-256 before
 * verifying, never used as a digest; Ed25519: the message).
 * @category REST
 */
export type MessageConstruction = 'sha256' | 'sha256-hex' | ((data: Uint8Array, hex: string) => Uint8Array)

/**
 * A public key: raw bytes, hex, or PEM (`-----BEGIN PUBLIC KEY-----`).
 * @category REST
 */
export type PublicKeyInput = Uint8Array | string

/**
 * Options for signature verification. Only `publicKey` is required.
 * @category REST
 */
export interface SignatureOptions {
  /** The trusted key, or several (for example during a key rotation). */
  publicKey: PublicKeyInput | readonly PublicKeyInput[]
  /** Curve of the key; default `p256`. */
  curve?: SignatureCurve
  /** ECDSA signature encoding; default `auto`. */
  encoding?: SignatureEncoding
  /** Message construction; default `'sha256'` (see the module notes: an assumption). */
  message?: MessageConstruction
  /** ECDSA: reject signatures with S above n/2; default `false`. */
  lowS?: boolean
}

/**
 * Outcome of a signature check.
 * @category REST
 */
export interface SignatureCheck {
  /** Whether the signature verified under one of the trusted keys. */
  valid: boolean
  /** Hex of the trusted key that verified it (as given, normalised to raw bytes). */
  publicKey?: string
  /** Why it did not verify. */
  reason?: string
}

/**
 * A verifier with its keys parsed once. Build it with {@link createSignatureVerifier}.
 * @category REST
 */
export interface SignatureVerifier {
  /** The options it was built from, with defaults filled in (keys as raw hex). */
  readonly curve: SignatureCurve
  readonly encoding: SignatureEncoding
  readonly publicKeys: readonly string[]
  /** Checks a signature (hex) over a value's 32 data bytes. Never throws for a bad signature. */
  check(data: Uint8Array, signatureHex: string): SignatureCheck
  /** Like {@link SignatureVerifier.check} but throws {@link SignatureError} when it does not verify. */
  assert(data: Uint8Array, signatureHex: string): string
}

const SPKI_PREFIX: Record<SignatureCurve, string[]> = {
  // SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING (uncompressed / compressed) }
  p256: ['3059301306072a8648ce3d020106082a8648ce3d030107034200', '3039301306072a8648ce3d020106082a8648ce3d030107032200'],
  // SEQUENCE { SEQUENCE { id-ecPublicKey, secp256k1 }, BIT STRING }
  secp256k1: ['3056301006072a8648ce3d020106052b8104000a034200', '3036301006072a8648ce3d020106052b8104000a032200'],
  // SEQUENCE { SEQUENCE { id-Ed25519 }, BIT STRING }
  ed25519: ['302a300506032b6570032100'],
}

function badKey(detail: string, path: string, cause?: unknown): InvalidInputError {
  return new InvalidInputError('INVALID_PUBLIC_KEY', detail, 'pass the key as SEC1 bytes (33 or 65 bytes) for ECDSA, 32 bytes for Ed25519, a DER SubjectPublicKeyInfo, or PEM', { path, cause })
}

/**
 * Parses a public key for `curve` into raw bytes (SEC1 for ECDSA, 32 bytes for Ed25519).
 * @category REST
 */
export function parsePublicKey(input: PublicKeyInput, curve: SignatureCurve, path = '$.publicKey'): Uint8Array {
  let bytes: Uint8Array
  if (typeof input === 'string') {
    const s = input.trim()
    if (s.startsWith('-----BEGIN PUBLIC KEY-----')) {
      const m = /^-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]+)-----END PUBLIC KEY-----$/.exec(s)
      if (m === null) throw badKey('malformed PEM public key', path)
      bytes = base64ToBytes(m[1]!.replace(/\s+/g, ''), path)
    } else {
      const hex = s.startsWith('0x') || s.startsWith('0X') ? s.slice(2) : s
      try {
        bytes = hexToBytes(hex, path)
      } catch (cause) {
        throw badKey('public key string is neither hex nor PEM', path, cause)
      }
    }
  } else if (input instanceof Uint8Array) {
    bytes = input
  } else {
    throw badKey('public key must be a Uint8Array or a string', path)
  }
  const hex = bytesToHex(bytes)
  for (const prefix of SPKI_PREFIX[curve]) {
    if (hex.startsWith(prefix)) {
      bytes = bytes.slice(prefix.length / 2)
      break
    }
  }
  try {
    if (curve === 'ed25519') {
      if (bytes.length !== 32) throw new Error(`expected 32 bytes, got ${bytes.length}`)
      ed25519.Point.fromBytes(bytes)
    } else {
      if (bytes.length !== 33 && bytes.length !== 65) throw new Error(`expected 33 or 65 bytes, got ${bytes.length}`)
      ;(curve === 'p256' ? p256 : secp256k1).Point.fromBytes(bytes)
    }
  } catch (cause) {
    throw badKey(`not a valid ${curve} public key (${cause instanceof Error ? cause.message : String(cause)})`, path, cause)
  }
  return bytes
}

const RAW_REMOVED_HINT =
  "'raw' was removed: it took the server-chosen data as the ECDSA digest, so anyone could forge a signature without the key; use 'sha256' (ECDSA with SHA-256 over the data), 'sha256-hex', or a function returning the signed message (hashed with SHA-256 for ECDSA)"

/**
 * The bytes a message construction produces for `data`, as verified: for the presets the 32-byte
 * SHA-256 digest; for a function, its output (hashed with SHA-256 before an ECDSA check).
 * @category REST
 */
export function signedMessage(construction: MessageConstruction, data: Uint8Array): Uint8Array {
  const hex = bytesToHex(data)
  switch (construction) {
    case 'sha256':
      return sha256(data)
    case 'sha256-hex':
      return sha256(utf8Encode(hex))
    default:
      if (typeof construction !== 'function') {
        const raw = (construction as unknown) === 'raw'
        throw new InvalidInputError('INVALID_MESSAGE_CONSTRUCTION', `unknown message construction ${JSON.stringify(construction)}`, raw ? RAW_REMOVED_HINT : "use 'sha256', 'sha256-hex' or a function")
      }
      return construction(data.slice(), hex)
  }
}

/** The ECDSA digest for `data`: presets give a digest; a function's message is hashed with SHA-256. */
function ecdsaDigest(construction: MessageConstruction, data: Uint8Array): Uint8Array {
  const m = signedMessage(construction, data)
  if (typeof construction !== 'function') return m
  if (!(m instanceof Uint8Array)) throw new TypeError('the message function must return a Uint8Array')
  return sha256(m)
}

function decodeSignature(signatureHex: string): Uint8Array | undefined {
  if (typeof signatureHex !== 'string') return undefined
  const s = signatureHex.startsWith('0x') ? signatureHex.slice(2) : signatureHex
  if (s.length === 0 || !/^(?:[0-9a-fA-F]{2})+$/.test(s)) return undefined
  return hexToBytes(s)
}

/**
 * Builds a {@link SignatureVerifier}; throws {@link InvalidInputError} on a bad key or option.
 * @category REST
 */
export function createSignatureVerifier(options: SignatureOptions): SignatureVerifier {
  if (options === null || typeof options !== 'object') {
    throw new InvalidInputError('INVALID_SIGNATURE_OPTIONS', 'signature options must be an object with a publicKey', 'pass { publicKey, curve?, encoding?, message?, lowS? }')
  }
  const curve = options.curve ?? 'p256'
  if (curve !== 'p256' && curve !== 'secp256k1' && curve !== 'ed25519') {
    throw new InvalidInputError('INVALID_SIGNATURE_OPTIONS', `unknown curve ${JSON.stringify(curve)}`, "use 'p256', 'secp256k1' or 'ed25519'", { path: '$.curve' })
  }
  const encoding = options.encoding ?? 'auto'
  if (encoding !== 'der' && encoding !== 'compact' && encoding !== 'auto') {
    throw new InvalidInputError('INVALID_SIGNATURE_OPTIONS', `unknown signature encoding ${JSON.stringify(encoding)}`, "use 'der', 'compact' or 'auto'", { path: '$.encoding' })
  }
  const construction = options.message ?? 'sha256'
  if (typeof construction !== 'function' && construction !== 'sha256' && construction !== 'sha256-hex') {
    const raw = (construction as unknown) === 'raw'
    throw new InvalidInputError('INVALID_SIGNATURE_OPTIONS', `unknown message construction ${JSON.stringify(construction)}`, raw ? RAW_REMOVED_HINT : "use 'sha256', 'sha256-hex' or a function", { path: '$.message' })
  }
  const lowS = options.lowS ?? false
  const inputs: readonly PublicKeyInput[] = Array.isArray(options.publicKey) ? (options.publicKey as readonly PublicKeyInput[]) : [options.publicKey as PublicKeyInput]
  if (inputs.length === 0) {
    throw new InvalidInputError('INVALID_SIGNATURE_OPTIONS', 'no public key given', 'pass at least one trusted public key', { path: '$.publicKey' })
  }
  const keys = inputs.map((k, i) => parsePublicKey(k, curve, Array.isArray(options.publicKey) ? `$.publicKey[${i}]` : '$.publicKey'))
  const keyHex = keys.map(bytesToHex)

  const ecdsa = curve === 'p256' ? p256 : curve === 'secp256k1' ? secp256k1 : undefined

  function verifyOne(sig: Uint8Array, msg: Uint8Array, key: Uint8Array): boolean {
    if (ecdsa === undefined) {
      try {
        return ed25519.verify(sig, msg, key)
      } catch {
        return false
      }
    }
    if (encoding !== 'auto') return tryEcdsa(sig, msg, key, encoding)
    // auto: DER when it starts like a DER SEQUENCE; a 64-byte value may also be compact r||s.
    if (sig[0] === 0x30 && tryEcdsa(sig, msg, key, 'der')) return true
    return sig.length === 64 && tryEcdsa(sig, msg, key, 'compact')
  }

  function tryEcdsa(sig: Uint8Array, msg: Uint8Array, key: Uint8Array, format: 'der' | 'compact'): boolean {
    try {
      return ecdsa!.verify(sig, msg, key, { prehash: false, lowS, format })
    } catch {
      return false
    }
  }

  function check(data: Uint8Array, signatureHex: string): SignatureCheck {
    const sig = decodeSignature(signatureHex)
    if (sig === undefined) return { valid: false, reason: 'signature.value is not a non-empty hex string' }
    if (curve === 'ed25519' && sig.length !== 64) return { valid: false, reason: `an Ed25519 signature is 64 bytes, got ${sig.length}` }
    let msg: Uint8Array
    try {
      msg = ecdsa === undefined ? signedMessage(construction, data) : ecdsaDigest(construction, data)
      if (!(msg instanceof Uint8Array)) throw new TypeError('the message function must return a Uint8Array')
    } catch (cause) {
      return { valid: false, reason: `the message construction failed: ${cause instanceof Error ? cause.message : String(cause)}` }
    }
    for (let i = 0; i < keys.length; i++) {
      if (verifyOne(sig, msg, keys[i]!)) return { valid: true, publicKey: keyHex[i]! }
    }
    return { valid: false, reason: `the signature does not verify under ${keys.length === 1 ? 'the configured' : `any of the ${keys.length} configured`} ${curve} key${keys.length === 1 ? '' : 's'}` }
  }

  return {
    curve,
    encoding,
    publicKeys: keyHex,
    check,
    assert(data, signatureHex) {
      const r = check(data, signatureHex)
      if (!r.valid) throw new SignatureError(`the signature of cTRNG value ${bytesToHex(data)} is invalid: ${r.reason ?? 'unknown reason'}`)
      return r.publicKey!
    },
  }
}

/**
 * One-shot check of a signature over a value's data bytes (parses the keys each call).
 * @category REST
 */
export function verifyValueSignature(data: Uint8Array, signatureHex: string, options: SignatureOptions): SignatureCheck {
  return createSignatureVerifier(options).check(data, signatureHex)
}
