/**
 * The local `derived` source: a reproducible mirror of the Orbitport service's `derived` fallback.
 *
 * From a 32-byte cosmic seed (a cTRNG value fetched earlier), value `i` is
 *
 * ```text
 * master = BIP32 master key from the seed        (HMAC-SHA512 with key "Bitcoin seed")
 * child  = master / i'                           (hardened child, index 2^31 + i)
 * value  = SHA-256(compressed secp256k1 public key of child)     -- 32 bytes
 * ```
 *
 * for `i = 0, 1, 2, …` (method `bip32`, the interface specification's). Orbitport's newer gateway code
 * derives with ChaCha20 instead (method `chacha20`): value `i` is bytes `[32i, 32i + 32)` of the IETF
 * ChaCha20 keystream (RFC 8439) with key = seed, a zero 12-byte nonce and initial counter 0. Both are
 * offered, labelled ({@link DERIVED_METHODS}); `bip32` stays the default. Anyone holding the seed can re-derive every value, so results made this way
 * are reproducible and checkable. The byte-exact description and test vectors are in
 * `docs/spec.md (The local derived source)`.
 *
 * Pure: no network, no clock, no Node-only module.
 *
 * @module
 */
import { HDKey, HARDENED_OFFSET } from '@scure/bip32'
import { chacha20 } from '@noble/ciphers/chacha.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { InvalidInputError, LimitExceededError } from '../core/errors.js'
import { hexToBytes } from '../core/bytes.js'

/**
 * Length of the cosmic seed, in bytes.
 * @category REST
 */
export const DERIVED_SEED_BYTES = 32

/**
 * Length of one derived value, in bytes.
 * @category REST
 */
export const DERIVED_VALUE_BYTES = 32

/** Largest index allowed: the hardened index `2^31 + i` must fit in 32 bits. */
export const DERIVED_MAX_INDEX = 0x7fff_ffff

/** Most values one {@link derivedValues} call produces (a guard against accidental huge loops). */
export const DERIVED_MAX_COUNT = 1_000_000

/**
 * A seed given as bytes or as 64 hexadecimal characters (either case).
 * @category REST
 */
export type DerivedSeed = Uint8Array | string

/**
 * How a derived value is made from the seed: `bip32` (the interface specification: SHA-256 of the
 * compressed public key of BIP32 child `m/i'`) or `chacha20` (Orbitport's newer gateway code: IETF
 * ChaCha20 keystream, key = seed, zero nonce, counter 0, 32 bytes per value).
 * @category REST
 */
export type DerivedMethod = 'bip32' | 'chacha20'

/**
 * The derivation methods, each with its label (say which one made a value wherever you show it).
 * @category REST
 */
export const DERIVED_METHODS: Readonly<Record<DerivedMethod, string>> = Object.freeze({
  bip32: "BIP32 m/i' over the cosmic master seed, SHA-256 of the child's compressed public key (Orbitport interface specification)",
  chacha20: 'IETF ChaCha20 keystream over the cosmic master seed: key = seed, zero nonce, counter 0, 32 bytes per value (Orbitport gateway code)',
})

function checkMethod(method: unknown): DerivedMethod {
  if (method !== 'bip32' && method !== 'chacha20') throw new InvalidInputError('INVALID_OPTION', `unknown derivation method ${JSON.stringify(String(method)).slice(0, 40)}`, 'use "bip32" or "chacha20"', { path: '$.method' })
  return method
}

/** Values `start … start + count - 1` of the ChaCha20 derivation: one keystream run, 32 bytes each. */
function chachaValues(seed: Uint8Array, start: number, count: number): Uint8Array[] {
  const first = Math.floor(start / 2) // 64-byte blocks hold two values; counter <= 2^30
  const skip = (start % 2) * DERIVED_VALUE_BYTES
  const stream = chacha20(seed, new Uint8Array(12), new Uint8Array(skip + count * DERIVED_VALUE_BYTES), undefined, first)
  const out: Uint8Array[] = []
  for (let i = 0; i < count; i++) out.push(stream.slice(skip + i * DERIVED_VALUE_BYTES, skip + (i + 1) * DERIVED_VALUE_BYTES))
  return out
}

function seedBytes(seed: DerivedSeed): Uint8Array {
  let bytes: Uint8Array
  if (typeof seed === 'string') {
    if (!/^[0-9a-fA-F]{64}$/.test(seed)) {
      throw new InvalidInputError('INVALID_DERIVED_SEED', 'the derived-source seed must be 64 hexadecimal characters (32 bytes)', 'pass the `data` of a cTRNG value, e.g. the hex string from an earlier response', { path: '$.seed' })
    }
    bytes = hexToBytes(seed, '$.seed')
  } else if (seed instanceof Uint8Array) {
    bytes = seed
  } else {
    throw new InvalidInputError('INVALID_DERIVED_SEED', 'the derived-source seed must be a Uint8Array or a hex string', 'pass the 32 bytes of a cTRNG value', { path: '$.seed' })
  }
  if (bytes.length !== DERIVED_SEED_BYTES) {
    throw new InvalidInputError('INVALID_DERIVED_SEED', `the derived-source seed is ${bytes.length} bytes, expected ${DERIVED_SEED_BYTES}`, 'pass exactly the 32 bytes of one cTRNG value', { path: '$.seed' })
  }
  return bytes
}

