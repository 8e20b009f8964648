/**
 * Uniformity at alpha = 0.001 over FIXED seeds (constants): deterministic, so never flaky. Each test
 * also shows it can fail: the same check rejects a deliberately biased sampler.
 */
import { describe, expect, it } from 'vitest'
import { pickIndices, shuffleIndices } from '../../../src/core/random/shuffle.js'
import { rangeValues } from '../../../src/core/random/range.js'
import { streamFromSeed } from '../../../src/core/random/stream.js'
import { uniformIndex } from '../../../src/core/random/uniform.js'
import { weightedPick } from '../../../src/core/random/weighted.js'
import { chiSquareTest } from '../../helpers/stats.js'
import { seedOf } from './util.js'

describe('chi-square uniformity (alpha = 0.001, fixed seeds)', () => {
  it('shuffle of 4: all 24 orders equally likely', () => {
    const counts = new Map<string, number>()
    const s = streamFromSeed(seedOf(1))
    for (let t = 0; t < 24_000; t++) {
      const key = Array.from(shuffleIndices(s, 4)).join('')
      counts.set(key, (counts.get(key) ?? 0) + 1)
    }
    expect(counts.size).toBe(24)
    const r = chiSquareTest([...counts.values()])
    expect(r.pass, JSON.stringify(r)).toBe(true)
  })

  it('pick 2 of 7: all 42 ordered pairs equally likely', () => {
    const counts = new Array<number>(49).fill(0)
    const s = streamFromSeed(seedOf(2))
    for (let t = 0; t < 42 * 300; t++) {
      const [a, b] = pickIndices(s, 7, 2) as [number, number]
      counts[a * 7 + b]!++
    }
    const cells = counts.filter((_, i) => Math.floor(i / 7) !== i % 7)
    expect(counts.filter((_, i) => Math.floor(i / 7) === i % 7).every((c) => c === 0)).toBe(true)
    const r = chiSquareTest(cells)
    expect(r.pass, JSON.stringify(r)).toBe(true)
  })

  it('range [1, 6] and [0, 999] with repetition; [0, 999] distinct', () => {
    const die = new Array<number>(6).fill(0)
    for (const v of rangeValues(streamFromSeed(seedOf(3)), 1n, 6n, 60_000, false)) die[Number(v) - 1]!++
    expect(chiSquareTest(die).pass).toBe(true)
    const k = new Array<number>(1000).fill(0)
    for (const v of rangeValues(streamFromSeed(seedOf(4)), 0n, 999n, 50_000, false)) k[Number(v)]!++
    const r = chiSquareTest(k)
    expect(r.pass, JSON.stringify(r)).toBe(true)
    // Distinct: the first value of each draw of 3 from [0, 999], bucketed by hundreds.
    const h = new Array<number>(10).fill(0)
    const s = streamFromSeed(seedOf(5))
    for (let t = 0; t < 10_000; t++) h[Math.floor(Number(rangeValues(s, 0n, 999n, 3, true)[2]!) / 100)]!++
    expect(chiSquareTest(h).pass).toBe(true)
  })

  it('range wider than 2^53: width 10·2^60, high buckets and low bits uniform', () => {
    const unit = 1n << 60n
    const min = -(3n * unit) + 12345n
    const max = min + 10n * unit - 1n
    const hi = new Array<number>(10).fill(0)
    const lo = new Array<number>(256).fill(0)
    for (const v of rangeValues(streamFromSeed(seedOf(6)), min, max, 30_000, false)) {
      const x = v - min
      hi[Number(x / unit)]!++
      lo[Number(x & 255n)]!++
    }
    expect(chiSquareTest(hi).pass, JSON.stringify(chiSquareTest(hi))).toBe(true)
    expect(chiSquareTest(lo).pass, JSON.stringify(chiSquareTest(lo))).toBe(true)
  })

  it('uniformIndex with 7-byte draws: n = 3·2^51, top buckets and low byte uniform', () => {
    const n = 3 * 2 ** 51
    const hi = [0, 0, 0]
    const lo = new Array<number>(256).fill(0)
    const s = streamFromSeed(seedOf(7))
    for (let t = 0; t < 30_000; t++) {
      const x = uniformIndex(s, n)
      hi[Math.floor(x / 2 ** 51)]!++
      lo[x % 256]!++
    }
    expect(chiSquareTest(hi).pass).toBe(true)
    expect(chiSquareTest(lo).pass).toBe(true)
  })

  it('weighted: first winner ∝ weights; second winner given the first ∝ remaining weights', () => {
    const weights = [1, 2, 3, 4, 10]
    const total = 20
    const first = new Array<number>(5).fill(0)
    const second = new Array<number>(4).fill(0)
    const s = streamFromSeed(seedOf(8))
    const N = 40_000
    for (let t = 0; t < N; t++) {
      const [a, b] = weightedPick(s, weights, 2) as [number, number]
      first[a]!++
      if (a === 4) second[b]!++
    }
    const r1 = chiSquareTest(first, weights.map((w) => (N * w) / total))
    expect(r1.pass, JSON.stringify(r1)).toBe(true)
    const m = second.reduce((x, y) => x + y, 0)
    const r2 = chiSquareTest(second, [1, 2, 3, 4].map((w) => (m * w) / 10))
    expect(r2.pass, JSON.stringify(r2)).toBe(true)
  })

  it('the checks can fail: modulo bias (byte % 6) and a backward-biased shuffle are rejected', () => {
    const s = streamFromSeed(seedOf(9))
    const die = new Array<number>(6).fill(0)
    for (const b of s.nextBytes(200_000)) die[b % 6]!++
    expect(chiSquareTest(die).pass).toBe(false)
    // Naive "swap with any position" shuffle (n^n paths) is not uniform over the 6 orders of 3.
    const counts = new Map<string, number>()
    const t = streamFromSeed(seedOf(10))
    for (let r = 0; r < 60_000; r++) {
      const a = [0, 1, 2]
      for (let i = 0; i < 3; i++) {
        const j = uniformIndex(t, 3)
        ;[a[i], a[j]] = [a[j]!, a[i]!]
      }
      const key = a.join('')
      counts.set(key, (counts.get(key) ?? 0) + 1)
    }
    expect(chiSquareTest([...counts.values()]).pass).toBe(false)
  })
})
