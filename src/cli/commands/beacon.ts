/**
 * `orbitdraw beacon latest | block CID | get N | watch`: read the beacon, every answer verified.
 *
 * @module
 */
import { AbortedError } from '../../net/errors.js'
import { type BeaconBlock } from '../../core/block.js'
import { type BeaconHead } from '../../beacon/head.js'
import type { DrandChainInfo } from '../../core/drand/chain.js'
import { BEACON_HELP, BEACON_OPTIONS, GLOBAL_OPTIONS, type CliContext, type Command } from '../command.js'
import { beaconClientFrom, blockJson, blockLines, blockTimeText, intFlag, parseIntValue } from '../common.js'
import { EXIT, UsageError } from '../exit-codes.js'
import { printJson } from '../output.js'
import { safeText } from '../safe-text.js'

const SUBCOMMANDS = ['latest', 'block', 'get', 'watch', 'drand'] as const

export const beaconCommand: Command = {
  name: 'beacon',
  summary: 'read the beacon: latest | block CID | get N | watch (every answer verified) | drand',
  help: `Usage: orbitdraw beacon latest [--json]
       orbitdraw beacon block CID [--json]
       orbitdraw beacon get N [--json]
       orbitdraw beacon watch [--count N] [--json]
       orbitdraw beacon drand [--trust-drand FILE] [--json]

Reads the cosmic randomness beacon through trustless IPFS gateways and trusts none of them: the
head comes from the beacon's signed IPNS record, every block's bytes are checked against its CID,
and every 'previous' link by hash.

Subcommands:
  latest      the latest block, with its signed record (sequence, validity, TTL)
  block CID   one block by CID
  get N       the chain's block with sequence N (walked down from the signed head)
  watch       print each new verified block as it appears, until Ctrl-C (exit 0) or --count N
              blocks; with --json one JSON object per line
  drand       the drand chains trusted for mixed draws (the second source, protocol v2): chain
              hash, period, genesis, scheme. Offline. 'latest' shows them too

  --trust-drand FILE  also trust this drand chain: its info JSON as drand's /{chainhash}/info serves
                      it (chain hash recomputed; repeatable). Default: drand's quicknet only.
                      ORBITDRAW_TRUST_DRAND (a chain's info JSON) sets the same default

${BEACON_HELP}

Exit codes: 0 ok, 2 usage error, 3 network failure, 4 bad input (bad CID, block not published yet).

Examples:
  orbitdraw beacon latest
  orbitdraw beacon get 12345 --json | jq -r '.ctrng[0]'
  orbitdraw beacon block bafkreib… --gateway https://w3s.link
  orbitdraw beacon watch --count 3
  orbitdraw beacon drand --json
  ORBITDRAW_GATEWAYS=http://127.0.0.1:8080 ORBITDRAW_BEACON=k51… orbitdraw beacon watch --json`,
  options: { ...GLOBAL_OPTIONS, ...BEACON_OPTIONS, count: { type: 'string' }, 'trust-drand': { type: 'string', multiple: true } },
  async run(flags, positionals, ctx) {
    const [sub, ...args] = positionals
    if (sub === undefined || !(SUBCOMMANDS as readonly string[]).includes(sub)) {
      throw new UsageError(sub === undefined ? `beacon needs a subcommand: ${SUBCOMMANDS.join(', ')}` : `unknown beacon subcommand ${JSON.stringify(sub)}; use ${SUBCOMMANDS.join(', ')}`, 'beacon')
    }
    const arity = sub === 'block' || sub === 'get' ? 1 : 0
    if (args.length !== arity) throw new UsageError(arity === 1 ? `beacon ${sub} takes exactly one ${sub === 'block' ? 'CID' : 'sequence number'}` : `beacon ${sub} takes no arguments`, 'beacon')
    if (sub !== 'watch' && flags.count !== undefined) throw new UsageError('--count is for beacon watch', 'beacon')
    if (sub !== 'drand' && sub !== 'latest' && flags['trust-drand'] !== undefined) throw new UsageError('--trust-drand is for beacon drand and beacon latest', 'beacon')
    const json = flags.json === true
    // The trusted drand chains (read before any network: a bad --trust-drand file is a usage error).
    const drand = sub === 'drand' || sub === 'latest' ? await (await import('../drand-flags.js')).drandChainsFrom(flags, ctx, 'beacon') : undefined
    if (sub === 'drand') {
      if (json) printJson(ctx, { drand: drandJson(drand!) })
      else ctx.out(`${drandLines(drand!).map(safeText).join('\n')}\n`)
      return EXIT.ok
    }
    const client = beaconClientFrom(flags, ctx, 'beacon')
    const call = { signal: ctx.signal }
    switch (sub) {
      case 'latest': {
        const head = await client.latest(call)
        if (json) printJson(ctx, { ...headJson(head, client.name), drand: drandJson(drand!) })
        else ctx.out(`${[...headLines(head, client.name), ...drandLines(drand!)].map(safeText).join('\n')}\n`)
        return EXIT.ok
      }
      case 'block':
      case 'get': {
        const block = sub === 'block' ? await client.block(args[0]!, call) : await client.bySequence(parseIntValue(args[0]!, 'the sequence number', 'beacon'), call)
        if (json) printJson(ctx, blockJson(block))
        else ctx.out(`${blockLines(block).join('\n')}\n`)
        return EXIT.ok
      }
      default:
        return watch(ctx, client, intFlag(flags, 'count', 'beacon', 1), json)
    }
  },
}

