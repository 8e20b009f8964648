/** Alternates (ranked, quota-keeping) and the panel lottery. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { pickIndices } from '../../../src/core/random/shuffle.js'
import { streamFromSeed } from '../../../src/core/random/stream.js'
import { weightedPick } from '../../../src/core/random/weighted.js'
import { checkLotteryPanels, drawLottery } from '../../../src/core/sortition/lottery.js'
import { checkQuotas } from '../../../src/core/sortition/pool.js'
import { drawAlternates, replacementFor } from '../../../src/core/sortition/alternates.js'
import { drawPanel, planPanel } from '../../../src/core/sortition/panel.js'
import { chiSquareTest } from '../../helpers/stats.js'
import { seedOf } from '../random/util.js'
import { proportionalQuotas, smallPool, valid } from './fixtures.js'

const pool = smallPool(40, [2, 3, 4], 11)
const k = 10
const table = checkQuotas(pool, proportionalQuotas(pool, k, 1), k)
const plan = planPanel(pool, table, k)

describe('drawAlternates', () => {
  it('ranks non-members with the spec pick, keeps those that can replace a member, and is deterministic', () => {
    const s = streamFromSeed(seedOf(41))
    const { members } = drawPanel(plan, s)
    const before = s.consumed
    const a = drawAlternates(s, pool, table, members, 8)
    expect(a.alternates.length).toBe(8)
    expect(a.alternates.every((x) => !members.includes(x))).toBe(true)
    expect(new Set(a.alternates).size).toBe(8)
    // Same draws as pick over the non-members in canonical order, for the ranks used.
    const s2 = streamFromSeed(seedOf(41))
    drawPanel(plan, s2)
    expect(s2.consumed).toBe(before)
    const others = pool.respondents.map((_, i) => i).filter((i) => !members.includes(i))
    const ranking = pickIndices(s2, others.length, a.ranked).map((p) => others[p]!)
    const qualifies = (x: number): boolean => members.some((p) => valid(pool, table, [...members.filter((m) => m !== p), x]))
    expect(a.alternates).toEqual(ranking.filter(qualifies))
    expect(qualifies(ranking[a.ranked - 1]!)).toBe(true) // stops right after the last alternate
  })

  it('replacement rule: same type first, then any alternate keeping every quota; the result always meets the quotas', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: k - 1 }), (seed, drop) => {
        const s = streamFromSeed(seedOf(seed))
        const { members } = drawPanel(plan, s)
        const { alternates } = drawAlternates(s, pool, table, members, 12)
        const p = members[drop]!
        const r = replacementFor(pool, table, members, alternates, p)
        const same = alternates.find((a) => pool.respondents[a]!.type.join() === pool.respondents[p]!.type.join())
        if (same !== undefined) expect(r).toBe(same)
        if (r !== undefined) expect(valid(pool, table, [...members.filter((m) => m !== p), r])).toBe(true)
        else expect(alternates.every((a) => !valid(pool, table, [...members.filter((m) => m !== p), a]))).toBe(true)
        // Used alternates are skipped.
        if (r !== undefined) expect(replacementFor(pool, table, members, alternates, p, new Set([r]))).not.toBe(r)
      }),
      { numRuns: 60, seed: 7 },
    )
  })

  it('returns fewer alternates when fewer qualify, and refuses bad arguments', () => {
    const s = streamFromSeed(seedOf(42))
    const { members } = drawPanel(plan, s)
    const all = drawAlternates(s, pool, table, members, 1000)
    expect(all.ranked).toBe(pool.respondents.length - k)
    expect(all.alternates.length).toBeLessThanOrEqual(pool.respondents.length - k)
    expect(drawAlternates(streamFromSeed(seedOf(1)), pool, table, members, 0)).toEqual({ alternates: [], ranked: 0 })
    expect(() => drawAlternates(s, pool, table, members, -1)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    expect(() => replacementFor(pool, table, members, all.alternates, all.alternates[0]!)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  })
})

describe('panel lottery', () => {
  const panels = [0, 1, 2].map((t) => drawPanel(plan, streamFromSeed(seedOf(500 + t))).members.map((m) => pool.respondents[m]!.id))

  it('accepts valid candidate panels and names every broken one', () => {
    expect(checkLotteryPanels(pool, table, k, panels)).toEqual([])
    const bad = [panels[0]!.slice(1), [...panels[1]!.slice(1), panels[1]![1]!], [...panels[2]!.slice(1), 'nobody']]
    const checks = checkLotteryPanels(pool, table, k, bad).map((p) => `${p.panel}:${p.check}`)
    expect(checks).toContain('0:PANEL_SIZE')
    expect(checks).toContain('1:PANEL_REPEATS_MEMBER')
    expect(checks).toContain('2:PANEL_UNKNOWN_MEMBER')
    // Swap a member for a non-member of another type until a quota breaks.
    const broken = panels[0]!.slice()
    const outsider = pool.respondents.find((r) => !broken.includes(r.id) && r.type.join() !== pool.respondents.find((x) => x.id === broken[0])!.type.join())!
    const members = (ids: string[]) => ids.map((id) => pool.respondents.findIndex((r) => r.id === id))
    const candidates = pool.respondents.filter((r) => !broken.includes(r.id)).map((r) => r.id)
    const breaker = candidates.find((id) => !valid(pool, table, members([...broken.slice(1), id]))) ?? outsider.id
    expect(checkLotteryPanels(pool, table, k, [[...broken.slice(1), breaker]]).map((p) => p.check)).toContain('PANEL_BREAKS_QUOTA')
  })

  it('the beacon picks panel i with probability weight_i / total (chi-square, alpha = 0.001) and equals weightedPick', () => {
    const weights = [1, 2, 5]
    const counts = [0, 0, 0]
    const s = streamFromSeed(seedOf(77))
    const N = 16_000
    for (let t = 0; t < N; t++) counts[drawLottery(s, weights)]!++
    const r = chiSquareTest(counts, weights.map((w) => (N * w) / 8))
    expect(r.pass, JSON.stringify(r)).toBe(true)
    expect(drawLottery(streamFromSeed(seedOf(78)), weights)).toBe(weightedPick(streamFromSeed(seedOf(78)), weights, 1)[0])
    expect(() => drawLottery(s, [])).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    expect(() => drawLottery(s, [1, 0])).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  })
})
