#!/usr/bin/env node
/**
 * The `orbitdraw` command: a thin user of the public API.
 *
 * Start-up loads only what the command line needs: the command table (names and summaries), then the one
 * command that runs; the error reporter (which knows every error family) is imported only on error.
 *
 * @module
 */
import { parseArgs } from 'node:util'
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { CliContext, Command } from './command.js'
import { COMMANDS, type CommandEntry } from './commands/index.js'
import { EXIT, UsageError } from './exit-codes.js'
import { safeText } from './safe-text.js'

const MAIN_HELP = `orbitdraw — publicly verifiable draws from Orbitport's cosmic randomness beacon

Usage: orbitdraw <command> [flags]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(14)} ${c.summary}`).join('\n')}

Run 'orbitdraw <command> --help' for a command's flags and examples.
Global flags: --json (machine-readable output), -h/--help, --version.
Exit codes: 0 ok, 1 verification failed, 2 usage error, 3 network failure, 4 bad input,
130 interrupted, 70 internal error (a bug).

Quick start (local emulator, no account needed):
  orbitdraw emulator &                       # prints ORBITDRAW_* variables to export
  orbitdraw commit -p names.txt --pick 3 --delay 10s
  orbitdraw draw commitment.json -p names.txt -o proof.json
  orbitdraw verify proof.json`

/** Runs the CLI with `argv` (without `node` and the script); returns the exit code. */
export async function main(argv: readonly string[], ctx: CliContext): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    ctx.out(`${MAIN_HELP}\n`)
    return name === undefined ? EXIT.usage : EXIT.ok
  }
  if (name === '--version' || name === '-v') {
    ctx.out(`${await packageVersion()}\n`)
    return EXIT.ok
  }
  const entry: CommandEntry | undefined = COMMANDS.find((c) => c.name === name)
  const json = rest.includes('--json')
  try {
    if (entry === undefined) throw new UsageError(`unknown command ${JSON.stringify(name)}; commands: ${COMMANDS.map((c) => c.name).join(', ')}`)
    const command: Command = await entry.load()
    let parsed: ReturnType<typeof parseArgs>
    try {
      parsed = parseArgs({ args: [...rest], options: command.options, allowPositionals: true, strict: true })
    } catch (err) {
      throw new UsageError((err as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''), command.name)
    }
    if (parsed.values.help === true) {
      ctx.out(`${command.help}\n`)
      return EXIT.ok
    }
    return await command.run(parsed.values, parsed.positionals, ctx)
  } catch (err) {
    const { reportError } = await import('./output.js')
    return reportError(ctx, err, json)
  }
}

async function packageVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises')
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  return pkg.version
}

function isEntryPoint(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
}

if (isEntryPoint()) {
  const controller = new AbortController()
  // First Ctrl-C / SIGTERM: cancel the command (it cleans up and picks the exit code: 130 when work
  // was cut short, 0 for 'beacon watch' and 'emulator'). A second one exits at once.
  const onSignal = (): void => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted)
    controller.abort()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  const ctx: CliContext = {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    env: process.env,
    signal: controller.signal,
    isTTY: process.stderr.isTTY === true,
  }
  main(process.argv.slice(2), ctx).then(
    (code) => {
      process.exitCode = code
    },
    (err: unknown) => {
      process.stderr.write(`orbitdraw: unexpected error: ${safeText(String(err))}\n`)
      process.exitCode = EXIT.internal
    },
  )
}
