/**
 * The one scheduler of hash work on a worker thread, for every Node path that hashes participants on
 * two threads: the digest and tree of a list in memory (`parallel-hash.ts`) and the blocks of a file
 * read as a stream (`block-hasher.ts`). A pool answers jobs in the order they were sent (the worker
 * handles one message at a time); when the worker fails or exits, every job in hand and every later one
 * is refused, and the caller hashes on its own thread: no result ever depends on the threads.
 *
 * @module
 */
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { HashJob } from './hash-job.js'

/** @internal A job's answer: the roots of its chunks, or its lowest tree levels (`levels > 0`). */
export type HashAnswer = Int32Array | Int32Array[]

/** @internal Counts of jobs a worker answered and jobs refused because it failed (read by tests). */
export const poolStats = { answered: 0, failed: 0 }

/**
 * @internal A hash worker thread and the jobs it has in hand. Start one with {@link HashPool.start};
 * always {@link HashPool.close} it.
 */
export class HashPool {
  readonly #worker: Worker
  readonly #waiting: { resolve: (answer: HashAnswer) => void; reject: (err: Error) => void }[] = []
  #dead = false

  private constructor(worker: Worker) {
    this.#worker = worker
    worker.on('message', (answer: HashAnswer) => {
      poolStats.answered++
      this.#waiting.shift()?.resolve(answer)
    })
    const fail = (why: Error): void => {
      this.#dead = true
      for (const w of this.#waiting.splice(0)) {
        poolStats.failed++
        w.reject(why)
      }
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`hash worker exited with code ${code}`)))
  }

  /**
   * A pool of one worker thread, or null when none can start (the caller then hashes everything itself).
   * Under a TypeScript loader (tests, `tsx`) the worker is the `.ts` file, loaded the same way
   * (`--import tsx`); from `dist/` it is plain `.js`: `dist/node/hash-worker.js`, named as `../node/` so
   * that the verify bundle (`dist/bin/`) starts the same file as the library (one worker, not a second
   * bundled copy in the package).
   */
  static start(): HashPool | null {
    try {
      if (!import.meta.url.endsWith('.ts')) return new HashPool(new Worker(new URL('../node/hash-worker.js', import.meta.url)))
      const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href
      const code = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./hash-worker.ts', import.meta.url).href)}) })`
      return new HashPool(new Worker(code, { eval: true }))
    } catch {
      return null
    }
  }

  /** Jobs sent and not yet answered. */
  get inHand(): number {
    return this.#waiting.length
  }

  /** False once the worker failed: {@link HashPool.run} then refuses at once. */
  get alive(): boolean {
    return !this.#dead
  }

  /**
   * Sends `job` (its buffers moved, not copied); the promise settles with the worker's answer, or
   * rejects if the worker fails first.
   */
  run<T extends HashAnswer>(job: HashJob): Promise<T> {
    if (this.#dead) {
      poolStats.failed++
      return Promise.reject(new Error('hash worker is not running'))
    }
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push({ resolve: resolve as (answer: HashAnswer) => void, reject })
      const transfer = [job.weights?.buffer, job.secret?.buffer, job.salts?.buffer].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer)
      this.#worker.postMessage(job, transfer)
    })
  }

  /** Stops the worker (jobs still in hand are refused). */
  close(): void {
    this.#dead = true
    for (const w of this.#waiting.splice(0)) w.reject(new Error('hash pool closed'))
    void this.#worker.terminate()
  }
}
