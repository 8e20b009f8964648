/**
 * Exit codes of the `orbitdraw` command. Stable: scripts may rely on them.
 *
 * @module
 */
export const EXIT = {
  /** Success (for `verify`: every check passed). */
  ok: 0,
  /** `verify` ran and at least one check failed. */
  verificationFailed: 1,
  /** The command line was wrong: unknown command or flag, missing or bad value. */
  usage: 2,
  /** A network failure: gateway, beacon, token or REST endpoint unreachable, timed out or misbehaving. */
  network: 3,
  /** Bad input data: a participants file, commitment or proof that cannot be used. */
  input: 4,
  /** An unexpected internal error (a bug: please report it). */
  internal: 70,
  /** Interrupted by Ctrl-C (SIGINT) while working (not for `beacon watch` and `emulator`, which exit 0). */
  interrupted: 130,
} as const

/** An error in the command line itself (exit code 2). */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose help to point at. */
    readonly command?: string,
    /**
     * Stable code for `--json` errors: `USAGE` by default; `UNKNOWN_COMMAND`, `UNKNOWN_FLAG`,
     * `MISSING_VALUE` from the command-line parser.
     */
    readonly code: string = 'USAGE',
  ) {
    super(message)
    this.name = 'UsageError'
  }
}
