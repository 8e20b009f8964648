/**
 * Per-type probabilities of every committed panel plan (src/core/kinds/panel-probabilities.ts):
 * exact fractions equal to enumeration on a small pool; otherwise an estimate that anyone recomputes
 * from the commitment's CID alone (same CID, same figures; another CID, other figures), labelled as an
 * estimate, whose intervals cover the enumerated probabilities.
 */
import { describe, expect, it } from 'vitest'
import { panelDraw, type PanelSpec } from '../../../src/core/kinds/panel.js'
import { checkQuotas, type SortitionPool } from '../../../src/core/sortition/index.js'
import { formatPanelProbabilities, panelProbabilities, startPanelProbabilities } from '../../../src/core/kinds/panel-probabilities.js'
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

/** The pool in committed order (type, id), as the kinds see it. */
function committedPool(p: SortitionPool, participants: readonly string[]): SortitionPool {
  const byId = new Map(p.respondents.map((r) => [r.id, r]))
  return { features: p.features, respondents: participants.map((e) => byId.get(e.split('|')[0]!)!) }
}

/** Per group (type × household size under `of`): the exact average share of `panels` holding its respondents, as a reduced fraction, keyed `type#size`. */
function perGroup(p: SortitionPool, of: Int32Array, panels: readonly (readonly number[])[], among?: readonly number[]): Map<string, { fraction: string; value: number }> {
  const who = among ?? p.respondents.map((_, i) => i)
  const size = new Map<number, number>()
  for (const i of who) if (of[i]! >= 0) size.set(of[i]!, (size.get(of[i]!) ?? 0) + 1)
  const key = (i: number): string => `${typeText(p.features, p.respondents[i]!.type)}#${of[i]! < 0 ? 1 : size.get(of[i]!)!}`
  const acc = new Map<string, { n: bigint; hits: bigint }>()
  const at = new Map<number, string>()
  for (const i of who) {
    at.set(i, key(i))
    const a = acc.get(key(i)) ?? { n: 0n, hits: 0n }
    acc.set(key(i), { n: a.n + 1n, hits: 0n })
  }
  for (const panel of panels) for (const m of panel) if (at.has(m)) acc.get(at.get(m)!)!.hits++
  const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b))
  return new Map(
    [...acc].map(([g, v]) => {
      const den = v.n * BigInt(panels.length)
      const d = gcd(v.hits, den)
      return [g, { fraction: `${v.hits / d}/${den / d}`, value: Number(v.hits) / Number(den) }]
    }),
  )
}

