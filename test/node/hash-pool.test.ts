/**
 * The one hash pool (src/node/hash-pool.ts) that both the in-memory parallel hashes and the streamed
 * reader use: jobs are answered in the order sent, with the core's roots; once the worker is gone every
 * job in hand and every later one is refused (the callers then hash on their own thread), and the
 * streamed reader's digest does not change.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { leafWords, participantsRoot } from '../../src/core/participants.js'
import { chunkRoots } from '../../src/node/hash-job.js'
import { HashPool, poolStats } from '../../src/node/hash-pool.js'
import { streamParticipantsFile } from '../../src/node/participants-stream.js'
import { bytesToHex } from '../../src/core/bytes.js'

const entries = (from: number, n: number): string[] => Array.from({ length: n }, (_, i) => `entry-${from + i}`)

describe('HashPool', () => {
  it('answers jobs in the order sent, each the core\'s chunk roots', async () => {
    const pool = HashPool.start()
    expect(pool).not.toBeNull()
    try {
      const jobs = [0, 64, 128, 192].map((first) => ({ first, lines: entries(first, 64) }))
      const answers = await Promise.all(jobs.map((j) => pool!.run<Int32Array>({ entries: j.lines.join('\n'), weights: null, secret: null, salts: null, firstIndex: j.first, chunk: 16 })))
      jobs.forEach((j, k) => expect(answers[k]).toEqual(chunkRoots(leafWords(j.lines, null, null, j.first), 64, 16)))
      expect(pool!.inHand).toBe(0)
    } finally {
      pool?.close()
    }
  })

  it('a closed (or failed) worker refuses every job, at once', async () => {
    const pool = HashPool.start()!
    const before = poolStats.failed
    const job = { entries: 'a\nb', weights: null, secret: null, salts: null, firstIndex: 0, chunk: 2 }
    const inHand = pool.run(job)
    pool.close()
    await expect(inHand).rejects.toThrow()
    expect(pool.alive).toBe(false)
    await expect(pool.run(job)).rejects.toThrow(/not running/)
    expect(poolStats.failed).toBeGreaterThan(before)
  })

  it('the streamed reader on two threads gives participantsRoot\'s digest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orbitdraw-pool-'))
    try {
      const list = entries(0, 5000)
      const path = join(dir, 'p.txt')
      await writeFile(path, list.join('\n'))
      const before = poolStats.answered
      const r = await streamParticipantsFile(path, { threads: 2, parallelFromBytes: 0, blockLog: 8, steal: false })
      expect(bytesToHex(r.root)).toBe(bytesToHex(participantsRoot(list)))
      expect(poolStats.answered).toBeGreaterThan(before)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
