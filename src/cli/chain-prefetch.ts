/**
 * `orbitdraw draw`'s chain walk, begun early on a second thread. A fresh draw first reads its
 * commitment, which replays the committed plan (for a `panel`: the counter and the gate, hundreds of
 * ms of CPU), then fetches the beacon's head and every block from it down to the commitment's `after`
 * block, one request after another (each block's `previous` link names the next). The beacon's
 * protocol allows no fewer round trips; this module overlaps them with the replay instead.
 *
 * As soon as the commitment file's bytes are read (before they are checked), a worker thread asks the
 * first gateway for the head as plain JSON (`/ipns/<name>`) and follows `previous` links down to the
 * lowest block the proof carries, with `node:http(s)`, keeping each block's bytes as served. The draw's
 * own client then runs exactly as before (signed head, every block by CID, every link by hash, the
 * `after` block, the chain checks), through a `fetch` that answers a raw block request from those bytes
 * when the worker has them, else from the network. Nothing the worker reads is trusted: a block's bytes
 * reach the draw only as the answer to a request for its CID, and the gateway source checks that they
 * hash to it, as for any answer. A worker that fails, is slow or reads a stale head only costs requests.
 *
 * @module
 */
import { Worker } from 'node:worker_threads'
import { answerOf, type NodeFetch } from '../net/node-fetch.js'

/** The most blocks the worker fetches (a proof carries at most `LIMITS.maxChainBlocks`, 10,000). */
const MAX_BLOCKS = 10_000
/** The largest block body the worker keeps (`LIMITS.maxBlockBytes`). */
const MAX_BLOCK_BYTES = 64 * 1024
/** Each request's timeout in the worker, ms. */
const TIMEOUT_MS = 10_000

/** The worker: GETs the head JSON, then each `previous` block, posting `{ cid, bytes }` for every block. */
const WORKER_SOURCE = `'use strict'
const { parentPort, workerData } = require('node:worker_threads')
const { gateway, name, downTo, maxBlocks, maxBytes, timeoutMs } = workerData
const lib = require(gateway.startsWith('https:') ? 'node:https' : 'node:http')
const agent = new lib.Agent({ keepAlive: true })
const get = (path, accept) => new Promise((resolve, reject) => {
  const req = lib.get(gateway + path, { agent, headers: { accept }, timeout: timeoutMs }, (res) => {
    if (res.statusCode !== 200 || (res.headers['content-encoding'] ?? 'identity') !== 'identity') { res.destroy(); return reject(new Error('status ' + res.statusCode)) }
    const chunks = []
    let total = 0
    res.on('data', (c) => { total += c.length; if (total > maxBytes) res.destroy(new Error('too large')); else chunks.push(c) })
    res.on('end', () => resolve(Buffer.concat(chunks)))
    res.on('error', reject)
  })
  req.on('timeout', () => req.destroy(new Error('timeout')))
  req.on('error', reject)
})
const linkOf = (bytes) => {
  const block = JSON.parse(bytes.toString('utf8'))
  const previous = typeof block.previous === 'string' && block.previous.startsWith('/ipfs/') ? block.previous.slice(6) : undefined
  const sequence = block.data !== null && typeof block.data === 'object' ? block.data.sequence : undefined
  return { previous, sequence: typeof sequence === 'number' ? sequence : undefined }
}
;(async () => {
  let link = linkOf(await get('/ipns/' + name, 'application/json'))
  for (let n = 0; n < maxBlocks && link.previous !== undefined && link.sequence !== undefined && link.sequence > downTo; n++) {
    const cid = link.previous
    const bytes = await get('/ipfs/' + cid + '?format=raw', 'application/vnd.ipld.raw')
    parentPort.postMessage({ cid, bytes })
    link = linkOf(bytes)
  }
})().catch(() => undefined).finally(() => { agent.destroy(); parentPort.close() })
`

/** A chain walk under way on a second thread (see the module comment). */
export interface ChainPrefetch {
  /** `fetch` answering a raw block request of `gateway` from the walk's bytes when it has them, else `fetch` itself. */
  readonly fetch: NodeFetch
  /** Blocks answered from the walk so far. */
  readonly served: () => number
  /** Stops the worker (at once; it also ends on its own, and never holds the process open). */
  readonly stop: () => void
  /** Settles when the worker has ended (walked down, failed or stopped). */
  readonly done: Promise<void>
}

/**
 * The prefetch for a commitment file's bytes (read leniently: they are checked later, by the draw), or
 * undefined when they do not name a beacon and blocks.
 */
export function prefetchFor(bytes: Uint8Array, gateway: string, fetch: NodeFetch): ChainPrefetch | undefined {
  let c: { beacon?: unknown; target?: unknown; after?: { sequence?: unknown } } | undefined
  try {
    c = (JSON.parse(new TextDecoder().decode(bytes)) as { commitment?: typeof c }).commitment
  } catch {
    return undefined
  }
  const after = c?.after?.sequence
  if (typeof c?.beacon !== 'string' || !/^[a-zA-Z0-9]{1,100}$/.test(c.beacon) || !Number.isSafeInteger(c.target) || !Number.isSafeInteger(after)) return undefined
  const target = c.target as number
  // The proof carries the blocks down to the target, and down to the `after` block when it is at most
  // 64 below the target (\`draw\`'s includeAfterWithin default).
  const downTo = target - (after as number) <= 64 ? (after as number) : target
  return prefetchChain({ gateway, name: c.beacon, downTo, fetch })
}

/**
 * Starts walking `name`'s chain on `gateway` down to sequence `downTo`, on a worker thread; the
 * returned `fetch` wraps `fetch` (see the module comment).
 */
export function prefetchChain(options: { gateway: string; name: string; downTo: number; fetch: NodeFetch }): ChainPrefetch {
  // Normalized as the gateway source does, so that its request URLs start with the same prefix.
  const gateway = new URL(options.gateway).href.replace(/\/+$/, '')
  const blocks = new Map<string, Uint8Array>()
  let served = 0
  let worker: Worker | undefined
  let done = Promise.resolve()
  try {
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { gateway, name: options.name, downTo: options.downTo, maxBlocks: MAX_BLOCKS, maxBytes: MAX_BLOCK_BYTES, timeoutMs: TIMEOUT_MS } })
    w.unref()
    w.on('message', (m: { cid: string; bytes: Uint8Array }) => blocks.set(m.cid, m.bytes))
    done = new Promise((resolve) => {
      w.on('error', () => resolve())
      w.on('exit', () => resolve())
    })
    worker = w
  } catch {
    worker = undefined
  }
  const prefix = `${gateway}/ipfs/`
  const fetch: NodeFetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined
    if (url !== undefined && url.startsWith(prefix) && url.endsWith('?format=raw') && (init?.method ?? 'GET') === 'GET') {
      const cid = url.slice(prefix.length, -'?format=raw'.length)
      const bytes = blocks.get(cid)
      if (bytes !== undefined) {
        blocks.delete(cid)
        served++
        return Promise.resolve(answerOf(url, bytes, 'application/vnd.ipld.raw'))
      }
    }
    return options.fetch(input, init)
  }
  return { fetch, served: () => served, stop: () => void worker?.terminate(), done }
}
