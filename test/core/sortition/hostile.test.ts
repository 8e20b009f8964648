/**
 * The forged `panel` proofs of bench/hostile-fixture.ts (bench/sortition-hostile.bench.ts measures them
 * at full size): a plan-method-3 commitment whose quotas (or household) no round can meet is read
 * by the same rules as an honest one, its work bound is what the bench prints, and `verify` replays
 * exactly its `maxRounds` rounds, then fails `outcome` with the rejection limit and reports every later
 * check "not checked", without throwing. Here with a cap of 40 rounds: no timing is asserted.
 */
import { describe, expect, it } from 'vitest'
import { verify } from '../../../src/core/verify.js'
import { parseCommitment } from '../../../src/core/commitment.js'
import { SORTITION_LIMITS } from '../../../src/core/sortition/pool.js'
import { hostileAlternatesProof, hostileCountPlan, hostileCountProof, hostileProof, HOSTILE_K } from '../../../bench/hostile-fixture.js'
import { alternatesCost, CACHED_STATES, CELL_UNITS, checkPlanCost, LOOKUP_UNITS, planCost } from '../../../src/core/sortition/cost.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'

const SHAPES = [
  { features: 2, values: 2 },
  { features: 16, values: 64 },
  { features: 16, values: 2, households: true },
]

describe('forged plan-3 panel proofs that no round can keep (the hostile bench)', () => {
  it('at full size: read as valid, a count cost of 536 and each round charged its real work, the largest maxRounds within the draw cost', () => {
    for (const shape of SHAPES) {
      const h = hostileProof(shape)
      const draw = parseCommitment(new TextEncoder().encode(h.commitmentText)).draw as { plan?: number; maxRounds?: number; k?: number }
      // Round: 512 units, 268 blocks of w + 16 = 17 units, 25 units a pick, k per feature left to rejection plus their values, 2k for households,
      // and the walk over its one cell (64 units: one state, cached).
      const round = 512 + 17 * (HOSTILE_K + 1) + 25 * HOSTILE_K + shape.features * (HOSTILE_K + shape.values) + (shape.households === true ? 2 * HOSTILE_K : 0) + 64
      const largest = Math.floor(SORTITION_LIMITS.maxDrawCost / round)
      expect([draw.plan, draw.maxRounds, draw.k]).toEqual([3, largest, HOSTILE_K])
      expect(largest).toBeLessThan(SORTITION_LIMITS.maxRejectionRoundsV3)
      expect([h.cost.words, h.cost.count, h.cost.round, h.cost.draw]).toEqual([1, 536, round, round * largest])
      expect(h.cost.draw).toBeLessThanOrEqual(SORTITION_LIMITS.maxDrawCost)
    }
    expect(hostileProof(SHAPES[0]!).text.length).toBeLessThan(1500)
  })

  it('the same proofs with the 4,000,000 rounds the work bound admitted before issue 22 fail commitment-cid by name, before any round', async () => {
    for (const shape of SHAPES) {
      const r = await verify(hostileProof({ ...shape, maxRounds: SORTITION_LIMITS.maxRejectionRoundsV3 }).text, ENGINE_ONLY)
      const failed = r.checks.filter((c) => !c.ok)
      expect(failed.map((c) => c.name)).toEqual(['commitment-cid'])
      expect(failed[0]!.detail).toMatch(shape.households === true ? /rejection rounds of this plan( with households)? may take \d+ work units, more than 17179869184/ : /rejection rounds of this plan may take \d+ work units, more than 17179869184/)
      expect(r.ok).toBe(false)
    }
  })

  it('verify replays all maxRounds rounds, fails outcome with the rejection limit, and names every later check', async () => {
    for (const shape of SHAPES) {
      const r = await verify(hostileProof({ ...shape, maxRounds: 40 }).text, ENGINE_ONLY)
      const failed = r.checks.filter((c) => !c.ok)
      expect(failed.map((c) => c.name)).toEqual(['outcome', 'panel-size', 'panel-distinct', 'panel-members-known', 'panel-quotas', 'panel-replay', 'revealed-winners'])
      expect(failed[0]!.detail).toMatch(shape.households === true ? /no panel met every quota and the household rule in 40 rounds/ : /no relaxed panel met every quota in 40 rounds/)
      expect(r.ok).toBe(false)
    }
  })
})

