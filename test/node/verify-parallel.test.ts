/**
 * The Node `verify` hashes a large full disclosure on two threads (`participantsDigest:
 * participantsRootParallel`): its result equals the core `verify`'s (default `participantsRoot`) check for
 * check, for valid proofs (public and salted) and for proofs whose list was tampered with (an edited
 * entry, a duplicate, a bad entry), so the verdict never depends on threads.
 */
import { describe, expect, it } from 'vitest'
import { commit } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { serializeProof, type Proof } from '../../src/core/proof.js'
import { verify as verifyCore } from '../../src/core/verify.js'
import { verify as verifyNode } from '../../src/verify.js'
import { PARALLEL_MIN_ENTRIES, workerStats } from '../../src/node/parallel-hash.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'

const RELAXED = { allowUnsigned: true, allowUntimestamped: true, trust: { beacons: [BEACON_NAME] } } as const
const n = PARALLEL_MIN_ENTRIES + 5

function bigProof(salted: boolean): Proof {
  const chain = buildChain(12, 'parallel-verify')
  const entries = Array.from({ length: n }, (_, i) => `entrant-${i}-ü`)
  const { commitment, secret } = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, participants: entries, draw: { kind: 'pick', count: 3 }, label: 'parallel', ...(salted ? { private: { secret: new Uint8Array(32).fill(9) } } : {}) })
  return JSON.parse(serializeProof(drawFromBlock(commitment, entries, chain[10]!, secret === undefined ? {} : { secret, disclosure: 'full' }))) as Proof
}

function edited(proof: Proof, edit: (entries: string[]) => void): Proof {
  const copy = structuredClone(proof) as Proof & { participants: { entries: string[] } }
  edit(copy.participants.entries)
  return copy
}

describe('Node verify on two threads equals the core verify', () => {
  for (const salted of [false, true]) {
    it(`a ${salted ? 'salted' : 'public'} full disclosure of ${n} entries, valid and tampered`, async () => {
      const proof = bigProof(salted)
      // Public: valid, an edited entry (a wrong root), a duplicate, a bad entry; salted: valid and edited.
      const cases: Proof[] = [
        proof,
        edited(proof, (e) => (e[n - 1] = 'someone else')),
        ...(salted ? [] : [edited(proof, (e) => (e[n - 2] = e[3]!)), edited(proof, (e) => (e[70_000] = ' leading space'))]),
      ]
      for (const [k, p] of cases.entries()) {
        const before = workerStats.hashed + workerStats.failed
        const text = JSON.stringify(p)
        const core = await verifyCore(text, RELAXED)
        const node = await verifyNode(text, RELAXED)
        expect(node, `case ${k}`).toEqual(core)
        expect(core.ok, `case ${k}`).toBe(k === 0)
        // The valid list went through the worker (invalid ones fail validation before any hashing).
        if (k === 0) expect(workerStats.hashed + workerStats.failed).toBeGreaterThan(before)
      }
    }, 120_000)
  }
})
