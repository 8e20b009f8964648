/**
 * `@noble/hashes/sha2.js` for the CLI's verify bundle (Node only): its `sha256`, `sha384` and `sha512`,
 * hashing a byte array with Node's own digests (`node:crypto`). The functions keep noble's members
 * (`outputLen`, `blockLen`, `canXOF`, `oid`, and `create`: an incremental hash is still noble's), and
 * anything but one `Uint8Array` argument goes to noble unchanged (its errors included), so a caller sees
 * noble's API with the same results: SHA-2 is SHA-2 (`test/node/native-sha2.test.ts` checks them
 * against noble byte for byte, members included). noble's module is loaded the first time one of those
 * needs it, not with this one: a strict verify never does, and building noble's tables (SHA-512's
 * 80 constants from BigInts) was about 1.5 % of its instructions. The module exports these three only:
 * esbuild fails the bundle's build if a bundled module imports another name of `@noble/hashes/sha2.js`.
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
import { createRequire } from 'node:module'
import type * as NobleSha2 from '@noble/hashes/sha2.js'

type Name = 'sha256' | 'sha384' | 'sha512'

let noble: typeof NobleSha2 | undefined
/** noble's `sha2.js`, required (Node 20.19 and later `require()` an ES module) the first time it is needed. */
function nobleSha2(): typeof NobleSha2 {
  noble ??= createRequire(import.meta.url)('@noble/hashes/sha2.js') as typeof NobleSha2
  return noble
}

/**
 * noble's `name` with one byte array hashed by `node:crypto` (same algorithm name), into a plain `Uint8Array`
 * (not a pooled `Buffer`); its members are noble's values (`oid`: the DER of the NIST hash OID).
 */
function native<N extends Name>(name: N, outputLen: number, blockLen: number, oidLast: number): (typeof NobleSha2)[N] {
  const digest = (...args: unknown[]): Uint8Array =>
    args.length === 1 && args[0] instanceof Uint8Array ? new Uint8Array(hash(name, args[0], 'buffer')) : (nobleSha2()[name] as (...a: unknown[]) => Uint8Array)(...args)
  const members = { outputLen, blockLen, canXOF: false, create: () => nobleSha2()[name].create(), oid: Uint8Array.of(0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, oidLast) }
  return Object.freeze(Object.assign(digest, members)) as unknown as (typeof NobleSha2)[N]
}

/** SHA-256: `@noble/hashes`' `sha256`, hashing one byte array with `node:crypto`. */
export const sha256: typeof NobleSha2.sha256 = native('sha256', 32, 64, 1)
/** SHA-384: `@noble/hashes`' `sha384`, hashing one byte array with `node:crypto`. */
export const sha384: typeof NobleSha2.sha384 = native('sha384', 48, 128, 2)
/** SHA-512: `@noble/hashes`' `sha512`, hashing one byte array with `node:crypto`. */
export const sha512: typeof NobleSha2.sha512 = native('sha512', 64, 128, 3)
