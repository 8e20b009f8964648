/**
 * Plan method 3 (docs/spec.md, Plan methods): its vectors replay byte for byte (and the spec-literal
 * reference draws the same panel), its failure bound holds for every acceptance rate, a plan methods
 * 1 and 2 refuse commits, draws and verifies as method 3 through the public API, its draws are uniform
 * over the valid panels (chi-square with fixed seeds, and a biased sampler the same test rejects), and
 * malformed method-3 commitments are refused with named paths.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, parseCommitment, serializeProof, verify } from '../../../src/core/index.js'
import { encodeCommitment } from '../../../src/core/commitment.js'
import { hexToBytes } from '../../../src/core/bytes.js'
import { panelDraw } from '../../../src/core/kinds/panel.js'
import { streamFromSeed, type RandomStream } from '../../../src/core/random/index.js'
import { checkQuotas, drawPanel, planPanel, PLAN_METHODS, SORTITION_LIMITS } from '../../../src/core/sortition/index.js'
import { meetsQuotas, relaxedPanel, roundCap, uniformBelow } from '../../../src/core/sortition/round.js'
import { chooseCount } from '../../../src/core/sortition/choose-counts.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { chiSquareTest } from '../../helpers/stats.js'
import { seedOf } from '../random/util.js'
import { proportionalQuotas, smallPool } from './fixtures.js'
import { drawCountingRounds, panelFrequencies, uniformityCase } from './panel-frequencies.js'
import { plan3Inputs, runPlan3, type Plan3Vector } from './plan3-cases.js'
import { vectorPoolAndRows } from './plan-vector-kit.js'
import { referencePanel } from './reference.js'

const file = JSON.parse(readFileSync(new URL('../../vectors/sortition-plan3.json', import.meta.url), 'utf8')) as { cases: Plan3Vector[] }
const CHAIN = buildChain(12, 'plan3')
const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: CHAIN[7]!.cid }, label: 'plan 3' }

describe('plan method 3', () => {
  it('the vectors replay: both refusals, the kept trials, maxRounds = 16 × the 10th, the cost and the draw', () => {
    const inputs = plan3Inputs()
    expect(file.cases.length).toBe(inputs.length)
    inputs.forEach((input, i) => expect(runPlan3(input)).toEqual(file.cases[i]))
    const v = file.cases[0]!
    expect(v.method1Kept).toBeLessThan(PLAN_METHODS[1].kept)
    expect(v.method2KeptAt.length).toBeLessThan(PLAN_METHODS[2].kept)
    expect(v.method3KeptAt).toHaveLength(10)
    expect(v.maxRounds).toBe(16 * v.method3KeptAt[9]!)
    expect(v.cost.rounds).toBe(v.maxRounds)
    expect(v.cost.draw).toBe(v.cost.round * v.maxRounds)
  })

  it("the spec-literal reference draws the vector's panel in the same rounds from the same bytes", () => {
    const v = file.cases[0]!
    const stream = streamFromSeed(hexToBytes(v.seed))
    const r = referencePanel(v.header, v.rows, v.quotas, v.k, v.exactFeatures, stream)
    expect(r.rounds).toBe(v.rounds)
    expect(r.members).toEqual(v.members)
  })

  it('failure bound: for every acceptance rate p, P(the gate admits and a draw exhausts 16·t rounds) ≤ 17^-10 < 2^-40', () => {
    const K = SORTITION_LIMITS.minAcceptedTrialsV3
    const c = SORTITION_LIMITS.roundsPerTrialV3
    expect(Math.log2(c + 1) * K).toBeGreaterThan(40)
    // t = the trial of the K-th kept, a sum of K geometric trials: E[(1 − p)^(c·t)] = (p·q^c / (1 − q^(c+1)))^K,
    // and p·q^c / (1 − q^(c+1)) = q^c / (1 + q + … + q^c) ≤ 1 / (c + 1).
    for (const p of [1e-9, 1e-7, 1e-5, 1e-4, 1e-3, 0.01, 0.1, 0.5, 0.9, 0.999]) {
      const q = 1 - p
      const perKept = Math.exp(c * Math.log(q)) / Array.from({ length: c + 1 }, (_, j) => Math.exp(j * Math.log(q))).reduce((a, b) => a + b, 0)
      expect(perKept).toBeLessThanOrEqual(1 / (c + 1) + 1e-15)
      expect(K * Math.log2(perKept)).toBeLessThan(-40)
    }
  })

  it('a plan methods 1 and 2 refuse commits as method 3 (plan 3, maxRounds), draws and verifies; tampering fails panel-replay', async () => {
    const v = file.cases[0]!
    const { pool, rows } = vectorPoolAndRows(v)
    const { draw, participants } = panelDraw(pool, rows, v.k, { exactFeatures: [], alternates: 2 })
    expect(draw.plan).toBe(3)
    expect(draw.maxRounds).toBe(v.maxRounds)
    const { commitment } = commit({ ...base, draw, participants })
    const parsed = parseCommitment(encodeCommitment(commitment)).draw as { plan?: number; maxRounds?: number }
    expect([parsed.plan, parsed.maxRounds]).toEqual([3, v.maxRounds])
    const proof = drawFromBlock(commitment, participants, CHAIN[10]!)
    const r = await verify(serializeProof(proof), ENGINE_ONLY)
    expect(r.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual([])
    const j = JSON.parse(serializeProof(proof)) as { outcome: { members: { index: number; entry: string; rank: number }[]; rounds: number } }
    const outside = participants.findIndex((_, i) => !j.outcome.members.some((m) => m.index === i))
    j.outcome.members[0] = { rank: 1, index: outside, entry: participants[outside]! }
    j.outcome.members.sort((a, b) => a.index - b.index).forEach((m, i) => (m.rank = i + 1))
    const bad = await verify(JSON.stringify(j), ENGINE_ONLY)
    expect(bad.checks.filter((c) => !c.ok).map((c) => c.name)).toContain('panel-replay')
  })

  it('the committed cap binds the draw: a cap below the rounds needed fails with SORTITION_REJECTION_LIMIT', () => {
    const v = file.cases[0]!
    const { pool, rows } = vectorPoolAndRows(v)
    const table = checkQuotas(pool, rows, v.k)
    const replay = (maxRounds: number): ReturnType<typeof drawPanel> => drawPanel(planPanel(pool, table, v.k, { exactFeatures: [], explain: false, method: 3, maxRounds, skipAcceptanceCheck: true }), streamFromSeed(hexToBytes(v.seed)))
    expect(replay(v.rounds).members.map((m) => pool.respondents[m]!.id)).toEqual(v.members)
    expect(() => replay(v.rounds - 1)).toThrow(expect.objectContaining({ code: 'SORTITION_REJECTION_LIMIT' }))
    expect(roundCap({ method: 3, maxRounds: 77 })).toBe(77)
    expect(roundCap({ method: 2 })).toBe(400_000)
  })

  it('malformed method-3 commitments are refused: no or bad maxRounds, maxRounds without plan 3, a cap over the draw cost; households are allowed (docs/spec.md, Households)', () => {
    const v = file.cases[0]!
    const { pool, rows } = vectorPoolAndRows(v)
    const { draw, participants } = panelDraw(pool, rows, v.k, { exactFeatures: [] })
    const { commitment } = commit({ ...base, draw, participants })
    const mutate = (f: (d: Record<string, unknown>) => void): (() => unknown) => {
      const j = JSON.parse(new TextDecoder().decode(encodeCommitment(commitment))) as { draw: Record<string, unknown> }
      f(j.draw)
      return () => parseCommitment(new TextEncoder().encode(JSON.stringify(j)))
    }
    const path = (p: string): unknown => expect.objectContaining({ path: p })
    expect(mutate((d) => delete d.maxRounds)).toThrow(path('$.draw.maxRounds') as Error)
    for (const bad of [0, -1, 1.5, '9', SORTITION_LIMITS.maxRejectionRoundsV3 + 1]) expect(mutate((d) => (d.maxRounds = bad))).toThrow(path('$.draw.maxRounds') as Error)
    expect(mutate((d) => (d.plan = 2))).toThrow(path('$.draw.maxRounds') as Error)
    expect(mutate((d) => (d.plan = 4))).toThrow(path('$.draw.plan') as Error)
    expect(mutate((d) => (d.households = [[0, 1]]))).not.toThrow()
    expect(mutate((d) => (d.maxRounds = SORTITION_LIMITS.maxRejectionRoundsV3))).not.toThrow()
  })

  it('a cap whose rounds pass the draw cost is refused before any counting (SORTITION_COST_LIMIT)', () => {
    // k = 100 of 2,000 respondents in 6 features, 2 exact: a round costs thousands of units, so 4,000,000 rounds pass 2^34.
    const pool = smallPool(2000, [2, 3, 4, 5, 6, 6], 7)
    const table = checkQuotas(pool, proportionalQuotas(pool, 100, 3), 100)
    const names = [pool.features[4]!.name, pool.features[0]!.name]
    expect(() => planPanel(pool, table, 100, { exactFeatures: names, method: 3, maxRounds: SORTITION_LIMITS.maxRejectionRoundsV3, skipAcceptanceCheck: true, explain: false })).toThrow(expect.objectContaining({ code: 'SORTITION_COST_LIMIT' }))
  })
})

describe('plan method 3 draws: uniform over valid panels (chi-square, alpha = 0.001, fixed seeds)', () => {
  const { pool, k, table, panels, N } = uniformityCase()
  const plan = planPanel(pool, table, k, { exactFeatures: [], method: 3 })

  const frequencies = (draw: (s: RandomStream) => number[], seed: number): number[] => panelFrequencies(panels, N, draw, seed)

  it('the plan is method 3 with a cap of 16 × its gate trials, and the counter counts every k-subset (brute force)', () => {
    expect(panels.length).toBeGreaterThanOrEqual(20)
    expect(plan.method).toBe(3)
    expect(plan.maxRounds).toBe(16 * plan.gate!.trials)
    expect(plan.gate!.kept).toBe(10)
    expect(plan.counter.count).toBe(462n) // C(11, 5)
  })

  it('method 3 draws: accepted', () => {
    const counted = drawCountingRounds(plan)
    const r = chiSquareTest(frequencies(counted.draw, 301))
    expect(r.pass, JSON.stringify(r)).toBe(true)
    expect(counted.rounds).toBeGreaterThan(N) // the rejection path was exercised
  })

  it('negative control: keeping the lower of two valid panels (by first member) is rejected by the same test', () => {
    const others = [0, 1, 2]
    const one = (s: RandomStream): number[] => {
      for (;;) {
        const m = relaxedPanel(plan.counter, s).members
        if (meetsQuotas(pool, table, m, others)) return m
      }
    }
    const r = chiSquareTest(
      frequencies((s) => {
        const a = one(s)
        const b = one(s)
        return a[0]! <= b[0]! ? a : b
      }, 302),
    )
    expect(r.pass, JSON.stringify(r)).toBe(false)
  })
})

describe('the count choice above 2^53 (48-bit fast path) reads and chooses as the spec literally does', () => {
  /** A stream that returns fixed bytes, then zeros. */
  function bytesStream(bytes: number[]): RandomStream & { consumed: number } {
    let at = 0
    return {
      get consumed() {
        return at
      },
      nextBytes(n: number) {
        const out = new Uint8Array(n)
        for (let i = 0; i < n; i++) out[i] = bytes[at + i] ?? 0
        at += n
        return out
      },
    }
  }
  /** The literal rule: x = uniform(total) by drawBig, then the first block whose cumulative sum exceeds x. */
  function literal(stream: RandomStream, total: bigint, cum: readonly bigint[]): number {
    const x = uniformBelow(stream, total)
    return cum.findIndex((c) => x < c)
  }
  const be = (x: bigint, L: number): number[] => Array.from({ length: L }, (_, i) => Number((x >> BigInt(8 * (L - 1 - i))) & 0xffn))

  it('ties of the top 48 bits, rejected attempts that tie the bound, and random attempts', () => {
    const total = (1n << 60n) + 5n // L = 8 bytes, the top 48 bits are the first 6
    const cum = [(1n << 59n) + 3n, (1n << 59n) + 0x10003n, total]
    const attempts: bigint[][] = [
      [(1n << 59n) + 2n], // ties cum[0]'s top, below it
      [(1n << 59n) + 3n], // ties cum[0]'s top, equal: the next block
      [(1n << 59n) + 0x10002n], // ties cum[1]'s top, below it
      [total + 1n, (1n << 59n) + 0x10003n], // ties the bound's top but is not below it: rejected, then the next attempt
      [total - 1n],
      [(1n << 61n) - 1n, 5n], // above the bound after the mask: rejected
    ]
    for (const xs of attempts) {
      const bytes = xs.flatMap((x) => be(x & ((1n << 61n) - 1n), 8))
      const a = bytesStream(bytes)
      const b = bytesStream(bytes)
      expect(chooseCount(a, total, cum)).toBe(literal(b, total, cum))
      expect(a.consumed).toBe(b.consumed)
    }
    const s1 = streamFromSeed(seedOf(303))
    const s2 = streamFromSeed(seedOf(303))
    const big = (1n << 200n) + 12345n
    const cuts = [big / 7n, big / 3n, big / 2n, big - 1n, big]
    for (let t = 0; t < 2000; t++) expect(chooseCount(s1, big, cuts)).toBe(literal(s2, big, cuts))
    expect(s1.consumed).toBe(s2.consumed)
  })

  it('whole draws with counts above 2^53 match the spec-literal reference (members, rounds, bytes)', () => {
    const pool = smallPool(160, [2, 3], 41)
    const k = 30
    const rows = proportionalQuotas(pool, k, 1)
    const table = checkQuotas(pool, rows, k)
    const plan = planPanel(pool, table, k, { exactFeatures: [pool.features[1]!.name], skipAcceptanceCheck: true })
    expect(plan.counter.count > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true)
    const header = ['id', ...pool.features.map((f) => f.name)]
    const data = pool.respondents.map((r) => [r.id, ...r.type.map((v, f) => pool.features[f]!.values[v]!)])
    const quotas = rows.map((q) => [q.feature, q.value, q.min, q.max] as [string, string, number, number])
    for (let seed = 310; seed < 314; seed++) {
      const a = streamFromSeed(seedOf(seed))
      const b = streamFromSeed(seedOf(seed))
      const d = drawPanel(plan, a)
      const r = referencePanel(header, data, quotas, k, [pool.features[1]!.name], b)
      expect([d.rounds, d.members.map((m) => pool.respondents[m]!.id)]).toEqual([r.rounds, r.members])
      expect(a.consumed).toBe(b.consumed)
    }
  })
})
