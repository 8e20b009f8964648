/**
 * The two NIST curves the time-stamp checks use, from `@noble/curves`, as a module of their own: the
 * signature code imports it on first need (see `signature.ts`), and naming only `p256` and `p384` here
 * lets bundlers drop the rest of `@noble/curves/nist.js` (hash-to-curve, OPRF) from that chunk.
 *
 * @module
 */
export { p256, p384 } from '@noble/curves/nist.js'
