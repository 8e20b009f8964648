/**
 * `verify` for Node and other networked hosts: the offline core verification, plus an optional
 * online re-check that the carried blocks are still served by the beacon.
 *
 * @module
 */
import { verifyOnline, type VerifyOnlineOptions } from './beacon/draw.js'
import { verify as verifyOffline, type VerifyOptions, type VerifyResult } from './core/verify.js'
import { participantsRootParallel } from './node/parallel-hash.js'

/**
 * Options of {@link verify}: the core's, plus an optional online re-check.
 * @category Verify
 */
export interface NodeVerifyOptions extends VerifyOptions {
  /**
   * Also re-check online: the gateways to ask (or full {@link VerifyOnlineOptions}; its `offline` is
   * this call's own offline result). Adds the checks `online-blocks` and `online-chain`, which ask
   * nothing and are `notChecked` when the proof fails offline. Omit for a purely offline verification
   * (the default).
   */
  online?: readonly string[] | VerifyOnlineOptions
}

/**
 * Verifies a proof bundle: offline first (every check of the core `verify`, with the participants of a
 * large full disclosure hashed on two threads by `participantsRootParallel`), then, with `online`,
 * asks the beacon whether the carried blocks are still served and still in its signed chain, only
 * when the offline verification passed (a proof that fails offline makes no request).
 * Never throws on a bad proof or an unreachable beacon: problems are failed checks.
 *
 * @example
 * ```ts
 * const offline = await verify(proof)
 * const both = await verify(proof, { online: ['https://ipfs.io', 'https://dweb.link'] })
 * ```
 * @category Verify
 */
export async function verify(proof: unknown, options: NodeVerifyOptions = {}): Promise<VerifyResult> {
  const { online, ...offlineOptions } = options
  // Large full disclosures are hashed on two threads (participantsRootParallel equals participantsRoot,
  // errors included); a caller's own participantsDigest wins.
  const offline = await verifyOffline(proof, { participantsDigest: participantsRootParallel, ...offlineOptions })
  if (online === undefined) return offline
  const given: VerifyOnlineOptions = isGatewayList(online) ? { gateways: online } : online
  // The offline result decides whether any gateway is asked: a proof that fails offline costs no request.
  const onlineOptions: VerifyOnlineOptions = { ...given, offline, ...(options.kinds === undefined || given.kinds !== undefined ? {} : { kinds: options.kinds }) }
  const result = await verifyOnline(proof, onlineOptions)
  const checks = [...offline.checks, ...result.checks]
  return { ...offline, ok: offline.ok && result.ok, checks, notes: [...offline.notes, ...result.notes] }
}

function isGatewayList(x: readonly string[] | VerifyOnlineOptions): x is readonly string[] {
  return Array.isArray(x)
}
