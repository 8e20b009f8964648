import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { retryAfterMs } from '../../src/net/retry-after.js'
import { parseRetryAfter } from '../../src/rest/response.js'

const NOW = Date.parse('2025-01-01T00:00:00Z')

describe('retryAfterMs (one parser, milliseconds)', () => {
  it('delta-seconds', () => {
    expect(retryAfterMs('0', NOW)).toBe(0)
    expect(retryAfterMs('7', NOW)).toBe(7000)
    expect(retryAfterMs('  120 ', NOW)).toBe(120_000)
  })

  it('HTTP-date in its three forms (IMF-fixdate, RFC 850, asctime), relative to the clock; a past date is 0', () => {
    expect(retryAfterMs('Wed, 01 Jan 2025 00:00:30 GMT', NOW)).toBe(30_000)
    expect(retryAfterMs('Wednesday, 01-Jan-25 00:01:00 GMT', NOW)).toBe(60_000)
    expect(retryAfterMs('Wed Jan  1 00:00:05 2025', NOW)).toBe(5000)
    expect(retryAfterMs('Tue, 31 Dec 2024 23:59:00 GMT', NOW)).toBe(0)
    expect(retryAfterMs(new Date(NOW + 10_000).toUTCString(), NOW)).toBe(10_000)
  })

  it('absent or garbage: undefined (never a date read out of junk)', () => {
    for (const v of [null, undefined, '', ' ', 'soon', '-5', '1.5', '5 apples', '0x10', '1e3', 'Wed, 01 Jan 2025', 'Wed, 99 Foo 2025 00:00:00 GMT', '2025-01-01T00:00:30Z', '9'.repeat(16)]) {
      expect(retryAfterMs(v, NOW), String(v)).toBeUndefined()
    }
  })

  it('any delta-seconds n gives n·1000; any whole-second date d gives max(0, d − now) (properties)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e12 }), (n) => retryAfterMs(String(n), NOW) === n * 1000))
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (s) => {
        const d = NOW + s * 1000
        return retryAfterMs(new Date(d).toUTCString(), NOW) === Math.max(0, d - NOW)
      }),
    )
  })

  it('the REST client\'s deprecated parseRetryAfter is the same parser in whole seconds', () => {
    expect(parseRetryAfter('7', NOW)).toBe(7)
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', NOW)).toBe(30)
    expect(parseRetryAfter('soon', NOW)).toBeUndefined()
    expect(parseRetryAfter(null, NOW)).toBeUndefined()
  })
})
