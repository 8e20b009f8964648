import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  MerkleRootBuilder,
  MerkleTree,
  leafHash,
  merkleRoot,
  merkleRootFromLeafHashes,
  nodeHash,
  verifyInclusion,
  verifyInclusionHash,
} from '../../../src/core/merkle.js'
import { refDirections, refLeafHash, refMth, refNodeHash, refPath, toHex } from './reference.js'

const leafArb = fc.uint8Array({ minLength: 0, maxLength: 40 })
/** n leaves with distinct contents derived from a seed (cheap to build for n up to 300). */
const leavesOfSize = (n: number, salt: number): Uint8Array[] => Array.from({ length: n }, (_, i) => Uint8Array.of(salt & 255, i & 255, i >> 8, (i * 7) & 255).subarray(0, 1 + (i % 4)))

const flipBit = (b: Uint8Array, bit: number): Uint8Array => {
  const c = b.slice()
  c[(bit >> 3) % c.length]! ^= 1 << (bit & 7)
  return c
}

describe('Merkle tree properties', () => {
  it('leaf and node hashes match the literal definitions', () => {
    fc.assert(
      fc.property(leafArb, fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (d, l, r) => {
        expect(toHex(leafHash(d))).toBe(toHex(refLeafHash(d)))
        expect(toHex(nodeHash(l, r))).toBe(toHex(refNodeHash(l, r)))
      }),
    )
  })

  it('bottom-up root equals the recursive RFC 9162 MTH (every form)', () => {
    fc.assert(
      fc.property(fc.array(leafArb, { minLength: 0, maxLength: 70 }), (leaves) => {
        const want = toHex(refMth(leaves))
        expect(toHex(merkleRoot(leaves))).toBe(want)
        expect(toHex(merkleRootFromLeafHashes(leaves.map(leafHash)))).toBe(want)
        expect(toHex(MerkleTree.fromLeaves(leaves).root())).toBe(want)
        const b = new MerkleRootBuilder()
        leaves.forEach((d, i) => {
          b.addLeaf(d)
          expect(b.size).toBe(i + 1)
        })
        expect(toHex(b.root())).toBe(want)
      }),
      { numRuns: 200 },
    )
  })

  it('root equals the recursive MTH for every size 0..300', () => {
    for (let n = 0; n <= 300; n++) {
      const leaves = leavesOfSize(n, n)
      expect(toHex(merkleRoot(leaves)), `n=${n}`).toBe(toHex(refMth(leaves)))
    }
  })

  it('every inclusion proof of every index equals the RFC PATH, verifies, and has length <= ceil(log2 n)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 255 }), (n, salt) => {
        const leaves = leavesOfSize(n, salt)
        const tree = MerkleTree.fromLeaves(leaves)
        const root = tree.root()
        const maxLen = Math.ceil(Math.log2(n))
        const all = tree.inclusionProofs(leaves.map((_, i) => i))
        for (let i = 0; i < n; i++) {
          const path = all[i]!
          expect(path.length).toBeLessThanOrEqual(maxLen)
          expect(verifyInclusion({ root, size: n, index: i, leafData: leaves[i]!, path })).toBe(true)
          expect(verifyInclusionHash({ root, size: n, index: i, leafHash: tree.leafHash(i), path })).toBe(true)
        }
        // Compare with the literal recursive PATH on a few indices (it is quadratic).
        for (const i of [0, n - 1, Math.floor(n / 2), salt % n]) {
          expect(all[i]!.map(toHex)).toEqual(refPath(i, leaves).map(toHex))
        }
      }),
      { numRuns: 60 },
    )
  })

  it('any single bit flip in the path, leaf, index, size or root makes verification fail', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n - 1 }))),
        fc.nat(),
        fc.nat(),
        (nAndIndex, pick, bit) => {
          const [n, index] = nAndIndex
          const leaves = leavesOfSize(n, 7)
          const tree = MerkleTree.fromLeaves(leaves)
          const root = tree.root()
          const path = tree.inclusionProof(index)
          const leafData = leaves[index]!
          const ok = { root, size: n, index, leafData, path }
          expect(verifyInclusion(ok)).toBe(true)
          // root
          expect(verifyInclusion({ ...ok, root: flipBit(root, bit) })).toBe(false)
          // leaf (a flipped byte, and an extra byte: leaf data may be empty)
          if (leafData.length > 0) expect(verifyInclusion({ ...ok, leafData: flipBit(leafData, bit) })).toBe(false)
          expect(verifyInclusion({ ...ok, leafData: Uint8Array.of(...leafData, bit & 255) })).toBe(false)
          // path element
          if (path.length > 0) {
            const k = pick % path.length
            expect(verifyInclusion({ ...ok, path: path.map((h, j) => (j === k ? flipBit(h, bit) : h)) })).toBe(false)
          }
          // index and size: flip one bit among the low 20 (covers every value here) and beyond
          const b = bit % 21
          const index2 = index ^ (1 << b)
          expect(verifyInclusion({ ...ok, index: index2 })).toBe(false)
          // The size is bound only through the shape of the leaf's audit path (RFC 9162 §2.1.3.2 cannot do
          // better: leaf 0 of 257 leaves and of 259 leaves has the same path). So a flipped size must fail
          // exactly when it changes the shape given by the recursive PATH definition.
          const size2 = n ^ (1 << b)
          const sameShape = size2 > index && refDirections(index, size2).join() === refDirections(index, n).join()
          expect(verifyInclusion({ ...ok, size: size2 })).toBe(sameShape)
        },
      ),
      { numRuns: 500 },
    )
  })

  it('a flipped size is accepted only when it keeps the path shape (e.g. leaf 0 of 257 vs 259 leaves)', () => {
    const leaves = leavesOfSize(257, 1)
    const tree = MerkleTree.fromLeaves(leaves)
    const ok = { root: tree.root(), size: 257, index: 0, leafData: leaves[0]!, path: tree.inclusionProof(0) }
    expect(verifyInclusion({ ...ok, size: 259 })).toBe(true)
    expect(verifyInclusion({ ...ok, size: 256 })).toBe(false)
    expect(verifyInclusion({ ...ok, size: 513 })).toBe(false)
    // The last leaf's path shape pins the size much more tightly.
    const last = { ...ok, index: 256, leafData: leaves[256]!, path: tree.inclusionProof(256) }
    expect(verifyInclusion(last)).toBe(true)
    expect(verifyInclusion({ ...last, size: 259 })).toBe(false)
  })

  it('never throws on malformed proofs', () => {
    const tree = MerkleTree.fromLeaves(leavesOfSize(5, 1))
    const root = tree.root()
    const leafData = leavesOfSize(5, 1)[2]!
    const path = tree.inclusionProof(2)
    const weird: unknown[] = [
      null,
      undefined,
      {},
      { root, size: 5, index: 2, leafData, path: null },
      { root, size: 5, index: 2, leafData: 'x', path },
      { root: root.subarray(1), size: 5, index: 2, leafData, path },
      { root, size: 5.5, index: 2, leafData, path },
      { root, size: 5, index: -1, leafData, path },
      { root, size: 5, index: 2.0000001, leafData, path },
      { root, size: Number.NaN, index: 2, leafData, path },
      { root, size: 2 ** 60, index: 2, leafData, path },
      { root, size: 5, index: 2, leafData, path: [...path, ...path] },
      { root, size: 5, index: 2, leafData, path: path.map((p) => p.subarray(0, 31)) },
      { root, size: 5, index: 2, leafData, path: [1, 2, 3] },
      { root, size: 5, index: 2, leafData, path: Array.from({ length: 100 }, () => root) },
      { root, size: '5', index: 2, leafData, path },
      {
        get root(): Uint8Array {
          throw new Error('hostile getter')
        },
        size: 5,
        index: 2,
        leafData,
        path,
      },
    ]
    for (const w of weird) {
      expect(() => verifyInclusion(w as never)).not.toThrow()
      expect(verifyInclusion(w as never)).toBe(false)
    }
    expect(verifyInclusion({ root, size: 5, index: 2, leafData, path })).toBe(true)
  })

  it('tree and builder reject bad inputs with typed errors', () => {
    const tree = MerkleTree.fromLeaves(leavesOfSize(3, 1))
    for (const i of [-1, 3, 1.5, Number.NaN]) expect(() => tree.inclusionProof(i)).toThrow(expect.objectContaining({ code: 'INDEX_OUT_OF_RANGE' }))
    expect(() => tree.inclusionProofs([0, 9])).toThrow(expect.objectContaining({ code: 'INDEX_OUT_OF_RANGE', path: '$[1]' }))
    expect(() => MerkleTree.fromLeaves([]).inclusionProof(0)).toThrow(expect.objectContaining({ code: 'INDEX_OUT_OF_RANGE' }))
    expect(() => merkleRootFromLeafHashes(new Uint8Array(33))).toThrow(expect.objectContaining({ code: 'INVALID_HASH_LENGTH' }))
    expect(() => merkleRootFromLeafHashes([new Uint8Array(31)])).toThrow(expect.objectContaining({ code: 'INVALID_HASH_LENGTH', path: '$[0]' }))
    expect(() => new MerkleRootBuilder().addLeafHash(new Uint8Array(1))).toThrow(expect.objectContaining({ code: 'INVALID_HASH_LENGTH' }))
    expect(() => nodeHash(new Uint8Array(31), new Uint8Array(32))).toThrow(expect.objectContaining({ code: 'INVALID_HASH_LENGTH' }))
  })

  it('packed leaf hashes: copied by default, overwritten only on request; adopt keeps the buffer', () => {
    const leaves = leavesOfSize(9, 3)
    const packed = new Uint8Array(9 * 32)
    leaves.forEach((d, i) => packed.set(leafHash(d), i * 32))
    const before = packed.slice()
    const want = toHex(refMth(leaves))
    expect(toHex(merkleRootFromLeafHashes(packed))).toBe(want)
    expect(packed).toEqual(before)
    expect(toHex(MerkleTree.fromLeafHashes(packed).root())).toBe(want)
    expect(toHex(MerkleTree.fromLeafHashes(packed, { adopt: true }).root())).toBe(want)
    expect(toHex(merkleRootFromLeafHashes(packed, { overwrite: true }))).toBe(want)
  })
})
