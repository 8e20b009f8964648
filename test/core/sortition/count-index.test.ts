/**
 * The counter's state index (a hash map from whole numbers below 2^53 to state indices) and the
 * rounds' step cache: internal data structures whose only observable effect must be speed. The
 * counts and panels they produce are pinned by the enumeration tests (panel.test.ts) and the vectors.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { streamFromSeed } from '../../../src/core/random/stream.js'
import { buildCounter, NumberIndex } from '../../../src/core/sortition/count.js'
import { checkQuotas } from '../../../src/core/sortition/pool.js'
import { drawPanel, planPanel } from '../../../src/core/sortition/panel.js'
import { seedOf } from '../random/util.js'
import { proportionalQuotas, smallPool } from './fixtures.js'

describe('the counter\'s state index', () => {
  it('behaves as a map for keys that differ only in their high bits (mixed-radix state keys)', () => {
    const index = new NumberIndex()
    const keys: number[] = []
    // Keys spread over every bit range below 2^53: the low digit (the panel size) varies least.
    for (let hi = 0; hi < 64; hi++) for (let mid = 0; mid < 64; mid++) for (let lo = 0; lo < 8; lo++) keys.push(hi * 2 ** 40 + mid * 2 ** 20 + lo)
    keys.forEach((key, i) => expect(index.lookup(key, i)).toBe(-1))
    keys.forEach((key, i) => expect(index.lookup(key, -7)).toBe(i))
    expect(index.lookup(2 ** 52 + 1, 99)).toBe(-1)
    expect(index.lookup(2 ** 52 + 1, 100)).toBe(99)
  })

  it('agrees with a Map on arbitrary keys below 2^53 (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), { maxLength: 3000 }), (keys) => {
        const index = new NumberIndex()
        const ref = new Map<number, number>()
        keys.forEach((key, i) => {
          const want = ref.get(key) ?? -1
          if (want < 0) ref.set(key, i)
          expect(index.lookup(key, i)).toBe(want)
        })
      }),
      { numRuns: 50 },
    )
  })
})

describe('the rounds\' step cache', () => {
  it('a draw on a counter whose steps are cached equals the same draw on a fresh counter (same rounds, same members)', () => {
    for (let seed = 1; seed <= 4; seed++) {
      const pool = smallPool(120, [2, 3, 4], seed)
      const k = 12
      const table = checkQuotas(pool, proportionalQuotas(pool, k, 1), k)
      const plan = planPanel(pool, table, k, { exactFeatures: [pool.features[2]!.name, pool.features[0]!.name], skipAcceptanceCheck: true })
      // Warm the cache with other draws, then draw on seed s with the warm cache and with a fresh counter.
      for (let w = 0; w < 5; w++) drawPanel(plan, streamFromSeed(seedOf(100 + w)))
      const warm = drawPanel(plan, streamFromSeed(seedOf(seed)))
      const fresh = drawPanel({ ...plan, counter: buildCounter(pool, table, k, plan.counter.exact) }, streamFromSeed(seedOf(seed)))
      expect(warm).toEqual(fresh)
    }
  })
})

describe('the counter\'s text-keyed layers', () => {
  it('count the same panels as numeric keys: quotas whose maxima pass 2^53 as a mixed radix, then the same quotas stated at the counts the pool has', () => {
    // Two 12-value features, k = 30, every value at least 1. With each max at k, a layer of 11 open
    // values has a mixed radix of 31^12 > 2^53, so its states are keyed by text (the old loop in
    // count.ts); with each max at the number of respondents who have the value (which no panel can
    // pass either), the radix stays below 2^53 and every layer runs the typed-array loop
    // (count-layer.ts). Both describe the same valid panels. Measured when this test was written: 7 of the
    // loose count's layers are text-keyed, none of the tight count's; 6,322,371,654 is also what the
    // counter gave before the typed-array loop existed (9b68e7b).
    const V = 12
    const k = 30
    const values = Array.from({ length: V }, (_, i) => String(i).padStart(2, '0'))
    const respondents: { id: string; type: number[] }[] = []
    let s = 7
    for (let i = 0; i < 30; i++) {
      s = (s * 1103515245 + 12345) % 2147483648
      respondents.push({ id: String(i), type: [i % V, (s >> 8) % V] })
    }
    for (let y = 0; y < V; y++) respondents.push({ id: `b${y}`, type: [y, y] })
    const pool = { features: [{ name: 'a', values }, { name: 'b', values }], respondents }
    const has = [0, 1].map((f) => values.map((_, v) => respondents.filter((r) => r.type[f] === v).length))
    const min = [Array<number>(V).fill(1), Array<number>(V).fill(1)]
    const loose = buildCounter(pool, { min, max: [Array<number>(V).fill(k), Array<number>(V).fill(k)] }, k, [0, 1])
    const tight = buildCounter(pool, { min, max: has }, k, [0, 1])
    expect(loose.layers[0]!.ways[0]).toBe(6322371654n)
    expect(tight.layers[0]!.ways[0]).toBe(loose.layers[0]!.ways[0])
  })
})
