/**
 * src/core/json.ts's scans (`checkJsonDepth` before `JSON.parse`; the duplicate-key and canonical-number
 * scan after it) skip a string's characters with `indexOf` (`stringEnd`) instead of a loop over each:
 * the same answers as the character loops they replaced (kept here as the reference) on any text, valid
 * JSON or not: escaped quotes and backslash runs, unterminated strings, a backslash at the end, escaped
 * and duplicate keys, brackets inside strings, depths around the limit.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkJsonDepth, findDuplicateKey, parseJsonText } from '../../src/core/json.js'
import { LIMITS } from '../../src/core/limits.js'

/** The former `checkJsonDepth`: the offset of the first bracket too deep, or undefined. */
function referenceDepth(text: string): number | undefined {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i)
        if (d === 0x5c) i++
        else if (d === 0x22) break
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > LIMITS.maxJsonDepth) return i
    } else if (c === 0x7d || c === 0x5d) {
      if (depth > 0) depth--
    }
  }
  return undefined
}

interface Frame {
  readonly path: string
  readonly keys: Set<string> | undefined
  expectKey: boolean
  lastKey: string
  index: number
}
const memberPath = (key: string): string => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`)

/** The former `scanJson` (valid JSON of bounded depth): the first duplicate key or non-canonical number. */
function referenceScan(text: string, integersOnly: boolean): { kind: string; key?: string; text?: string; path: string } | undefined {
  const stack: Frame[] = []
  const childPath = (): string => {
    const top = stack[stack.length - 1]
    if (top === undefined) return '$'
    return top.keys !== undefined ? `${top.path}${memberPath(top.lastKey)}` : `${top.path}[${top.index}]`
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x7b) stack.push({ path: childPath(), keys: new Set(), expectKey: true, lastKey: '', index: 0 })
    else if (c === 0x5b) stack.push({ path: childPath(), keys: undefined, expectKey: false, lastKey: '', index: 0 })
    else if (c === 0x7d || c === 0x5d) stack.pop()
    else if (c === 0x2c) {
      const top = stack[stack.length - 1]
      if (top !== undefined) {
        if (top.keys !== undefined) top.expectKey = true
        else top.index++
      }
    } else if (c === 0x22) {
      let j = i + 1
      let escaped = false
      for (; j < text.length; j++) {
        const d = text.charCodeAt(j)
        if (d === 0x5c) {
          escaped = true
          j++
        } else if (d === 0x22) break
      }
      const top = stack[stack.length - 1]
      if (top?.keys !== undefined && top.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j)
        if (top.keys.has(key)) return { kind: 'duplicate', key, path: `${top.path}${memberPath(key)}` }
        top.keys.add(key)
        top.expectKey = false
        top.lastKey = key
      }
      i = j
    } else if (integersOnly && (c === 0x2d || (c >= 0x30 && c <= 0x39))) {
      let j = i + 1
      for (; j < text.length; j++) {
        const d = text.charCodeAt(j)
        if (!((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d)) break
      }
      const token = text.slice(i, j)
      if (!/^(?:0|-?[1-9][0-9]*)$/.test(token) || token === '-0') return { kind: 'number', text: token, path: childPath() }
      i = j - 1
    }
  }
  return undefined
}

/** What `checkJsonDepth` says: the offset in its message, or undefined when it passes. */
function depthOf(text: string): number | undefined {
  try {
    checkJsonDepth(text)
    return undefined
  } catch (e) {
    expect((e as { code?: string }).code).toBe('JSON_TOO_DEEP')
    return Number(/\(character (\d+)\)/.exec((e as Error).message)![1])
  }
}

/** What `parseJsonText` says: the value, or the error's code, path and message. */
function parsed(text: string, integersOnly: boolean): unknown {
  try {
    return { value: parseJsonText(text, 'doc', { integersOnly }) }
  } catch (e) {
    const err = e as { code?: string; path?: string; message: string }
    return { code: err.code, path: err.path, message: err.message }
  }
}

/** Text made of the characters the scans care about (quotes, backslashes, brackets, commas, colons, digits, letters, escapes). */
const tricky = fc
  .array(fc.constantFrom('"', '\\', '\\\\', '\\"', '{', '}', '[', ']', ',', ':', 'a', 'b', '1', '-0', '1.5', '2e3', ' ', '\\u0061', '"a"', '"a":1', '"\\u0061":2', '"\\"":3', '"\\\\":4'), { maxLength: 60 })
  .map((parts) => parts.join(''))
const deep = fc.tuple(fc.integer({ min: LIMITS.maxJsonDepth - 2, max: LIMITS.maxJsonDepth + 2 }), fc.constantFrom('[', '{"a":', '["x\\"]",', '{"\\\\":'), fc.string({ maxLength: 5 })).map(([n, open, tail]) => open.repeat(n) + tail)

describe('JSON scans with indexOf (the same answers as the character loops)', () => {
  it('checkJsonDepth: any text, valid JSON or not, near and over the depth limit', () => {
    fc.assert(
      fc.property(fc.oneof(tricky, deep, fc.json({ maxDepth: 6 }), fc.string({ unit: 'binary', maxLength: 200 })), (text) => {
        expect(depthOf(text)).toBe(referenceDepth(text))
      }),
      { numRuns: 3000, seed: 2511 },
    )
    for (const text of ['"', '"\\', '\\"[', '"\\\\"[', '"\\\\\\"[', `"${'\\'.repeat(7)}"`, `"${'\\'.repeat(8)}"${'['.repeat(70)}`, `${'['.repeat(64)}"\\"[`, `${'['.repeat(64)}"\\\\"[`]) {
      expect(depthOf(text), text).toBe(referenceDepth(text))
    }
  })

  it('duplicate keys and canonical numbers: the same finding, path and message on valid JSON', () => {
    const withDuplicates = fc.tuple(fc.json({ maxDepth: 4 }), tricky).map(([a, b]) => {
      const t = `{"k":${a},"\\u006b":1,"x\\"y":[${a}],"x\\"y":${b === '' ? '0' : '[]'}}`
      return t
    })
    fc.assert(
      fc.property(fc.oneof(fc.json({ maxDepth: 6 }), withDuplicates, tricky, fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v, null, 1))), fc.boolean(), (text, integersOnly) => {
        let valid = true
        try {
          JSON.parse(text)
        } catch {
          valid = false
        }
        const got = parsed(text, integersOnly)
        if (!valid || referenceDepth(text) !== undefined) {
          expect(got).toHaveProperty('code')
          return
        }
        const ref = referenceScan(text, integersOnly)
        if (ref === undefined) expect(got).toEqual({ value: JSON.parse(text) })
        else expect(got).toMatchObject({ code: ref.kind === 'duplicate' ? 'DUPLICATE_KEY' : 'NON_CANONICAL_NUMBER', path: ref.path })
        const dup = referenceScan(text, false)
        expect(findDuplicateKey(text)).toEqual(dup?.kind === 'duplicate' ? { key: dup.key, path: dup.path } : undefined)
      }),
      { numRuns: 3000, seed: 2512 },
    )
    expect(findDuplicateKey('{"a\\\\":1,"a\\\\":2}')).toEqual({ key: 'a\\', path: '$["a\\\\"]' })
    expect(findDuplicateKey('{"a\\"":1,"a\\u0022":2}')).toEqual({ key: 'a"', path: '$["a\\""]' })
    expect(findDuplicateKey('{"\\\\":{"\\"":1,"b":[{"c":1,"c":2}]}}')).toEqual({ key: 'c', path: '$["\\\\"].b[0].c' })
    expect(findDuplicateKey('{"a":"\\\\","b":"\\"","a":1}')).toEqual({ key: 'a', path: '$.a' })
  })
})
