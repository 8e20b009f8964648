/**
 * The options a caller set, passed on to a reader: `{ ...(o.x === undefined ? {} : { x: o.x }), ... }`
 * written once, so a field left unset stays absent (not `undefined`) in the options handed on.
 *
 * @module
 */

/** The fields `keys` of `options` that are set (not `undefined`), in the order of `keys`. */
export function definedFields<T extends object, K extends keyof T>(options: T, keys: readonly K[]): { [P in K]?: Exclude<T[P], undefined> } {
  const out: { [P in K]?: Exclude<T[P], undefined> } = {}
  for (const key of keys) {
    const value = options[key]
    if (value !== undefined) out[key] = value as Exclude<T[K], undefined>
  }
  return out
}
