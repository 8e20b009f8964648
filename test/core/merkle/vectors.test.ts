/** Byte-exact check of src/core against test/vectors/merkle.json (made by scripts/make-merkle-vectors.ts). */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { MerkleTree, leafHash, verifyInclusion } from '../../../src/core/merkle.js'
import { encodeLeaf, encodeWeightedLeaf, participantsRoot, participantsTree, type WeightedEntry } from '../../../src/core/participants.js'
import { fromHex, toHex } from './reference.js'

interface VectorCase {
  name: string
  kind: 'unweighted' | 'weighted'
  entries: string[] | WeightedEntry[]
  leaves: string[]
  leafHashes: string[]
  root: string
  proofs: { index: number; path: string[] }[]
}

const vectors = JSON.parse(readFileSync(new URL('../../vectors/merkle.json', import.meta.url), 'utf8')) as { cases: VectorCase[] }

describe('participants vectors (test/vectors/merkle.json)', () => {
  it('covers sizes 1, 2, 3, 5, 8, 9, non-ASCII and weighted lists', () => {
    expect(vectors.cases.map((c) => c.name)).toEqual(['size-1', 'size-2', 'size-3', 'size-5', 'size-8', 'size-9', 'non-ascii', 'weighted'])
  })

  it.each(vectors.cases)('$name: leaves, leaf hashes, root and every inclusion path', (c) => {
    const leaves =
      c.kind === 'weighted'
        ? (c.entries as WeightedEntry[]).map((w) => encodeWeightedLeaf(w.entry, w.weight))
        : (c.entries as string[]).map((e) => encodeLeaf(e))
    expect(leaves.map(toHex)).toEqual(c.leaves)
    expect(leaves.map((l) => toHex(leafHash(l)))).toEqual(c.leafHashes)
    expect(toHex(participantsRoot(c.entries))).toBe(c.root)
    const tree = participantsTree(c.entries)
    expect(toHex(tree.root())).toBe(c.root)
    expect(toHex(MerkleTree.fromLeaves(leaves).root())).toBe(c.root)
    const paths = tree.inclusionProofs(c.proofs.map((p) => p.index))
    c.proofs.forEach((p, k) => {
      expect(paths[k]!.map(toHex)).toEqual(p.path)
      expect(verifyInclusion({ root: fromHex(c.root), size: c.entries.length, index: p.index, leafData: fromHex(c.leaves[p.index]!), path: p.path.map(fromHex) })).toBe(true)
    })
  })
})
