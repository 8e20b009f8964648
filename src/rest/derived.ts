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
 * for `i = 0, 1, 2, …`. Anyone holding the seed can re-derive every value, so results made this way
 * are reproducible and checkable. The byte-exact description and test vectors are in
 * `docs/spec.md (The local derived source)`.
 *
 * Pure: no network, no clock, no Node-only module.
 *
 * @module
 */
import { HDKey, HARDENED_OFFSET } from '@scure/bip32'
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
 * Derived value number `index` (32 bytes) of the seed.
 * @category REST
 */
export function derivedValue(seed: DerivedSeed, index: number): Uint8Array {
  checkIndex(index, 'index', '$.index')
  return childValue(masterKey(seedBytes(seed)), index)
}

/**
 * `count` consecutive derived values of the seed, starting at index `start` (default 0).
 * The master key is computed once, so this is cheaper than repeated {@link derivedValue} calls.
 * @category REST
 */
export function derivedValues(seed: DerivedSeed, start = 0, count = 1): Uint8Array[] {
  checkIndex(start, 'start', '$.start')
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new InvalidInputError('INVALID_DERIVED_COUNT', `count must be a non-negative integer, got ${String(count)}`, 'pass how many values you want')
  }
  if (count > DERIVED_MAX_COUNT) {
    throw new LimitExceededError('LIMIT_EXCEEDED', `count is ${count}, over the limit DERIVED_MAX_COUNT = ${DERIVED_MAX_COUNT}`, 'derive in smaller batches')
  }
  if (count > 0) checkIndex(start + count - 1, 'start + count - 1', '$.count')
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
  readonly #master: HDKey
  #next: number

  constructor(seed: DerivedSeed, startIndex = 0) {
    checkIndex(startIndex, 'startIndex', '$.startIndex')
    this.#master = masterKey(seedBytes(seed))
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
    const value = childValue(this.#master, index)
    this.#next = index + 1
    return { index, value }
  }

  /** The derived source holds key material: never serialize it. */
  toJSON(): { nextIndex: number } {
    return { nextIndex: this.#next }
  }
}
