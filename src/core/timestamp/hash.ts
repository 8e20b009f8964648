/**
 * Digests for the time-stamp checks, by name, with `@noble/hashes` (synchronous, no Web Crypto needed).
 *
 * @module
 */
import { sha256, sha384, sha512 } from '@noble/hashes/sha2.js'
import { sha1 } from '@noble/hashes/legacy.js'
import type { HashName } from './oids.js'

/** Digest of `data` with the named algorithm. */
export function digest(name: HashName | 'SHA-1', data: Uint8Array): Uint8Array {
  switch (name) {
    case 'SHA-256':
      return sha256(data)
    case 'SHA-384':
      return sha384(data)
    case 'SHA-512':
      return sha512(data)
    case 'SHA-1':
      // Only to match an ESSCertID (RFC 2634: SHA-1 of the signer's certificate), never to sign.
      return sha1(data)
  }
}
