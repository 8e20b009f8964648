/**
 * participantsRootParallel (worker threads) equals participantsRoot byte for byte on every kind of list
 * and around the chunk boundaries that decide how the list is split between threads, and fails the same way.
 */
import { describe, expect, it } from 'vitest'
import { participantsRoot } from '../../src/core/participants.js'
import { leafWords } from '../../src/core/participants.js'
import { rootOfLeafWords } from '../../src/core/merkle.js'
import { participantsRootParallel, PARALLEL_MIN_ENTRIES, workerStats } from '../../src/node/parallel-hash.js'
import { chunkRoots } from '../../src/node/hash-job.js'
import { leafSalt } from '../../src/core/secret.js'
import { toHex } from '../core/merkle/reference.js'

const names = (n: number, tag = 'p'): string[] => Array.from({ length: n }, (_, i) => `${tag}-${i}-é`)

describe('chunk roots are the level-14 nodes of the RFC 9162 tree', () => {
  it('reducing chunk roots gives the tree head, for sizes around chunk multiples (small chunks)', () => {
    for (const chunk of [1, 2, 4, 8]) {
      for (let n = 1; n <= 70; n++) {
        const list = names(n)
        const words = leafWords(list, null, null)
        const roots = chunkRoots(words.slice(), n, chunk)
        expect(toHex(rootOfLeafWords(roots, Math.ceil(n / chunk))), `n ${n}, chunk ${chunk}`).toBe(toHex(participantsRoot(list)))
      }
    }
  })
})

describe('participantsRootParallel', () => {
  const secret = new Uint8Array(32).fill(7)

  it('equals participantsRoot for public, weighted, salted (secret) and salted (given salts) lists on two threads', async () => {
    const before = { ...workerStats }
    // Sizes: the threshold (an odd split: the worker's part shorter) and one past a chunk multiple.
    for (const n of [PARALLEL_MIN_ENTRIES, 2 ** 17 + 1]) {
      const list = names(n)
      expect(toHex(await participantsRootParallel(list)), `public ${n}`).toBe(toHex(participantsRoot(list)))
    }
    const list = names(PARALLEL_MIN_ENTRIES + 3, 'w')
    const weighted = list.map((entry, i) => ({ entry, weight: (i % 97) + 1 + (i === 5 ? 2 ** 52 : 0) }))
    expect(toHex(await participantsRootParallel(weighted))).toBe(toHex(participantsRoot(weighted)))
    expect(toHex(await participantsRootParallel(list, { secret }))).toBe(toHex(participantsRoot(list, { secret })))
    const salts = list.map((_, i) => leafSalt(secret, i))
    expect(toHex(await participantsRootParallel(list, { salts }))).toBe(toHex(participantsRoot(list, { secret })))
    expect(toHex(await participantsRootParallel(weighted, { secret }))).toBe(toHex(participantsRoot(weighted, { secret })))
    // Every one of those 6 digests had its second half hashed by the worker thread, none by a fallback.
    expect(workerStats.hashed - before.hashed).toBe(6)
    expect(workerStats.failed - before.failed).toBe(0)
  }, 300_000) // a dozen digests of 100,000+ entries: minutes on a loaded 2-core machine

  it('small lists and threads: 1 take the single-thread path with the same result', { timeout: 120_000 }, async () => {
    const small = names(1000)
    expect(toHex(await participantsRootParallel(small))).toBe(toHex(participantsRoot(small)))
    const big = names(PARALLEL_MIN_ENTRIES)
    expect(toHex(await participantsRootParallel(big, { threads: 1 }))).toBe(toHex(participantsRoot(big)))
  })

  it('rejects bad lists with the same typed errors as participantsRoot (validation before any hashing)', { timeout: 120_000 }, async () => {
    const dup = names(PARALLEL_MIN_ENTRIES)
    dup[PARALLEL_MIN_ENTRIES - 1] = dup[3]!
    await expect(participantsRootParallel(dup)).rejects.toMatchObject({ code: 'ENTRY_DUPLICATE', path: `$[${PARALLEL_MIN_ENTRIES - 1}]` })
    const bad = names(PARALLEL_MIN_ENTRIES)
    bad[70_000] = 'line\nbreak'
    await expect(participantsRootParallel(bad)).rejects.toMatchObject({ code: 'ENTRY_CONTROL_CHARACTER', path: '$[70000]' })
    const list = names(PARALLEL_MIN_ENTRIES)
    await expect(participantsRootParallel(list, { salts: [new Uint8Array(32)] })).rejects.toMatchObject({ code: 'SALTS_MISMATCH' })
    await expect(participantsRootParallel(list, { secret: new Uint8Array(3) })).rejects.toMatchObject({ code: 'INVALID_SECRET' })
  })
})
