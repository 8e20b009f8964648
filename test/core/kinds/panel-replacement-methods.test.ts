/**
 * Replacement plan methods (issue 22 item 5; docs/spec.md, Panel replacements): a replacement plan that
 * method 1's gate refuses is committed as method 2 (`"plan": 2`) or method 3 (`"plan": 3`, `maxRounds`),
 * drawn and verified with its original; a spec without `plan` means what it always meant; a forged round
 * cap fails by name or is refused before any round; under methods 2 and 3 the new panel stays uniform
 * among the valid completions (enumeration, chi-square at alpha = 0.001 with fixed seeds, a negative
 * control).
 */
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, verify, type Proof } from '../../../src/core/index.js'
import { panelDraw, panelReplacementDraw, planPanel, SORTITION_LIMITS, type PanelOutcomeJson, type PanelReplacementOutcome, type PanelReplacementOutcomeJson, type PanelReplacementSpec } from '../../../src/core/sortition/index.js'
import { computeOutcome } from '../../../src/core/kinds/index.js'
import { replacementPlanOf, subPool } from '../../../src/core/kinds/panel-replacement.js'
import { withOriginal } from '../../../src/core/follow-up.js'
import { householdIndex, sharedHousehold } from '../../../src/core/sortition/household.js'
import { checkQuotas, type SortitionPool } from '../../../src/core/sortition/index.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { chiSquareTest } from '../../helpers/stats.js'
import { seedOf } from '../random/util.js'
import { enumeratePanels, proportionalQuotas, smallPool, valid } from '../sortition/fixtures.js'

// The chain and label the cases below were found with (the original panels depend on them).
const CHAIN = buildChain(14, 'search')
const base = { beacon: BEACON_NAME, after: { sequence: 5, block: CHAIN[5]!.cid }, label: 's' }
const failed = (r: { checks: readonly { name: string; ok: boolean }[] }): string[] => r.checks.filter((c) => !c.ok).map((c) => c.name)

/** An original panel proof over `smallPool(n, sizes, seed)` with proportional quotas (slack 0). */
function original(n: number, sizes: number[], seed: number, k: number): { proof: Proof; cid: string; participants: readonly string[]; members: number[] } {
  const pool = smallPool(n, sizes, seed)
  const { draw, participants } = panelDraw(pool, proportionalQuotas(pool, k, 0), k)
  const { commitment, cid } = commit({ ...base, target: 8, draw, participants })
  const proof = drawFromBlock(commitment, participants, CHAIN[8]!)
  return { proof, cid, participants, members: (proof.outcome as PanelOutcomeJson).members.map((m) => m.index) }
}

/** Commits `spec` to block 12, draws it and carries the original. */
function replacementProof(spec: PanelReplacementSpec, o: ReturnType<typeof original>): Proof {
  const { commitment } = commit({ ...base, target: 12, draw: spec, participants: o.participants })
  return withOriginal(drawFromBlock(commitment, o.participants, CHAIN[12]!), o.proof) as Proof
}

/** The plan methods' refusals of a replacement spec's plan over its sub-pool (nothing counted exactly). */
function refuses(spec: PanelReplacementSpec, method: 1 | 2): boolean {
  const { sub, reduced } = subPool(spec)
  try {
    planPanel(sub, reduced, spec.k - spec.keep.length, { exactFeatures: [], explain: false, method })
    return false
  } catch (e) {
    expect(e).toMatchObject({ code: 'SORTITION_ACCEPTANCE_TOO_LOW' })
    return true
  }
}

