/**
 * The 'time' planner (docs/spec.md, Choosing E; commit side) and the rounds' scratch path
 * (relaxedInto, OtherQuotas): the scratch path reads the same bytes and picks the same members as the
 * spec's round, and the planner's plans are ordinary plans (same gate as the plan of their exact
 * features, deterministic, drawn and verified through the public API).
 */
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, serializeProof, verify } from '../../../src/core/index.js'
import { panelDraw } from '../../../src/core/kinds/panel.js'
import { poolParticipants } from '../../../src/core/kinds/sortition.js'
import { streamFromSeed } from '../../../src/core/random/stream.js'
import { buildCounter } from '../../../src/core/sortition/count.js'
import { planCost } from '../../../src/core/sortition/cost.js'
import { dpOrder, planPanel, PLANNER_EXACT_COST } from '../../../src/core/sortition/plan.js'
import { checkQuotas, type SortitionPool } from '../../../src/core/sortition/pool.js'
import { meetsQuotas, OtherQuotas, relaxedInto, relaxedPanel } from '../../../src/core/sortition/round.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { proportionalQuotas, smallPool } from './fixtures.js'

const seedOf = (n: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => (n * 31 + i * 7) & 255)

describe('the rounds\' scratch path (relaxedInto) is the spec\'s round', () => {
  it('same members (as a set), same counts per cell and same bytes read as relaxedPanel, on every exact-feature set', () => {
    for (let seed = 1; seed <= 4; seed++) {
      const pool = smallPool(60, [2, 3, 4], seed)
      const k = 9
      const table = checkQuotas(pool, proportionalQuotas(pool, k, 1), k)
      for (const exact of [[], [0], [2, 1], [2, 1, 0]]) {
        const counter = buildCounter(pool, table, k, dpOrder(pool, exact))
        if (counter.count === 0n) continue
        const a = streamFromSeed(seedOf(seed))
        const b = streamFromSeed(seedOf(seed))
        const counts = new Int32Array(counter.cells.length)
        const out = new Int32Array(k)
        for (let r = 0; r < 50; r++) {
          const want = relaxedPanel(counter, a)
          relaxedInto(counter, b, counts, out)
          expect([...out].sort((x, y) => x - y)).toEqual(want.members)
          expect([...counts]).toEqual(want.cellCounts)
          expect(b.consumed).toBe(a.consumed)
        }
      }
    }
  })

  it('OtherQuotas.meets agrees with meetsQuotas on kept and rejected panels', () => {
    const pool = smallPool(80, [2, 3, 4, 2], 5)
    const k = 10
    const table = checkQuotas(pool, proportionalQuotas(pool, k, 0), k)
    const counter = buildCounter(pool, table, k, dpOrder(pool, [2]))
    const check = new OtherQuotas({ pool, quotas: table, counter })
    expect(check.others).toEqual([0, 1, 3])
    const stream = streamFromSeed(seedOf(9))
    const seen = new Set<boolean>()
    for (let r = 0; r < 400; r++) {
      const { members } = relaxedPanel(counter, stream)
      const ok = meetsQuotas(pool, table, members, [0, 1, 3])
      seen.add(ok)
      expect(check.meets(members)).toBe(ok)
    }
    expect([...seen].sort()).toEqual([false, true])
  })
})

/** The pool in committed (type, id) order, as panelDraw plans it. */
function committedOrder(pool: SortitionPool): SortitionPool {
  return { features: pool.features, respondents: poolParticipants(pool).order.map((i) => pool.respondents[i]!) }
}