function checkIndex(value: number, what: string, path: string): void {
  if (!Number.isSafeInteger(value) || value < 0 || value > DERIVED_MAX_INDEX) {
    throw new InvalidInputError('INVALID_DERIVED_INDEX', `${what} must be an integer in [0, ${DERIVED_MAX_INDEX}], got ${String(value)}`, 'use a non-negative index below 2^31 (hardened BIP32 children)', { path })
  }
}

function masterKey(seed: Uint8Array): HDKey {
  try {
    return HDKey.fromMasterSeed(seed)
  } catch (cause) {
    // Probability about 2^-127 (IL = 0 or IL >= n): BIP32 declares such a seed invalid.
    throw new InvalidInputError('INVALID_DERIVED_SEED', 'this seed does not give a valid BIP32 master key', 'use another cTRNG value as the seed', { path: '$.seed', cause })
  }
}

function childPublicKey(master: HDKey, index: number): Uint8Array {
  let child: HDKey
  try {
    child = master.deriveChild(HARDENED_OFFSET + index)
  } catch (cause) {
    // Probability about 2^-127; BIP32 says to skip to the next index, the service's behaviour is unknown.
    throw new InvalidInputError('INVALID_DERIVED_INDEX', `BIP32 child m/${index}' of this seed is invalid`, 'skip this index and use the next one', { path: '$.index', cause })
  }
  const pub = child.publicKey
  if (pub === null || pub.length !== 33) {
    throw new InvalidInputError('INVALID_DERIVED_INDEX', `BIP32 child m/${index}' has no compressed public key`, 'report this as a bug')
  }
  return pub
}

function childValue(master: HDKey, index: number): Uint8Array {
  return sha256(childPublicKey(master, index))
}

/**
 * The compressed (33-byte) secp256k1 public key of child `m/i'` of the seed's master key.
 * @category REST
 */
export function derivedPublicKey(seed: DerivedSeed, index: number): Uint8Array {
  checkIndex(index, 'index', '$.index')
  return childPublicKey(masterKey(seedBytes(seed)), index)
}

/**
 * Derived value number `index` (32 bytes) of the seed, by `method` (default `bip32`; see {@link DERIVED_METHODS}).
 * @category REST
 */
export function derivedValue(seed: DerivedSeed, index: number, method: DerivedMethod = 'bip32'): Uint8Array {
  checkIndex(index, 'index', '$.index')
  if (checkMethod(method) === 'chacha20') return chachaValues(seedBytes(seed), index, 1)[0]!
  return childValue(masterKey(seedBytes(seed)), index)
}

/**
 * `count` consecutive derived values of the seed, starting at index `start` (default 0).
 * The master key is computed once, so this is cheaper than repeated {@link derivedValue} calls.
 * @category REST
 */
export function derivedValues(seed: DerivedSeed, start = 0, count = 1, method: DerivedMethod = 'bip32'): Uint8Array[] {
  checkMethod(method)
  checkIndex(start, 'start', '$.start')
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new InvalidInputError('INVALID_DERIVED_COUNT', `count must be a non-negative integer, got ${String(count)}`, 'pass how many values you want')
  }
  if (count > DERIVED_MAX_COUNT) {
    throw new LimitExceededError('LIMIT_EXCEEDED', `count is ${count}, over the limit DERIVED_MAX_COUNT = ${DERIVED_MAX_COUNT}`, 'derive in smaller batches')
  }
  if (count > 0) checkIndex(start + count - 1, 'start + count - 1', '$.count')
  if (method === 'chacha20') return chachaValues(seedBytes(seed), start, count)
  const master = masterKey(seedBytes(seed))
  const out: Uint8Array[] = []
  for (let i = 0; i < count; i++) out.push(childValue(master, start + i))
  return out
}

/**
 * A stateful local `derived` source: each {@link DerivedSource.next} call returns the next value
 * (index 0, 1, 2, …) of the seed, like the service's fallback does.
 * @category REST
 */
export class DerivedSource {
  readonly #master: HDKey | undefined
  readonly #seed: Uint8Array | undefined
  #next: number
  /** The derivation method (see {@link DERIVED_METHODS}). */
  readonly method: DerivedMethod

  constructor(seed: DerivedSeed, startIndex = 0, method: DerivedMethod = 'bip32') {
    checkIndex(startIndex, 'startIndex', '$.startIndex')
    this.method = checkMethod(method)
    const bytes = seedBytes(seed)
    this.#master = method === 'bip32' ? masterKey(bytes) : undefined
    this.#seed = method === 'chacha20' ? bytes.slice() : undefined
    this.#next = startIndex
  }

  /** Index the next call to {@link DerivedSource.next} will use. */
  get nextIndex(): number {
    return this.#next
  }

  /** The next derived value and its index. */
  next(): { index: number; value: Uint8Array } {
    const index = this.#next
    checkIndex(index, 'index', '$.index')
    const value = this.#master === undefined ? chachaValues(this.#seed!, index, 1)[0]! : childValue(this.#master, index)
    this.#next = index + 1
    return { index, value }
  }

  /** The derived source holds key material: never serialize it. */
  toJSON(): { nextIndex: number; method?: 'chacha20' } {
    return this.method === 'bip32' ? { nextIndex: this.#next } : { nextIndex: this.#next, method: this.method }
  }
}
