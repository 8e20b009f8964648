/**
 * The Node library paths on two threads give byte for byte what the one-thread core paths give, on
 * lists of 100,005 entries (over PARALLEL_MIN_ENTRIES, with a partial last chunk), public and salted,
 * valid and wrong (the same typed error): participantsTreeParallel against participantsTree (root,
 * leaf data, salts, inclusion proofs), commitAsync against commit, prepareDrawAsync with the two-thread
 * digest and tree against prepareDraw (the proofs), makeReceiptsAsync against makeReceipts, and the
 * Node `draw` (from the emulator) against the beacon edge's one-thread draw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BeaconClient } from '../../src/beacon/client.js'
import { draw as drawOneThread } from '../../src/beacon/draw.js'
import { commit as commitCore, type Commitment } from '../../src/core/commitment.js'
import { drawPrepared, prepareDraw, prepareDrawAsync } from '../../src/core/draw.js'
import { makeReceipts, serializeReceipt } from '../../src/core/receipt.js'
import { participantsRoot, participantsTree } from '../../src/core/participants.js'
import { serializeProof, type Proof } from '../../src/core/proof.js'
import { commit, commitAsync } from '../../src/commit.js'
import { draw } from '../../src/draw.js'
import { startBeaconEmulator, type ServedBeaconEmulator } from '../../src/emulator/beacon.js'
import { participantsRootParallel, participantsTreeParallel, PARALLEL_MIN_ENTRIES, workerStats } from '../../src/node/parallel-hash.js'
import { makeReceiptsAsync } from '../../src/receipts.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'

const n = PARALLEL_MIN_ENTRIES + 5
const entries = Array.from({ length: n }, (_, i) => `entrant-${i}-ü`)
const secret = new Uint8Array(32).fill(11)
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
// Indices on both threads' sides: the first leaves, around the split (2^14 * 4 = 65,536), the partial last chunk.
const probes = [0, 1, 16_383, 16_384, 65_535, 65_536, 65_537, 98_303, 98_304, n - 2, n - 1]

/** Runs `work`, and returns the number of slices a worker thread hashed meanwhile (none failed). */
async function onWorker<T>(work: () => Promise<T>): Promise<[T, number]> {
  const before = { ...workerStats }
  const out = await work()
  expect(workerStats.failed).toBe(before.failed)
  return [out, workerStats.hashed - before.hashed]
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a rejection')
    },
    (e: unknown) => e,
  )
}

function thrown(f: () => unknown): unknown {
  try {
    f()
  } catch (e) {
    return e
  }
  throw new Error('expected an error')
}

const same = (e: unknown): object => {
  const err = e as { name: string; code: string; path?: string; message: string; constructor: unknown }
  return { name: err.name, code: err.code, path: err.path, message: err.message, ctor: err.constructor }
}

describe('participantsTreeParallel equals participantsTree', () => {
  it('public, salted and weighted salted lists: root, size, leaf data, salts and inclusion proofs', { timeout: 300_000 }, async () => {
    const weighted = entries.map((entry, i) => ({ entry, weight: (i % 13) + 1 }))
    for (const [name, list, options] of [
      ['public', entries, {}],
      ['salted', entries, { secret }],
      ['weighted salted', weighted, { secret }],
    ] as const) {
      const one = participantsTree(list, options)
      const [two, hashed] = await onWorker(() => participantsTreeParallel(list, options))
      expect(hashed, name).toBe(1)
      expect(two.size).toBe(one.size)
      expect(two.salted).toBe(one.salted)
      expect(two.weighted).toBe(one.weighted)
      expect(hex(two.root()), name).toBe(hex(one.root()))
      expect(hex(two.root()), name).toBe(hex(participantsRoot(list, options)))
      expect(two.inclusionProofs(probes).map((p) => p.map(hex)), name).toEqual(one.inclusionProofs(probes).map((p) => p.map(hex)))
      for (const i of probes) {
        expect(hex(two.leafData(i)), `${name} ${i}`).toBe(hex(one.leafData(i)))
        if (one.salted) expect(hex(two.salt(i)), `${name} ${i}`).toBe(hex(one.salt(i)))
      }
      expect(same(thrown(() => two.inclusionProof(n)))).toEqual(same(thrown(() => one.inclusionProof(n))))
    }
  })

  it('rejects a bad list with participantsTree\'s error, and threads: 1 is the one-thread tree', { timeout: 120_000 }, async () => {
    const dup = entries.slice()
    dup[n - 1] = dup[70_000]!
    expect(same(await rejection(participantsTreeParallel(dup, { secret })))).toEqual(same(thrown(() => participantsTree(dup, { secret }))))
    expect(same(await rejection(participantsTreeParallel(entries, { secret: new Uint8Array(5) })))).toEqual(same(thrown(() => participantsTree(entries, { secret: new Uint8Array(5) }))))
    const [tree, hashed] = await onWorker(() => participantsTreeParallel(entries, { secret, threads: 1 }))
    expect(hashed).toBe(0)
    expect(hex(tree.root())).toBe(hex(participantsRoot(entries, { secret })))
  })
})

