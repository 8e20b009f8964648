/**
 * `@noble/hashes/sha2.js` for the CLI's verify bundle (Node only): every export of it, with `sha256`,
 * `sha384` and `sha512` hashing a byte array with Node's own digests (`node:crypto`). The functions keep
 * noble's members (`create`, `outputLen`, `blockLen`, `oid`: an incremental hash is still noble's), and
 * anything but one `Uint8Array` argument goes to noble unchanged (its errors included), so a caller sees
 * noble's API with the same results: SHA-2 is SHA-2 (`test/node/native-sha2.test.ts` checks them
 * against noble byte for byte).
 *
 * Why: the core hashes with `@noble/hashes` (JavaScript: it runs in browsers), which a fresh process
 * runs in V8's interpreter for its first few hundred compressions; a strict `orbitdraw verify` hashes
 * blocks, the commitment, the time-stamp token, its certificates and the record's key that way
 * (docs/performance.md, Start-up). `scripts/build-cli.ts` puts this module in the place of
 * `@noble/hashes/sha2.js` in the verify bundle only; the library, the other commands and the page keep
 * noble's.
 *
 * @module
 */
import { hash } from 'node:crypto'
import { sha256 as nobleSha256, sha384 as nobleSha384, sha512 as nobleSha512 } from '@noble/hashes/sha2.js'

export * from '@noble/hashes/sha2.js'

/** `noble` with one byte array hashed by `node:crypto`'s `algorithm`, into a plain `Uint8Array` (not a pooled `Buffer`). */
function native<H extends (msg: Uint8Array) => Uint8Array>(noble: H, algorithm: string): H {
  const digest = (...args: Parameters<H>): Uint8Array =>
    args.length === 1 && args[0] instanceof Uint8Array ? new Uint8Array(hash(algorithm, args[0], 'buffer')) : (noble as (...a: unknown[]) => Uint8Array)(...args)
  return Object.assign(digest, noble) as unknown as H
}

/** SHA-256: `@noble/hashes`' `sha256`, hashing one byte array with `node:crypto`. */
export const sha256: typeof nobleSha256 = native(nobleSha256, 'sha256')
/** SHA-384: `@noble/hashes`' `sha384`, hashing one byte array with `node:crypto`. */
export const sha384: typeof nobleSha384 = native(nobleSha384, 'sha384')
/** SHA-512: `@noble/hashes`' `sha512`, hashing one byte array with `node:crypto`. */
export const sha512: typeof nobleSha512 = native(nobleSha512, 'sha512')
