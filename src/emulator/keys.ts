/**
 * Signing keys for the emulated beacon's IPNS records, without `@libp2p/crypto`: Ed25519 through
 * `@noble/curves` (from a 32-byte seed, deterministic signatures), RSA through `node:crypto`
 * (RSASSA-PKCS1-v1_5 with SHA-256, the public key as DER `SubjectPublicKeyInfo`, as libp2p encodes it).
 *
 * @module
 */
import { generateKeyPair as nodeGenerateKeyPair, randomBytes, sign as nodeSign, type KeyObject } from 'node:crypto'
import { promisify } from 'node:util'
import { ed25519 } from '@noble/curves/ed25519.js'
import { InvalidInputError } from '../core/errors.js'
import { RSA_MAX_BITS, RSA_MIN_BITS } from '../core/rsa.js'
import { type IpnsKeyType, type IpnsPublicKey } from '../core/ipns/key-format.js'
import { type IpnsSigner } from '../core/ipns/encode.js'

/**
 * A private key that signs the emulated beacon's IPNS records.
 * @category Beacon
 */
export interface BeaconKey extends IpnsSigner {
  /** The key type. */
  readonly type: IpnsKeyType
}

/**
 * Options of {@link generateBeaconKey}.
 * @category Beacon
 */
export interface GenerateBeaconKeyOptions {
  /** Ed25519 only: the 32-byte seed (RFC 8032 private key), for a stable name across runs. Default: random. */
  seed?: Uint8Array
  /** RSA only: modulus size in bits (2048 to 8192, default 2048). */
  bits?: number
}

const generateRsa = promisify(nodeGenerateKeyPair)

/**
 * Creates a key for the emulated beacon.
 *
 * @example
 * ```ts
 * const key = await generateBeaconKey('Ed25519', { seed: new Uint8Array(32).fill(7) })
 * const emu = await startBeaconEmulator({ privateKey: key })
 * ```
 * @throws `InvalidInputError` `INVALID_KEY` for a seed that is not 32 bytes or an RSA size out of range.
 * @category Beacon
 */
export async function generateBeaconKey(type: IpnsKeyType, options: GenerateBeaconKeyOptions = {}): Promise<BeaconKey> {
  if (type === 'Ed25519') {
    const seed = options.seed ?? new Uint8Array(randomBytes(32))
    if (!(seed instanceof Uint8Array) || seed.length !== 32) throw new InvalidInputError('INVALID_KEY', 'an Ed25519 seed is 32 bytes', 'pass 32 bytes, or no seed for a random key')
    const secret = seed.slice()
    const publicKey: IpnsPublicKey = { type: 'Ed25519', raw: ed25519.getPublicKey(secret) }
    return { type, publicKey, sign: (data) => ed25519.sign(data, secret) }
  }
  if (type === 'RSA') {
    const bits = options.bits ?? 2048
    if (!Number.isSafeInteger(bits) || bits < RSA_MIN_BITS || bits > RSA_MAX_BITS) {
      throw new InvalidInputError('INVALID_KEY', `RSA keys of ${bits} bits are not supported`, `use ${RSA_MIN_BITS} to ${RSA_MAX_BITS} bits`)
    }
    const pair = (await generateRsa('rsa', { modulusLength: bits, publicExponent: 65537 })) as { publicKey: KeyObject; privateKey: KeyObject }
    const raw = new Uint8Array(pair.publicKey.export({ type: 'spki', format: 'der' }))
    const publicKey: IpnsPublicKey = { type: 'RSA', raw }
    return { type, publicKey, sign: (data) => new Uint8Array(nodeSign('sha256', data, pair.privateKey)) }
  }
  throw new InvalidInputError('INVALID_KEY', `key type ${String(type)} is not supported`, 'use RSA or Ed25519')
}
