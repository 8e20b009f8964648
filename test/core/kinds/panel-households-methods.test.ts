/**
 * Households and plan methods (issue 22 items 1 and 4): when a gate with households refuses, the commit
 * tries the next plan method exactly as the quota gates do (method 1, then 2, then 3 on method 2's
 * trials), through the public API (panelDraw -> commit -> drawFromBlock -> verify); a refusal of every
 * method names the household rule; a method-3 commitment with households is read, replayed and its
 * rounds charged in the work bound.
 */
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, verify } from '../../../src/core/index.js'
import { makePool, panelDraw, planPanel, SORTITION_LIMITS, type PanelSpec, type QuotaRow } from '../../../src/core/sortition/index.js'
import { checkHouseholdAcceptance, householdIndex, planWithHouseholds, sharedHousehold } from '../../../src/core/sortition/household.js'
import type { PanelOutcomeJson } from '../../../src/core/sortition/index.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { compositionPool, compositionQuotas } from '../../../src/core/kinds/sortition.js'

const CHAIN = buildChain(12, 'households-methods')
const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: CHAIN[7]!.cid }, label: 'households and plan methods' }

/**
 * A pool of one feature (two values, alternating) whose quotas every panel meets, so the plan counts
 * every feature and only the household rule refuses rounds: households of the given sizes (respondents
 * `h<i>-<j>`, household `i`), then `alone` respondents living alone.
 */
export function householdCase(sizes: readonly number[], alone: number, k: number): { pool: ReturnType<typeof makePool>; quotas: QuotaRow[]; households: Map<string, string> } {
  const ids: string[] = []
  const households = new Map<string, string>()
  sizes.forEach((size, h) => {
    for (let j = 0; j < size; j++) {
      const id = `h${String(h).padStart(2, '0')}-${j}`
      ids.push(id)
      households.set(id, `${h} Main St`)
    }
  })
  for (let j = 0; j < alone; j++) {
    const id = `s${String(j).padStart(2, '0')}`
    ids.push(id)
    households.set(id, id)
  }
  const pool = makePool(['g'], ids.map((id, i) => ({ id, values: [i % 2 === 0 ? 'a' : 'b'] })))
  const quotas = [{ feature: 'g', value: 'a', min: 0, max: k }, { feature: 'g', value: 'b', min: 0, max: k }]
  return { pool, quotas, households }
}


/** Commits, draws and verifies a spec; returns the verdict's failed checks and the outcome. */
async function roundTrip(draw: PanelSpec, participants: readonly string[]): Promise<{ failed: string[]; outcome: PanelOutcomeJson; checks: string[] }> {
  const { commitment } = commit({ ...base, draw, participants })
  const proof = drawFromBlock(commitment, participants, CHAIN[10]!)
  const r = await verify(proof, ENGINE_ONLY)
  return { failed: r.checks.filter((c) => !c.ok).map((c) => c.name), outcome: proof.outcome as PanelOutcomeJson, checks: r.checks.map((c) => c.name) }
}