describe('commitAsync (Node) equals commit', () => {
  const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: buildChain(8, 'commit-async')[7]!.cid }, draw: { kind: 'pick', count: 3 } as const, label: 'two threads' }

  it('public and salted: the same commitment bytes and CID; private: true gives a working secret', { timeout: 300_000 }, async () => {
    for (const options of [{ ...base, participants: entries }, { ...base, participants: entries, private: { secret } }]) {
      const one = commit(options)
      const [two, hashed] = await onWorker(() => commitAsync(options))
      expect(hashed).toBe(1)
      expect(two.cid).toBe(one.cid)
      expect(hex(two.bytes)).toBe(hex(one.bytes))
      expect(two.secret?.exportBytes()).toEqual(one.secret?.exportBytes())
    }
    const fresh = await commitAsync({ ...base, participants: entries, private: true })
    expect(fresh.secret).toBeDefined()
    expect(fresh.commitment.participants!.root).toBe(hex(participantsRoot(entries, { secret: fresh.secret! })))
  })

  it('a bad list or bad options: the same typed error (re-rooted under $.participants)', { timeout: 120_000 }, async () => {
    const dup = entries.slice()
    dup[n - 2] = dup[3]!
    const bad = entries.slice()
    bad[80_000] = 'tab\there'
    for (const options of [{ ...base, participants: dup }, { ...base, participants: bad }, { ...base, participants: entries, private: { secret: new Uint8Array(3) } }, { ...base, participants: entries, draw: { kind: 'nope' } as never }]) {
      const err = same(thrown(() => commit(options)))
      expect(same(await rejection(commitAsync(options)))).toEqual(err)
    }
    expect((same(thrown(() => commit({ ...base, participants: dup }))) as { path: string }).path).toBe(`$.participants[${n - 2}]`)
  })
})