describe('a replacement plan method 1 refuses: the commit falls back to method 2, then 3', () => {
  // Found by search (40 respondents, 5 two-valued features, k = 12, nothing counted exactly).
  const o2 = original(40, [2, 2, 2, 2, 2], 10, 12)
  const o3 = original(40, [2, 2, 2, 2, 2], 11, 12)

  it('only method 2 admits it: "plan": 2, no maxRounds; committed, drawn within 400,000 rounds and verified with its original', async () => {
    const spec = panelReplacementDraw(o2.proof, o2.members.slice(0, 4), o2.cid, { exactFeatures: [] })
    expect([spec.plan, spec.maxRounds, spec.exact]).toEqual([2, undefined, []])
    expect(refuses(spec, 1)).toBe(true)
    const proof = replacementProof(spec, o2)
    expect((proof.commitment as { draw: { plan?: number } }).draw.plan).toBe(2)
    const r = await verify(proof, ENGINE_ONLY)
    expect(failed(r)).toEqual([])
    const out = proof.outcome as PanelReplacementOutcomeJson
    expect(out.rounds).toBeLessThanOrEqual(SORTITION_LIMITS.maxRejectionRoundsV2)
    expect(out.members.map((m) => m.index)).toEqual(expect.arrayContaining([...spec.keep]))
  })

  it('methods 1 and 2 refuse it: "plan": 3 with maxRounds = 16 x its gate trials; committed, drawn within maxRounds and verified', async () => {
    const spec = panelReplacementDraw(o3.proof, o3.members.slice(0, 4), o3.cid, { exactFeatures: [] })
    expect(spec.plan).toBe(3)
    expect(refuses(spec, 1)).toBe(true)
    expect(refuses(spec, 2)).toBe(true)
    const rp = replacementPlanOf(spec)
    expect(rp.plan.method).toBe(3)
    expect(rp.plan.maxRounds).toBe(spec.maxRounds)
    // The commit's method-3 gate: its 10th kept trial t, maxRounds = 16 t.
    const { sub, reduced } = subPool(spec)
    const gate = planPanel(sub, reduced, spec.k - spec.keep.length, { exactFeatures: [], explain: false, method: 3 })
    expect(spec.maxRounds).toBe(SORTITION_LIMITS.roundsPerTrialV3 * gate.gate!.trials)
    const proof = replacementProof(spec, o3)
    const r = await verify(proof, ENGINE_ONLY)
    expect(failed(r)).toEqual([])
    expect((proof.outcome as PanelReplacementOutcomeJson).rounds).toBeLessThanOrEqual(spec.maxRounds!)
  })

  it('a replacement method 1 admits has no plan key: its commitment is byte for byte the one made before plan methods', () => {
    const spec = panelReplacementDraw(o2.proof, o2.members.slice(0, 1), o2.cid)
    expect('plan' in spec).toBe(false)
    expect('maxRounds' in spec).toBe(false)
    const bytes = new TextDecoder().decode(commit({ ...base, target: 12, draw: spec, participants: o2.participants }).bytes)
    expect(bytes).not.toMatch(/"plan"|"maxRounds"/)
  })

  it('a refusal of every method names each method tried', () => {
    const o = original(60, [2, 3, 2, 3, 2], 21, 16)
    let err: unknown
    try {
      panelReplacementDraw(o.proof, o.members.slice(0, 3), o.cid, { exactFeatures: [] })
    } catch (e) {
      err = e
    }
    expect(err).toMatchObject({ code: 'SORTITION_ACCEPTANCE_TOO_LOW' })
    expect((err as { detail: string }).detail).toMatch(/^no plan method admits the replacement plan \(tried plan methods 1, 2 and 3 in turn\): only \d+ of \d+ panels .*plan method 3/)
  })

  it('a forged round cap: maxRounds without plan 3, or plan 1, is INVALID_DRAW at its path; a cap below the rounds drawn fails panel-replay, by name', async () => {
    const spec = panelReplacementDraw(o3.proof, o3.members.slice(0, 4), o3.cid, { exactFeatures: [] })
    const copy = JSON.parse(JSON.stringify(spec)) as PanelReplacementSpec
    const at = (p: string): unknown => expect.objectContaining({ code: 'INVALID_DRAW', path: p })
    expect(() => commit({ ...base, target: 12, draw: { ...copy, plan: 2 }, participants: o3.participants })).toThrow(at('$.draw.maxRounds') as Error)
    expect(() => commit({ ...base, target: 12, draw: { ...copy, plan: 1 as unknown as 2 }, participants: o3.participants })).toThrow(at('$.draw.plan') as Error)
    const { plan: _p, ...noPlan } = copy
    expect(() => commit({ ...base, target: 12, draw: noPlan, participants: o3.participants })).toThrow(at('$.draw.maxRounds') as Error)
    // The honest proof, then its commitment's cap cut below the rounds it drew: the replay fails.
    const proof = replacementProof(spec, o3)
    const rounds = (proof.outcome as PanelReplacementOutcomeJson).rounds
    expect(rounds).toBeGreaterThan(1)
    const cut = replacementProof({ ...copy, maxRounds: rounds - 1 }, o3)
    const forged = { ...JSON.parse(JSON.stringify(cut)), outcome: proof.outcome } as Proof
    const r = await verify(forged, ENGINE_ONLY)
    expect(failed(r)).toContain('panel-replay')
    expect(r.checks.find((c) => c.name === 'panel-replay')!.detail).toMatch(/differs from the replayed replacement draw|SORTITION_REJECTION_LIMIT/)
  })

  it('a forged maxRounds whose rounds pass the draw cost is refused before any round (SORTITION_COST_LIMIT)', () => {
    // 2,000 respondents, k = 100, 1 kept and 99 dropped: a round of 99 replacements costs about 5,600 units (docs/spec.md, Work bound), so 4,000,000 rounds pass 2^34.
    const pool = smallPool(2000, [2, 3, 4, 5, 6, 6], 7)
    const { draw, participants } = panelDraw(pool, proportionalQuotas(pool, 100, 3), 100, { exactFeatures: [] })
    const dropped = Array.from({ length: 99 }, (_, i) => i + 1)
    const hostile = { kind: 'panel-replacement', k: 100, features: draw.features, types: draw.types, follows: { commitment: o2.cid, seed: '00'.repeat(32), target: 8, dropped }, keep: [0], exact: [], plan: 3, maxRounds: SORTITION_LIMITS.maxRejectionRoundsV3 } as unknown as PanelReplacementSpec
    expect(() => commit({ ...base, target: 12, draw: hostile, participants })).toThrow(expect.objectContaining({ code: 'SORTITION_COST_LIMIT', detail: expect.stringContaining('4000000 rounds') }))
    // The same cap a round cost allows is accepted (the bound, not the method, refuses).
    const fits = Math.floor(SORTITION_LIMITS.maxDrawCost / 10_000)
    expect(() => commit({ ...base, target: 12, draw: { ...hostile, maxRounds: fits }, participants })).not.toThrow()
  })
})

