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

/** Every value of a repeatable string flag, comma lists split. */
export function listFlag(flags: Flags, name: string): string[] | undefined {
  const v = flags[name]
  if (v === undefined) return undefined
  const all = (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string')
  return all.flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s !== '')
}
