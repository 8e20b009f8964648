/**
 * The alternates cost at commit (docs/spec.md, Work bound): `panelDraw` refuses, before any planning,
 * a draw whose alternates' ranking may exceed 2^32 work units, with or without a household rule, and
 * whatever the number of alternates asked; the same pool without alternates is not refused by it; an
 * honest panel with alternates well within it commits and verifies.
 */
import { describe, expect, it } from 'vitest'
import { commit } from '../../../src/core/commitment.js'
import { drawFromBlock } from '../../../src/core/draw.js'
import { LimitExceededError } from '../../../src/core/errors.js'
import { validateDrawSpec } from '../../../src/core/draw-spec.js'
import { panelDraw, type PanelOutcomeJson, type PanelSpec } from '../../../src/core/kinds/panel.js'
import { alternatesCost } from '../../../src/core/sortition/cost.js'
import { makePool, SORTITION_LIMITS, type QuotaRow, type SortitionPool } from '../../../src/core/sortition/pool.js'
import { verify } from '../../../src/core/verify.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { proportionalQuotas, smallPool } from '../sortition/fixtures.js'

const CHAIN = buildChain(12, 'alternates-cost')
const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: CHAIN[7]!.cid }, label: 'alternates cost' }

/** `n` respondents, 16 features of values `a`/`b` (alternating), loose quotas for a panel of `k`. */
function widePool(n: number, k: number): { pool: SortitionPool; quotas: QuotaRow[] } {
  const names = Array.from({ length: 16 }, (_, f) => `f${String(f).padStart(2, '0')}`)
  const pool = makePool(names, Array.from({ length: n }, (_, i) => ({ id: String(i).padStart(6, '0'), values: names.map((_, f) => ((i >> (f % 8)) & 1 ? 'b' : 'a')) })))
  return { pool, quotas: names.flatMap((feature) => ['a', 'b'].map((value) => ({ feature, value, min: 0, max: k }))) }
}

describe('panelDraw and the alternates cost', () => {
  it('refuses a pool of 31,884 with k = 1,000 on 16 features and any alternates (2^32 is passed at 30,884 non-members), by the typed error, before planning', () => {
    const { pool, quotas } = widePool(31_884, 1000)
    expect(alternatesCost(31_884, 1000, 16, 1)).toBeGreaterThan(SORTITION_LIMITS.maxAlternatesCost)
    expect(alternatesCost(31_883, 1000, 16, 1)).toBeLessThanOrEqual(SORTITION_LIMITS.maxAlternatesCost)
    for (const alternates of [1, 10, 30_884]) {
      let thrown: unknown
      try {
        panelDraw(pool, quotas, 1000, { alternates })
      } catch (err) {
        thrown = err
      }
      expect(thrown).toBeInstanceOf(LimitExceededError)
      expect(thrown).toMatchObject({ code: 'SORTITION_COST_LIMIT' })
      expect((thrown as LimitExceededError).detail).toBe(`the ranking of ${alternates} alternate(s) may take 4295099648 work units, more than 2^32 = 4294967296 (whatever the number asked, it may rank all 30884 respondents left after the panel and test each against the 1000 members on 16 feature(s); docs/spec.md, Work bound)`)
      expect((thrown as LimitExceededError).hint).toMatch(/^ask for no alternates, or use a smaller pool or panel/)
    }
    // With a household rule each test is dearer: refused from fewer respondents (the message says so).
    const households = new Map(pool.respondents.map((r) => [r.id, r.id]))
    expect(() => panelDraw(pool, quotas, 1000, { alternates: 5, households })).toThrow(/on 16 feature\(s\) and the household rule; docs\/spec\.md, Work bound\)/)
  })

  it('the commitment\'s validation (commit and every verifier) refuses the same draw by its counts alone, before planning', () => {
    const types = [
      [...new Array<number>(16).fill(0), 1000],
      [...new Array<number>(16).fill(1), 30_884],
    ]
    const features = Array.from({ length: 16 }, (_, f) => ({ name: `f${String(f).padStart(2, '0')}`, values: ['a', 'b'], min: [0, 0], max: [1000, 1000] }))
    const spec: PanelSpec = { kind: 'panel', k: 1000, alternates: 3, exact: [], features, types }
    expect(() => validateDrawSpec(spec, 31_884)).toThrow(expect.objectContaining({ code: 'SORTITION_COST_LIMIT' }))
  })

  it('an honest panel with alternates, far within the alternates cost, commits, draws and verifies (public and private)', async () => {
    const pool = smallPool(300, [2, 3, 4], 5)
    const { draw, participants } = panelDraw(pool, proportionalQuotas(pool, 30, 2), 30, { alternates: 12 })
    // 270 · (3,072 + 30 · (8 + 8 · 3)).
    expect(alternatesCost(300, 30, 3, 12)).toBe(1_088_640)
    for (const secret of [undefined, new Uint8Array(32).fill(3)]) {
      const { commitment } = commit({ ...base, draw, participants, ...(secret === undefined ? {} : { private: { secret } }) })
      const proof = drawFromBlock(commitment, participants, CHAIN[10]!, secret === undefined ? {} : { disclosure: 'winners', secret })
      expect((proof.outcome as PanelOutcomeJson).alternates).toHaveLength(12)
      const r = await verify(proof, ENGINE_ONLY)
      expect(r.checks.filter((c) => !c.ok)).toEqual([])
      expect(r.ok).toBe(true)
    }
  })
})
