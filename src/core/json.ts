/**
 * Validation helpers for untrusted JSON. Each takes the value and its JSON path and throws a
 * {@link ParseError} naming the path of the first bad field.
 *
 * @module
 */
import { LimitExceededError, ParseError } from './errors.js'

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

/**
 * `JSON.stringify` for error messages about untrusted values, which never throws (a BigInt from a
 * DAG-JSON decoder, a cycle or a throwing `toJSON` get {@link describe}d instead) and stays short.
 */
export function show(value: unknown): string {
  let text: string | undefined
  try {
    text = typeof value === 'bigint' ? `${value}` : JSON.stringify(value)
  } catch {
    return describe(value)
  }
  if (text === undefined) return String(typeof value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
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

/**
 * Parses JSON text, turning syntax errors into a {@link ParseError}. Duplicate keys in an object are
 * rejected (`DUPLICATE_KEY`, with the path): JSON parsers disagree on which value wins (JavaScript,
 * Go and Python keep the last, others the first or refuse), so a document with duplicates could
 * mean different things to different verifiers.
 */
export function parseJsonText(text: string, what: string): unknown {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (cause) {
    throw new ParseError('INVALID_JSON', `${what} is not valid JSON: ${(cause as Error).message}`, `supply the ${what} as a JSON document`, { path: '$', cause })
  }
  const dup = findDuplicateKey(text)
  if (dup !== undefined) {
    throw new ParseError('DUPLICATE_KEY', `${what} has the key ${JSON.stringify(dup.key)} twice in one object`, `remove the duplicate: every key may appear once per object (parsers disagree on which one wins)`, { path: dup.path })
  }
  return value
}

interface Frame {
  readonly path: string
  readonly keys: Set<string> | undefined
  expectKey: boolean
  lastKey: string
  index: number
}

/**
 * Finds the first object key that appears twice in the same object of a *valid* JSON text (keys
 * compared after unescaping, so `"a"` and `"\u0061"` are the same key). One linear pass, no recursion.
 * @returns the duplicate key and the JSON path of its second occurrence, or `undefined`.
 */
export function findDuplicateKey(text: string): { key: string; path: string } | undefined {
  const stack: Frame[] = []
  const childPath = (): string => {
    const top = stack[stack.length - 1]
    if (top === undefined) return '$'
    return top.keys !== undefined ? `${top.path}${memberPath(top.lastKey)}` : `${top.path}[${top.index}]`
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x7b /* { */) {
      stack.push({ path: childPath(), keys: new Set(), expectKey: true, lastKey: '', index: 0 })
    } else if (c === 0x5b /* [ */) {
      stack.push({ path: childPath(), keys: undefined, expectKey: false, lastKey: '', index: 0 })
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop()
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1]
      if (top !== undefined) {
        if (top.keys !== undefined) top.expectKey = true
        else top.index++
      }
    } else if (c === 0x22 /* " */) {
      let j = i + 1
      let escaped = false
      for (; j < text.length; j++) {
        const d = text.charCodeAt(j)
        if (d === 0x5c /* \ */) {
          escaped = true
          j++
        } else if (d === 0x22) break
      }
      const top = stack[stack.length - 1]
      if (top?.keys !== undefined && top.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j)
        if (top.keys.has(key)) return { key, path: `${top.path}${memberPath(key)}` }
        top.keys.add(key)
        top.expectKey = false
        top.lastKey = key
      }
      i = j
    }
  }
  return undefined
}

function memberPath(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`
}
