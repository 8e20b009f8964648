/**
 * Ed25519 for IPNS keys: the point check a key must pass and the signature check, both as
 * `@noble/curves` decides them in RFC 8032 strict mode, with the host's Web Crypto Ed25519 as a fast
 * path that cannot change the answer.
 *
 * A module of its own so that `@noble/curves` (about 10 ms of a fresh process's start-up: loading,
 * compiling and building the curve) loads only for an Ed25519 key. The beacon's records are RSA-signed
 * (`k2k4r8…` names), and the verifier's record check (`recordKeyForNameAsync`, `verifyKeySignature`)
 * imports this module only when a key is Ed25519; the synchronous `decodePublicKey` and
 * `recordKeyForName` import it statically (docs/performance.md, Start-up).
 *
 * Pure: no network, no clock, no Node modules.
 *
 * @module
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { bytesEqual } from '../bytes.js'
import { keyImporter, ownBuffer, webCrypto } from '../webcrypto.js'

/**
 * The last Ed25519 key found to be a valid point (a beacon signs every record with one key, so this
 * saves a point decompression and a small-order check per record; a cache of validity only, it never
 * changes a result).
 */
let lastValidEd25519: Uint8Array | undefined

/** The order of the Ed25519 base point. */
const ED25519_L = 2n ** 252n + 27742317777372353535851937790883648493n

/** Whether `raw` is a canonical Ed25519 point encoding, not of small order (cached for the last key). */
export function ed25519KeyValid(raw: Uint8Array): boolean {
  if (lastValidEd25519 !== undefined && bytesEqual(lastValidEd25519, raw)) return true
  try {
    if (raw.length !== 32 || ed25519.Point.fromBytes(raw, false).isSmallOrder()) return false
  } catch {
    return false
  }
  lastValidEd25519 = raw.slice()
  return true
}

/**
 * Ed25519 verification whose answer is, by construction, the answer of `@noble/curves` in RFC 8032
 * strict mode (`zip215: false`) on every host; the host's Web Crypto Ed25519, when it has one, only
 * makes the common case fast:
 *
 * - the encodings are checked first, as noble does: `S < L`, `R` a canonical point, `A` a canonical
 *   point not of small order;
 * - a native "valid" then implies noble's "valid" (whether the native check is cofactorless, like
 *   OpenSSL and BoringSSL, or cofactored like noble: the cofactorless equation implies the cofactored one);
 * - a native "invalid", or no native Ed25519, is decided by noble itself.
 */
export async function verifyEd25519(raw: Uint8Array, data: Uint8Array, signature: Uint8Array): Promise<boolean> {
  if (signature.length !== 64 || !ed25519KeyValid(raw)) return false
  let s = 0n
  for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(signature[i]!)
  if (s >= ED25519_L) return false
  try {
    ed25519.Point.fromBytes(signature.subarray(0, 32), false)
  } catch {
    return false
  }
  const subtle = webCrypto()
  if (subtle !== undefined && nativeEd25519 !== subtle) {
    try {
      if (await subtle.verify(ED25519_ALGORITHM, await importEd25519Key(subtle, raw), ownBuffer(signature), ownBuffer(data))) return true
    } catch {
      nativeEd25519 = subtle // this host's Web Crypto has no Ed25519: stop asking it
    }
  }
  try {
    return ed25519.verify(signature, data, raw, { zip215: false })
  } catch {
    return false
  }
}

const ED25519_ALGORITHM = { name: 'Ed25519' }
/** A Web Crypto object found to lack Ed25519. */
let nativeEd25519: SubtleCrypto | undefined
const importEd25519Key = keyImporter('raw', ED25519_ALGORITHM)

