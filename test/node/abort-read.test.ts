/**
 * A first pass over a participants file stops once its AbortSignal is aborted (`signal` of
 * `streamParticipantsFile`, `streamWeightedCsv`, `commitFile`, `streamDrawFile`), with the signal's
 * reason, between two chunks: it used to read the whole file (148 MiB: 11.8 s after a SIGTERM to
 * `orbitdraw commit`).
 */
import { writeFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { commitFile, streamDrawFile, streamParticipantsFile, streamWeightedCsv } from '../../src/node/index.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { useTempFiles } from '../helpers/temp-files.js'

const files = useTempFiles('orbitdraw-abort-read-')
const chain = buildChain(8, 'abort-read')
const LINES = Array.from({ length: 20_000 }, (_, i) => `entrant ${i}`).join('\n') + '\n'
const CSV = `name,tickets\n${Array.from({ length: 20_000 }, (_, i) => `entrant ${i},${1 + (i % 5)}`).join('\n')}\n`

/** Aborts after the first progress report; returns how many reports came. */
function abortAfterFirstChunk(): { signal: AbortSignal; onProgress: () => void; reports: () => number } {
  const controller = new AbortController()
  let n = 0
  return { signal: controller.signal, onProgress: () => void (n++ === 0 && controller.abort()), reports: () => n }
}

describe('a first pass stops when its signal is aborted', () => {
  it('streamParticipantsFile and streamWeightedCsv: the AbortError, after the chunk in hand, not the whole file', async () => {
    const lines = files.nextPath('lines', '.txt')
    await writeFile(lines, LINES)
    const csv = files.nextPath('tickets', '.csv')
    await writeFile(csv, CSV)
    for (const read of [
      (a: ReturnType<typeof abortAfterFirstChunk>) => streamParticipantsFile(lines, { chunkBytes: 4096, threads: 1, signal: a.signal, onProgress: a.onProgress }),
      (a: ReturnType<typeof abortAfterFirstChunk>) => streamWeightedCsv(csv, { weightColumn: 'tickets', chunkBytes: 4096, threads: 1, signal: a.signal, onProgress: a.onProgress }),
    ]) {
      const a = abortAfterFirstChunk()
      await expect(read(a)).rejects.toMatchObject({ name: 'AbortError' })
      // About 60 chunks of 4 KiB: one report, then the abort.
      expect(a.reports()).toBeLessThanOrEqual(2)
    }
  })

  it('a signal aborted before the call stops it at once, with the reason given', async () => {
    const lines = files.nextPath('lines', '.txt')
    await writeFile(lines, LINES)
    const reason = new Error('stopped by the caller')
    await expect(streamParticipantsFile(lines, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason)
  })

  it('commitFile and streamDrawFile pass the signal on', async () => {
    const lines = files.nextPath('lines', '.txt')
    await writeFile(lines, LINES)
    const options = { beacon: BEACON_NAME, target: 6, after: { sequence: 4, block: chain[4]!.cid }, draw: { kind: 'pick', count: 1 } } as const
    await expect(commitFile(lines, { ...options, signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
    await expect(streamDrawFile(lines, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
    // Not aborted: the same calls read the file.
    expect((await commitFile(lines, { ...options, signal: new AbortController().signal })).list.count).toBe(20_000)
  })
})
