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
import { hostileProof, HOSTILE_K } from '../../../bench/hostile-fixture.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'

const SHAPES = [
  { features: 2, values: 2 },
  { features: 16, values: 64 },
  { features: 16, values: 2, households: true },
]

describe('forged plan-3 panel proofs that no round can keep (the hostile bench)', () => {
  it('at full size: read as valid, a count cost of 536 and a draw cost of 535 × 4,000,000, within 2^31', () => {
    for (const shape of SHAPES) {
      const h = hostileProof(shape)
      const draw = parseCommitment(new TextEncoder().encode(h.commitmentText)).draw as { plan?: number; maxRounds?: number; k?: number }
      expect([draw.plan, draw.maxRounds, draw.k]).toEqual([3, SORTITION_LIMITS.maxRejectionRoundsV3, HOSTILE_K])
      expect([h.cost.words, h.cost.count, h.cost.round, h.cost.draw]).toEqual([1, 536, 2 * HOSTILE_K + 1, 535 * 4_000_000])
      expect(h.cost.draw).toBeLessThanOrEqual(SORTITION_LIMITS.maxDrawCost)
    }
    expect(hostileProof(SHAPES[0]!).text.length).toBeLessThan(1500)
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
