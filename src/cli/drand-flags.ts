/**
 * The CLI's drand flags and environment: which drand chains the user trusts (`--trust-drand INFO.json`,
 * ORBITDRAW_TRUST_DRAND), which relays to ask (ORBITDRAW_DRAND_URLS, `--drand-url`), and the drand
 * client and block time-stamper a mixed draw needs.
 *
 * @module
 */
import { DEFAULT_DRAND_CHAINS, type DrandChainInfo } from '../core/drand/chain.js'
import { DEFAULT_DRAND_URLS } from '../drand/urls.js'
import type { CliContext, Flags } from './command.js'
import { UsageError } from './exit-codes.js'
import { listFlag } from './flags.js'
import { tsaAnchorsFrom, tsaUrlsFrom } from './timestamp-flags.js'
import { extraDrandChains } from './trust-material.js'

export const DRAND_OPTIONS = {
  'trust-drand': { type: 'string', multiple: true },
  'drand-url': { type: 'string', multiple: true },
} as const

export const DRAND_HELP = `drand (a second source: mixed draws, protocol v2):
  --trust-drand FILE       also trust this drand chain: its info JSON as drand's /{chainhash}/info
                           serves it (chain hash recomputed; repeatable). Default: drand's quicknet only
  --drand-url URL          a drand relay (repeatable; default: ${DEFAULT_DRAND_URLS[0]} and drand's other relays)
Environment: ORBITDRAW_TRUST_DRAND (a chain's info JSON) and ORBITDRAW_DRAND_URLS (comma-separated
relays) set the same defaults; 'orbitdraw emulator' prints them for its own drand chain.`

/** The trusted drand chains: quicknet, plus every `--trust-drand` file and ORBITDRAW_TRUST_DRAND (as in the trust material, `trustFrom`). */
export async function drandChainsFrom(flags: Flags, ctx: CliContext, command: string): Promise<{ readonly chains: readonly DrandChainInfo[]; readonly added: readonly DrandChainInfo[] }> {
  const added = await extraDrandChains(flags, ctx, command)
  return { chains: [...DEFAULT_DRAND_CHAINS, ...added.filter((a) => !DEFAULT_DRAND_CHAINS.some((d) => d.hash === a.hash))], added }
}

/** Relay URLs: `--drand-url`, else ORBITDRAW_DRAND_URLS, else drand's public relays. */
export function drandUrlsFrom(flags: Flags, ctx: CliContext): readonly string[] {
  const fromFlags = listFlag(flags, 'drand-url')
  if (fromFlags !== undefined && fromFlags.length > 0) return fromFlags
  const fromEnv = ctx.env.ORBITDRAW_DRAND_URLS?.split(',').map((s) => s.trim()).filter((s) => s !== '')
  return fromEnv !== undefined && fromEnv.length > 0 ? fromEnv : DEFAULT_DRAND_URLS
}

/** The chain of hash `hash` among the trusted ones, or a usage error saying how to trust it. */
export function trustedChain(chains: readonly DrandChainInfo[], hash: string, command: string): DrandChainInfo {
  const chain = chains.find((c) => c.hash === hash)
  if (chain === undefined) throw new UsageError(`the commitment names drand chain ${hash}, which you do not trust: pass --trust-drand INFO.json (its /info JSON) if you know it`, command)
  return chain
}

/** What the network draw needs for a mixed commitment: the drand client and the block time-stamper. */
export async function mixedDrawOptions(flags: Flags, ctx: CliContext, chainHash: string, command: string, onWait?: (secondsLeft: number) => void) {
  const { chains } = await drandChainsFrom(flags, ctx, command)
  const chain = trustedChain(chains, chainHash, command)
  // The drand client (BLS12-381) and the time-stamping client load only for a mixed draw: `draw` of a
  // version 1 commitment imports this module for its flags and help alone.
  const [{ DrandClient }, { timestampCommitment }] = await Promise.all([import('../drand/client.js'), import('../timestamp/client.js')])
  const client = new DrandClient({ chain, urls: drandUrlsFrom(flags, ctx) })
  const authorities = tsaUrlsFrom(flags, ctx, command)
  const anchors = await tsaAnchorsFrom(flags, ctx, command)
  return {
    client,
    timestamp: async (blockCid: string, signal?: AbortSignal) => (await timestampCommitment(blockCid, { authorities, anchors, ...(signal === undefined ? {} : { signal }) })).tokens.map((t) => t.base64),
    ...(onWait === undefined ? {} : { onWait }),
  }
}
