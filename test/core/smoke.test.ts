import { describe, expect, it } from 'vitest'
import { commit } from '../../src/commit.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { verify } from '../../src/verify.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { ENGINE_ONLY } from '../helpers/policy.js'

describe('commit → drawFromBlock → verify', () => {
  const chain = buildChain(12)
  const participants = Array.from({ length: 50 }, (_, i) => `person-${i}`)
  it('a public pick verifies', async () => {
    const { commitment } = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, participants, draw: { kind: 'pick', count: 3 }, label: 'smoke' })
    const proof = drawFromBlock(commitment, participants, chain[10]!)
    const res = await verify(JSON.parse(JSON.stringify(proof)), ENGINE_ONLY)
    expect(res.checks.filter((c) => !c.ok)).toEqual([])
    expect(res.ok).toBe(true)
    expect(proof.outcome.kind === 'pick' && proof.outcome.winners.length).toBe(3)
  })
  it('a private pick verifies and hides the list', async () => {
    const { commitment, secret } = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, participants, draw: { kind: 'pick', count: 5 }, label: 'private', private: true })
    const proof = drawFromBlock(commitment, participants, chain[10]!, { disclosure: 'winners', secret })
    const winners = new Set(proof.outcome.kind === 'pick' ? proof.outcome.winners.map((w) => w.entry) : [])
    const text = JSON.stringify(proof)
    for (const p of participants) expect(text.includes(JSON.stringify(p))).toBe(winners.has(p))
    const res = await verify(proof, ENGINE_ONLY)
    expect(res.checks.filter((c) => !c.ok)).toEqual([])
  })
  it('shuffle, range and weighted verify', async () => {
    const w = participants.slice(0, 10).map((entry, i) => ({ entry, weight: i + 1 }))
    const specs = [
      [{ kind: 'shuffle' } as const, participants],
      [{ kind: 'range', min: -5n, max: 2n ** 70n, count: 4, distinct: true } as const, undefined],
      [{ kind: 'weighted', count: 3 } as const, w],
    ] as const
    for (const [draw, list] of specs) {
      const { commitment } = commit({ beacon: BEACON_NAME, target: 11, after: { sequence: 9, block: chain[9]!.cid }, participants: list, draw })
      const proof = drawFromBlock(commitment, list, chain[11]!)
      const res = await verify(proof, ENGINE_ONLY)
      expect(res.checks.filter((c) => !c.ok), draw.kind).toEqual([])
    }
  })
})
