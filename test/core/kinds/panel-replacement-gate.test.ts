/**
 * A replacement's validation stops its gates early (issue 22 item 5; docs/spec.md, Commit-time gate):
 * the quota gate of the replacement plan stops at its 7th kept trial, as a `panel` verifier's does, and
 * the gate with households at its 7th; the verdicts are those of the full 2,000 trials, and a refusal
 * draws every trial, reporting the same figures.
 */
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, verify, type Proof } from '../../../src/core/index.js'
import { panelDraw, panelReplacementDraw, planPanel, SORTITION_LIMITS, type PanelOutcomeJson, type PanelReplacementSpec } from '../../../src/core/sortition/index.js'
import { replacementPlanOf, subPool } from '../../../src/core/kinds/panel-replacement.js'
import { checkHouseholdAcceptance, householdIndex } from '../../../src/core/sortition/household.js'
import { withOriginal } from '../../../src/core/follow-up.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { proportionalQuotas, smallPool } from '../sortition/fixtures.js'

const CHAIN = buildChain(14, 'replacement-gate')
const base = { beacon: BEACON_NAME, after: { sequence: 5, block: CHAIN[5]!.cid }, label: 'replacement gate' }

/** An original panel proof and a replacement spec of `drop` members whose plan counts no feature exactly (so its gate runs). */
function replacementWithGate(n: number, sizes: number[], k: number, slack: number, drop: number, households?: Map<string, string>): { spec: PanelReplacementSpec; original: Proof; participants: readonly string[] } {
  const pool = smallPool(n, sizes, 17)
  const { draw, participants } = panelDraw(pool, proportionalQuotas(pool, k, slack), k, households === undefined ? {} : { households })
  const { commitment, cid } = commit({ ...base, target: 8, draw, participants })
  const original = drawFromBlock(commitment, participants, CHAIN[8]!)
  const members = (original.outcome as PanelOutcomeJson).members.map((m) => m.index)
  const spec = panelReplacementDraw(original, members.slice(0, drop), cid)
  // A fresh object (no cached plan) with nothing counted exactly: the replacement plan's gate runs.
  return { spec: { ...(JSON.parse(JSON.stringify(spec)) as PanelReplacementSpec), exact: [] }, original, participants }
}

describe('replacement validation stops its gates at the kept count they need', () => {
  it('an admitted replacement plan: the quota gate stops at its 7th kept trial (far fewer than 2,000), the same verdict; the proof verifies', async () => {
    const { spec, original, participants } = replacementWithGate(60, [2, 3, 2], 10, 2, 3)
    const rp = replacementPlanOf(spec)
    expect(rp.plan.exact).toBe(false)
    expect(rp.plan.gate).toBeDefined()
    expect(rp.plan.gate!.kept).toBe(SORTITION_LIMITS.minAcceptedTrials)
    // The full gate, as before: every one of the 2,000 trials drawn, admitted too.
    const { sub, reduced } = subPool(spec)
    const full = planPanel(sub, reduced, spec.k - spec.keep.length, { exactFeatures: [], explain: false })
    expect(full.gate!.trials).toBe(SORTITION_LIMITS.acceptanceTrials)
    expect(full.gate!.kept).toBeGreaterThan(SORTITION_LIMITS.minAcceptedTrials)
    expect(rp.plan.gate!.trials).toBeLessThan(full.gate!.trials / 10)
    const { commitment } = commit({ ...base, target: 12, draw: spec, participants })
    const proof = withOriginal(drawFromBlock(commitment, participants, CHAIN[12]!), original) as Proof
    const r = await verify(proof, ENGINE_ONLY)
    expect(r.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([])
  })

  it('a refused replacement plan: every trial drawn, the same SORTITION_ACCEPTANCE_TOO_LOW figures and hint as the full gate', () => {
    const { spec } = replacementWithGate(60, [2, 3, 2, 3, 2], 16, 0, 8)
    const { sub, reduced } = subPool(spec)
    let full: unknown
    try {
      planPanel(sub, reduced, spec.k - spec.keep.length, { exactFeatures: [], explain: false })
    } catch (e) {
      full = e
    }
    expect(full).toMatchObject({ code: 'SORTITION_ACCEPTANCE_TOO_LOW' })
    const { detail, hint } = full as { detail: string; hint: string }
    expect(detail).toMatch(/^only [0-6] of 2000 panels/)
    expect(() => replacementPlanOf(spec)).toThrow(expect.objectContaining({ code: 'SORTITION_ACCEPTANCE_TOO_LOW', detail, hint }))
  })

  it('the gate with households a verifier runs stops at its 7th kept trial; the full gate keeps more, the same verdict', () => {
    const pool = smallPool(60, [2, 3], 23)
    const homes = new Map(pool.respondents.map((r, i) => [r.id, `${i % 30} Elm Rd`]))
    const { spec } = replacementWithGate(60, [2, 3], 10, 2, 3, homes)
    expect(spec.households).toBeDefined()
    const rp = replacementPlanOf(spec)
    expect(rp.households).toBeDefined()
    const { sub } = subPool(spec)
    expect(checkHouseholdAcceptance(rp.plan, rp.households!, true)).toBe(SORTITION_LIMITS.minAcceptedTrials)
    expect(checkHouseholdAcceptance(rp.plan, rp.households!)).toBeGreaterThan(SORTITION_LIMITS.minAcceptedTrials)
    expect(rp.households!.length).toBe(sub.respondents.length)
    expect(householdIndex(spec.households!, 60).length).toBe(60)
  })
})
