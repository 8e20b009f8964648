/**
 * Per-type probabilities of every committed panel plan (src/core/kinds/panel-probabilities.ts):
 * exact fractions equal to enumeration on a small pool; otherwise an estimate that anyone recomputes
 * from the commitment's CID alone (same CID, same figures; another CID, other figures), labelled as an
 * estimate, whose intervals cover the enumerated probabilities.
 */
import { describe, expect, it } from 'vitest'
import { panelDraw } from '../../../src/core/kinds/panel.js'
import { checkQuotas } from '../../../src/core/sortition/index.js'
import { formatPanelProbabilities, panelProbabilities } from '../../../src/core/kinds/panel-probabilities.js'
import { typeText } from '../../../src/core/kinds/sortition.js'
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
