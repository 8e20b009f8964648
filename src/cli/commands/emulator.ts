/**
 * `orbitdraw emulator`: the local emulator of the whole service, until Ctrl-C.
 *
 * @module
 */
import { startEmulator } from '../../emulator/index.js'
import { GLOBAL_OPTIONS, type Command } from '../command.js'
import { formatDuration, intFlag, parseDuration, stringFlag } from '../common.js'
import { EXIT, UsageError } from '../exit-codes.js'
import { InvalidInputError } from '../../core/errors.js'
import { rename, rm, writeFile } from 'node:fs/promises'
import { shellQuote } from './commit.js'

const EMULATOR_CLIENT_ID = 'emulator-client'
const EMULATOR_CLIENT_SECRET = 'emulator-secret'

export const emulatorCommand: Command = {
  name: 'emulator',
  summary: 'run a local emulator of the beacon, gateway and REST service (until Ctrl-C)',
  help: `Usage: orbitdraw emulator [--port N] [--interval 1s] [--key rsa|ed25519] [--initial-blocks N]
                          [--tsa-accuracy S] [--write-env FILE [--quiet]] [--json]

Starts a local emulator of the whole Orbitport service on one loopback origin: a beacon that
publishes a signed block every --interval, a trustless IPFS gateway serving it (/ipfs/…, /ipns/…),
and the REST token and cTRNG endpoints. Prints its URL, its beacon name and how to point orbitdraw
at it, then runs until Ctrl-C or SIGTERM (exit 0). Keys are fresh every run, so the beacon name
changes: proofs made against it verify, but only as this emulator's beacon.

Flags:
  --port N             port on 127.0.0.1 (default: a free one)
  --interval D         publication interval: 250ms, 1s, 1m (default 1s; at least 100ms)
  --key rsa|ed25519    the beacon's IPNS key type (default rsa, like the real beacon: k2k4r8… names;
                       ed25519 gives k51… names)
  --initial-blocks N   blocks published at start so history exists (default 3)
  --tsa-accuracy S     the accuracy its time-stamping authority states in every token, whole seconds
                       (default 1; 0 states none). 'commit' keeps a target only when genTime + accuracy
                       leaves it time, so a larger accuracy moves targets later
  --write-env FILE     once listening, also write the variables to FILE as shell exports (mode 0600,
                       written whole in one step, removed on exit): a script waits for it, then
                       sources it (see the example). The file also exports ORBITDRAW_EMULATOR_PID,
                       the emulator's own process id (kill it to stop the emulator, even when it
                       was started through npx). Not named --env-file: Node 20 takes that flag
  --quiet, -q          print nothing (for a background emulator found through --write-env)
  --json               print {"url", "beaconName", "env", …} as one JSON line instead

Exit codes: 0 stopped by Ctrl-C/SIGTERM, 2 usage error (including a port in use).

Examples:
  orbitdraw emulator
  orbitdraw emulator --port 8787 --interval 2s --key ed25519
  # in a script: start it in the background, wait for the env file, source it
  orbitdraw emulator --write-env emulator.env --quiet &
  until [ -s emulator.env ]; do sleep 0.2; done; . ./emulator.env
  orbitdraw beacon latest
  kill "$ORBITDRAW_EMULATOR_PID"`,
  options: {
    ...GLOBAL_OPTIONS,
    port: { type: 'string' },
    interval: { type: 'string' },
    key: { type: 'string' },
    'initial-blocks': { type: 'string' },
    'tsa-accuracy': { type: 'string' },
    'write-env': { type: 'string' },
    quiet: { type: 'boolean', short: 'q' },
  },
  async run(flags, positionals, ctx) {
    if (positionals.length > 0) throw new UsageError('emulator takes no positional arguments', 'emulator')
    const port = intFlag(flags, 'port', 'emulator', 0, 65535)
    const intervalMs = flags.interval === undefined ? 1000 : parseDuration(stringFlag(flags, 'interval')!, '--interval', 'emulator')
    if (intervalMs < 100) throw new UsageError('--interval must be at least 100ms', 'emulator')
    const key = (stringFlag(flags, 'key') ?? 'rsa').toLowerCase()
    if (key !== 'rsa' && key !== 'ed25519') throw new UsageError('--key must be rsa or ed25519', 'emulator')
    const initialBlocks = intFlag(flags, 'initial-blocks', 'emulator', 0, 1000) ?? 3
    const tsaAccuracy = intFlag(flags, 'tsa-accuracy', 'emulator', 0, 3600) ?? 1
    const quiet = flags.quiet === true
    if (quiet && flags.json === true) throw new UsageError('--quiet prints nothing and --json prints one line: choose one', 'emulator')
    if (ctx.signal.aborted) return EXIT.ok

    let emu: Awaited<ReturnType<typeof startEmulator>>
    try {
      emu = await startEmulator({
        ...(port !== undefined ? { port } : {}),
        beacon: { intervalMs, keyType: key === 'rsa' ? 'RSA' : 'Ed25519', initialBlocks },
        tsa: { accuracySeconds: tsaAccuracy },
      })
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'EADDRINUSE' || code === 'EACCES') throw new UsageError(`cannot listen on 127.0.0.1:${port}: ${code === 'EADDRINUSE' ? 'the port is in use' : 'permission denied'}; choose another --port or omit it`, 'emulator')
      throw err
    }
    const env = {
      ORBITDRAW_GATEWAYS: emu.url,
      ORBITDRAW_BEACON: emu.beaconName,
      ORBITPORT_BASE_URL: emu.url,
      ORBITPORT_AUTH_URL: emu.url,
      ORBITPORT_CLIENT_ID: EMULATOR_CLIENT_ID,
      ORBITPORT_CLIENT_SECRET: EMULATOR_CLIENT_SECRET,
      ORBITDRAW_TSA: emu.tsaUrl,
      ORBITDRAW_TRUST_TSA: Buffer.from(emu.tsa.rootDer).toString('base64'),
      ORBITDRAW_TRUST_BEACONS: emu.beaconName,
      // Its drand chain (quicknet scheme, 3 s rounds, its own key): relays and the chain to trust.
      ORBITDRAW_DRAND_URLS: emu.url,
      ORBITDRAW_TRUST_DRAND: JSON.stringify(emu.drand.infoJson),
    }
    const envFile = stringFlag(flags, 'write-env')
    if (envFile !== undefined) {
      try {
        // The process id too: `npx orbitdraw emulator &` makes `$!` / `%1` the npx wrapper, which does not pass a kill on.
        await writeEnvFile(envFile, { ...env, ORBITDRAW_EMULATOR_PID: String(process.pid) })
      } catch (cause) {
        await emu.stop()
        throw new InvalidInputError('FILE_UNWRITABLE', `cannot write ${envFile}: ${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}`, 'check the directory exists and is writable')
      }
    }
    if (quiet) {
      // Nothing to print: a script finds the emulator through --write-env (or already knows its port).
    } else if (flags.json === true) {
      ctx.out(`${JSON.stringify({ url: emu.url, beaconName: emu.beaconName, intervalMs, keyType: key, tsaUrl: emu.tsaUrl, tsaRootPem: emu.tsaRootPem, drand: { url: `${emu.url}/${emu.drand.info.hash}`, info: emu.drand.infoJson }, env })}\n`)
    } else {
      ctx.out(
        [
          `orbitdraw emulator running at ${emu.url}`,
          `  beacon name   ${emu.beaconName}`,
          `  interval      ${intervalMs < 1000 ? `${intervalMs}ms` : formatDuration(intervalMs)} (${key} key)`,
          `  drand chain   ${emu.drand.info.hash} (bls-unchained-g1-rfc9380, ${emu.drand.info.period} s rounds, its own key)`,
          '',
          'Point orbitdraw at it (in another shell):',
          ...Object.entries(env).map(([k, v]) => `  export ${k}=${k === 'ORBITDRAW_TRUST_DRAND' ? shellQuote(v) : v}`),
          'or per command:',
          `  orbitdraw beacon latest --gateway ${emu.url} --beacon ${emu.beaconName}`,
          '',
          'The ORBITPORT_* credentials are the emulator\'s public test defaults, not real ones.',
          'ORBITDRAW_TSA is the emulator\'s time-stamping authority; ORBITDRAW_TRUST_TSA its test root (base64 DER)',
          'and ORBITDRAW_TRUST_BEACONS its beacon: exported, they make `orbitdraw verify` in that shell trust this',
          'emulator (the verdict says "trusted by your settings"). Trust them only for tests.',
          'Press Ctrl-C to stop.',
          '',
        ].join('\n'),
      )
    }
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve()
      else ctx.signal.addEventListener('abort', () => resolve(), { once: true })
    })
    await emu.stop()
    if (envFile !== undefined) await rm(envFile, { force: true })
    if (flags.json !== true && !quiet) ctx.err('emulator stopped\n')
    return EXIT.ok
  },
}

/**
 * Writes `export K=V` lines to `path` in one step (a temporary file renamed into place), so a script
 * polling for the file never sources half of it. Mode 0600: the file holds the emulator's test credentials.
 */
async function writeEnvFile(path: string, env: Record<string, string>): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`
  await writeFile(tmp, `${Object.entries(env).map(([k, v]) => `export ${k}=${shellQuote(v)}`).join('\n')}\n`, { mode: 0o600 })
  await rename(tmp, path)
}
