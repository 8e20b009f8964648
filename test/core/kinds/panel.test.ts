/**
 * The sortition kinds `panel` and `panel-lottery` through the public API: commit -> drawFromBlock ->
 * verify, public and private (salted, winners-only), tampered proofs failing their named checks,
 * refusals at commit, and properties over random pools.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  commit,
  drawFromBlock,
  LOTTERY_CHECK_NAMES,
  PANEL_CHECK_NAMES,
  panelDraw,
  panelLotteryDraw,
  parseCommitment,
  verify,
  type PanelLotteryOutcomeJson,
  type PanelOutcomeJson,
  type PanelSpec,
  type Proof,
  type RankedJson,
} from '../../../src/core/index.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { proportionalQuotas, smallPool, valid } from '../sortition/fixtures.js'

const CHAIN = buildChain(12, 'panel')
const TARGET = 10
const AFTER = 7
const base = { beacon: BEACON_NAME, target: TARGET, after: { sequence: AFTER, block: CHAIN[AFTER]!.cid }, label: 'assembly' }
const SECRET = new Uint8Array(32).fill(7)

const pool = smallPool(60, [2, 3, 4], 11)
const quotas = proportionalQuotas(pool, 10, 1)

function panelProof(opts: { alternates?: number; private?: boolean; target?: number } = {}): { proof: Proof; participants: readonly string[]; spec: PanelSpec } {
  const { draw, participants } = panelDraw(pool, quotas, 10, { alternates: opts.alternates ?? 3 })
  const target = opts.target ?? TARGET
  const { commitment } = commit({ ...base, target, draw, participants, ...(opts.private === true ? { private: { secret: SECRET } } : {}) })
  const proof = drawFromBlock(commitment, participants, CHAIN[target]!, opts.private === true ? { disclosure: 'winners', secret: SECRET } : {})
  return { proof, participants, spec: draw }
}

const failed = (r: { checks: readonly { name: string; ok: boolean }[] }): string[] => r.checks.filter((c) => !c.ok).map((c) => c.name)
const names = (r: { checks: readonly { name: string }[] }): string[] => r.checks.map((c) => c.name)

/** A proof as plain JSON, edited by `edit`. */
type Editable = { members: RankedJson[]; panel: number }
function tampered(proof: Proof, edit: (j: { outcome: Editable } & Record<string, unknown>) => void): unknown {
  const j = JSON.parse(JSON.stringify(proof)) as { outcome: Editable } & Record<string, unknown>
  edit(j)
  return j
}

