/**
 * The rounds' tallying path (roundMeets, src/core/sortition/quota-tally.ts) is the spec's round: the
 * same verdict, the same members and the same stream bytes as relaxedPanel followed by meetsQuotas,
 * with and without `fast` (stop counting at the first max passed), on ChaCha streams (the inlined
 * pick) and on any other RandomStream (drawIndex).
 */
import { describe, expect, it } from 'vitest'
import { streamFromSeed, type RandomStream } from '../../../src/core/random/stream.js'
import { buildCounter } from '../../../src/core/sortition/count.js'
import { dpOrder } from '../../../src/core/sortition/plan.js'
import { checkQuotas } from '../../../src/core/sortition/pool.js'
import { OtherQuotas, roundMeets } from '../../../src/core/sortition/quota-tally.js'
import { meetsQuotas, relaxedPanel } from '../../../src/core/sortition/round.js'
import { proportionalQuotas, smallPool } from './fixtures.js'

const seedOf = (n: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => (n * 37 + i * 11) & 255)

/** A RandomStream that is not a ChaChaStream (same bytes): the generic path of the pick. */
function wrapped(seed: Uint8Array): RandomStream {
  const inner = streamFromSeed(seed)
  return {
    nextBytes: (n: number) => inner.nextBytes(n),
    get consumed() {
      return inner.consumed
    },
  }
}

describe('roundMeets is the spec\'s round with its quota test', () => {
  for (const kind of ['chacha', 'other'] as const) {
    it(`same verdict, same members when kept, same bytes read as relaxedPanel + meetsQuotas (${kind} stream, fast and full)`, () => {
      let kept = 0
      let rejected = 0
      for (let seed = 1; seed <= 4; seed++) {
        // Tight quotas (slack 0 or 1); the pool of 300 has cells of more than 256 (two-byte picks).
        const pool = smallPool(seed % 2 === 0 ? 60 : 300, [2, 3, 4, 2], seed)
        const k = seed % 2 === 0 ? 9 : 12
        const table = checkQuotas(pool, proportionalQuotas(pool, k, seed <= 2 ? 1 : 0), k)
        for (const exact of seed % 2 === 0 ? [[], [0], [2, 1], [2, 1, 0, 3]] : [[], [0], [2, 1]]) {
          const counter = buildCounter(pool, table, k, dpOrder(pool, exact))
          if (counter.count === 0n) continue
          const others = pool.features.map((_, f) => f).filter((f) => !counter.exact.includes(f))
          for (const fast of [false, true]) {
            const make = kind === 'chacha' ? streamFromSeed : wrapped
            const a = make(seedOf(seed))
            const b = make(seedOf(seed))
            const check = new OtherQuotas({ pool, quotas: table, counter })
            const counts = new Int32Array(counter.cells.length)
            const out = new Int32Array(k)
            for (let r = 0; r < 60; r++) {
              const want = relaxedPanel(counter, a)
              const ok = meetsQuotas(pool, table, want.members, others)
              expect(roundMeets(counter, b, counts, out, check, fast)).toBe(ok)
              expect(b.consumed).toBe(a.consumed)
              expect([...counts]).toEqual(want.cellCounts)
              if (ok) {
                kept++
                expect([...out].sort((x, y) => x - y)).toEqual(want.members)
              } else rejected++
              if (!fast) {
                // The full tally is the members' count per slot (the gate's hints read it).
                const tally = new Int32Array(check.slots)
                check.others.forEach((f, j) => want.members.forEach((m) => tally[check.offset[j]! + pool.respondents[m]!.type[f]!]!++))
                expect([...check.cnt]).toEqual([...tally])
              }
            }
          }
        }
      }
      expect(kept).toBeGreaterThan(20)
      expect(rejected).toBeGreaterThan(100)
    })
  }

  it('fast stops counting at the first max passed, and full does not (the difference is observable)', () => {
    const pool = smallPool(700, [2, 3, 4, 2], 1)
    const k = 24
    const table = checkQuotas(pool, proportionalQuotas(pool, k, 0), k)
    const counter = buildCounter(pool, table, k, dpOrder(pool, [2]))
    const stream = (): RandomStream => streamFromSeed(seedOf(7))
    const total = (fast: boolean): number => {
      const s = stream()
      const check = new OtherQuotas({ pool, quotas: table, counter })
      let sum = 0
      for (let r = 0; r < 50; r++) {
        roundMeets(counter, s, new Int32Array(counter.cells.length), new Int32Array(k), check, fast)
        sum += check.cnt.reduce((x, y) => x + y, 0)
      }
      return sum
    }
    // Full mode counts k members under each of the 3 other features every round; fast counts fewer.
    expect(total(false)).toBe(50 * k * 3)
    expect(total(true)).toBeLessThan(50 * k * 3)
  })
})
