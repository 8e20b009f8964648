/**
 * `@noble/hashes/legacy.js` for the CLI's verify bundle (Node only): its `sha1`, hashing one byte array
 * with `node:crypto`, with noble's members and noble's own function for anything else (see
 * `native-sha2.ts`, which this follows). A strict `orbitdraw verify` hashes one certificate with SHA-1
 * (an ESSCertID, RFC 2634: to match the signer's certificate, never to sign); noble's `legacy.js` and
 * its MD helpers are then neither built when the bundle loads nor run in V8's interpreter
 * (docs/performance.md, Start-up). `scripts/build-cli.ts` puts this module in the place of
 * `@noble/hashes/legacy.js` in the verify bundle only; it exports `sha1` alone, so a bundled module
 * importing another name of `legacy.js` (MD5, RIPEMD-160) fails the bundle's build.
 *
 * @module
 */
import { createRequire } from 'node:module'
import type * as NobleLegacy from '@noble/hashes/legacy.js'
import { nativeHash } from './native-hash.js'

let noble: typeof NobleLegacy | undefined
/** noble's `legacy.js`, required the first time it is needed (an incremental hash, an argument that is not one byte array). */
const nobleLegacy = (): typeof NobleLegacy => (noble ??= createRequire(import.meta.url)('@noble/hashes/legacy.js') as typeof NobleLegacy)

/** SHA-1: `@noble/hashes`' `sha1`, hashing one byte array with `node:crypto`. */
export const sha1: typeof NobleLegacy.sha1 = nativeHash('sha1', () => nobleLegacy().sha1, { outputLen: 20, blockLen: 64, canXOF: false })