async function watch(ctx: CliContext, client: ReturnType<typeof beaconClientFrom>, count: number | undefined, json: boolean): Promise<number> {
  const show = (b: BeaconBlock, authenticated: boolean): void => {
    if (json) ctx.out(`${JSON.stringify({ ...blockJson(b), authenticated })}\n`)
    else ctx.out(`${safeText(`${blockTimeText(b.timestamp)}  block ${b.sequence}  ${b.cid}${authenticated ? '' : '  (UNSIGNED head)'}`)}\n  ${safeText(`ctrng ${b.ctrng.join(' ')}`)}\n`)
  }
  let printed = 0
  // Ctrl-C, or a reader that went away (`beacon watch | head -1`): stop waiting for the next block.
  const signal = ctx.stdoutClosed === undefined ? ctx.signal : AbortSignal.any([ctx.signal, ctx.stdoutClosed])
  try {
    const head = await client.latest({ signal })
    if (!json) ctx.err(`watching ${client.name} from block ${head.block.sequence}${count === undefined ? ' (Ctrl-C to stop)' : ` for ${count} new block${count === 1 ? '' : 's'}`}\n`)
    let next = head.block.sequence + 1
    while (count === undefined || printed < count) {
      const got = await client.waitFor(next, { signal })
      // Every block from `next` up to the head, oldest first (the chain is newest first).
      for (const b of [...got.chain].reverse()) {
        if (count !== undefined && printed >= count) break
        show(b, got.head.authenticated)
        printed++
      }
      next = got.head.block.sequence + 1
    }
  } catch (err) {
    if (err instanceof AbortedError) {
      if (ctx.stdoutClosed?.aborted === true && !ctx.signal.aborted) return EXIT.ok
      if (!json) ctx.err(`stopped after ${printed} block${printed === 1 ? '' : 's'}\n`)
      return EXIT.ok
    }
    throw err
  }
  return EXIT.ok
}

function headJson(h: BeaconHead, name: string): Record<string, unknown> {
  return {
    beacon: name,
    authenticated: h.authenticated,
    fresh: h.fresh,
    gateway: h.gateway ?? null,
    record:
      h.recordInfo === undefined
        ? null
        : { sequence: h.recordInfo.sequence.toString(), validity: h.recordInfo.validity, ttlMs: h.recordInfo.ttlMs ?? null, value: h.recordInfo.value },
    block: blockJson(h.block),
  }
}

function headLines(h: BeaconHead, name: string): string[] {
  return [
    `beacon ${name}`,
    h.authenticated && h.recordInfo !== undefined
      ? `  signed head: IPNS record #${h.recordInfo.sequence} valid until ${h.recordInfo.validity}${h.recordInfo.ttlMs === undefined ? '' : `, TTL ${h.recordInfo.ttlMs} ms`}${h.gateway ? ` (via ${h.gateway})` : ''}`
      : `  UNSIGNED head (no verifiable IPNS record)${h.gateway ? ` via ${h.gateway}` : ''}`,
    ...blockLines(h.block),
  ]
}

type TrustedDrand = { readonly chains: readonly DrandChainInfo[]; readonly added: readonly DrandChainInfo[] }

const utc = (seconds: number): string => `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`

/** The trusted drand chains as JSON: each one's pinned fields, and whether you added it. */
function drandJson(d: TrustedDrand): Record<string, unknown>[] {
  return d.chains.map((c) => ({
    hash: c.hash,
    label: c.label ?? null,
    period: c.period,
    genesis: c.genesis,
    genesisUtc: new Date(c.genesis * 1000).toISOString(),
    scheme: c.scheme,
    publicKey: c.publicKey,
    groupHash: c.groupHash ?? null,
    beaconId: c.beaconId ?? null,
    trustedBy: d.added.some((a) => a.hash === c.hash) ? 'you' : 'default',
  }))
}

/** The trusted drand chains in words. */
function drandLines(d: TrustedDrand): string[] {
  return [
    `drand chain${d.chains.length === 1 ? '' : 's'} trusted for mixed draws (the second source):`,
    ...d.chains.flatMap((c) => [
      d.added.some((a) => a.hash === c.hash) ? `  ${c.label ?? 'a drand chain trusted by your settings'}` : `  ${c.label ?? 'drand chain'} (default)`,
      `    chain hash  ${c.hash}`,
      `    period      ${c.period} s`,
      `    genesis     ${utc(c.genesis)} (${c.genesis})`,
      `    scheme      ${c.scheme}`,
    ]),
  ]
}
