/**
 * drand, the second source of a mixed (protocol v2) draw: the pinned chains, round times and
 * signatures, the v2 seed (pure: `src/core/drand/`), and the relay client's errors and default URLs.
 * See docs/spec.md, "Protocol v2".
 *
 * ```ts
 * import { DRAND_QUICKNET, planRound, verifyRoundSignature } from 'orbitdraw/drand'
 * ```
 *
 * The `orbitdraw/drand` entry: this file and the core's `src/core/drand/index.ts` (re-exported whole)
 * are the only lists of its names; `DrandClient` itself is at the root (`orbitdraw`).
 *
 * @module orbitdraw/drand
 */
export * from '../core/drand/index.js'
/** @category Drand */
export type { DrandCommitment } from '../core/commitment.js'
/** @category Drand */
export type { DrandEvidence } from '../core/draw.js'
export { DEFAULT_DRAND_URLS } from './client.js'
export { DRAND_ERROR_CODES, DrandError, type DrandErrorCode } from './errors.js'
