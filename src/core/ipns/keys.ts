/**
 * libp2p public keys as IPNS uses them: the public key functions of `./key-format.ts`, plus
 * {@link decodePublicKey}, which checks an Ed25519 key's point synchronously and so loads
 * `@noble/curves` (`./ed25519.ts`) with this module.
 *
 * Pure: no network, no clock, no Node modules.
 *
 * @module
 */
import { ed25519KeyValid } from './ed25519.js'
import { decodePublicKeyWith, type IpnsPublicKey } from './key-format.js'

export { ipnsNameOfKey, publicKeyMultihash, publicKeyToProtobuf, RSA_MAX_BITS, RSA_MIN_BITS, verifyKeySignature, type IpnsKeyType, type IpnsPublicKey } from './key-format.js'

/**
 * Decodes a libp2p `PublicKey` protobuf strictly (both fields, in order, nothing else; see
 * `./protobuf.ts`) and checks the key itself. Calls `fail` (which must throw) on malformed input and
 * `unsupported` on a well-formed key of another type.
 */
export function decodePublicKey(bytes: Uint8Array, fail: (why: string) => never, unsupported: (type: string) => never): IpnsPublicKey {
  return decodePublicKeyWith(bytes, fail, unsupported, ed25519KeyValid)
}