describe('prepareDrawAsync with the two-thread digest and tree equals prepareDraw', () => {
  const chain = buildChain(12, 'prepare-async')
  const after = { sequence: 7, block: chain[7]!.cid }
  const publicC = commitCore({ beacon: BEACON_NAME, target: 10, after, participants: entries, draw: { kind: 'pick', count: 3 } }).commitment
  const saltedC = commitCore({ beacon: BEACON_NAME, target: 10, after, participants: entries, draw: { kind: 'pick', count: 3 }, private: { secret } }).commitment
  const two = { participantsDigest: participantsRootParallel, participantsTree: participantsTreeParallel }

  it('public full, salted full and salted winners-only: the same proofs, byte for byte', { timeout: 300_000 }, async () => {
    for (const [c, options] of [
      [publicC, {}],
      [saltedC, { secret }],
      [saltedC, { secret, disclosure: 'winners' as const }],
    ] as const) {
      const one = serializeProof(drawPrepared(prepareDraw(c, entries, options), chain[10]!))
      const [prepared, hashed] = await onWorker(() => prepareDrawAsync(c, entries, { ...options, ...two }))
      expect(hashed).toBe(1)
      expect(serializeProof(drawPrepared(prepared, chain[10]!))).toBe(one)
    }
  })

  it('a wrong list, a bad entry or a wrong secret: the same typed error', { timeout: 300_000 }, async () => {
    const edited = entries.slice()
    edited[n - 1] = 'someone else'
    const bad = entries.slice()
    bad[90_000] = ' leading space'
    const cases: [Commitment, readonly string[], object][] = [
      [publicC, edited, {}],
      [saltedC, edited, { secret }],
      [publicC, bad, {}],
      [saltedC, bad, { secret, disclosure: 'winners' }],
      [saltedC, entries, { secret: new Uint8Array(32).fill(12) }],
      [publicC, entries.slice(1), {}],
    ]
    for (const [k, [c, list, options]] of cases.entries()) {
      const err = same(thrown(() => prepareDraw(c, list, options)))
      expect(same(await rejection(prepareDrawAsync(c, list, { ...options, ...two }))), `case ${k}`).toEqual(err)
    }
  })
})

describe('makeReceiptsAsync (Node) equals makeReceipts', () => {
  it('the same receipts around the split; a wrong list or secret: the same error', { timeout: 300_000 }, async () => {
    const chain = buildChain(8, 'receipts-async')
    const result = commitCore({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, participants: entries, draw: { kind: 'pick', count: 3 }, private: { secret } })
    const one = makeReceipts(result, entries, secret)
    const [two, hashed] = await onWorker(() => makeReceiptsAsync(result, entries, secret))
    expect(hashed).toBe(1)
    expect(two.count).toBe(one.count)
    for (const i of probes) expect(serializeReceipt(two.receiptFor(i)), `receipt ${i}`).toBe(serializeReceipt(one.receiptFor(i)))
    const edited = entries.slice()
    edited[65_536] = 'changed'
    for (const [list, s] of [[edited, secret], [entries, new Uint8Array(32).fill(1)], [entries.slice(2), secret]] as const) {
      expect(same(await rejection(makeReceiptsAsync(result, list, s)))).toEqual(same(thrown(() => makeReceipts(result, list, s))))
    }
  })
})

describe('the Node draw hashes on two threads and returns the one-thread proof', () => {
  let emu: ServedBeaconEmulator
  beforeAll(async () => {
    // intervalMs 0: blocks are published only on request, so both draws see the same head.
    emu = await startBeaconEmulator({ intervalMs: 0, initialBlocks: 4 })
  })
  afterAll(async () => {
    await emu.stop()
  })

  it('public and private (winners-only) draws; a wrong list fails before any request', { timeout: 300_000 }, async () => {
    const client = new BeaconClient({ gateways: [emu.url], name: emu.beaconName })
    const genesisish = emu.beacon.bySequence(1)!
    for (const salted of [false, true]) {
      const { commitment } = commitCore({ beacon: emu.beaconName, target: 3, after: { sequence: 1, block: genesisish.cid }, participants: entries, draw: { kind: 'pick', count: 2 }, ...(salted ? { private: { secret } } : {}) })
      const options = salted ? { client, secret, disclosure: 'winners' as const, untimestamped: true } : { client, untimestamped: true }
      const one: Proof = await drawOneThread(commitment, entries, { ...options, participantsDigest: participantsRoot, participantsTree })
      const [two, hashed] = await onWorker(() => draw(commitment, entries, options))
      expect(hashed).toBe(1)
      expect(serializeProof(two)).toBe(serializeProof(one))
      const requests = client.requestCount
      const edited = entries.slice()
      edited[99_999] = 'not committed'
      const err = await rejection(draw(commitment, edited, options))
      expect(err).toMatchObject({ code: 'PARTICIPANTS_MISMATCH' })
      expect(client.requestCount).toBe(requests)
    }
  })
})
