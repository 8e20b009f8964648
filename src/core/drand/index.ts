/**
 * drand, the second source of a mixed (protocol v2) draw: chain info, round times, signatures.
 *
 * @module
 */
export { checkChainInfo, chainHashOf, checkRound, DEFAULT_DRAND_CHAINS, DRAND_QUICKNET, DRAND_SCHEME, drandInfoJson, MAX_DRAND_ROUND, parseDrandInfo, planRound, roundAt, roundTime, type DrandChainInfo } from './chain.js'
export { DRAND_DST, publicKeyOf, roundMessage, roundRandomness, signRound, verifyRoundSignature, type DrandRound } from './beacon.js'
export { deriveMixedSeed, SEED_DOMAIN_V2 } from './seed.js'
