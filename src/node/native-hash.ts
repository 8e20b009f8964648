/**
 * The shared part of `native-sha2.ts` and `native-sha1.ts` (the CLI's verify bundle, Node only): a hash
 * of `node:crypto` behind the API of one of `@noble/hashes`' functions, with noble's members.
 *
 * @module
 */
import { hash } from 'node:crypto'

/**
 * The hash `name` of `node:crypto` behind the API of noble's function `noble()` (loaded on first need):
 * one byte array is hashed natively into a plain `Uint8Array` (not a pooled `Buffer`), anything else goes
 * to noble's function with its arguments; `members` are noble's values, and `create()` is noble's
 * incremental hash.
 */
export function nativeHash<H>(name: string, noble: () => H, members: { readonly outputLen: number; readonly blockLen: number; readonly canXOF: boolean; readonly oid?: Uint8Array }): H {
  const digest = (...args: unknown[]): Uint8Array =>
    args.length === 1 && args[0] instanceof Uint8Array ? new Uint8Array(hash(name, args[0], 'buffer')) : (noble() as (...a: unknown[]) => Uint8Array)(...args)
  const create = (): unknown => (noble() as { create: () => unknown }).create()
  const { outputLen, blockLen, canXOF, oid } = members
  return Object.freeze(Object.assign(digest, { outputLen, blockLen, canXOF, create }, oid === undefined ? {} : { oid })) as unknown as H
}

