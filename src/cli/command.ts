/**
 * The shape of one CLI command and the context it runs in.
 *
 * @module
 */
import type { ParseArgsConfig } from 'node:util'

/** Where a command writes and what it may read; injectable for tests. */
export interface CliContext {
  /** Writes to standard output. */
  out(text: string): void
  /** Writes to standard error (progress, warnings). */
  err(text: string): void
  /** Environment variables (credentials come only from here or a file). */
  env: Readonly<Record<string, string | undefined>>
  /** Aborted on Ctrl-C. */
  signal: AbortSignal
  /** True when standard error is a terminal (live progress line). */
  isTTY: boolean
  /**
   * Aborted when standard output turns out to be a closed pipe (`orbitdraw beacon watch | head -1`): a
   * command that would write forever stops there. Absent in contexts with no such pipe.
   */
  stdoutClosed?: AbortSignal
}

/** Parsed flags of a command. */
export type Flags = Record<string, string | boolean | (string | boolean)[] | undefined>

/**
 * What the command line needs before a command runs: its word, summary, help and flags. A command may
 * keep these in a module of their own (see `commands/index.ts`) so that `--help` and flag errors load
 * nothing else.
 */
export interface CommandUsage {
  /** The command word. */
  name: string
  /** One line for the command list. */
  summary: string
  /** Full help: usage, flags, examples. */
  help: string
  /** Flags, in node:util parseArgs form. */
  options: NonNullable<ParseArgsConfig['options']>
}

/** One `orbitdraw <name>` command. */
export interface Command extends CommandUsage {
  /** Runs the command; returns the exit code. */
  run(flags: Flags, positionals: string[], ctx: CliContext): Promise<number>
}

/** Global flags shared by every command. */
export const GLOBAL_OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies NonNullable<ParseArgsConfig['options']>

/** Beacon flags shared by the networked commands. */
export const BEACON_OPTIONS = {
  gateway: { type: 'string', multiple: true },
  beacon: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'allow-unsigned-head': { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>

/** The flags of a command that writes a file: `--output`/`-o` and `--force` (overwrite it). */
export const OUTPUT_OPTIONS = {
  output: { type: 'string', short: 'o' },
  force: { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>

export const BEACON_HELP = `Beacon flags:
  --gateway URL           a trustless IPFS gateway (repeat for failover; default: public gateways)
  --beacon NAME           the beacon's IPNS name (default: the current Orbitport beacon)
  --timeout-ms N          per-request timeout in milliseconds
  --allow-unsigned-head   fall back to the unsigned /ipns/ JSON when a gateway cannot serve the
                          signed record (results are marked unauthenticated)
Environment: ORBITDRAW_GATEWAYS (comma-separated) and ORBITDRAW_BEACON set the same defaults.`
