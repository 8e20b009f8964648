/**
 * The BLS12-381 pairing check of a drand round, loaded on first need: `@noble/curves`' pairing code is
 * the largest part of the verifier, and only a mixed (protocol v2) proof needs it. The browser
 * verifier's build puts this module's place to another implementation (src/verifier/pairing-client.ts)
 * that runs the same `verifyRoundSignature` (beacon.ts) in a second worker, started only for a mixed proof.
 *
 * @module
 */
import type { DrandRound } from './beacon.js'
import type { DrandChainInfo } from './chain.js'

/**
 * `verifyRoundSignature` (beacon.ts), with the pairing code imported on the first call.
 * @throws {@link InvalidInputError} as `verifyRoundSignature` (beacon.ts) does.
 */
export async function checkRoundSignature(chain: Pick<DrandChainInfo, 'publicKey'>, r: DrandRound): Promise<boolean> {
  const { verifyRoundSignature } = await import('./beacon.js')
  return verifyRoundSignature(chain, r)
}
