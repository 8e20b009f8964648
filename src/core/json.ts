/**
 * Validation helpers for untrusted JSON. Each takes the value and its JSON path and throws a
 * {@link ParseError} naming the path of the first bad field.
 *
 * @module
 */
import { ParseError } from './errors.js'

/** A JSON object as parsed (prototype-free access via own keys only). */
export type JsonObject = { readonly [key: string]: unknown }

/** Describes a JSON value briefly for error messages (never echoes long or secret content). */
export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return value.length > 40 ? 'a long string' : `the string ${JSON.stringify(value)}`
  if (typeof value === 'object') return 'an object'
  return `${typeof value} ${String(value)}`
}

function fail(path: string, expected: string, value: unknown, hint?: string): never {
  throw new ParseError('INVALID_FIELD', `expected ${expected}, got ${describe(value)}`, hint ?? `fix the field at ${path}`, { path })
}

/** Requires a plain JSON object. */
export function expectObject(value: unknown, path: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'an object', value)
  return value as JsonObject
}

/** Requires an array, optionally with a maximum length. */
export function expectArray(value: unknown, path: string, maxLength?: number): readonly unknown[] {
  if (!Array.isArray(value)) fail(path, 'an array', value)
  if (maxLength !== undefined && value.length > maxLength) fail(path, `an array of at most ${maxLength} items`, `an array of ${value.length} items`)
  return value
}

/** Requires a string, optionally matching a pattern. */
export function expectString(value: unknown, path: string, pattern?: RegExp, what = 'a string'): string {
  if (typeof value !== 'string' || (pattern !== undefined && !pattern.test(value))) fail(path, what, value)
  return value
}

/** Requires a boolean. */
export function expectBoolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, 'a boolean', value)
  return value
}

/** Requires a safe integer within [min, max]. */
export function expectInteger(value: unknown, path: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    fail(path, `an integer from ${min} to ${max}`, value)
  }
  return value
}

/** Requires `key` to be present on `obj` (as an own property). */
export function field(obj: JsonObject, key: string, path: string): unknown {
  if (!Object.prototype.hasOwnProperty.call(obj, key)) {
    throw new ParseError('MISSING_FIELD', `missing required field "${key}"`, `add the field "${key}"`, { path: `${path}.${key}` })
  }
  return obj[key]
}

/** Returns the own property `key` or `undefined` when absent. */
export function optionalField(obj: JsonObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined
}

/** Rejects any own key not in `allowed` (strict formats: commitments and proofs). */
export function expectOnlyKeys(obj: JsonObject, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      throw new ParseError('UNKNOWN_FIELD', `unknown field "${key}"`, `remove it; allowed fields here are: ${allowed.join(', ')}`, { path: `${path}.${key}` })
    }
  }
}

/** Parses JSON text, turning syntax errors into a {@link ParseError}. */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text)
  } catch (cause) {
    throw new ParseError('INVALID_JSON', `${what} is not valid JSON: ${(cause as Error).message}`, `supply the ${what} as a JSON document`, { path: '$', cause })
  }
}
