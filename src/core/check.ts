/**
 * The result of one named verification check.
 *
 * @module
 */

/** One named check performed by `verify`. */
export interface Check {
  /** Stable check name, for example `commitment-cid` or `chain-links`. */
  readonly name: string
  /** Whether the check passed. */
  readonly ok: boolean
  /** What was checked and, on failure, what was wrong. */
  readonly detail: string
}

/** Builds a {@link Check}. */
export function check(name: string, ok: boolean, detail: string): Check {
  return { name, ok, detail }
}
