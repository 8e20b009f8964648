/**
 * The draw cost of a plan with households (issue 22; docs/spec.md, Households, Cost): every plan method
 * charges its round cap (100,000, 400,000 or `maxRounds`) even when every feature is counted exactly,
 * since the household rule can refuse any round. An honest commit whose method-1 (and method-2) rounds
 * would pass the draw cost falls through to method 3 with a cap that fits; a forged commitment that
 * names method 1 or 2 for such a plan is refused before any round (`SORTITION_COST_LIMIT`).
 */
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, verify } from '../../../src/core/index.js'
import { panelDraw, planCost, SORTITION_LIMITS, type PanelOutcomeJson, type PanelSpec } from '../../../src/core/sortition/index.js'
import { checkHouseholdRounds, householdRoundsCharged } from '../../../src/core/sortition/household.js'
import { compositionPool, compositionQuotas } from '../../../src/core/kinds/sortition.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { proportionalQuotas, smallPool } from './fixtures.js'

const CHAIN = buildChain(12, 'household-cost')
const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: CHAIN[7]!.cid }, label: 'household cost' }

/** 4,000 respondents, one feature of 64 values with lax quotas (counted exactly), k = 400, 100 households of two: a round costs about 200,000 units. */
function bigCase(): { draw: PanelSpec; participants: readonly string[] } {
  const pool = smallPool(4000, [64], 5)
  const households = new Map(pool.respondents.map((r, i) => [r.id, `h${i % 3900}`]))
  return panelDraw(pool, proportionalQuotas(pool, 400, 100), 400, { exactFeatures: pool.features.map((f) => f.name), households })
}

const costOf = (spec: PanelSpec, rounds: number): ReturnType<typeof planCost> => {
  const pool = compositionPool(spec)
  return planCost(pool, compositionQuotas(spec), spec.k, spec.exact.map((e) => pool.features.findIndex((f) => f.name === e)), rounds, Infinity, spec.households !== undefined)
}

describe('households: the round cap is charged under every plan method', () => {
  it('the rounds charged: 100,000 (method 1), 400,000 (method 2), maxRounds (method 3)', () => {
    expect(householdRoundsCharged({})).toBe(SORTITION_LIMITS.maxRejectionRounds)
    expect(householdRoundsCharged({ method: 2 })).toBe(SORTITION_LIMITS.maxRejectionRoundsV2)
    expect(householdRoundsCharged({ method: 3, maxRounds: 432 })).toBe(432)
  })

  const { draw, participants } = bigCase()

  it('an honest commit whose method-1 rounds would pass the draw cost falls through to method 3 with a cap that fits; drawn and verified', async () => {
    expect(draw.exact).toHaveLength(1)
    const round = costOf(draw, 1).round
    // Without households (or before the charge) one round is charged: far within the limit.
    expect(round).toBeLessThan(SORTITION_LIMITS.maxDrawCost)
    expect(round * SORTITION_LIMITS.maxRejectionRounds).toBeGreaterThan(SORTITION_LIMITS.maxDrawCost)
    expect(draw.plan).toBe(3)
    expect(draw.maxRounds! * round).toBeLessThanOrEqual(SORTITION_LIMITS.maxDrawCost)
    expect(costOf(draw, draw.maxRounds!).draw).toBeLessThanOrEqual(SORTITION_LIMITS.maxDrawCost)
    const copy = JSON.parse(JSON.stringify(draw)) as PanelSpec
    const { commitment } = commit({ ...base, draw: copy, participants })
    const proof = drawFromBlock(commitment, participants, CHAIN[10]!)
    expect((proof.outcome as PanelOutcomeJson).rounds).toBeLessThanOrEqual(draw.maxRounds!)
    const r = await verify(proof, ENGINE_ONLY)
    expect(r.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([])
  }, 60_000)

  it('a forged commitment naming method 1 or 2 for that plan is refused before any round: SORTITION_COST_LIMIT, with households', () => {
    const { plan: _p, maxRounds: _m, ...method1 } = JSON.parse(JSON.stringify(draw)) as PanelSpec
    const limit = expect.objectContaining({ code: 'SORTITION_COST_LIMIT', detail: expect.stringMatching(/^the rejection rounds of this plan with households may take \d+ work units, more than 17179869184 \(100000 rounds of at most \d+/) })
    expect(() => commit({ ...base, draw: method1, participants })).toThrow(limit)
    expect(() => commit({ ...base, draw: { ...method1, plan: 2 }, participants })).toThrow(expect.objectContaining({ code: 'SORTITION_COST_LIMIT', detail: expect.stringContaining('400000 rounds') }))
    // Without the household rule the same plan counts every feature: one round charged, accepted.
    const { households: _h, ...plain } = method1
    expect(() => commit({ ...base, draw: plain, participants })).not.toThrow()
    // A forged method-3 cap over the draw cost is refused the same way.
    expect(() => commit({ ...base, draw: { ...method1, plan: 3, maxRounds: SORTITION_LIMITS.maxRejectionRoundsV3 }, participants })).toThrow(expect.objectContaining({ code: 'SORTITION_COST_LIMIT' }))
  }, 60_000)

  it('a proof whose commitment is rewritten to method 1 fails verify by name, before any round (the bound holds in verify)', async () => {
    const { commitment } = commit({ ...base, draw: JSON.parse(JSON.stringify(draw)) as PanelSpec, participants })
    const proof = JSON.parse(JSON.stringify(drawFromBlock(commitment, participants, CHAIN[10]!))) as { commitment: { draw: Record<string, unknown> } }
    delete proof.commitment.draw.plan
    delete proof.commitment.draw.maxRounds
    const r = await verify(proof, ENGINE_ONLY)
    const failed = r.checks.filter((c) => !c.ok)
    expect(failed.map((c) => c.name)).toEqual(['commitment-cid'])
    const round = costOf(draw, 1).round
    expect(failed[0]!.detail).toMatch(new RegExp(`^the commitment is invalid: the rejection rounds of this plan with households may take ${round * 100_000} work units, more than 17179869184 \\(100000 rounds of at most ${round};`))
  }, 60_000)

  it('checkHouseholdRounds charges the cap of every method, also when every feature is exact', () => {
    const plan = { pool: compositionPool(draw), quotas: compositionQuotas(draw), k: draw.k, exact: true }
    const counter = { exact: draw.exact.map((e) => plan.pool.features.findIndex((f) => f.name === e)) }
    const as = (method?: 2 | 3, maxRounds?: number): Parameters<typeof checkHouseholdRounds>[0] => ({ ...plan, counter, ...(method === undefined ? {} : { method }), ...(maxRounds === undefined ? {} : { maxRounds }) }) as unknown as Parameters<typeof checkHouseholdRounds>[0]
    expect(() => checkHouseholdRounds(as())).toThrow(expect.objectContaining({ code: 'SORTITION_COST_LIMIT' }))
    expect(() => checkHouseholdRounds(as(2))).toThrow(expect.objectContaining({ code: 'SORTITION_COST_LIMIT' }))
    expect(() => checkHouseholdRounds(as(3, draw.maxRounds))).not.toThrow()
  })
})
