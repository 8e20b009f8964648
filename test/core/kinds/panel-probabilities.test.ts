/**
 * Per-type probabilities of every committed panel plan (src/core/kinds/panel-probabilities.ts):
 * exact fractions equal to enumeration on a small pool; otherwise an estimate that anyone recomputes
 * from the commitment's CID alone (same CID, same figures; another CID, other figures), labelled as an
 * estimate, whose intervals cover the enumerated probabilities.
 */
import { describe, expect, it } from 'vitest'
import { panelDraw, type PanelSpec } from '../../../src/core/kinds/panel.js'
import { checkQuotas, type SortitionPool } from '../../../src/core/sortition/index.js'
import { formatPanelProbabilities, panelProbabilities, type PanelProbabilities } from '../../../src/core/kinds/panel-probabilities.js'
import { panelReplacementDraw, type PanelReplacementSpec } from '../../../src/core/kinds/panel-replacement.js'
import { typeText } from '../../../src/core/kinds/sortition.js'
import { commit } from '../../../src/core/commitment.js'
import { commitmentCid, encodeCommitment } from '../../../src/core/commitment-codec.js'
import { parseCommitment } from '../../../src/core/commitment-parse.js'
import { drawFromBlock } from '../../../src/core/draw.js'
import { householdIndex, sharedHousehold } from '../../../src/core/sortition/household.js'
import type { PanelOutcomeJson } from '../../../src/core/kinds/panel.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { enumeratePanels, proportionalQuotas, smallPool } from '../sortition/fixtures.js'

const pool = smallPool(14, [2, 3, 2], 5)
const k = 5
const rows = proportionalQuotas(pool, k, 1)

/** Each type's selection probability by enumerating every valid panel, keyed by type text. */
function enumerated(): Map<string, number> {
  const panels = enumeratePanels(pool, checkQuotas(pool, rows, k), k)
  const hits = new Map<string, { n: number; hits: number }>()
  for (const r of pool.respondents) {
    const key = typeText(pool.features, r.type)
    hits.set(key, { n: (hits.get(key)?.n ?? 0) + 1, hits: 0 })
  }
  for (const p of panels) for (const m of p) hits.get(typeText(pool.features, pool.respondents[m]!.type))!.hits++
  return new Map([...hits].map(([key, v]) => [key, v.hits / (v.n * panels.length)]))
}

describe('panelProbabilities', () => {
  it('exact plans: reduced fractions equal to enumeration, labelled exact', () => {
    const { draw } = panelDraw(pool, rows, k)
    expect(draw.exact.length).toBe(3)
    const p = panelProbabilities(draw, 'bagaaieraexample')
    expect(p.kind).toBe('exact')
    const want = enumerated()
    for (const t of p.types) {
      if (!('probability' in t)) throw new Error('exact row expected')
      const [num, den] = t.probability.split('/').map(Number)
      expect(num! / den!).toBeCloseTo(want.get(t.type)!, 12)
    }
    expect(formatPanelProbabilities(p)[0]).toMatch(/\(exact: every feature is counted exactly\)/)
  })

  it('plans with rejection: a reproducible estimate from the CID alone, labelled, covering the enumerated figures', () => {
    const { draw } = panelDraw(pool, rows, k, { exactFeatures: ['f0'] })
    const a = panelProbabilities(draw, 'bagaaieracid-one', 400)
    const b = panelProbabilities(draw, 'bagaaieracid-one', 400)
    const c = panelProbabilities(draw, 'bagaaieracid-two', 400)
    expect(a.kind).toBe('estimate')
    expect(b).toEqual(a)
    expect(c).not.toEqual(a)
    if (a.kind !== 'estimate') throw new Error('estimate expected')
    expect(a.panels).toBe(400)
    const want = enumerated()
    const covered = a.types.filter((t) => 'low' in t && t.low <= want.get(t.type)! + 1e-12 && want.get(t.type)! <= t.high + 1e-12).length
    // 95 % intervals: nearly every type is covered (fixed stream, so this is deterministic).
    expect(covered).toBeGreaterThanOrEqual(Math.floor(a.types.length * 0.8))
    expect(formatPanelProbabilities(a)[0]).toMatch(/^ {2}Selection probability per type \(ESTIMATE from 400 sample panels on a stream derived from the commitment bagaaieracid-one alone; 95 % interval\):$/)
  })
})

/** Per type: the average over its respondents of the share of `panels` (committed indices) that hold them. */
function perType(p: SortitionPool, panels: readonly (readonly number[])[], among?: readonly number[]): Map<string, number> {
  const who = among ?? p.respondents.map((_, i) => i)
  const acc = new Map<string, { n: number; hits: number }>()
  const at = new Map<number, string>()
  for (const i of who) {
    const key = typeText(p.features, p.respondents[i]!.type)
    at.set(i, key)
    acc.set(key, { n: (acc.get(key)?.n ?? 0) + 1, hits: 0 })
  }
  for (const panel of panels) for (const m of panel) if (at.has(m)) acc.get(at.get(m)!)!.hits++
  return new Map([...acc].map(([key, v]) => [key, v.hits / (v.n * panels.length)]))
}

