/**
 * The count choice of a round through a counter's cached layers (src/core/sortition/choose-counts.ts):
 * an attempt whose top 48 bits tie a cumulative block's is decided by the exact block, recomputed from
 * the counter, as the spec's literal rule decides it (docs/spec.md, The `panel` draw).
 */
import { describe, expect, it } from 'vitest'
import { streamFromSeed, type RandomStream } from '../../../src/core/random/stream.js'
import { chooseCounts } from '../../../src/core/sortition/choose-counts.js'
import { buildCounter } from '../../../src/core/sortition/count.js'
import { dpOrder } from '../../../src/core/sortition/plan.js'
import { checkQuotas } from '../../../src/core/sortition/pool.js'
import { proportionalQuotas, smallPool } from './fixtures.js'

/** `bytes`, then a ChaCha stream's. */
function prefixed(bytes: number[]): RandomStream {
  const rest = streamFromSeed(new Uint8Array(32).fill(9))
  let at = 0
  return {
    nextBytes(n: number): Uint8Array {
      const out = new Uint8Array(n)
      for (let i = 0; i < n; i++) out[i] = at < bytes.length ? bytes[at++]! : rest.nextBytes(1)[0]!
      return out
    },
    get consumed() {
      return at + rest.consumed
    },
  }
}

const be = (x: bigint, L: number): number[] => Array.from({ length: L }, (_, i) => Number((x >> BigInt(8 * (L - 1 - i))) & 255n))

describe('chooseCounts decides a tie of the top 48 bits with the exact block', () => {
  it('an attempt equal to a cumulative block takes the next count; one below it takes that count', () => {
    const pool = smallPool(400, [2, 3], 3)
    const k = 60
    const table = checkQuotas(pool, proportionalQuotas(pool, k, 3), k)
    const counter = buildCounter(pool, table, k, dpOrder(pool, [1]))
    const L0 = counter.layers[0]!
    const total = L0.ways[0]!
    expect(total > 1n << 53n).toBe(true) // the 48-bit path
    // The first cell's literal blocks: C(n_0, c) · W_1(next), cumulated, zero blocks included.
    const W1 = counter.layers[1]!.ways
    const cum: bigint[] = []
    let acc = 0n
    for (let q = L0.start[0]!; q < L0.start[1]!; q++) {
      acc += counter.binom[0]![L0.trans[2 * q]!]! * W1[L0.trans[2 * q + 1]!]!
      cum.push(acc)
    }
    const bits = (total - 1n).toString(2).length
    const L = Math.ceil(bits / 8)
    let ties = 0
    for (let q = 0; q < cum.length - 1; q++) {
      if (cum[q] === (q === 0 ? 0n : cum[q - 1])) continue // a zero block
      for (const [x, want] of [[cum[q]! - 1n, q], [cum[q]!, q + 1]] as const) {
        // The next non-zero block after q when x equals cum[q].
        let expected = want
        while (x >= cum[expected]!) expected++
        const counts = new Int32Array(counter.cells.length)
        chooseCounts(counter, prefixed(be(x, L)), counts)
        expect(counts[0]).toBe(L0.trans[2 * (L0.start[0]! + expected)])
        ties++
      }
    }
    expect(ties).toBeGreaterThan(4)
  })
})
