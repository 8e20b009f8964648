/**
 * drand, the second source of a mixed (protocol v2) draw, the pure part: chain info, round times,
 * signatures, the v2 seed. Exported by the `orbitdraw/drand` entry (src/drand/index.ts) with the relay
 * client's names.
 *
 * @module
 */
export { checkChainInfo, chainHashOf, DEFAULT_DRAND_CHAINS, DRAND_QUICKNET, DRAND_SCHEME, drandInfoJson, parseDrandInfo, planRound, roundAt, roundTime, type DrandChainInfo } from './chain.js'
export { DRAND_DST, publicKeyOf, roundMessage, roundRandomness, signRound, verifyRoundSignature, type DrandRound } from './beacon.js'
export { deriveMixedSeed, SEED_DOMAIN_V2 } from './seed.js'
export type { DrawSources } from './sources.js'
