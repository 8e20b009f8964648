/**
 * The fast path of ECDSA verification (`verifyEcdsa` in `signature.ts`): the host's Web Crypto, asked
 * only about a signature already read as `0 < r, s < n` (Web Crypto's raw `r || s`). It can only
 * confirm: `true` stands, anything else (`false`, `undefined` when it cannot say) goes to
 * `@noble/curves`, which decides. The CLI's verify bundle puts `src/node/native-ecdsa.ts` (the same
 * verification by `node:crypto`, which a fresh process loads anyway) in this module's place
 * (`scripts/build-cli.ts`); the library and the page keep this one.
 *
 * @module
 */
import { ownBuffer, webCrypto, type KeyImporter } from '../webcrypto.js'
import type { HashName } from './oids.js'

/** What the fast path needs of a curve (`EcdsaCurve` in `signature.ts`). */
export interface FastCurve {
  readonly name: 'P-256' | 'P-384'
  /** Imports the raw public point with Web Crypto (remembering the last few keys). */
  readonly importKey: KeyImporter
}

/** ECDSA over `data` by `subtle`: true or false, or undefined when it cannot say (a point it refuses, an error). */
export async function ecdsaWebCrypto(subtle: SubtleCrypto, curve: FastCurve, hash: HashName, publicKey: Uint8Array, data: Uint8Array, raw: Uint8Array): Promise<boolean | undefined> {
  try {
    const key = await curve.importKey(subtle, publicKey)
    return await subtle.verify({ name: 'ECDSA', hash }, key, ownBuffer(raw), ownBuffer(data))
  } catch {
    return undefined
  }
}

/** {@link ecdsaWebCrypto} with this host's Web Crypto; undefined where there is none. */
export async function ecdsaFastPath(curve: FastCurve, hash: HashName, publicKey: Uint8Array, data: Uint8Array, raw: Uint8Array): Promise<boolean | undefined> {
  const subtle = webCrypto()
  return subtle === undefined ? undefined : await ecdsaWebCrypto(subtle, curve, hash, publicKey, data, raw)
}
