import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULT_INTERVAL_MS, estimateInterval, genesisIntervalMs, RELIABLE_SPAN_SECONDS } from '../../src/beacon/interval.js'
import { makeChain } from './fake-source.js'

describe('estimateInterval (pure)', () => {
  it('from chain timestamps when they span at least 2 s (genesis left out)', () => {
    const c = makeChain(6, { intervalS: 60 })
    expect(estimateInterval(c.slice(2), [])).toEqual({ ms: 60_000, spanSeconds: 180 })
    // Genesis may predate block 1 by any time: it is not used for the span.
    expect(estimateInterval([c[0]!, c[1]!], []).spanSeconds).toBe(0)
  })

  it('else from heads first seen, else the genesis configuration, else the hint, else the default', () => {
    const c = makeChain(3, { intervalS: 0, metadata: { interval: 5_000_000_000 } })
    expect(estimateInterval([], [{ sequence: 10, at: 0 }, { sequence: 13, at: 3000 }]).ms).toBe(1000)
    expect(estimateInterval([c[0]!], []).ms).toBe(5000)
    expect(estimateInterval([], [], 1234).ms).toBe(1234)
    expect(estimateInterval([], []).ms).toBe(DEFAULT_INTERVAL_MS)
  })

  it('over a short span, prefers the genesis interval the whole-second timestamps allow; over a long one, the timestamps', () => {
    // Blocks 1 s apart published late in their second: timestamps 40 and 42 for blocks 1.1 s apart read
    // as one block every 2 s, and a target planned with it came seconds early (commit-margin in CI).
    const genesis = makeChain(1, { intervalS: 0, metadata: { interval: 1_000_000_000 } })[0]!
    const block = (sequence: number, timestamp: number) => ({ ...genesis, sequence, timestamp })
    expect(estimateInterval([block(5, 40), block(6, 42)], []).ms).toBe(2000) // no genesis: as read
    expect(estimateInterval([genesis, block(5, 40), block(6, 42)], []).ms).toBe(1000) // 1 s agrees with a 1 to 3 s span
    // A genesis interval the timestamps rule out is not taken (the beacon runs at another pace).
    expect(estimateInterval([genesis, block(5, 40), block(7, 44)], []).ms).toBe(2000) // 4 s over 2 blocks: 1.5 to 2.5 s
    // A span of RELIABLE_SPAN_SECONDS or more: the timestamps, the real pace, win.
    expect(estimateInterval([genesis, block(1, 0), block(10, RELIABLE_SPAN_SECONDS)], []).ms).toBe((RELIABLE_SPAN_SECONDS * 1000) / 9)
  })

  it('passes over chain timestamps over one day a block, as a genesis interval over a day is (fuzzing pass 3)', () => {
    // Blocks dated 2^40 s apart (an unsigned head is a gateway's choice) put every expected time past
    // what a Date holds: inspect --online crashed on toISOString. The estimate falls back instead.
    const far = makeChain(4, { intervalS: 2 ** 40 })
    expect(estimateInterval(far.slice(1), []).ms).toBe(DEFAULT_INTERVAL_MS)
    expect(estimateInterval(far.slice(1), [], 1234).ms).toBe(1234)
    expect(estimateInterval(makeChain(4, { intervalS: 86_400 }).slice(1), []).ms).toBe(86_400_000)
    expect(estimateInterval(makeChain(4, { intervalS: 86_401 }).slice(1), []).ms).toBe(DEFAULT_INTERVAL_MS)
  })

  it('is at least 100 ms and finite for any chain span (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7200 }), fc.integer({ min: 2, max: 12 }), (intervalS, n) => {
        const est = estimateInterval(makeChain(n, { intervalS }).slice(1), [])
        return Number.isFinite(est.ms) && est.ms >= 100
      }),
      { numRuns: 50 },
    )
  })

  it('genesisIntervalMs reads Go nanoseconds only, within 100 ms .. 1 day', () => {
    expect(genesisIntervalMs({ sequence: 0, metadata: { interval: 60_000_000_000 } })).toBe(60_000)
    expect(genesisIntervalMs({ sequence: 0, metadata: { interval: 60 } })).toBeUndefined()
    expect(genesisIntervalMs({ sequence: 1, metadata: { interval: 60_000_000_000 } })).toBeUndefined()
  })
})
