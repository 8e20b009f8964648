/**
 * Sampling benchmarks: the stream-primitive choice (ChaCha20 vs SHA-256 counter mode), a 1,000,000-entry
 * shuffle against a non-cryptographic pure-rand baseline, and pick k of n time and memory.
 */
import { chacha20 } from '@noble/ciphers/chacha.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus'
import { pickIndices, shuffleIndices } from '../src/core/random/shuffle.js'
import { streamFromSeed } from '../src/core/random/stream.js'
import { heapDelta, timeMs, timePair, type BenchRow } from './harness.js'

const SEED = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1)
const MB4 = 4 * 1024 * 1024

/** 4 MB of ChaCha20 keystream, generated in 64 KiB chunks (as the stream does). */
function chachaKeystream(): number {
  const chunk = 64 * 1024
  const zeros = new Uint8Array(chunk)
  const out = new Uint8Array(chunk)
  const nonce = new Uint8Array(12)
  let acc = 0
  for (let off = 0, block = 0; off < MB4; off += chunk, block += chunk / 64) {
    chacha20(SEED, nonce, zeros, out, block)
    acc ^= out[0]!
  }
  return acc
}

/** 4 MB of SHA-256 counter mode: block i = SHA-256(seed || uint64be(i)), 32 bytes each. */
function sha256Counter(): number {
  const input = new Uint8Array(40)
  input.set(SEED)
  const view = new DataView(input.buffer)
  let acc = 0
  for (let i = 0; i < MB4 / 32; i++) {
    view.setUint32(32, Math.floor(i / 4294967296))
    view.setUint32(36, i >>> 0)
    acc ^= sha256(input)[0]!
  }
  return acc
}

/** Baseline: the same forward Fisher–Yates loop driven by pure-rand's xoroshiro128+ and uniformInt. */
function baselineShuffle(n: number): Uint32Array {
  const rng = xoroshiro128plus(42)
  const a = new Uint32Array(n)
  for (let i = 0; i < n; i++) a[i] = i
  for (let i = 0; i < n - 1; i++) {
    const j = i + uniformInt(rng, 0, n - i - 1)
    const t = a[i]!
    a[i] = a[j]!
    a[j] = t
  }
  return a
}

export default async (): Promise<BenchRow[]> => {
  const rows: BenchRow[] = []

  const stream = await timePair(chachaKeystream, sha256Counter, 5, 1)
  rows.push({
    name: 'stream: 4 MB ChaCha20 keystream (@noble/ciphers)',
    value: stream.value,
    unit: 'ms',
    baseline: { name: '4 MB SHA-256 counter mode (@noble/hashes)', value: stream.baseline },
    goal: 'faster than SHA-256 counter mode',
    met: stream.value < stream.baseline,
  })

  const own = await timePair(() => streamFromSeed(SEED).nextBytes(MB4), chachaKeystream, 5, 1)
  rows.push({
    name: 'stream: 4 MB via streamFromSeed (specialised ChaCha20 keystream)',
    value: own.value,
    unit: 'ms',
    baseline: { name: '@noble/ciphers chacha20, 64 KiB chunks', value: own.baseline },
    goal: 'not slower than @noble/ciphers',
    met: own.value <= own.baseline,
  })

  const N = 1_000_000
  const sh = await timePair(() => shuffleIndices(streamFromSeed(SEED), N), () => baselineShuffle(N), 9, 3)
  rows.push({
    name: 'shuffleIndices(1,000,000), ChaCha20 stream',
    value: sh.value,
    unit: 'ms',
    baseline: { name: 'pure-rand xoroshiro128plus + uniformInt', value: sh.baseline },
    goal: '<= 1.5x baseline',
    met: sh.value <= 1.5 * sh.baseline,
  })

  const pickMs = await timeMs(() => pickIndices(streamFromSeed(SEED), 1e9, 1000), 21, 5)
  rows.push({ name: 'pickIndices(1,000 of 10^9)', value: pickMs, unit: 'ms', goal: '< 2 ms', met: pickMs < 2 })

  // Memory: the heap kept by a pick must not grow with n. Median of several measurements.
  const mem = (n: number): number => {
    const xs: number[] = []
    for (let r = 0; r < 7; r++) xs.push(heapDelta(() => pickIndices(streamFromSeed(SEED), n, 1000)))
    return xs.sort((a, b) => a - b)[3]! / 1024
  }
  const m6 = mem(1e6)
  const m9 = mem(1e9)
  rows.push({
    name: 'pickIndices(1,000 of 10^9) heap delta',
    value: m9,
    unit: 'KiB',
    baseline: { name: 'pickIndices(1,000 of 10^6)', value: m6 },
    goal: 'independent of n (<= 2x the n = 10^6 figure, << 8 MB array of 10^6)',
    met: m9 <= 2 * Math.max(m6, 64),
  })
  return rows
}