describe('the \'time\' planner (commit side)', () => {
  it('chooses what the \'size\' planner chooses when every candidate is cheap to count', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const pool = committedOrder(smallPool(40, [2, 3, 2], seed))
      const k = 8
      const table = checkQuotas(pool, proportionalQuotas(pool, k, seed % 2), k)
      const plan = (chooseBy: 'time' | 'size'): string => {
        try {
          const p = planPanel(pool, table, k, { chooseBy, fallbackToMethod2: true, fallbackToMethod3: true })
          return `${p.counter.exact.join(',')} method ${p.method ?? 1} ${p.maxRounds ?? ''}`
        } catch (err) {
          return (err as { code: string }).code
        }
      }
      expect(plan('time')).toBe(plan('size'))
    }
  })

  it('counts every feature exactly when that costs at most PLANNER_EXACT_COST (no gate, exact probabilities), and not above it', () => {
    // 300 respondents on 3 features, k = 12, ±1: a full count is cheap, so the plan is exact.
    const small = committedOrder(smallPool(300, [2, 4, 2], 41))
    const smallTable = checkQuotas(small, proportionalQuotas(small, 12, 1), 12)
    const full = planPanel(small, smallTable, 12, { chooseBy: 'time', fallbackToMethod2: true, fallbackToMethod3: true })
    expect(full.exact).toBe(true)
    expect(full.gate).toBeUndefined()
    expect(planCost(small, smallTable, 12, full.counter.exact, 1).count).toBeLessThanOrEqual(PLANNER_EXACT_COST)
    // The assembly-sized pool below: a full count is far above it, so the model decides.
    const big = committedOrder(smallPool(2000, [2, 3, 4, 5, 6, 6], 3))
    const bigTable = checkQuotas(big, proportionalQuotas(big, 40, 2), 40)
    expect(planCost(big, bigTable, 40, dpOrder(big, big.features.map((_, f) => f)), 1, PLANNER_EXACT_COST).stopped).toBe(true)
  })

  // 2,000 respondents, 6 features, k = 40, ±2: the 'size' planner counts two features (about 155,000
  // states); one feature's rounds reach the gate's 7th kept trial sooner than counting the second.
  const pool = committedOrder(smallPool(2000, [2, 3, 4, 5, 6, 6], 3))
  const k = 40
  const rows = proportionalQuotas(pool, k, 2)
  const table = checkQuotas(pool, rows, k)

  it('on an assembly-sized pool: counts fewer states than the \'size\' planner, deterministically, and its gate is the method-1 gate of its exact features', () => {
    const plan = planPanel(pool, table, k, { chooseBy: 'time', fallbackToMethod2: true, fallbackToMethod3: true })
    const again = planPanel(pool, table, k, { chooseBy: 'time', fallbackToMethod2: true, fallbackToMethod3: true })
    expect(again.counter.exact).toEqual(plan.counter.exact)
    expect(again.gate).toEqual(plan.gate)
    const size = planPanel(pool, table, k, { chooseBy: 'size' })
    expect(plan.counter.states).toBeLessThan(size.counter.states / 100)
    expect(plan.method ?? 1).toBe(1)
    const names = plan.counter.exact.map((f) => pool.features[f]!.name)
    const replay = planPanel(pool, table, k, { exactFeatures: names, stopAtKept: true })
    expect(plan.gate).toEqual(replay.gate)
    expect(plan.gate!.kept).toBe(7)
  })

  it('panelDraw uses it: the commitment draws and verifies (panel-replay), the panel meets every quota', async () => {
    const chain = buildChain(12, 'planner')
    const { draw, participants } = panelDraw(pool, rows, k, { alternates: 2 })
    expect(draw.exact).toEqual(planPanel(pool, table, k, { chooseBy: 'time' }).counter.exact.map((f) => pool.features[f]!.name))
    const { commitment } = commit({ beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: chain[7]!.cid }, label: 'planner', draw, participants })
    const proof = drawFromBlock(commitment, participants, chain[10]!)
    const r = await verify(serializeProof(proof), ENGINE_ONLY)
    expect(r.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([])
    const members = (proof.outcome as unknown as { members: { index: number }[] }).members.map((m) => m.index)
    expect(meetsQuotas(pool, table, members, pool.features.map((_, f) => f))).toBe(true)
  })
})
