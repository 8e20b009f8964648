/**
 * The host's Web Crypto API as the core uses it: found at call time (`globalThis.crypto.subtle`, in
 * Node and on secure browser pages; absent on plain-http pages), fed copies it may keep, and keys
 * imported once for the few keys a verification meets again and again (a beacon's record key, a
 * time-stamping authority's signer and root).
 *
 * Web Crypto only ever makes a check fast: every caller keeps a pure-JS path for hosts without it.
 * Pure: no network, no clock, no Node modules.
 *
 * @module
 */
import { bytesEqual } from './bytes.js'

/** This host's Web Crypto, or undefined where there is none (looked up at each call: tests swap it). */
export function webCrypto(): SubtleCrypto | undefined {
  return (globalThis as { crypto?: { subtle?: SubtleCrypto } }).crypto?.subtle
}

/** A copy backed by its own ArrayBuffer (Web Crypto wants `BufferSource`, not a view of a shared buffer). */
export function ownBuffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(bytes.length)
  out.set(bytes)
  return out
}

/** Imports a public key for `verify`, remembering the last few (see {@link keyImporter}). */
export type KeyImporter = (subtle: SubtleCrypto, key: Uint8Array) => Promise<CryptoKey>

/**
 * A key importer for one format and algorithm that remembers the `size` keys it used last
 * (importing costs more than a verification). Entries are keyed by the key bytes and the Web Crypto
 * object, so a swapped `crypto.subtle` imports again; a failed import is not remembered.
 */
export function keyImporter(format: 'raw' | 'spki', algorithm: AlgorithmIdentifier | RsaHashedImportParams | EcKeyImportParams, size = 2): KeyImporter {
  const recent: { bytes: Uint8Array; subtle: SubtleCrypto; key: Promise<CryptoKey> }[] = []
  return (subtle, bytes) => {
    const at = recent.findIndex((e) => e.subtle === subtle && bytesEqual(e.bytes, bytes))
    if (at >= 0) {
      const [hit] = recent.splice(at, 1)
      recent.unshift(hit!)
      return hit!.key
    }
    const key = subtle.importKey(format, ownBuffer(bytes), algorithm, false, ['verify'])
    const entry = { bytes: bytes.slice(), subtle, key }
    recent.unshift(entry)
    if (recent.length > size) recent.pop()
    key.catch(() => {
      const i = recent.indexOf(entry)
      if (i >= 0) recent.splice(i, 1)
    })
    return key
  }
}
