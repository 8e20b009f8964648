/**
 * Bundled by bench/browser-digest.bench.ts and run inside Chromium: the participants digest of n
 * entries beside the specialised single-thread SHA-256 yardstick, alternating, in the page's own
 * JavaScript engine (the browser build of V8), as bench/merkle.bench.ts does in Node.
 */
import { participantsRoot } from '../../src/core/participants.js'
import { padLeaves, yardstickRoot } from '../yardstick-sha256.js'

const hex = (words: ArrayLike<number>, asWords: boolean): string => Array.from(words, (x) => (asWords ? (x >>> 0).toString(16).padStart(8, '0') : x.toString(16).padStart(2, '0'))).join('')

/** Alternating runs (yardstick first), medians of `runs` after `warmup` pairs; checks both roots are equal. */
function run(n: number, runs: number, warmup: number): { value: number; baseline: number; root: string } {
  const entries = Array.from({ length: n }, (_, i) => `participant-${String(i).padStart(6, '0')}`)
  const enc = new TextEncoder()
  const blocks = padLeaves(entries.map((e) => enc.encode(e)))
  const root = hex(participantsRoot(entries), false)
  if (hex(yardstickRoot(blocks, n), true) !== root) throw new Error('yardstick root differs from participantsRoot')
  const a: number[] = []
  const b: number[] = []
  for (let i = 0; i < warmup + runs; i++) {
    let t0 = performance.now()
    yardstickRoot(blocks, n)
    const yb = performance.now() - t0
    t0 = performance.now()
    participantsRoot(entries)
    const pa = performance.now() - t0
    if (i >= warmup) {
      b.push(yb)
      a.push(pa)
    }
  }
  const median = (x: number[]): number => x.sort((p, q) => p - q)[Math.floor(x.length / 2)]!
  return { value: median(a), baseline: median(b), root }
}

;(globalThis as { orbitdrawDigestBench?: typeof run }).orbitdrawDigestBench = run
