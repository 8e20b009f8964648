/**
 * The lowest levels of aligned slices, concatenated, are the tree's lower levels: a tree built from
 * them (MerkleTree.fromLowerLevels) has the same root and inclusion proofs as the tree built from the
 * leaves, for every size and split point at small scales (the same rule as the 2^14-leaf chunks of
 * participantsTreeParallel).
 */
import { describe, expect, it } from 'vitest'
import { lowerLevels, MerkleTree } from '../../../src/core/merkle.js'
import { leafWords } from '../../../src/core/participants.js'

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

function joined(parts: Int32Array[][]): Int32Array[] {
  return parts[0]!.map((_, l) => {
    const total = parts.reduce((s, p) => s + p[l]!.length, 0)
    const out = new Int32Array(total)
    let at = 0
    for (const p of parts) {
      out.set(p[l]!, at)
      at += p[l]!.length
    }
    return out
  })
}

describe('MerkleTree.fromLowerLevels', () => {
  it('aligned slices give the same tree as the leaves, for n 1..80, levels 0..4, every aligned split', () => {
    for (let n = 1; n <= 80; n++) {
      const entries = Array.from({ length: n }, (_, i) => `e${i}`)
      const words = leafWords(entries, null, null)
      const whole = MerkleTree.fromLeafWords(words.slice(), n)
      const proofs = Array.from({ length: n }, (_, i) => whole.inclusionProof(i).map(hex))
      for (let top = 0; top <= 4; top++) {
        const span = 2 ** top
        for (let split = 0; split <= n; split += span) {
          const parts = [lowerLevels(words.slice(0, split * 8), split, top), lowerLevels(words.slice(split * 8), n - split, top)].filter((_, k) => (k === 0 ? split > 0 : split < n))
          const tree = MerkleTree.fromLowerLevels(joined(parts), n)
          expect(hex(tree.root()), `n ${n}, top ${top}, split ${split}`).toBe(hex(whole.root()))
          const got = Array.from({ length: n }, (_, i) => tree.inclusionProof(i).map(hex))
          expect(got.join(';') === proofs.join(';'), `n ${n}, top ${top}, split ${split}`).toBe(true)
        }
      }
    }
  })

  it('refuses a level of the wrong length (a slice not aligned)', () => {
    const words = leafWords(['a', 'b', 'c', 'd', 'e'], null, null)
    // Level 1 of 5 leaves holds 3 hashes: one missing is refused (only lengths can be checked here).
    const levels = lowerLevels(words.slice(), 5, 2)
    expect(() => MerkleTree.fromLowerLevels([levels[0]!, levels[1]!.subarray(8)], 5)).toThrow(RangeError)
  })
})
