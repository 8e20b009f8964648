/**
 * The field-by-field JSON readers the library used before every document was read by its declared
 * shape (src/core/schema/kit.ts). Kept here, outside the library, for the hand-written proof parser
 * (test/helpers/proof-hand-parser.ts), an independent reading that the shape-based parser is
 * compared against.
 */
import { LimitExceededError, ParseError } from '../../src/core/errors.js'
import { describe, type JsonObject } from '../../src/core/json.js'

function fail(path: string, expected: string, value: unknown, hint?: string): never {
  throw new ParseError('INVALID_FIELD', `expected ${expected}, got ${describe(value)}`, hint ?? `fix the field at ${path}`, { path })
}

/**
 * Requires a plain JSON object.
 */
export function expectObject(value: unknown, path: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'an object', value)
  return value as JsonObject
}

/**
 * Requires an array, optionally with a maximum length.
 */
export function expectArray(value: unknown, path: string, maxLength?: number): readonly unknown[] {
  if (!Array.isArray(value)) fail(path, 'an array', value)
  if (maxLength !== undefined && value.length > maxLength) {
    throw new LimitExceededError('LIMIT_EXCEEDED', `expected an array of at most ${maxLength} items, got ${value.length}`, 'reduce the input below the documented limit (see docs/security.md)', { path })
  }
  // Holes (sparse arrays from JavaScript callers) would be skipped by map/forEach, so no item
  // check would ever see them; JSON has neither holes nor undefined. `includes` visits holes.
  if (value.includes(undefined)) fail(path, 'an array without holes or undefined items', `an array with a missing item at index ${firstMissing(value)}`)
  return value
}

function firstMissing(a: readonly unknown[]): number {
  for (let i = 0; i < a.length; i++) if (!(i in a) || a[i] === undefined) return i
  return -1
}

/**
 * Requires a string, optionally matching a pattern.
 */
export function expectString(value: unknown, path: string, pattern?: RegExp, what = 'a string'): string {
  if (typeof value !== 'string' || (pattern !== undefined && !pattern.test(value))) fail(path, what, value)
  return value
}

/**
 * Requires a boolean.
 */
export function expectBoolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, 'a boolean', value)
  return value
}

/**
 * Requires a safe integer within [min, max].
 */
export function expectInteger(value: unknown, path: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    fail(path, `an integer from ${min} to ${max}`, value)
  }
  return value
}

/**
 * Requires `key` to be present on `obj` (as an own property).
 */
export function field(obj: JsonObject, key: string, path: string): unknown {
  if (!Object.prototype.hasOwnProperty.call(obj, key)) {
    throw new ParseError('MISSING_FIELD', `missing required field "${key}"`, `add the field "${key}"`, { path: `${path}.${key}` })
  }
  return obj[key]
}

/**
 * Returns the own property `key` or `undefined` when absent.
 */
export function optionalField(obj: JsonObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined
}

/**
 * Rejects any own key not in `allowed` (strict formats: commitments and proofs).
 */
export function expectOnlyKeys(obj: JsonObject, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      throw new ParseError('UNKNOWN_FIELD', `unknown field "${key}"`, `remove it; allowed fields here are: ${allowed.join(', ')}`, { path: `${path}.${key}` })
    }
  }
}

