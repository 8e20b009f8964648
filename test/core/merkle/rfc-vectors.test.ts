/**
 * Published RFC 6962 / RFC 9162 reference vectors.
 *
 * Source: the 8-leaf test set shared by the Certificate Transparency implementations, as found in
 * github.com/transparency-dev/merkle, file proof/verify_test.go (variables `leaves`, `roots`,
 * `inclusionProofs`; that file numbers leaves from 1, converted to 0-based indices here), which carries the
 * set over from google/certificate-transparency's C++ merkle_tree_test.cc and certificate-transparency-go.
 */
import { describe, expect, it } from 'vitest'
import { sha256 } from '@noble/hashes/sha2.js'
import {
  MerkleRootBuilder,
  MerkleTree,
  emptyRoot,
  inclusionProof,
  leafHash,
  merkleRoot,
  merkleRootFromLeafHashes,
  verifyInclusion,
  verifyInclusionHash,
} from '../../../src/core/merkle.js'
import { fromHex, toHex } from './reference.js'

const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(fromHex)

/** ROOTS[i] = MTH of the first i + 1 leaves. */
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
]

const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'

const PATHS: { index: number; size: number; path: string[] }[] = [
  { index: 0, size: 1, path: [] },
  {
    index: 0,
    size: 8,
    path: [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  },
  {
    index: 5,
    size: 8,
    path: [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  },
  { index: 2, size: 3, path: ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125'] },
  {
    index: 1,
    size: 5,
    path: [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  },
]

describe('RFC 6962/9162 reference vectors', () => {
  it('MTH of the empty list is SHA-256 of the empty string', () => {
    expect(toHex(emptyRoot())).toBe(EMPTY)
    expect(toHex(merkleRoot([]))).toBe(EMPTY)
    expect(toHex(merkleRootFromLeafHashes([]))).toBe(EMPTY)
    expect(toHex(MerkleTree.fromLeaves([]).root())).toBe(EMPTY)
    expect(toHex(new MerkleRootBuilder().root())).toBe(EMPTY)
    expect(toHex(sha256(new Uint8Array(0)))).toBe(EMPTY)
  })

  it('leaf hash of the empty leaf', () => {
    expect(toHex(leafHash(new Uint8Array(0)))).toBe(ROOTS[0])
  })

  it.each(ROOTS.map((root, i) => ({ size: i + 1, root })))('MTH of the first $size leaves = $root', ({ size, root }) => {
    const d = LEAVES.slice(0, size)
    expect(toHex(merkleRoot(d))).toBe(root)
    expect(toHex(merkleRootFromLeafHashes(d.map(leafHash)))).toBe(root)
    const packed = new Uint8Array(size * 32)
    d.forEach((x, i) => packed.set(leafHash(x), i * 32))
    expect(toHex(merkleRootFromLeafHashes(packed))).toBe(root)
    expect(toHex(MerkleTree.fromLeaves(d).root())).toBe(root)
    const b = new MerkleRootBuilder()
    for (const x of d) b.addLeaf(x)
    expect(toHex(b.root())).toBe(root)
  })

  it.each(PATHS)('inclusion path of leaf $index in a tree of $size', ({ index, size, path }) => {
    const d = LEAVES.slice(0, size)
    expect(inclusionProof(d, index).map(toHex)).toEqual(path)
    expect(MerkleTree.fromLeaves(d).inclusionProofs([index, index]).map((p) => p.map(toHex))).toEqual([path, path])
    const root = fromHex(ROOTS[size - 1]!)
    const p = path.map(fromHex)
    expect(verifyInclusion({ root, size, index, leafData: d[index]!, path: p })).toBe(true)
    expect(verifyInclusionHash({ root, size, index, leafHash: leafHash(d[index]!), path: p })).toBe(true)
  })

  // The corruptions the Go verifier tests apply to each published proof (proof/verify_test.go).
  it.each(PATHS.filter((p) => p.size > 1))('corrupted variants of the path of leaf $index in $size are rejected', ({ index, size, path }) => {
    const d = LEAVES.slice(0, size)
    const root = fromHex(ROOTS[size - 1]!)
    const p = path.map(fromHex)
    const leafData = d[index]!
    const some = fromHex('abacaba000000000000000000000000000000000000000000060061e00123456')
    const bad = [
      { root, size, index: index - 1, leafData, path: p },
      { root, size, index: index + 1, leafData, path: p },
      { root, size, index: index ^ 2, leafData, path: p },
      { root, size: size * 2, index, leafData, path: p },
      { root, size: Math.floor(size / 2), index, leafData, path: p },
      { root, size, index, leafData: new TextEncoder().encode('WrongLeaf'), path: p },
      { root: fromHex(EMPTY), size, index, leafData, path: p },
      { root: some, size, index, leafData, path: p },
      { root, size, index, leafData, path: [...p, new Uint8Array(0)] },
      { root, size, index, leafData, path: [...p, root] },
      { root, size, index, leafData, path: [new Uint8Array(0), ...p] },
      { root, size, index, leafData, path: [root, ...p] },
      { root, size, index, leafData, path: p.slice(0, -1) },
      ...(p.length > 1 ? [{ root, size, index, leafData, path: [p[0]!, some, ...p.slice(1)] }] : []),
      ...p.map((_, i) => ({ root, size, index, leafData, path: p.map((h, j) => (j === i ? Uint8Array.from(h, (x, k) => (k === 0 ? x ^ 8 : x)) : h)) })),
    ]
    for (const b of bad) expect(verifyInclusion(b)).toBe(false)
  })

  it('single-entry tree: root equals the leaf hash and the path is empty', () => {
    const data = new TextEncoder().encode('data')
    const h = leafHash(data)
    expect(verifyInclusion({ root: h, size: 1, index: 0, leafData: data, path: [] })).toBe(true)
    expect(verifyInclusion({ root: new Uint8Array(0), size: 1, index: 0, leafData: data, path: [] })).toBe(false)
    for (const [index, size] of [[0, 0], [1, 0], [2, 1], [1, 1]] as const) {
      expect(verifyInclusion({ root: h, size, index, leafData: data, path: [] })).toBe(false)
    }
  })
})
