/**
 * The verifier's trust material from the command line, built once ({@link createTrust}): the beacons
 * (`--trust-beacon NAME`, ORBITDRAW_TRUST_BEACONS), the time-stamping authorities (the public ones plus
 * `--trust-tsa FILE`, ORBITDRAW_TRUST_TSA) and the drand chains (quicknet plus `--trust-drand INFO.json`,
 * ORBITDRAW_TRUST_DRAND). Each flag or variable adds to the defaults; a bad one is a usage error naming it.
 * Light on purpose: `orbitdraw verify` loads no network client through it.
 *
 * @module
 */
import { DEFAULT_DRAND_CHAINS, parseDrandInfo, type DrandChainInfo } from '../core/drand/chain.js'
import { OrbitdrawError } from '../core/errors.js'
import { utf8Decode } from '../core/bytes.js'
import { createTrust, normalizeTrustedBeacons, ORBITPORT_BEACONS, type TrustedBeacon, type VerifierTrust, type VerifyTrust } from '../core/trust.js'
import type { CliContext, Flags } from './command.js'
import { UsageError } from './exit-codes.js'
import { fileListFlag, listFlag } from './flags.js'
import { readBytesInput } from './read-bytes.js'

/** The most bytes of a `--trust-drand` file (a chain's /info JSON is about 500). */
const MAX_DRAND_INFO_BYTES = 64 * 1024

/**
 * The trust material of a command: the defaults, plus what its `--trust-*` flags and ORBITDRAW_TRUST_*
 * variables add. Loads the certificate parser only for added roots, the drand parser only for added chains.
 */
export async function trustFrom(flags: Flags, ctx: CliContext, command: string): Promise<VerifierTrust> {
  const input: { -readonly [K in keyof VerifyTrust]: VerifyTrust[K] } = {}
  const beacons = [
    ...(listFlag(flags, 'trust-beacon') ?? []).map((name) => ({ name, label: 'beacon from --trust-beacon' })),
    ...list(ctx.env.ORBITDRAW_TRUST_BEACONS).map((name) => ({ name, label: 'beacon from ORBITDRAW_TRUST_BEACONS' })),
  ]
  if (beacons.length > 0) {
    let added: TrustedBeacon[]
    try {
      added = normalizeTrustedBeacons(beacons)
    } catch (err) {
      throw new UsageError(`--trust-beacon: ${err instanceof OrbitdrawError ? err.detail : String(err)}`, command)
    }
    input.beacons = [...ORBITPORT_BEACONS, ...added]
  }
  if (flags['trust-tsa'] !== undefined || list(ctx.env.ORBITDRAW_TRUST_TSA).length > 0) {
    const [{ extraTsaRoots }, { PUBLIC_TIMESTAMP_AUTHORITIES }] = await Promise.all([import('./trust-tsa.js'), import('../core/timestamp/defaults.js')])
    const roots = await extraTsaRoots(flags, ctx, command)
    if (roots.length > 0) input.timestampAuthorities = [...PUBLIC_TIMESTAMP_AUTHORITIES, ...roots]
  }
  const chains = await extraDrandChains(flags, ctx, command)
  if (chains.length > 0) input.drandChains = [...DEFAULT_DRAND_CHAINS, ...chains.filter((a) => !DEFAULT_DRAND_CHAINS.some((d) => d.hash === a.hash))]
  try {
    return await createTrust(input)
  } catch (err) {
    throw new UsageError(`the trust settings are invalid: ${err instanceof OrbitdrawError ? `${err.detail} (${err.path ?? '$'})` : String(err)}`, command)
  }
}

/** The drand chains `--trust-drand` files (or, without them, ORBITDRAW_TRUST_DRAND) add, in order. */
export async function extraDrandChains(flags: Flags, ctx: CliContext, command: string): Promise<DrandChainInfo[]> {
  const added: DrandChainInfo[] = []
  for (const path of fileListFlag(flags, 'trust-drand') ?? []) {
    const bytes = await readBytesInput(path, 'drand chain info', MAX_DRAND_INFO_BYTES)
    if (bytes.length > MAX_DRAND_INFO_BYTES) throw new UsageError(`--trust-drand ${path}: the file is over ${MAX_DRAND_INFO_BYTES} bytes, too long for a drand chain's /info JSON`, command)
    added.push(parseChain(utf8Decode(bytes), `--trust-drand ${path}`, command))
  }
  const env = ctx.env.ORBITDRAW_TRUST_DRAND
  if (env !== undefined && env.trim() !== '' && added.length === 0) added.push(parseChain(env, 'ORBITDRAW_TRUST_DRAND', command))
  return added
}

function parseChain(text: string, where: string, command: string): DrandChainInfo {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new UsageError(`${where} is not JSON: pass a drand chain's info as its /{chainhash}/info serves it`, command)
  }
  try {
    return parseDrandInfo(json, `trusted by your settings (${where})`)
  } catch (err) {
    if (err instanceof OrbitdrawError) throw new UsageError(`${where}: ${err.detail}; ${err.hint}`, command)
    throw err
  }
}

/** A comma-separated variable's items, trimmed, empty ones dropped. */
function list(v: string | undefined): string[] {
  return (v ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0)
}