describe('the commit tries the next plan method when a gate with households refuses', () => {
  it('method 1\'s quota gate admits (every feature exact), its gate with households refuses: committed as plan method 2, drawn and verified', async () => {
    // 20 respondents: households of 4, 4, 4 and 3, five alone; k = 9: about 1 round in 875 keeps the rule.
    const c = householdCase([4, 4, 4, 3], 5, 9)
    const { draw, participants } = panelDraw(c.pool, c.quotas, 9, { households: c.households })
    const ordered = compositionPool(draw)
    const quotaPlan = planPanel(ordered, compositionQuotas(draw), 9)
    expect(quotaPlan.exact).toBe(true)
    expect(draw.plan).toBe(2)
    expect(draw.maxRounds).toBeUndefined()
    // Method 1's gate with households refuses this plan on its own, naming the household rule.
    const of = householdIndex(draw.households!, 20)
    expect(() => checkHouseholdAcceptance(quotaPlan, of)).toThrow(expect.objectContaining({ code: 'SORTITION_ACCEPTANCE_TOO_LOW', detail: expect.stringMatching(/^only [0-6] of 2000 trial panels .* had two members of one household$/) }))
    const { failed, outcome, checks } = await roundTrip(draw, participants)
    expect(failed).toEqual([])
    expect(checks).toContain('panel-households')
    expect(sharedHousehold(of, outcome.members.map((m) => m.index))).toBeUndefined()
  })

  it('method 2\'s gate with households refuses too: method 3 on the same trials, maxRounds = 16 x the 10th kept trial; drawn and verified', async () => {
    // 27 respondents: households of 4, 4, 4, 3, 3, 2, 2, five alone; k = 12: about 1 round in 7,500.
    const c = householdCase([4, 4, 4, 3, 3, 2, 2], 5, 12)
    const { draw, participants } = panelDraw(c.pool, c.quotas, 12, { households: c.households })
    expect(draw.plan).toBe(3)
    const ordered = compositionPool(draw)
    const plan = planWithHouseholds(planPanel(ordered, compositionQuotas(draw), 12), householdIndex(draw.households!, 27))
    expect(plan.method).toBe(3)
    expect(plan.gate!.kept).toBe(SORTITION_LIMITS.minAcceptedTrialsV3)
    expect(plan.gate!.trials).toBeGreaterThan(SORTITION_LIMITS.acceptanceTrialsV2)
    expect(draw.maxRounds).toBe(SORTITION_LIMITS.roundsPerTrialV3 * plan.gate!.trials)
    const { failed, outcome } = await roundTrip(draw, participants)
    expect(failed).toEqual([])
    expect(outcome.rounds).toBeLessThanOrEqual(draw.maxRounds!)
  })

  it('every method refuses: SORTITION_ACCEPTANCE_TOO_LOW naming each method tried and the household rule', () => {
    // Two households of five and k = 3: no panel keeps the rule.
    const c = householdCase([5, 5], 0, 3)
    let err: unknown
    try {
      panelDraw(c.pool, c.quotas, 3, { households: c.households })
    } catch (e) {
      err = e
    }
    expect(err).toMatchObject({ code: 'SORTITION_ACCEPTANCE_TOO_LOW' })
    const { detail, hint } = err as { detail: string; hint: string }
    expect(detail).toBe(`only 0 of ${SORTITION_LIMITS.acceptanceTrialsV3} trial panels met every quota and had at most one member per household (at least 12 needed; plan method 1 kept 0 of 2000; plan methods 2 and 3 on ${SORTITION_LIMITS.acceptanceTrialsV3} trials (method 2 needs 12 within 40000, method 3 10 within ${SORTITION_LIMITS.acceptanceTrialsV3})); ${SORTITION_LIMITS.acceptanceTrialsV3} more met every quota but had two members of one household`)
    expect(hint).toMatch(/large households make most panels break the household rule/)
  })
})

describe('a method-3 commitment with households as a verifier reads it', () => {
  it('is valid (no INVALID_DRAW), and its rounds are charged in the work bound even when every feature is exact', () => {
    const c = householdCase([4, 4, 4, 3, 3, 2, 2], 5, 12)
    const { draw, participants } = panelDraw(c.pool, c.quotas, 12, { households: c.households })
    // A copy read back (no cached plan): accepted.
    const copy = JSON.parse(JSON.stringify(draw)) as PanelSpec
    expect(() => commit({ ...base, draw: copy, participants })).not.toThrow()
    // A forged maxRounds beyond the draw cost (round cost x maxRounds > 2^34) is refused before any round.
    const forged = { ...copy, maxRounds: SORTITION_LIMITS.maxRejectionRoundsV3 }
    const big = householdCase(Array.from({ length: 40 }, () => 3), 200, 200)
    const bigSpec = panelDraw(big.pool, big.quotas, 200, {}).draw
    const hostile = { ...JSON.parse(JSON.stringify(bigSpec)), plan: 3, maxRounds: SORTITION_LIMITS.maxRejectionRoundsV3, households: [[0, 1, 2]] } as PanelSpec
    expect(() => commit({ ...base, draw: hostile, participants: panelDraw(big.pool, big.quotas, 200, {}).participants })).toThrow(expect.objectContaining({ code: 'SORTITION_COST_LIMIT', detail: expect.stringContaining('with households') }))
    expect(() => commit({ ...base, draw: forged, participants })).not.toThrow()
  })
})
