/** The draw counts behind the sortition tests' chi-square checks of uniformity over the valid panels. */
import { expect } from 'vitest'
import { streamFromSeed, type RandomStream } from '../../../src/core/random/stream.js'
import { seedOf } from '../random/util.js'

/**
 * How often each of `panels` (ascending index lists) comes out of `trials` calls of `draw` on one stream
 * from `seedOf(seed)`, in the order of `panels`. A drawn panel that is not among them fails the test with
 * the message `notAmong`.
 */
export function panelFrequencies(panels: readonly (readonly number[])[], trials: number, draw: (s: RandomStream) => number[], seed: number, notAmong = 'drawn panel is valid'): number[] {
  const index = new Map(panels.map((p, i) => [p.join(','), i]))
  const counts = new Array<number>(panels.length).fill(0)
  const s = streamFromSeed(seedOf(seed))
  for (let t = 0; t < trials; t++) {
    const i = index.get(draw(s).join(','))
    expect(i, notAmong).toBeDefined()
    counts[i!]!++
  }
  return counts
}
