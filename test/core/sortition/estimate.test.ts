/**
 * Estimated selection probabilities (issue 22, part 3): reproducible from the commitment alone, labelled
 * an estimate, and their 95 % intervals cover the exact probabilities (computed by a plan that counts
 * every feature exactly, on the same pool and quotas) for nearly every type, with fixed seeds; a
 * negative control (a greedy quota filler's frequencies) falls outside them.
 */
import { describe, expect, it } from 'vitest'
import { checkQuotas, type QuotaTable, type SortitionPool } from '../../../src/core/sortition/pool.js'
import { planPanel, selectionProbabilities } from '../../../src/core/sortition/panel.js'
import { estimateSeed, estimateSelectionProbabilities } from '../../../src/core/sortition/estimate.js'
import { lcg, proportionalQuotas, smallPool, valid } from './fixtures.js'

const pool = smallPool(40, [2, 3, 2], 17)
const k = 8
const table = checkQuotas(pool, proportionalQuotas(pool, k, 1), k)
const relaxed = planPanel(pool, table, k, { exactFeatures: ['f1'] })
const exact = planPanel(pool, table, k, { exactFeatures: ['f1', 'f0', 'f2'] })

function exactByType(): Map<string, number> {
  return new Map(selectionProbabilities(exact).map((p) => [p.type.join(','), Number(p.numerator) / Number(p.denominator)]))
}

describe('estimateSelectionProbabilities', () => {
  it('is a function of the seed alone, derived from the commitment CID, and labelled an estimate', () => {
    const a = estimateSelectionProbabilities(relaxed, estimateSeed('bafyexample'), 200)
    const b = estimateSelectionProbabilities(relaxed, estimateSeed('bafyexample'), 200)
    const c = estimateSelectionProbabilities(relaxed, estimateSeed('bafyother'), 200)
    expect(a).toEqual(b)
    expect(a).not.toEqual(c)
    expect(a.kind).toBe('estimate')
    expect(a.panels).toBe(200)
    expect(a.rounds).toBeGreaterThanOrEqual(200)
    expect(a.types.reduce((s, t) => s + t.estimate * t.respondents, 0)).toBeCloseTo(k, 9)
    expect(() => estimateSelectionProbabilities(relaxed, estimateSeed('x'), 1)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  })

  it('the 95 % intervals cover the exact probabilities for nearly every type (fixed seed)', () => {
    const truth = exactByType()
    const est = estimateSelectionProbabilities(relaxed, estimateSeed('bafycoverage'), 3000)
    const covered = est.types.filter((t) => t.low <= truth.get(t.type.join(','))! && truth.get(t.type.join(','))! <= t.high).length
    expect(est.types.length).toBe(truth.size)
    expect(covered / est.types.length).toBeGreaterThanOrEqual(0.8)
  })

  it('negative control: a greedy quota filler\'s selection frequencies fall outside the intervals', () => {
    const truth = exactByType()
    const est = estimateSelectionProbabilities(relaxed, estimateSeed('bafycoverage'), 3000)
    const freq = greedyFrequencies(pool, table, k, 3000)
    const outside = est.types.filter((t) => {
      const f = freq.get(t.type.join(','))!
      return f < t.low || f > t.high
    }).length
    const truthOutside = est.types.filter((t) => truth.get(t.type.join(','))! < t.low || truth.get(t.type.join(','))! > t.high).length
    // Measured: 5 of 12 types for the greedy filler, 0 for the exact probabilities.
    expect(outside).toBeGreaterThanOrEqual(3)
    expect(outside).toBeGreaterThan(truthOutside + 2)
  })
})

/** Per-type selection frequency of a greedy sampler: random order, take whoever keeps maxes, retry until valid. */
function greedyFrequencies(p: SortitionPool, t: QuotaTable, size: number, runs: number): Map<string, number> {
  const rnd = lcg(99)
  const hits = new Map<string, number>()
  const count = new Map<string, number>()
  for (const r of p.respondents) count.set(r.type.join(','), (count.get(r.type.join(',')) ?? 0) + 1)
  for (let done = 0; done < runs; ) {
    const order = p.respondents.map((_, i) => i)
    for (let i = order.length - 1; i > 0; i--) {
      const j = rnd(i + 1)
      ;[order[i], order[j]] = [order[j]!, order[i]!]
    }
    const panel: number[] = []
    for (const m of order) {
      if (panel.length === size) break
      const ok = p.features.every((_, f) => panel.filter((x) => p.respondents[x]!.type[f] === p.respondents[m]!.type[f]).length < t.max[f]![p.respondents[m]!.type[f]!]!)
      if (ok) panel.push(m)
    }
    if (panel.length !== size || !valid(p, t, panel)) continue
    done++
    for (const m of panel) hits.set(p.respondents[m]!.type.join(','), (hits.get(p.respondents[m]!.type.join(',')) ?? 0) + 1)
  }
  return new Map([...count].map(([key, n]) => [key, (hits.get(key) ?? 0) / (runs * n)]))
}