describe('replacements under methods 2 and 3 stay uniform among the valid completions (enumeration, chi-square)', () => {
  const pool = smallPool(14, [2, 3], 41)
  const k = 5
  const households = new Map(pool.respondents.map((r, i) => [r.id, `h${i % 9}`]))
  const { draw, participants } = panelDraw(pool, proportionalQuotas(pool, k, 1), k, { households })
  const { commitment, cid } = commit({ ...base, target: 8, draw, participants })
  const proof = drawFromBlock(commitment, participants, CHAIN[8]!)
  const members = (proof.outcome as PanelOutcomeJson).members.map((m) => m.index)
  const dropped = members.slice(0, 2)
  const keep = members.slice(2)
  const spec1 = { ...(JSON.parse(JSON.stringify(panelReplacementDraw(proof, dropped, cid))) as PanelReplacementSpec), exact: [] as string[] }
  const byId = new Map(pool.respondents.map((r) => [r.id, r]))
  const cpool: SortitionPool = { features: pool.features, respondents: participants.map((e) => byId.get(e.split('|')[0]!)!) }
  const table = checkQuotas(cpool, proportionalQuotas(pool, k, 1), k)
  const of = householdIndex(draw.households!, cpool.respondents.length)
  const panels = enumeratePanels(cpool, table, k).filter((p) => keep.every((m) => p.includes(m)) && dropped.every((m) => !p.includes(m)) && sharedHousehold(of, p) === undefined)
  const index = new Map(panels.map((p, i) => [p.join(','), i]))
  const n = cpool.respondents.length

  for (const [label, spec] of [
    ['method 2', { ...spec1, plan: 2 }],
    ['method 3 (maxRounds 5,000)', { ...spec1, plan: 3, maxRounds: 5000 }],
  ] as const) {
    it(`${label}: every outcome is a valid completion, the same panel as method 1 on the same seed; chi-square accepts`, () => {
      expect(panels.length).toBeGreaterThanOrEqual(5)
      const N = 200 * panels.length
      const counts = new Array<number>(panels.length).fill(0)
      for (let t = 0; t < N; t++) {
        const o = computeOutcome(seedOf(300_000 + t), spec as PanelReplacementSpec, n) as PanelReplacementOutcome
        const i = index.get(o.members.join(','))
        expect(i).toBeDefined()
        counts[i!]!++
        if (t < 100) expect(o).toEqual(computeOutcome(seedOf(300_000 + t), spec1, n))
        expect(valid(cpool, table, o.members)).toBe(true)
      }
      expect(chiSquareTest(counts).pass).toBe(true)
    })
  }

  it('negative control: a sampler that redraws once whenever the lowest available respondent is drawn is rejected', () => {
    const spec = { ...spec1, plan: 2 } as PanelReplacementSpec
    const low = Math.min(...subPool(spec).available)
    const N = 200 * panels.length
    const counts = new Array<number>(panels.length).fill(0)
    for (let t = 0; t < N; t++) {
      let o = computeOutcome(seedOf(400_000 + 2 * t), spec, n) as PanelReplacementOutcome
      if (o.members.includes(low)) o = computeOutcome(seedOf(400_000 + 2 * t + 1), spec, n) as PanelReplacementOutcome
      counts[index.get(o.members.join(','))!]!++
    }
    expect(panels.some((p) => p.includes(low))).toBe(true)
    expect(chiSquareTest(counts).pass).toBe(false)
  })
})
