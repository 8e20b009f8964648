import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { backoffMs } from '../../src/net/backoff.js'

describe('backoffMs', () => {
  it('doubles from baseMs up to maxMs without jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((attempt) => backoffMs({ attempt, baseMs: 200, maxMs: 5000 }))).toEqual([200, 400, 800, 1600, 3200, 5000, 5000])
  })

  it('full jitter scales the ceiling; Retry-After is a floor', () => {
    expect(backoffMs({ attempt: 2, baseMs: 200, maxMs: 5000, random: () => 0.5 })).toBe(400)
    expect(backoffMs({ attempt: 2, baseMs: 200, maxMs: 5000, random: () => 0 })).toBe(0)
    expect(backoffMs({ attempt: 0, baseMs: 200, maxMs: 5000, random: () => 0.1, retryAfterMs: 3000 })).toBe(3000)
  })

  it('a misbehaving random source is clamped to [0, 1]', () => {
    expect(backoffMs({ attempt: 1, baseMs: 100, maxMs: 1000, random: () => 7 })).toBe(200)
    expect(backoffMs({ attempt: 1, baseMs: 100, maxMs: 1000, random: () => Number.NaN })).toBe(0)
    expect(backoffMs({ attempt: 1, baseMs: 100, maxMs: 1000, random: () => -1 })).toBe(0)
  })

  it('bounds: finite, 0 ≤ d ≤ max(maxMs, retryAfterMs), d ≥ retryAfterMs, for any attempt (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.option(fc.integer({ min: 0, max: 600_000 }), { nil: undefined }),
        (attempt, baseMs, maxMs, r, retryAfterMs) => {
          const d = backoffMs({ attempt, baseMs, maxMs, random: () => r, retryAfterMs })
          return Number.isFinite(d) && d >= 0 && d <= Math.max(maxMs, retryAfterMs ?? 0) && d >= (retryAfterMs ?? 0)
        },
      ),
    )
  })
})