describe('forged panel proofs that attack the exact counter (the hostile bench, count-2, count-5, count-12)', () => {
  it('are within the count cost up to 12 rows (2^26.9 at 12) but refused from 2 rows by the key cost, which charges each transition its state (2^28.0 at 2 rows), by the work bound alone', () => {
    const costs = [1, 2, 5, 12, 13].map((rows) => {
      const { pool, table, exact } = hostileCountPlan({ rows, k: 3 })
      return { rows, cells: pool.respondents.length, c: planCost(pool, table, 3, exact, 1), check: () => checkPlanCost(pool, table, 3, exact) }
    })
    for (const { rows, cells, c, check } of costs) {
      // One respondent per type, so one cell per type: the grid plus one cell for each other value of `a`.
      expect([c.cells, c.words]).toEqual([cells, 1])
      expect(cells).toBe(64 * rows + 64 - rows)
      if (rows <= 12) expect(c.count).toBeLessThanOrEqual(SORTITION_LIMITS.maxCountCost)
      if (rows === 1) {
        expect(c.keys).toBeLessThanOrEqual(SORTITION_LIMITS.maxKeyCost)
        expect(check).not.toThrow()
      } else if (rows <= 12) expect(check).toThrow(/may build state keys worth \d+ work units, more than 134217728/)
      else expect(check).toThrow(/more than 134217728 work units/)
    }
    expect(costs[3]!.c.count).toBeGreaterThan(SORTITION_LIMITS.maxCountCost / 2)
    // Almost every transition starts a state of its own: the count cost charges each 1 unit (w = 1), the key cost 16 + P_i + E.
    expect(costs[3]!.c.states).toBeGreaterThan(0.9 * costs[3]!.c.transitions)
    expect(costs[1]!.c.keys).toBeGreaterThan(SORTITION_LIMITS.maxKeyCost)
  })

  it('with rejection rounds (count-2-rounds at full size: within 2^34), verify counts, replays every round and fails outcome by name (here one row, 40 rounds)', async () => {
    const full = hostileCountProof({ rows: 2, k: 3, rounds: 'max' })
    expect(full.cost.draw).toBeLessThanOrEqual(SORTITION_LIMITS.maxDrawCost)
    expect(full.cost.draw + full.cost.round).toBeGreaterThan(SORTITION_LIMITS.maxDrawCost)
    expect(full.maxRounds).toBe(Math.floor(SORTITION_LIMITS.maxDrawCost / full.cost.round))
    // Its counter's state keys pass the key cost: refused by name before any counting or round.
    const refused = await verify(full.text, ENGINE_ONLY)
    expect(refused.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['commitment-cid'])
    expect(refused.checks.find((c) => !c.ok)!.detail).toMatch(/may build state keys worth \d+ work units, more than 134217728/)
    const r = await verify(hostileCountProof({ rows: 1, k: 3, rounds: 40 }).text, ENGINE_ONLY)
    const failed = r.checks.filter((c) => !c.ok)
    expect(failed.map((c) => c.name)).toEqual(['outcome', 'panel-size', 'panel-distinct', 'panel-members-known', 'panel-quotas', 'panel-replay', 'revealed-winners'])
    expect(failed[0]!.detail).toMatch(/no relaxed panel met every quota in 40 rounds/)
  })

  it('over the largest counter the key cost admits (12 rows of 16 values, k = 4), each cell a round walks is charged its lookups, dearer over more than 4,096 states: the rounds the draw cost admitted before are refused by name before any counting', async () => {
    const shape = { rows: 12, k: 4, values: 16 } as const
    const { pool, table, exact } = hostileCountPlan({ ...shape, rounds: 1 })
    const c = planCost(pool, table, 4, exact, 1)
    // Within the count and key costs: the largest such grid (3.3 million states bounded, 244 cells).
    expect(c.keys).toBeLessThanOrEqual(SORTITION_LIMITS.maxKeyCost)
    expect(c.count).toBeLessThanOrEqual(SORTITION_LIMITS.maxCountCost)
    expect(c.states).toBeGreaterThan(CACHED_STATES)
    expect([c.cells, c.walk]).toEqual([244, (CELL_UNITS + LOOKUP_UNITS) * 244])
    expect(c.round).toBe(512 + c.choose + c.picks + c.keep + c.household + c.walk)
    // Without its walk a round was charged 8,920 units, so 1,925,994 rounds fitted 2^34 (about 13 ns of CPU a unit measured).
    const before = Math.floor(SORTITION_LIMITS.maxDrawCost / (c.round - c.walk))
    expect(before).toBe(1_925_994)
    const old = hostileCountProof({ ...shape, rounds: before })
    const refused = await verify(old.text, ENGINE_ONLY)
    expect(refused.checks.filter((x) => !x.ok).map((x) => x.name)).toEqual(['commitment-cid'])
    expect(refused.checks.find((x) => !x.ok)!.detail).toMatch(/the rejection rounds of this plan may take \d+ work units, more than 17179869184 \(1925994 rounds of at most 149464;/)
    // The largest cap admitted now, and one round more.
    const full = hostileCountProof({ ...shape, rounds: 'max' })
    expect(full.maxRounds).toBe(Math.floor(SORTITION_LIMITS.maxDrawCost / c.round))
    expect(() => checkPlanCost(pool, table, 4, exact, 3, full.maxRounds)).not.toThrow()
    expect(() => checkPlanCost(pool, table, 4, exact, 3, full.maxRounds + 1)).toThrow(/rejection rounds of this plan may take/)
    // A counter of at most 4,096 states is charged 64 units a cell (one row: 1,045 states, 79 cells).
    const small = hostileCountPlan({ rows: 1, k: 4, values: 16, rounds: 1 })
    const s = planCost(small.pool, small.table, 4, small.exact, 1)
    expect(s.states).toBeLessThanOrEqual(CACHED_STATES)
    expect(s.walk).toBe(CELL_UNITS * 79)
  })
})

describe('a forged panel proof whose alternates\' ranking would rank every non-member (the hostile bench\'s `alternates`)', () => {
  it('1,000,000 respondents claimed, k = 1,000, 16 exact features, 999,000 alternates: refused by the alternates cost, by name, before any planning', async () => {
    const h = hostileAlternatesProof()
    expect([h.n, h.k, h.features, h.alternates]).toEqual([1_000_000, 1000, 16, 999_000])
    expect(h.text.length).toBeLessThan(2500)
    // Every feature exact: the draw cost charges one round; the alternates cost 999,000 · (3,072 + 1,000 · (8 + 8 · 16)).
    expect(alternatesCost(h.n, h.k, h.features, h.alternates)).toBe(138_932_928_000)
    const r = await verify(h.text, ENGINE_ONLY)
    const failed = r.checks.filter((c) => !c.ok)
    expect(failed.map((c) => c.name)).toEqual(['commitment-cid'])
    expect(failed[0]!.detail).toMatch(/the ranking of 999000 alternate\(s\) may take 138932928000 work units, more than 2\^32 = 4294967296 \(whatever the number asked, it may rank all 999000 respondents left after the panel/)
    expect(r.ok).toBe(false)
  })

  it('asking for one alternate instead changes nothing: the ranking may still rank every non-member', async () => {
    const r = await verify(hostileAlternatesProof({ alternates: 1 }).text, ENGINE_ONLY)
    const failed = r.checks.filter((c) => !c.ok)
    expect(failed.map((c) => c.name)).toEqual(['commitment-cid'])
    expect(failed[0]!.detail).toMatch(/the ranking of 1 alternate\(s\) may take 138932928000 work units, more than 2\^32/)
  })
})
