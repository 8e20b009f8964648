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
import type { CliContext, Command, CommandUsage } from './command.js'
import { COMMANDS, type CommandEntry } from './commands/index.js'
import { EXIT, UsageError } from './exit-codes.js'
import { closest } from './did-you-mean.js'
import { safeText } from './safe-text.js'
import { stdWriter } from './std-writer.js'

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
    ctx.out(`${await packageVersion()}\n${await pageVersionLine()}\n`)
    return EXIT.ok
  }
  const entry: CommandEntry | undefined = COMMANDS.find((c) => c.name === name)
  const json = rest.includes('--json')
  let command: Command | undefined
  try {
    if (entry === undefined) {
      const guess = closest(name, COMMANDS.map((c) => c.name))
      throw new UsageError(`unknown command ${JSON.stringify(name)}${guess === undefined ? '' : `; did you mean '${guess}'?`} (commands: ${COMMANDS.map((c) => c.name).join(', ')})`, undefined, 'UNKNOWN_COMMAND')
    }
    // The usage (help and flags) first: where it lives apart, --help and flag errors load no command code.
    const usage: CommandUsage = entry.usage === undefined ? (command = await entry.load()) : await entry.usage()
    let parsed: ReturnType<typeof parseArgs>
    const args = checkFlags(rest, usage)
    try {
      parsed = parseArgs({ args, options: usage.options, allowPositionals: true, strict: true })
    } catch (err) {
      throw new UsageError((err as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''), usage.name)
    }
    if (parsed.values.help === true) {
      ctx.out(`${usage.help}\n`)
      return EXIT.ok
    }
    command ??= await entry.load()
    return await command.run(parsed.values, parsed.positionals, ctx)
  } catch (err) {
    // The error reporter is loaded only on error (start-up of every successful command stays light).
    const { reportError } = await import('./output.js')
    return reportError(ctx, err, json, entry?.name)
  }
}

/** Which flags take several values, for the message refusing a repeated one. */
const REPEATABLE_NOTE = 'flags documented as repeatable, such as --gateway or --trust-tsa, take several values'

/**
 * Checks the flags before node:util's parser, to say things in the CLI's words: an unknown flag gets
 * "did you mean --pick?", a flag missing its value says so, and a negative number after a flag that
 * takes a value is that value (`--pick -1` is read as `--pick=-1`, then refused plainly; `--range
 * -5..5` works), and a flag of one value given twice is refused (node:util would keep the last). Returns the
 * arguments to parse.
 * @throws {@link UsageError} `UNKNOWN_FLAG`, `MISSING_VALUE`, `USAGE`.
 */
export function checkFlags(args: readonly string[], command: Pick<CommandUsage, 'name' | 'options'>): string[] {
  const options = command.options
  const longs = Object.keys(options)
  const shorts = new Map(Object.entries(options).flatMap(([k, o]) => (o.short === undefined ? [] : [[o.short, k] as const])))
  const out: string[] = []
  const once = new Set<string>()
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    if (a === '--') {
      out.push(...args.slice(i))
      break
    }
    let name: string | undefined
    let inline = false
    if (a.startsWith('--')) {
      const eq = a.indexOf('=')
      name = eq < 0 ? a.slice(2) : a.slice(2, eq)
      inline = eq >= 0
      if (!Object.hasOwn(options, name)) {
        const guess = closest(name, longs)
        throw new UsageError(`unknown flag --${name}${guess === undefined ? '' : `; did you mean --${guess}?`}`, command.name, 'UNKNOWN_FLAG')
      }
    } else if (a.startsWith('-') && a.length > 1 && !/^-[0-9]/.test(a)) {
      name = shorts.get(a[1]!)
      if (name === undefined) throw new UsageError(`unknown flag -${a[1]!}${a.length > 2 ? ` (in ${a})` : ''}`, command.name, 'UNKNOWN_FLAG')
      inline = a.length > 2
    }
    if (name === undefined) {
      out.push(a)
      continue
    }
    const type = options[name]!.type
    if (type === 'boolean' && inline && a.startsWith('--')) throw new UsageError(`--${name} takes no value (it is an on/off flag)`, command.name, 'USAGE')
    // A flag of one value given twice (`--pick 2 ... --pick 3`): node:util keeps the last one silently.
    if (type === 'string' && options[name]!.multiple !== true) {
      if (once.has(name)) throw new UsageError(`--${name} is given more than once; give it once (only ${REPEATABLE_NOTE})`, command.name, 'USAGE')
      once.add(name)
    }
    if (type === 'string' && !inline) {
      const next = args[i + 1]
      const flag = a.startsWith('--') ? a : `-${a[1]!}`
      if (next === undefined) throw new UsageError(`${flag} needs a value`, command.name, 'MISSING_VALUE')
      if (next.startsWith('-') && next !== '-') {
        if (!/^-[0-9]/.test(next)) throw new UsageError(`${flag} needs a value, but the next word is the flag ${next} (for a value starting with "-", write ${flag.startsWith("--") ? flag : `--${name}`}=VALUE)`, command.name, 'MISSING_VALUE')
        out.push(`--${name}=${next}`)
        i++
        continue
      }
    }
    out.push(a)
  }
  return out
}

