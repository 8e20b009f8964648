/**
 * Participants digest of 1,000,000 entries (`participant-000123`-style strings, validation and UTF-8
 * encoding included) against the bare SHA-256 calls it cannot avoid: 1,000,000 leaf hashes and 999,999
 * node hashes over prebuilt inputs, with the same `sha256` function. Goal: <= 1.3x.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { timePair, type BenchRow } from './harness.js'
import { merkleRootFromLeafHashes } from '../src/core/merkle.js'
import { participantsRoot, participantsTree } from '../src/core/participants.js'

const N = 1_000_000

export default async function (): Promise<BenchRow[]> {
  const entries = Array.from({ length: N }, (_, i) => `participant-${String(i).padStart(6, '0')}`)

  // Baseline inputs, built outside the timed region: 0x00 || UTF-8(entry), and 0x01 || 64 bytes.
  const enc = new TextEncoder()
  const leafInputs = entries.map((e) => {
    const b = enc.encode(e)
    const x = new Uint8Array(b.length + 1)
    x.set(b, 1)
    return x
  })
  const nodeArena = new Uint8Array((N - 1) * 65)
  const nodeInputs = Array.from({ length: N - 1 }, (_, i) => {
    const x = nodeArena.subarray(i * 65, i * 65 + 65)
    x[0] = 1
    x[1] = i & 255
    x[2] = i >> 8
    return x
  })
  const bare = (): void => {
    for (let i = 0; i < leafInputs.length; i++) sha256(leafInputs[i]!)
    for (let i = 0; i < nodeInputs.length; i++) sha256(nodeInputs[i]!)
  }

  const winners = Array.from({ length: 40 }, (_, k) => k * 24_999)
  const rows: BenchRow[] = []
  // Harness defaults (7 runs after 2 warm-ups): the first figure of the file also absorbs heap growth.
  const root = await timePair(() => participantsRoot(entries), bare)
  rows.push({
    name: 'participantsRoot, 1,000,000 entries (validate + UTF-8 + MTH)',
    value: root.value,
    unit: 'ms',
    baseline: { name: 'bare sha256: 1M leaf + 999,999 node hashes', value: root.baseline },
    goal: '<= 1.3x baseline',
    met: root.value <= 1.3 * root.baseline,
  })

  const tree = await timePair(() => participantsTree(entries).inclusionProofs(winners), bare, 3, 1)
  rows.push({
    name: 'participantsTree + 40 inclusion proofs, 1,000,000 entries',
    value: tree.value,
    unit: 'ms',
    baseline: { name: 'bare sha256: 1M leaf + 999,999 node hashes', value: tree.baseline },
    goal: '<= 1.5x baseline (keeps every level)',
    met: tree.value <= 1.5 * tree.baseline,
  })

  // Salted (private) list: one HMAC-SHA256 per leaf for its salt, then the longer leaf. Baseline: the
  // same list unsalted, so the figure is the cost of salting (about 4 extra SHA-256 compressions per leaf).
  const secret = new Uint8Array(32).fill(0x5a)
  const salted = await timePair(() => participantsRoot(entries, { secret }), () => participantsRoot(entries), 3, 1)
  rows.push({
    name: 'participantsRoot, 1,000,000 entries, salted (HMAC salt per leaf)',
    value: salted.value,
    unit: 'ms',
    baseline: { name: 'participantsRoot, same entries, unsalted', value: salted.baseline },
    goal: '<= 4x unsalted (HMAC-SHA256 is 4 compressions per leaf, the leaf 1-2 more)',
    met: salted.value <= 4 * salted.baseline,
  })

  // Tree from precomputed leaf hashes: node hashing only.
  const packed = new Uint8Array(N * 32)
  for (let i = 0; i < N; i++) packed.set(sha256(leafInputs[i]!), i * 32)
  const nodesOnly = (): void => {
    for (let i = 0; i < nodeInputs.length; i++) sha256(nodeInputs[i]!)
  }
  const fromHashes = await timePair(() => merkleRootFromLeafHashes(packed), nodesOnly, 5, 1)
  rows.push({
    name: 'merkleRootFromLeafHashes, 1,000,000 packed leaf hashes',
    value: fromHashes.value,
    unit: 'ms',
    baseline: { name: 'bare sha256: 999,999 node hashes', value: fromHashes.baseline },
    goal: '<= 1.3x baseline',
    met: fromHashes.value <= 1.3 * fromHashes.baseline,
  })
  return rows
}
