/**
 * The sortition kinds `panel` and `panel-lottery` through the public API: commit -> drawFromBlock ->
 * verify, public and private (salted, winners-only), tampered proofs failing their named checks,
 * refusals at commit, and properties over random pools.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkReceipt, makeReceipts } from '../../../src/core/receipt.js'
import { commit, parseCommitment } from '../../../src/core/commitment.js'
import { computeOutcome } from '../../../src/core/outcome.js'
import { describeVerdict } from '../../../src/core/verdict.js'
import { drawFromBlock } from '../../../src/core/draw.js'
import { LOTTERY_CHECK_NAMES } from '../../../src/core/sortition/lottery.js'
import { PANEL_CHECK_NAMES } from '../../../src/core/sortition/panel.js'
import { panelDraw, panelKind, type PanelOutcome, type PanelOutcomeJson, type PanelSpec } from '../../../src/core/kinds/panel.js'
import { panelLotteryDraw, type PanelLotteryOutcomeJson, type PanelLotteryOutcome } from '../../../src/core/kinds/panel-lottery.js'
import { verify } from '../../../src/core/verify.js'
import { type Proof } from '../../../src/core/proof.js'
import { type RankedJson } from '../../../src/core/kinds/kind.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { enumeratePanels, proportionalQuotas, smallPool, valid } from '../sortition/fixtures.js'
import { chiSquareTest } from '../../helpers/stats.js'
import { seedOf } from '../random/util.js'

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

  it('displays members, the quota table (each quota marked met), alternates; a broken quota is marked bad', () => {
    const { proof } = panelProof()
    const o = proof.outcome as PanelOutcomeJson
    const d = panelKind.display(o)
    expect(d.layout).toBe('sections')
    const sections = d.layout === 'sections' ? d.sections : []
    const n = o.quotas.length
    expect(sections.map((x) => x.title)).toEqual([`Members (${o.members.length})`, `Quotas (${n} of ${n} met)`, `Alternates (${o.alternates.length})`, ...(o.probabilities === undefined ? [] : ['Selection probability by type'])])
    const quotasTable = sections[1]!
    expect(quotasTable.layout === 'table' && quotasTable.columns.map((c) => c.label)).toEqual(['Feature', 'Value', 'Min', 'Max', 'Selected', 'OK'])
    expect(quotasTable.layout === 'table' && quotasTable.rows.every((r) => typeof r[5] === 'object' && r[5].tone === 'ok')).toBe(true)
    const broken = panelKind.display({ ...o, quotas: o.quotas.map((q, i) => (i === 0 ? { ...q, selected: q.max + 1 } : q)) })
    const t = broken.layout === 'sections' ? broken.sections[1]! : undefined
    expect(t?.title).toBe(`Quotas (${n - 1} of ${n} met)`)
    expect(t?.layout === 'table' && t.rows[0]!.slice(4)).toEqual([String(o.quotas[0]!.max + 1), { text: 'no', tone: 'bad' }])
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

  it('a private proof: a revealed entry of the wrong type fails participants; revealing too many fails revealed-winners', async () => {
    const { proof } = panelProof({ private: true })
    const wrongType = tampered(proof, (j) => {
      const r = (j.participants as { revealed: { entry: string }[] }).revealed[0]!
      r.entry = r.entry.replace(/f0=v([0-9])/, (_m, d: string) => `f0=v${d === '0' ? '1' : '0'}`)
    })
    expect(failed(await verify(wrongType, ENGINE_ONLY))).toContain('participants')
    const tooMany = tampered(proof, (j) => {
      const rev = (j.participants as { revealed: unknown[] }).revealed
      rev.push(rev[0])
    })
    expect(failed(await verify(tooMany, ENGINE_ONLY))).toContain('revealed-winners')
  })

  it('a commitment breaking the composition rules is refused when read, naming the field', () => {
    const { draw, participants } = panelDraw(pool, quotas, 10, { alternates: 2 })
    const { json } = commit({ ...base, draw, participants })
    const edit = (f: (d: Record<string, unknown> & { features: { name: string; values: string[]; min: number[]; max: number[] }[]; types: number[][] }) => void): unknown => {
      const j = JSON.parse(JSON.stringify(json)) as { draw: Parameters<typeof f>[0] }
      f(j.draw)
      return j
    }
    const refused = (x: unknown): unknown => {
      try {
        parseCommitment(x)
      } catch (err) {
        return { code: (err as { code: string }).code, path: (err as { path: string }).path }
      }
      return undefined
    }
    expect(refused(edit((d) => d.features.reverse()))).toEqual({ code: 'INVALID_DRAW', path: '$.draw.features[1].name' })
    expect(refused(edit((d) => (d.types[0]![0] = 9)))).toEqual({ code: 'INVALID_DRAW', path: '$.draw.types[0][0]' })
    expect(refused(edit((d) => d.types.reverse()))).toMatchObject({ code: 'INVALID_DRAW' })
    expect(refused(edit((d) => (d.exact = ['nope'])))).toEqual({ code: 'INVALID_DRAW', path: '$.draw.exact[0]' })
    expect(refused(edit((d) => (d.alternates = 51)))).toEqual({ code: 'INVALID_DRAW', path: '$.draw.alternates' })
    expect(refused(edit((d) => (d.features[0]!.min[0] = 99)))).toEqual({ code: 'INVALID_DRAW', path: '$.draw.features[0].min[0]' })
    expect(refused(edit((d) => (d.extra = 1)))).toMatchObject({ code: 'UNKNOWN_FIELD' })
    // Quotas no panel can meet, with nothing counted exactly: refused by the gate, in bounded time.
    expect(refused(edit((d) => ((d.exact = []), (d.features[0]!.min = d.features[0]!.min.map(() => 10)), (d.features[0]!.max = d.features[0]!.max.map(() => 10)))))).toMatchObject({ code: 'SORTITION_ACCEPTANCE_TOO_LOW' })
  })

  it('verify never throws on a forged panel commitment whose quotas no draw meets: a named failure', async () => {
    const { proof } = panelProof()
    const j = JSON.parse(JSON.stringify(proof)) as { commitment: { draw: { exact: string[]; features: { min: number[]; max: number[] }[] } } }
    j.commitment.draw.exact = []
    j.commitment.draw.features[0]!.min = j.commitment.draw.features[0]!.min.map(() => 10)
    j.commitment.draw.features[0]!.max = j.commitment.draw.features[0]!.max.map(() => 10)
    const r = await verify(j, ENGINE_ONLY)
    expect(r.ok).toBe(false)
    expect(failed(r)).toEqual(['commitment-cid'])
    expect(r.checks.find((c) => c.name === 'commitment-cid')?.detail).toMatch(/SORTITION_ACCEPTANCE_TOO_LOW|panels drawn under the quotas/)
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

describe('sortition kinds: uniformity through the kind (chi-square, fixed seeds, alpha = 0.001)', () => {
  // 10 respondents, 2 features of 2 values, k = 3, loose quotas: every valid panel must be equally likely,
  // in the committed (type, id) order, whether the plan counts every feature or none (pure rejection).
  const p = smallPool(10, [2, 2], 31)
  const rows = proportionalQuotas(p, 3, 1)
  const N = 6000
  for (const exactFeatures of [undefined, [] as string[]]) {
    it(`panel, exact features ${exactFeatures === undefined ? 'chosen by the planner' : 'none'}: accepted`, () => {
      const { draw } = panelDraw(p, rows, 3, exactFeatures === undefined ? {} : { exactFeatures })
      const n = p.respondents.length
      const counts = new Map<string, number>()
      for (let t = 0; t < N; t++) {
        const o = computeOutcome(seedOf(9000 + t), draw, n) as PanelOutcome
        const key = o.members.join(',')
        counts.set(key, (counts.get(key) ?? 0) + 1)
      }
      const table = { min: p.features.map((f) => f.values.map((v) => rows.find((q) => q.feature === f.name && q.value === v)!.min)), max: p.features.map((f) => f.values.map((v) => rows.find((q) => q.feature === f.name && q.value === v)!.max)) }
      // The number of valid panels, by enumeration (committed order = any order of the same pool).
      const valids = enumeratePanels(p, table, 3).length
      expect(counts.size).toBe(valids)
      expect(N / valids).toBeGreaterThanOrEqual(5)
      const r = chiSquareTest([...counts.values()])
      expect(r.pass, JSON.stringify(r)).toBe(true)
    })
  }

  it('panel-lottery: panels chosen in proportion to their weights', () => {
    const k = 3
    const { draw } = panelDraw(p, rows, k)
    const ids = (seed: number): string[] => (computeOutcome(seedOf(seed), draw, p.respondents.length) as PanelOutcome).members.map((i) => String(i))
    // Four distinct valid candidate panels (as committed indices turned back into ids of the committed order).
    const { participants } = panelDraw(p, rows, k)
    const idOf = (i: string): string => participants[Number(i)]!.split('|')[0]!
    const cands: string[][] = []
    for (let s = 1; cands.length < 4; s++) {
      const c = ids(s).map(idOf)
      if (!cands.some((x) => x.join() === c.join())) cands.push(c)
    }
    const lot = panelLotteryDraw(p, rows, cands, [1, 2, 3, 4])
    const counts = [0, 0, 0, 0]
    for (let t = 0; t < 4000; t++) counts[(computeOutcome(seedOf(20_000 + t), lot.draw, p.respondents.length) as PanelLotteryOutcome).panel]!++
    const r = chiSquareTest(counts, [400, 800, 1200, 1600])
    expect(r.pass, JSON.stringify(r)).toBe(true)
  })
})

describe('sortition kinds: receipts', () => {
  it('a respondent\'s receipt checks, and shows the type they were counted in', () => {
    const { draw, participants } = panelDraw(pool, quotas, 10)
    const result = commit({ ...base, draw, participants, private: { secret: SECRET } })
    const book = makeReceipts(result, participants, SECRET)
    const r = checkReceipt(book.receiptFor(5))
    expect(r.checks.filter((c) => !c.ok)).toEqual([])
    expect(r.checks.find((c) => c.name === 'inclusion')?.detail).toContain(participants[5])
    expect(participants[5]).toMatch(/\|f0=v[0-9]\|f1=v[0-9]\|f2=v[0-9]$/)
  })

  it('a receipt whose commitment gives its index another type fails inclusion (a forged composition)', () => {
    const { draw, participants } = panelDraw(pool, quotas, 10)
    const book = makeReceipts(commit({ ...base, draw, participants, private: { secret: SECRET } }), participants, SECRET)
    const t = draw.types.findIndex((x, i) => i > 0 && x.at(-1)! >= 2)
    const first = draw.types.slice(0, t).reduce((a, x) => a + x.at(-1)!, 0) // first index of type t
    const receipt = JSON.parse(JSON.stringify(book.receiptFor(first))) as { commitment: { draw: { types: number[][] } } }
    const types = receipt.commitment.draw.types
    types[t - 1]![types[t - 1]!.length - 1]! += 1 // index `first` now falls in type t - 1
    types[t]![types[t]!.length - 1]! -= 1
    const r = checkReceipt(receipt)
    expect(r.checks.find((c) => c.name === 'inclusion')).toMatchObject({ ok: false, detail: expect.stringMatching(/does not fit the panel draw/) })
  })
})

describe('sortition kinds: the verdict in words', () => {
  it('a panel that breaks a quota is said so first', async () => {
    const { proof, participants } = panelProof()
    const o = proof.outcome as PanelOutcomeJson
    const f0 = (e: string): string => e.split('|')[1]!
    const target = f0(o.members[0]!.entry)
    const inPanel = new Set(o.members.map((m) => m.index))
    const others = participants.map((e, i) => [e, i] as const).filter(([e, i]) => !inPanel.has(i) && f0(e) === target)
    const bad = tampered(proof, (j) => {
      let k = 0
      j.outcome.members = j.outcome.members.map((m) => (f0(m.entry) === target || k >= others.length ? m : { ...m, index: others[k]![1], entry: others[k++]![0] }))
    })
    expect(describeVerdict(await verify(bad, ENGINE_ONLY)).reason).toMatch(/^The panel in the file breaks a quota: quotas broken: "f0"=/)
  })
})
