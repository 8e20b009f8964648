/**
 * The fixed sampling vectors: parameters, and how each case's output is computed. Shared by
 * `scripts/make-sampling-vectors.ts` (which writes `test/vectors/sampling.json`) and the vector test
 * (which recomputes every case from its parameters and compares byte-exactly).
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, hexToBytes, utf8Encode } from '../../../src/core/bytes.js'
import { pickIndices, shuffleIndices } from '../../../src/core/random/shuffle.js'
import { rangeValues } from '../../../src/core/random/range.js'
import { streamFromSeed } from '../../../src/core/random/stream.js'
import { uniformBigInt } from '../../../src/core/random/uniform.js'
import { weightedPick } from '../../../src/core/random/weighted.js'

/** One vector: `op` and its parameters (bigints as decimal strings), the output and bytes consumed. */
export type VectorCase =
  | { op: 'stream'; seed: string; bytes: number; output: string; consumed: number }
  | { op: 'uniform'; seed: string; n: string; count: number; output: string[]; consumed: number }
  | { op: 'shuffle'; seed: string; n: number; output: number[]; consumed: number }
  | { op: 'pick'; seed: string; n: number; k: number; output: number[]; consumed: number }
  | { op: 'range'; seed: string; min: string; max: string; count: number; distinct: boolean; output: string[]; consumed: number }
  | { op: 'weighted'; seed: string; weights: number[]; k: number; output: number[]; consumed: number }

/** Distributive omit over the union. */
type Params<T> = T extends unknown ? Omit<T, 'output' | 'consumed'> : never
export type VectorParams = Params<VectorCase>

/** Computes a case's output and consumption from its parameters. */
export function runCase(p: VectorParams): VectorCase {
  const s = streamFromSeed(hexToBytes(p.seed))
  switch (p.op) {
    case 'stream':
      return { ...p, output: bytesToHex(s.nextBytes(p.bytes)), consumed: s.consumed }
    case 'uniform': {
      const out = Array.from({ length: p.count }, () => uniformBigInt(s, BigInt(p.n)).toString())
      return { ...p, output: out, consumed: s.consumed }
    }
    case 'shuffle':
      return { ...p, output: Array.from(shuffleIndices(s, p.n)), consumed: s.consumed }
    case 'pick':
      return { ...p, output: pickIndices(s, p.n, p.k), consumed: s.consumed }
    case 'range': {
      const out = rangeValues(s, BigInt(p.min), BigInt(p.max), p.count, p.distinct).map(String)
      return { ...p, output: out, consumed: s.consumed }
    }
    case 'weighted':
      return { ...p, output: weightedPick(s, p.weights, p.k), consumed: s.consumed }
  }
}

const SEEDS = [
  '00'.repeat(32),
  Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join(''),
  bytesToHex(sha256(utf8Encode('orbitdraw sampling vectors'))),
]

/** The parameters of every vector. */
export function vectorParams(): VectorParams[] {
  const out: VectorParams[] = []
  for (const seed of SEEDS) out.push({ op: 'stream', seed, bytes: 64 })
  const ns = ['1', '2', '3', String(2 ** 32 - 1), String(2 ** 32), String(2n ** 53n + 1n), String(10n ** 30n)]
  for (const seed of SEEDS.slice(1)) {
    for (const n of ns) out.push({ op: 'uniform', seed, n, count: 8 })
    out.push({ op: 'shuffle', seed, n: 10 })
    out.push({ op: 'pick', seed, n: 1_000_000_000, k: 5 })
    out.push({ op: 'range', seed, min: '1', max: '6', count: 10, distinct: false })
    out.push({ op: 'range', seed, min: '0', max: '999', count: 10, distinct: true })
    out.push({ op: 'range', seed, min: String(-(2n ** 70n)), max: String(2n ** 100n), count: 3, distinct: false })
    out.push({ op: 'range', seed, min: String(-(2n ** 70n)), max: String(2n ** 100n), count: 3, distinct: true })
    out.push({ op: 'weighted', seed, weights: [1, 2, 3, 4, 10], k: 3 })
    out.push({ op: 'weighted', seed, weights: [Number.MAX_SAFE_INTEGER, 1, 2 ** 52, 7, Number.MAX_SAFE_INTEGER], k: 5 })
  }
  return out
}