/** A type's exact average probability over the enumerated panels, as a reduced fraction. */
function exactFraction(p: SortitionPool, panels: readonly (readonly number[])[], type: string): string {
  const who = p.respondents.map((r, i) => (typeText(p.features, r.type) === type ? i : -1)).filter((i) => i >= 0)
  let num = 0
  for (const panel of panels) for (const m of panel) if (who.includes(m)) num++
  const den = who.length * panels.length
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))
  const g = gcd(num, den)
  return `${num / g}/${den / g}`
}

/** The pool in committed order (type, id), as the kinds see it. */
function committedPool(p: SortitionPool, participants: readonly string[]): SortitionPool {
  const byId = new Map(p.respondents.map((r) => [r.id, r]))
  return { features: p.features, respondents: participants.map((e) => byId.get(e.split('|')[0]!)!) }
}

/** Rows whose 95 % interval covers the enumerated figure. */
function covered(p: PanelProbabilities, want: Map<string, number>): number {
  return p.types.filter((t) => 'low' in t && t.low <= want.get(t.type)! + 1e-12 && want.get(t.type)! <= t.high + 1e-12).length
}

describe('panelProbabilities under a household rule (estimate per type, the average over its respondents)', () => {
  const hp = smallPool(14, [2, 3], 41)
  const hk = 5
  const hrows = proportionalQuotas(hp, hk, 1)
  const households = new Map(hp.respondents.map((r, i) => [r.id, `h${i % 9}`]))
  const { draw, participants } = panelDraw(hp, hrows, hk, { households })
  const cpool = committedPool(hp, participants)
  const of = householdIndex(draw.households!, cpool.respondents.length)
  const valid = enumeratePanels(cpool, checkQuotas(cpool, hrows, hk), hk).filter((p) => sharedHousehold(of, p) === undefined)
  const want = perType(cpool, valid)

  it('a plan that counts every feature is still an estimate with households: labelled, reproducible, its intervals covering the enumeration', () => {
    expect(draw.exact).toHaveLength(2)
    expect(draw.households!.length).toBeGreaterThan(0)
    const a = panelProbabilities(draw, 'bagaaierahouseholds', 2000)
    expect(a.kind).toBe('estimate')
    expect(a.households).toBe(true)
    expect(a.scope).toBe('panel')
    expect(panelProbabilities(draw, 'bagaaierahouseholds', 2000)).toEqual(a)
    // The enumerated figures (exact, per type) and the estimate's, as the test prints them on failure.
    const rows = a.types.map((t) => ({ type: t.type, exact: want.get(t.type)!, ...('estimate' in t ? { estimate: t.estimate, low: t.low, high: t.high } : {}) }))
    expect(rows.length).toBe(want.size)
    // The exact figures by enumeration (reduced fractions) beside the estimate and its interval, pinned.
    expect(a.types.map((t) => `${t.type}: exact ${exactFraction(cpool, valid, t.type)} = ${want.get(t.type)!.toFixed(4)}, estimate ${'estimate' in t ? `${t.estimate.toFixed(4)} [${t.low.toFixed(4)}, ${t.high.toFixed(4)}]` : '-'}`)).toMatchInlineSnapshot(`
      [
        "f0=v0|f1=v0: exact 753/1960 = 0.3842, estimate 0.3823 [0.3757, 0.3888]",
        "f0=v0|f1=v1: exact 319/980 = 0.3255, estimate 0.3180 [0.2976, 0.3384]",
        "f0=v0|f1=v2: exact 34/105 = 0.3238, estimate 0.3225 [0.3129, 0.3321]",
        "f0=v1|f1=v0: exact 309/980 = 0.3153, estimate 0.2960 [0.2760, 0.3160]",
        "f0=v1|f1=v1: exact 751/1960 = 0.3832, estimate 0.3955 [0.3812, 0.4098]",
        "f0=v1|f1=v2: exact 31/98 = 0.3163, estimate 0.3340 [0.3133, 0.3547]",
      ]
    `)
    expect(covered(a, want), JSON.stringify(rows)).toBeGreaterThanOrEqual(a.types.length - 1)
    // The estimate keeps the rule: the panel-size identity Σ estimate · n = k holds exactly in expectation and in the sample.
    expect(a.types.reduce((s, t) => s + ('estimate' in t ? t.estimate : 0) * t.respondents, 0)).toBeCloseTo(hk, 9)
    // Without the rule the figures differ (the household rule changes who is drawn).
    const free = perType(cpool, enumeratePanels(cpool, checkQuotas(cpool, hrows, hk), hk))
    expect([...want].some(([key, x]) => Math.abs(x - free.get(key)!) > 0.01)).toBe(true)
    expect(formatPanelProbabilities(a)[1]).toMatch(/per type: the average over the type's respondents under the household rule/)
  })

  it('the summary names the lowest and highest type, their ratio and the equal share k/n', () => {
    const a = panelProbabilities(draw, 'bagaaierahouseholds', 2000)
    const values = a.types.map((t) => ('estimate' in t ? t.estimate : Number(t.decimal)))
    expect(a.summary.lowest.value).toBe(Math.min(...values))
    expect(a.summary.highest.value).toBe(Math.max(...values))
    expect(a.summary.ratio).toBeCloseTo(Math.max(...values) / Math.min(...values), 12)
    expect(a.summary.equal).toBe(hk / 14)
    const lowest = a.types.find((t) => t.type === a.summary.lowest.type)!
    expect(a.summary.lowest).toEqual({ type: lowest.type, value: Math.min(...values), low: 'low' in lowest ? lowest.low : NaN, high: 'high' in lowest ? lowest.high : NaN })
    expect(formatPanelProbabilities(a).at(-1)).toMatch(/^ {4}Summary \(ESTIMATE\): lowest 0\.\d{4} \[0\.\d{4}, [01]\.\d{4}\] \(.+\), highest 0\.\d{4} \[0\.\d{4}, [01]\.\d{4}\] \(.+\), highest\/lowest \d+\.\d\d; equal share k\/n 0\.3571/)
  })

  it('the replacements of a panel-replacement draw: per available respondent, their figures covering the enumeration', () => {
    const chain = buildChain(10, 'probabilities-replacement')
    const { commitment, cid } = commit({ beacon: BEACON_NAME, after: { sequence: 5, block: chain[5]!.cid }, label: 'a', target: 8, draw, participants })
    const proof = drawFromBlock(commitment, participants, chain[8]!)
    const members = (proof.outcome as PanelOutcomeJson).members.map((m) => m.index)
    const dropped = members.slice(0, 2)
    const keep = members.slice(2)
    const spec: PanelReplacementSpec = panelReplacementDraw(proof, dropped, cid)
    const kept = new Set(keep.map((m) => of[m]!).filter((h) => h >= 0))
    const available = cpool.respondents.map((_, i) => i).filter((i) => !keep.includes(i) && !dropped.includes(i) && !kept.has(of[i]!))
    const completions = valid.filter((p) => keep.every((m) => p.includes(m)) && dropped.every((m) => !p.includes(m)))
    const wantR = perType(cpool, completions, available)
    const r = panelProbabilities(spec, 'bagaaierareplacement', 3000)
    expect(r.scope).toBe('replacements')
    expect(r.kind).toBe('estimate')
    expect(r.types.map((t) => t.type).sort()).toEqual([...wantR.keys()].sort())
    expect(r.types.reduce((s, t) => s + t.respondents, 0)).toBe(available.length)
    expect(covered(r, wantR), JSON.stringify({ r: r.types, wantR: [...wantR] })).toBeGreaterThanOrEqual(r.types.length - 1)
    expect(r.summary.equal).toBe(dropped.length / available.length)
    expect(formatPanelProbabilities(r)[0]).toMatch(/^ {2}Replacement probability per type \(ESTIMATE from 3000 sample panels/)
  })
})

describe('panelProbabilities from the commitment alone', () => {
  it('the published commitment bytes give the same figures, byte for byte, as the organizer\'s spec; pinned figures', () => {
    const { draw, participants } = panelDraw(pool, rows, k, { exactFeatures: ['f0'] })
    const chain = buildChain(10, 'probabilities-alone')
    const { commitment, cid } = commit({ beacon: BEACON_NAME, after: { sequence: 5, block: chain[5]!.cid }, label: 'a', target: 8, draw, participants })
    const organizer = panelProbabilities(draw, cid, 300)
    // A stranger: the commitment's canonical bytes only.
    const bytes = encodeCommitment(commitment)
    const parsed = parseCommitment(JSON.parse(new TextDecoder().decode(bytes)))
    expect(commitmentCid(parsed)).toBe(cid)
    const stranger = panelProbabilities(parsed.draw as PanelSpec, commitmentCid(parsed), 300)
    expect(JSON.stringify(stranger)).toBe(JSON.stringify(organizer))
    expect(organizer.kind).toBe('estimate')
    // Pinned figures: a change to the stream, the draw or the arithmetic shows here.
    if (organizer.kind !== 'estimate') throw new Error('estimate expected')
    expect(organizer.types.slice(0, 2).map((t) => [t.type, t.estimate, t.low, t.high])).toMatchInlineSnapshot(`
      [
        [
          "f0=v0|f1=v1|f2=v0",
          0.37,
          0.3152742636345952,
          0.4247257363654048,
        ],
        [
          "f0=v0|f1=v2|f2=v0",
          0.36666666666666664,
          0.3120440670312342,
          0.42128926630209906,
        ],
      ]
    `)
  })
})