describe('panel kind: commit, draw, verify', () => {
  it('a public panel verifies, with every panel check named and passed', async () => {
    const { proof, participants } = panelProof()
    const r = await verify(proof, ENGINE_ONLY)
    expect(failed(r)).toEqual([])
    expect(r.ok).toBe(true)
    for (const n of PANEL_CHECK_NAMES) expect(names(r)).toContain(n)
    const o = proof.outcome as PanelOutcomeJson
    expect(o.members).toHaveLength(10)
    expect(o.alternates).toHaveLength(3)
    // Entries spell out the type; members are in committed order and meet the quotas.
    for (const m of o.members) expect(m.entry).toBe(participants[m.index])
    expect(o.members.map((m) => m.index)).toEqual([...o.members.map((m) => m.index)].sort((a, b) => a - b))
    for (const q of o.quotas) expect(q.selected >= q.min && q.selected <= q.max).toBe(true)
    expect(participants[0]).toMatch(/^r[0-9]{3}\|f0=v[0-9]\|f1=v[0-9]\|f2=v[0-9]$/)
  })

  it('the participants are the pool in (type, id) order and the types count them', () => {
    const { participants, spec } = panelProof()
    expect(spec.types.reduce((a, t) => a + t.at(-1)!, 0)).toBe(pool.respondents.length)
    const tails = participants.map((e) => e.slice(e.indexOf('|') + 1))
    const sorted = [...tails].sort()
    expect(tails).toEqual(sorted) // values v0..v3 sort like their indices here
  })

  it('a private (salted) panel reveals only members and alternates, with inclusion proofs, and verifies', async () => {
    const { proof } = panelProof({ private: true })
    expect(proof.participants?.disclosure).toBe('winners')
    const revealed = proof.participants!.disclosure === 'winners' ? proof.participants!.revealed : []
    expect(revealed).toHaveLength(13)
    const r = await verify(proof, ENGINE_ONLY)
    expect(failed(r)).toEqual([])
    expect(names(r)).toContain('revealed-winners')
  })

  it('a member replaced by another respondent fails outcome and panel-replay (and panel-quotas when it breaks one)', async () => {
    const { proof, participants } = panelProof()
    const o = proof.outcome as PanelOutcomeJson
    const inPanel = new Set(o.members.map((m) => m.index))
    const out = participants.findIndex((_, i) => !inPanel.has(i))
    const r = await verify(
      tampered(proof, (j) => {
        j.outcome.members[0] = { rank: 1, index: out, entry: participants[out]! }
      }),
      ENGINE_ONLY,
    )
    expect(failed(r)).toEqual(expect.arrayContaining(['outcome', 'panel-replay']))
  })

  it('a repeated member fails panel-distinct; a short panel panel-size; an unknown index panel-members-known', async () => {
    const { proof } = panelProof()
    const rep = await verify(tampered(proof, (j) => (j.outcome.members[1] = { ...j.outcome.members[0]!, rank: 2 })), ENGINE_ONLY)
    expect(failed(rep)).toEqual(expect.arrayContaining(['outcome', 'panel-distinct', 'panel-replay']))
    const short = await verify(tampered(proof, (j) => j.outcome.members.pop()), ENGINE_ONLY)
    expect(failed(short)).toEqual(expect.arrayContaining(['outcome', 'panel-size', 'panel-replay']))
    const unknown = await verify(tampered(proof, (j) => (j.outcome.members[0] = { ...j.outcome.members[0]!, index: 9999 })), ENGINE_ONLY)
    expect(failed(unknown)).toEqual(expect.arrayContaining(['outcome', 'panel-members-known']))
  })

  it('a panel that breaks a quota fails panel-quotas', async () => {
    const { proof, participants } = panelProof()
    const o = proof.outcome as PanelOutcomeJson
    const inPanel = new Set(o.members.map((m) => m.index))
    // Replace every member of the other f0 values by non-members of this one: f0's quotas break.
    const f0 = (e: string): string => e.split('|')[1]!
    const target = f0(o.members[0]!.entry)
    const others = participants.map((e, i) => [e, i] as const).filter(([e, i]) => !inPanel.has(i) && f0(e) === target)
    const r = await verify(
      tampered(proof, (j) => {
        let k = 0
        j.outcome.members = j.outcome.members.map((m) => (f0(m.entry) === target || k >= others.length ? m : { ...m, index: others[k]![1], entry: others[k++]![0] }))
      }),
      ENGINE_ONLY,
    )
    expect(failed(r)).toEqual(expect.arrayContaining(['outcome', 'panel-quotas', 'panel-replay']))
  })

  it('entries that do not spell out their type are refused at commit and fail participants in verify', async () => {
    const { draw, participants } = panelDraw(pool, quotas, 10)
    const bad = [...participants]
    bad[0] = bad[0]!.replace(/f2=v[0-9]/, (m) => (m === 'f2=v0' ? 'f2=v1' : 'f2=v0'))
    expect(() => commit({ ...base, draw, participants: bad })).toThrow(expect.objectContaining({ code: 'INVALID_PARTICIPANTS' }))
    const { proof } = panelProof()
    const r = await verify(
      tampered(proof, (j) => {
        const p = j.participants as { entries: string[] }
        p.entries[0] = bad[0]!
      }),
      ENGINE_ONLY,
    )
    expect(failed(r)).toContain('participants')
  })

  it('per-type counts that do not add up to the participants are refused (INVALID_DRAW at $.draw.types)', () => {
    const { draw, participants } = panelDraw(pool, quotas, 10)
    const types = draw.types.map((t) => [...t])
    types[0]![types[0]!.length - 1]! += 1
    expect(() => commit({ ...base, draw: { ...draw, types }, participants })).toThrow(expect.objectContaining({ code: 'INVALID_DRAW', path: '$.draw.types' }))
  })

  it('quotas too tight for rejection are refused at commit with SORTITION_ACCEPTANCE_TOO_LOW, infeasible ones with a relaxation', () => {
    const big = smallPool(400, [2, 3, 4, 5, 6, 2], 5)
    expect(() => panelDraw(big, proportionalQuotas(big, 40, 0), 40, { exactFeatures: [] })).toThrow(expect.objectContaining({ code: 'SORTITION_ACCEPTANCE_TOO_LOW' }))
    const rows = quotas.map((q) => (q.feature === 'f0' ? { ...q, min: 8, max: 10 } : q))
    expect(() => panelDraw(pool, rows, 10)).toThrow(expect.objectContaining({ code: 'QUOTA_MINS_EXCEED_PANEL', relaxation: expect.stringMatching(/lower the mins/) }))
  })

  it('the commitment round-trips through its DAG-JSON form', () => {
    const { draw, participants } = panelDraw(pool, quotas, 10, { alternates: 2 })
    const c = commit({ ...base, draw, participants })
    const back = parseCommitment(c.json)
    expect(back.draw).toEqual(draw)
  })

  it('property: commit -> drawFromBlock -> verify for random pools; the panel meets every quota', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 20, max: 50 }), fc.integer({ min: 2, max: 8 }), fc.integer({ min: 0, max: 5 }), async (seed, n, k, a) => {
        const p = smallPool(n, [2, 3], seed)
        const rows = proportionalQuotas(p, k, 1)
        const { draw, participants } = panelDraw(p, rows, k, { alternates: Math.min(a, n - k) })
        const { commitment } = commit({ ...base, draw, participants })
        const proof = drawFromBlock(commitment, participants, CHAIN[TARGET]!)
        const r = await verify(proof, ENGINE_ONLY)
        expect(failed(r)).toEqual([])
        const o = proof.outcome as PanelOutcomeJson
        const ids = o.members.map((m) => m.entry.split('|')[0]!)
        const poolIdx = ids.map((id) => p.respondents.findIndex((x) => x.id === id))
        const table = { min: p.features.map((f) => f.values.map((v) => rows.find((q) => q.feature === f.name && q.value === v)!.min)), max: p.features.map((f) => f.values.map((v) => rows.find((q) => q.feature === f.name && q.value === v)!.max)) }
        expect(valid(p, table, poolIdx)).toBe(true)
      }),
      { numRuns: 15, seed: 20261123 },
    )
  })
})

