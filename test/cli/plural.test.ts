/**
 * Counts shown to people (src/cli/plural.ts): `formatCount` groups integers itself (no `Intl`, which
 * costs start-up) and must print exactly what `toLocaleString('en-US')` prints, for every number.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatCount, plural } from '../../src/cli/plural.js'

describe('formatCount', () => {
  it("equals toLocaleString('en-US') on every safe integer, negative ones and -0 included", () => {
    fc.assert(fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -1_000_000, max: 1_000_000 })), (n) => formatCount(n) === n.toLocaleString('en-US')), { seed: 15, numRuns: 2000 })
    for (const n of [0, -0, 1, 9, 10, 99, 100, 999, 1000, 1001, 12_345, 123_456, 1_234_567, -1000, -999, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) expect(formatCount(n), String(n)).toBe(n.toLocaleString('en-US'))
  })

  it('hands anything else (fractions, unsafe integers, NaN, infinities) to toLocaleString', () => {
    fc.assert(fc.property(fc.double(), (n) => formatCount(n) === n.toLocaleString('en-US')), { seed: 16, numRuns: 1000 })
    for (const n of [0.5, 1234.5678, 2 ** 53, -(2 ** 60), NaN, Infinity, -Infinity]) expect(formatCount(n), String(n)).toBe(n.toLocaleString('en-US'))
  })

  it('plural uses it and the right noun', () => {
    expect(plural(1, 'entry', 'entries')).toBe('1 entry')
    expect(plural(12_345, 'block')).toBe('12,345 blocks')
    expect(plural(0, 'block')).toBe('0 blocks')
  })
})