describe('panelProbabilities under a household rule (per type and household size)', () => {
  const hp = smallPool(14, [2, 3], 41)
  const hk = 5
  const hrows = proportionalQuotas(hp, hk, 1)
  const households = new Map(hp.respondents.map((r, i) => [r.id, `h${i % 9}`]))
  const { draw, participants } = panelDraw(hp, hrows, hk, { households })
  const cpool = committedPool(hp, participants)
  const of = householdIndex(draw.households!, cpool.respondents.length)
  const valid = enumeratePanels(cpool, checkQuotas(cpool, hrows, hk), hk).filter((p) => sharedHousehold(of, p) === undefined)
  const want = perGroup(cpool, of, valid)

  it('exact per group (type x household size) by the household count: equal to brute-force enumeration as reduced fractions', () => {
    expect(draw.households!.length).toBeGreaterThan(0)
    const a = panelProbabilities(draw, 'bagaaierahouseholds')
    expect(a.kind).toBe('exact')
    expect(a.households).toBe(true)
    const got = new Map(a.types.map((t) => [`${t.type}#${t.household!}`, 'probability' in t ? t.probability : '']))
    expect(got).toEqual(new Map([...want].map(([g, w]) => [g, w.fraction])))
    // Respondents of one type differ by household: someone alone has a higher chance than someone in a household of 2.
    const byType = new Map<string, number[]>()
    for (const t of a.types) byType.set(t.type, [...(byType.get(t.type) ?? []), t.household!])
    expect([...byType.values()].some((sizes) => sizes.length > 1)).toBe(true)
    const alone = a.types.filter((t) => t.household === 1)
    const shared = a.types.filter((t) => t.household! > 1)
    for (const s of shared) {
      const single = alone.find((t) => t.type === s.type)
      if (single !== undefined && 'decimal' in single && 'decimal' in s) expect(Number(single.decimal)).toBeGreaterThan(Number(s.decimal))
    }
    // The panel-size identity: Σ probability · respondents = k, exactly.
    expect(a.types.reduce((x, t) => x + ('decimal' in t ? Number(t.decimal) * t.respondents : 0), 0)).toBeCloseTo(hk, 9)
    const lines = formatPanelProbabilities(a)
    expect(lines[0]).toMatch(/\(exact: counted with the household rule, per type and household size\):$/)
    expect(lines[1]).toMatch(/per type and household size \(1 = alone\): the average over the group's respondents under the household rule/)
    expect(lines[2]).toMatch(/^ {4}Type +Household +Respondents +Probability$/)
  })

  it('over the count\'s budget: the estimate per group, labelled, reproducible from the CID alone, its intervals covering the enumeration', () => {
    const a = panelProbabilities(draw, 'bagaaierahouseholds', 2000, { budget: 1 })
    expect(a.kind).toBe('estimate')
    expect(a.households).toBe(true)
    expect(panelProbabilities(draw, 'bagaaierahouseholds', 2000, { budget: 1 })).toEqual(a)
    expect(panelProbabilities(draw, 'bagaaieraother', 2000, { budget: 1 })).not.toEqual(a)
    expect(a.types.map((t) => `${t.type}#${t.household!}`).sort()).toEqual([...want.keys()].sort())
    const covers = a.types.filter((t) => 'low' in t && t.low <= want.get(`${t.type}#${t.household!}`)!.value + 1e-12 && want.get(`${t.type}#${t.household!}`)!.value <= t.high + 1e-12).length
    expect(covers, JSON.stringify(a.types)).toBeGreaterThanOrEqual(a.types.length - 1)
    expect(a.types.reduce((x, t) => x + ('estimate' in t ? t.estimate : 0) * t.respondents, 0)).toBeCloseTo(hk, 9)
    // Without the rule the figures differ (the household rule changes who is drawn).
    const free = perType(cpool, enumeratePanels(cpool, checkQuotas(cpool, hrows, hk), hk))
    const wantType = perType(cpool, valid)
    expect([...wantType].some(([key, x]) => Math.abs(x - free.get(key)!) > 0.01)).toBe(true)
    expect(formatPanelProbabilities(a)[0]).toMatch(/ESTIMATE from 2000 sample panels/)
    expect(formatPanelProbabilities(a)[2]).toMatch(/^ {4}Type +Household +Respondents +Estimate +95 % interval$/)
  })

  it('the summary names the lowest and highest group (with its household size), their ratio and the equal share k/n', () => {
    const a = panelProbabilities(draw, 'bagaaierahouseholds', 2000, { budget: 1 })
    const values = a.types.map((t) => ('estimate' in t ? t.estimate : Number(t.decimal)))
    expect(a.summary.lowest.value).toBe(Math.min(...values))
    expect(a.summary.highest.value).toBe(Math.max(...values))
    expect(a.summary.ratio).toBeCloseTo(Math.max(...values) / Math.min(...values), 12)
    expect(a.summary.equal).toBe(hk / 14)
    const lowest = a.types.find((t) => t.type === a.summary.lowest.type && t.household === a.summary.lowest.household)!
    expect(a.summary.lowest).toEqual({ type: lowest.type, household: lowest.household, value: Math.min(...values), low: 'low' in lowest ? lowest.low : NaN, high: 'high' in lowest ? lowest.high : NaN })
    expect(formatPanelProbabilities(a).at(-1)).toMatch(/^ {4}Summary \(ESTIMATE\): lowest 0\.\d{4} \[0\.\d{4}, [01]\.\d{4}\] \(.+, household of \d\), highest 0\.\d{4} \[0\.\d{4}, [01]\.\d{4}\] \(.+, household of \d\), highest\/lowest \d+\.\d\d; equal share k\/n 0\.3571/)
  })

  it('the replacements of a panel-replacement draw: exact per available group, equal to enumeration; the estimate covering it', () => {
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
    // Groups of the sub-pool: household sizes among the available respondents.
    const wantR = perGroup(cpool, of, completions, available)
    const x = panelProbabilities(spec, 'bagaaierareplacement')
    expect(x.scope).toBe('replacements')
    expect(x.kind).toBe('exact')
    expect(new Map(x.types.map((t) => [`${t.type}#${t.household!}`, 'probability' in t ? t.probability : '']))).toEqual(new Map([...wantR].map(([g, w]) => [g, w.fraction])))
    expect(x.types.reduce((s, t) => s + t.respondents, 0)).toBe(available.length)
    expect(x.summary.equal).toBe(dropped.length / available.length)
    const r = panelProbabilities(spec, 'bagaaierareplacement', 3000, { budget: 1 })
    expect(r.kind).toBe('estimate')
    const covers = r.types.filter((t) => 'low' in t && t.low <= wantR.get(`${t.type}#${t.household!}`)!.value + 1e-12 && wantR.get(`${t.type}#${t.household!}`)!.value <= t.high + 1e-12).length
    expect(covers, JSON.stringify(r.types)).toBeGreaterThanOrEqual(r.types.length - 1)
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

describe('the estimate a few panels at a time (startPanelProbabilities: the page\'s partial figures)', () => {
  it('after n panels its figures are exactly panelProbabilities(spec, cid, n), for every n; it stops at the panels asked', () => {
    const { draw } = panelDraw(pool, rows, k, { exactFeatures: ['f0'] })
    const run = startPanelProbabilities(draw, 'bagaaierapartial', 40)
    expect(run.current()).toBeUndefined()
    run.advance(1)
    expect(run.current()).toBeUndefined() // an estimate needs 2 panels
    for (const n of [2, 3, 7, 20, 40]) {
      run.advance(n - run.drawn)
      expect(run.drawn).toBe(n)
      expect(JSON.stringify(run.current())).toBe(JSON.stringify(panelProbabilities(draw, 'bagaaierapartial', n)))
    }
    expect(run.done).toBe(true)
    run.advance(10)
    expect(run.drawn).toBe(40)
    // Partial intervals are wider: after 7 panels than after 40, on average over the types.
    const width = (p: ReturnType<typeof panelProbabilities>): number => p.types.reduce((x, t) => x + ('high' in t ? t.high - t.low : 0), 0)
    expect(width(panelProbabilities(draw, 'bagaaierapartial', 7))).toBeGreaterThan(width(panelProbabilities(draw, 'bagaaierapartial', 40)))
  })

  it('exact figures are done at once', () => {
    const { draw } = panelDraw(pool, rows, k)
    const run = startPanelProbabilities(draw, 'bagaaieraexample')
    expect(run.done).toBe(true)
    expect(run.current()).toEqual(panelProbabilities(draw, 'bagaaieraexample'))
    expect(() => startPanelProbabilities(draw, 'x', 1)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  })
})