async function packageVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises')
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  return pkg.version
}

/** `verifier page sha256 HEX (CID)` for `--version`, or why there is none. */
async function pageVersionLine(): Promise<string> {
  try {
    const page = await (await import('./verifier-page-file.js')).readShippedPage()
    return `verifier page sha256 ${page.sha256} (cid ${page.cid}; 'orbitdraw verifier-page' writes it)`
  } catch {
    return 'verifier page: not built (npm run build)'
  }
}

function isEntryPoint(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
}

/**
 * Runs the CLI as this process: `process.argv`, standard streams, signals, and the exit code. The
 * command (`dist/bin/orbitdraw.cjs`, written by `scripts/build-cli.ts`) calls it after loading the
 * verify bundle (`orbitdraw verify ...`) or this module (every other command line); the bundle and the
 * tsc output (`node dist/cli/main.js`) call it when run as a script.
 */
export function runAsProcess(): void {
  const controller = new AbortController()
  // First Ctrl-C / SIGTERM: cancel the command (it cleans up and picks the exit code: 130 when work
  // was cut short, 0 for 'beacon watch' and 'emulator'). A second one exits at once.
  const onSignal = (): void => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted)
    controller.abort()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  // Standard output and error by fs.writeSync (std-writer.ts: Node's streams only when needed, so a
  // strict verify loads no stream stack). A closed pipe (`orbitdraw verify proof.json | head -1`): stop
  // writing there, quietly, and let the command finish with its own exit code. No stack trace, no
  // 'unexpected error'.
  const stdoutClosed = new AbortController()
  const out = stdWriter({ fd: 1, stream: () => process.stdout, onClosed: () => stdoutClosed.abort() })
  const err = stdWriter({ fd: 2, stream: () => process.stderr })
  const ctx: CliContext = {
    out,
    err,
    env: process.env,
    signal: controller.signal,
    // Read when a command asks (a progress line): process.stderr is built only then.
    get isTTY() {
      return process.stderr.isTTY === true
    },
    stdoutClosed: stdoutClosed.signal,
  }
  main(process.argv.slice(2), ctx).then(
    (code) => {
      // The command is done and every byte of its output was written by fs.writeSync: exit now, without
      // Node's teardown of the heap (about 5 ms of a strict verify, docs/performance.md, Start-up). 'exit'
      // listeners still run. Text queued on Node's stream is left to drain: the exit code only, then.
      if (!out.usedStream() && !err.usedStream()) process.exit(code)
      process.exitCode = code
    },
    (err: unknown) => {
      process.stderr.write(`orbitdraw: unexpected error: ${safeText(String(err))}\n`)
      process.exitCode = EXIT.internal
    },
  )
}

if (isEntryPoint()) runAsProcess()
