/**
 * Worker thread of {@link participantsRootParallel} and `participantsTreeParallel`: hashes one contiguous
 * slice of a validated participants list and returns the roots of its aligned chunks, or the slice's
 * lowest tree levels (see `parallel-hash.ts` and `block-hasher.ts`; scheduled by `hash-pool.ts`).
 *
 * @module
 */
import { parentPort } from 'node:worker_threads'
import { lowerLevels } from '../core/merkle.js'
import { leafWords } from '../core/participants.js'
import { OrganizerSecret } from '../core/secret.js'
import { chunkRoots, type HashJob } from './hash-job.js'

parentPort?.on('message', (job: HashJob) => {
  const entries = job.entries.split('\n')
  let salts: OrganizerSecret | Uint8Array[] | null = null
  if (job.secret !== null) salts = OrganizerSecret.fromBytes(job.secret)
  else if (job.salts !== null) {
    const packed = job.salts
    salts = Array.from({ length: entries.length }, (_, i) => packed.subarray(i * 32, i * 32 + 32))
  }
  const words = leafWords(entries, job.weights, salts, job.firstIndex)
  if (job.levels !== undefined && job.levels > 0) {
    // The slice's lowest tree levels (for participantsTreeParallel), every buffer moved, not copied.
    const levels = lowerLevels(words, entries.length, job.levels)
    parentPort!.postMessage(levels, levels.map((l) => l.buffer as ArrayBuffer))
    return
  }
  const roots = chunkRoots(words, entries.length, job.chunk)
  parentPort!.postMessage(roots, [roots.buffer as ArrayBuffer])
})
