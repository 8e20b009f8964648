/**
 * Participants digest of 1,000,000 entries (`participant-000123`-style strings; validation, duplicate
 * check and UTF-8 encoding included) against the specialised single-thread SHA-256 yardstick of
 * `yardstick-sha256.ts` (pre-padded leaves, nodes from words: the hashing alone), measured in the same
 * run. Also: the same digest on two threads, the general-purpose library's cost for the same hashes
 * (`@noble/hashes`, one call per hash: the path this replaced), salting, and the tree kept for proofs.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { timePair, type BenchRow } from './harness.js'
import { merkleRootFromLeafHashes } from '../src/core/merkle.js'
import { participantsRoot, participantsTree } from '../src/core/participants.js'
import { participantsRootParallel } from '../src/node/parallel-hash.js'
import { padLeaves, yardstickLeaves, yardstickNodes, yardstickRoot } from './yardstick-sha256.js'

const N = 1_000_000
const hex = (words: Int32Array): string => Array.from(words, (x) => (x >>> 0).toString(16).padStart(8, '0')).join('')
const bytesHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')

export default async function (): Promise<BenchRow[]> {
  const entries = Array.from({ length: N }, (_, i) => `participant-${String(i).padStart(6, '0')}`)
  const enc = new TextEncoder()
  const blocks = padLeaves(entries.map((e) => enc.encode(e)))
  const yardstick = (): Int32Array => yardstickRoot(blocks, N)
  // The yardstick is a real digest: it must give participantsRoot's bytes.
  if (hex(yardstick()) !== bytesHex(participantsRoot(entries))) throw new Error('yardstick root differs from participantsRoot')
  const yName = 'specialised SHA-256 yardstick: 1M pre-padded leaves + 999,999 nodes, one thread'

  const rows: BenchRow[] = []
  const root = await timePair(() => participantsRoot(entries), yardstick, 5, 1)
  rows.push({ name: 'participantsRoot, 1,000,000 entries (validate + UTF-8 + MTH), one thread', value: root.value, unit: 'ms', baseline: { name: yName, value: root.baseline }, goal: '<= 1.3x baseline', met: root.value <= 1.3 * root.baseline })

  const par = await timePair(() => participantsRootParallel(entries), () => participantsRoot(entries), 5, 1)
  rows.push({ name: 'participantsRootParallel, 1,000,000 entries, two threads', value: par.value, unit: 'ms', baseline: { name: 'participantsRoot, one thread', value: par.baseline }, goal: 'faster than one thread (speed-up = 1 / ratio)', met: par.value < par.baseline })

  // The path this replaced: one @noble/hashes call per leaf and per node, over prebuilt inputs.
  const leafInputs = entries.map((e) => {
    const b = enc.encode(e)
    const x = new Uint8Array(b.length + 1)
    x.set(b, 1)
    return x
  })
  const node = new Uint8Array(65)
  node[0] = 1
  const noble = (): void => {
    for (let i = 0; i < N; i++) sha256(leafInputs[i]!)
    for (let i = 0; i < N - 1; i++) {
      node[1] = i & 255
      sha256(node)
    }
  }
  const lib = await timePair(() => participantsRoot(entries), noble, 3, 1)
  rows.push({ name: 'participantsRoot, 1,000,000 entries (against the general-purpose library)', value: lib.value, unit: 'ms', baseline: { name: 'bare @noble/hashes sha256 calls: 1M leaves + 999,999 nodes', value: lib.baseline }, goal: '< 1x (the specialised hash beats the library)', met: lib.value < lib.baseline })

  const winners = Array.from({ length: 40 }, (_, k) => k * 24_999)
  const tree = await timePair(() => participantsTree(entries).inclusionProofs(winners), yardstick, 3, 1)
  rows.push({ name: 'participantsTree + 40 inclusion proofs, 1,000,000 entries', value: tree.value, unit: 'ms', baseline: { name: yName, value: tree.baseline }, goal: '<= 1.5x baseline (keeps every level)', met: tree.value <= 1.5 * tree.baseline })

  const secret = new Uint8Array(32).fill(0x5a)
  const salted = await timePair(() => participantsRoot(entries, { secret }), () => participantsRoot(entries), 3, 1)
  rows.push({ name: 'participantsRoot, 1,000,000 entries, salted (HMAC salt per leaf)', value: salted.value, unit: 'ms', baseline: { name: 'participantsRoot, same entries, unsalted', value: salted.baseline }, goal: '<= 3x unsalted (salt: 2 compressions; leaf: 2 instead of 1)', met: salted.value <= 3 * salted.baseline })

  const leafWordsOnce = yardstickLeaves(blocks, N)
  const packed = new Uint8Array(N * 32)
  for (let i = 0; i < N * 8; i++) {
    const x = leafWordsOnce[i]!
    packed[4 * i] = x >>> 24
    packed[4 * i + 1] = (x >>> 16) & 255
    packed[4 * i + 2] = (x >>> 8) & 255
    packed[4 * i + 3] = x & 255
  }
  const scratch = new Int32Array(N * 8)
  const fromHashes = await timePair(() => merkleRootFromLeafHashes(packed), () => {
    scratch.set(leafWordsOnce)
    return yardstickNodes(scratch, N)
  }, 5, 1)
  rows.push({ name: 'merkleRootFromLeafHashes, 1,000,000 packed leaf hashes', value: fromHashes.value, unit: 'ms', baseline: { name: 'yardstick: 999,999 node hashes from words', value: fromHashes.baseline }, goal: '<= 1.3x baseline', met: fromHashes.value <= 1.3 * fromHashes.baseline })
  return rows
}
