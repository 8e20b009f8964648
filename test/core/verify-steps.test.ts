/**
 * `verify` as steps: each step's checks appear in order, and what a step found is reported; a step that
 * throws ends verification with a named, failed `internal` check after the checks already made, never a
 * throw, and the facts only a finished run reports (commitment, outcome, target) are left out.
 */
import { describe, expect, it } from 'vitest'
import { verify } from '../../src/core/verify.js'
import { checkChain } from '../../src/core/chain.js'
import { parseBlock } from '../../src/core/block.js'
import { base64ToBytes } from '../../src/core/bytes.js'
import { parseCommitment } from '../../src/core/commitment.js'
import { makeProof, TEST_TSA } from '../browser/fixtures.js'

const proof = await makeProof({ signed: true })
const beacon = (proof.commitment as { beacon: string }).beacon
const trust = { beacons: [beacon], timestampAuthorities: [TEST_TSA.rootPem] }

describe('verify as steps', () => {
  it('a step that throws becomes a failed internal check after the checks already made', async () => {
    const now = new Proxy(new Date(), {
      get() {
        throw new TypeError('boom')
      },
    })
    const r = await verify(JSON.stringify(proof), { now, trust })
    expect(r.checks.map((c) => [c.name, c.ok])).toEqual([
      ['version', true],
      ['format', true],
      ['commitment-cid', true],
      ['beacon-trusted', true],
      ['participants', true],
      ['internal', false],
    ])
    expect(r.checks.at(-1)!.detail).toBe('verification stopped unexpectedly: boom')
    expect(r.verdict).toBe('failed')
    expect(r.commitmentCid).toBe(proof.commitmentCid)
    expect(r.beacon?.trusted).toBe(true)
    expect(r.commitment).toBeUndefined()
    expect(r.outcome).toBeUndefined()
    expect(r.target).toBeUndefined()
  })

  it('the chain step hands on the target block checkChain proves (no check looked up by name)', async () => {
    const commitment = parseCommitment(proof.commitment)
    const blocks = (proof.chain as { blocks: { cid: string; bytes: string }[] }).blocks.map((b) => parseBlock(base64ToBytes(b.bytes), b.cid))
    const proven = await checkChain({ beacon, target: commitment.target, after: commitment.after, blocks })
    expect(proven.target?.sequence).toBe(commitment.target)
    const r = await verify(JSON.stringify(proof), { trust })
    expect(r.verdict).toBe('verified')
    expect(r.target).toEqual({ sequence: proven.target!.sequence, cid: proven.target!.cid, timestamp: proven.target!.timestamp })
    // A chain that stops above the target proves none: no target, and verification stops after beacon-authenticity.
    const short = await checkChain({ beacon, target: commitment.target, after: commitment.after, blocks: blocks.slice(0, 1) })
    expect(short.target).toBeUndefined()
  })
})