describe('panel-lottery kind', () => {
  const k = 10
  // Candidate panels: a few valid panels drawn by the panel kind from different blocks.
  const candidates = [8, 9, 10, 11].map((t) => {
    const { proof } = panelProof({ target: t, alternates: 0 })
    return (proof.outcome as PanelOutcomeJson).members.map((m) => m.entry.split('|')[0]!)
  })

  it('commits, draws and verifies; the seed picks the claimed panel and every candidate is checked', async () => {
    const { draw, participants } = panelLotteryDraw(pool, quotas, candidates, [1, 2, 3, 4])
    const { commitment } = commit({ ...base, draw, participants })
    const proof = drawFromBlock(commitment, participants, CHAIN[TARGET]!)
    const r = await verify(proof, ENGINE_ONLY)
    expect(failed(r)).toEqual([])
    for (const n of LOTTERY_CHECK_NAMES) expect(names(r)).toContain(n)
    const o = proof.outcome as PanelLotteryOutcomeJson
    expect(o.members.map((m) => m.entry.split('|')[0]).sort()).toEqual([...candidates[o.panel]!].sort())
    const other = await verify(
      tampered(proof, (j) => {
        j.outcome.panel = (o.panel + 1) % 4
      }),
      ENGINE_ONLY,
    )
    expect(failed(other)).toEqual(expect.arrayContaining(['outcome', 'lottery-winner']))
  })

  it('a private lottery reveals only the chosen panel', async () => {
    const { draw, participants } = panelLotteryDraw(pool, quotas, candidates)
    const { commitment } = commit({ ...base, draw, participants, private: { secret: SECRET } })
    const proof = drawFromBlock(commitment, participants, CHAIN[TARGET]!, { disclosure: 'winners', secret: SECRET })
    expect(proof.participants!.disclosure === 'winners' && proof.participants!.revealed.length).toBe(k)
    expect(failed(await verify(proof, ENGINE_ONLY))).toEqual([])
  })

  it('a candidate that breaks a quota is refused at commit, named; a forged commitment with one fails lottery-panels', async () => {
    const ids = pool.respondents.map((r) => r.id)
    const bad = ids.slice(0, k)
    expect(() => panelLotteryDraw(pool, quotas, [...candidates, bad])).toThrow(expect.objectContaining({ code: 'PANEL_BREAKS_QUOTA' }))
    expect(() => panelLotteryDraw(pool, quotas, [[...candidates[0]!.slice(1), candidates[0]![1]!]])).toThrow(expect.objectContaining({ code: 'PANEL_REPEATS_MEMBER' }))
    // The raw commit refuses it too (validateCommit) ...
    const { draw, participants } = panelLotteryDraw(pool, quotas, candidates)
    const forged = { ...draw, panels: [...draw.panels, Array.from({ length: k }, (_, i) => i)] as number[][], weights: [...draw.weights, 1] }
    expect(() => commit({ ...base, draw: forged, participants })).toThrow(expect.objectContaining({ code: 'PANEL_BREAKS_QUOTA' }))
    // ... and a verifier given such a commitment reports the named check.
    const { commitment } = commit({ ...base, draw, participants })
    const proof = drawFromBlock({ ...commitment, draw: forged }, participants, CHAIN[TARGET]!)
    const r = await verify(proof, ENGINE_ONLY)
    expect(failed(r)).toContain('lottery-panels')
  })
})
