/**
 * Plan method 2 (docs/spec.md, Plan methods): its vectors replay byte for byte, a plan method 1
 * refuses commits, draws and verifies as method 2 through the public API, method 1 plans keep their
 * commitment unchanged, and a commitment naming another method is refused.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, parseCommitment, serializeProof, verify } from '../../../src/core/index.js'
import { encodeCommitment } from '../../../src/core/commitment.js'
import { panelDraw } from '../../../src/core/kinds/panel.js'
import { PLAN_METHODS } from '../../../src/core/sortition/index.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { plan2Inputs, runPlan2, type Plan2Vector } from './plan2-cases.js'
import { proportionalQuotas, smallPool } from './fixtures.js'
import { vectorPoolAndRows } from './plan-vector-kit.js'

const file = JSON.parse(readFileSync(new URL('../../vectors/sortition-plan2.json', import.meta.url), 'utf8')) as { cases: Plan2Vector[] }
const CHAIN = buildChain(12, 'plan2')
const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: CHAIN[7]!.cid }, label: 'plan 2' }

describe('plan method 2', () => {
  it('the vectors replay: both gates, the cost with 400,000 rounds, the draw and its bytes', () => {
    const inputs = plan2Inputs()
    expect(file.cases.length).toBe(inputs.length)
    inputs.forEach((input, i) => expect(runPlan2(input)).toEqual(file.cases[i]))
    const v = file.cases[0]!
    expect(v.method1Kept).toBeLessThan(PLAN_METHODS[1].kept)
    expect(v.method2Kept).toBe(PLAN_METHODS[2].kept)
    expect(v.cost.rounds).toBe(400_000)
  })

  it('a plan method 1 refuses commits as method 2, draws and verifies; tampering with the members fails panel-replay', async () => {
    const v = file.cases[0]!
    const { pool, rows } = vectorPoolAndRows(v)
    const { draw, participants } = panelDraw(pool, rows, v.k, { exactFeatures: [], alternates: 2 })
    expect(draw.plan).toBe(2)
    const { commitment } = commit({ ...base, draw, participants })
    expect((parseCommitment(encodeCommitment(commitment)).draw as { plan?: number }).plan).toBe(2)
    const proof = drawFromBlock(commitment, participants, CHAIN[10]!)
    const r = await verify(serializeProof(proof), ENGINE_ONLY)
    expect(r.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([])
    const j = JSON.parse(serializeProof(proof)) as { outcome: { members: { index: number; entry: string; rank: number }[] } }
    const outside = participants.findIndex((_, i) => !j.outcome.members.some((m) => m.index === i))
    j.outcome.members[0] = { rank: 1, index: outside, entry: participants[outside]! }
    j.outcome.members.sort((a, b) => a.index - b.index).forEach((m, i) => (m.rank = i + 1))
    const bad = await verify(JSON.stringify(j), ENGINE_ONLY)
    expect(bad.ok).toBe(false)
    expect(bad.checks.filter((c) => !c.ok).map((c) => c.name)).toContain('panel-replay')
  })

  it('a plan method 1 admits keeps its commitment without a plan key', () => {
    const pool = smallPool(60, [2, 3, 4], 11)
    const { draw } = panelDraw(pool, proportionalQuotas(pool, 10, 1), 10)
    expect('plan' in draw).toBe(false)
  })

  it('a commitment naming plan 1 (or 3 without its maxRounds) is refused at $.draw.plan ($.draw.maxRounds)', () => {
    const pool = smallPool(60, [2, 3, 4], 11)
    const { draw, participants } = panelDraw(pool, proportionalQuotas(pool, 10, 1), 10)
    const { commitment } = commit({ ...base, draw, participants })
    for (const plan of [1, 3, '2']) {
      const j = JSON.parse(new TextDecoder().decode(encodeCommitment(commitment))) as { draw: Record<string, unknown> }
      j.draw.plan = plan
      expect(() => parseCommitment(new TextEncoder().encode(JSON.stringify(j)))).toThrow(/plan/)
    }
  })
})
