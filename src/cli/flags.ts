/**
 * Reading parsed flag values. Its own module, importing nothing, so that light commands (verify) do not
 * load the beacon client through `common.ts`.
 *
 * @module
 */
import type { Flags } from './command.js'

/** A string flag's value, or undefined. */
export function stringFlag(flags: Flags, name: string): string | undefined {
  const v = flags[name]
  if (v === undefined) return undefined
  if (Array.isArray(v)) return stringFlag({ [name]: v[v.length - 1] }, name)
  return typeof v === 'string' ? v : undefined
}

/** Every value of a repeatable string flag, comma lists split (URLs, names: never file paths, see {@link fileListFlag}). */
export function listFlag(flags: Flags, name: string): string[] | undefined {
  return fileListFlag(flags, name)
    ?.flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

/**
 * Every value of a repeatable flag that names files, each as given: a comma is part of a file name, so
 * a file flag is repeated, never comma-separated (`--trust-tsa a.pem --trust-tsa b.pem`).
 */
export function fileListFlag(flags: Flags, name: string): string[] | undefined {
  const v = flags[name]
  if (v === undefined) return undefined
  return (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string')
}
