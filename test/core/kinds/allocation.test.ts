/**
 * The allocation kinds `stages` and `preference-lottery` through the public API: commit ->
 * drawFromBlock -> verify, public and private (salted, winners-only), receipts, tampered proofs failing
 * their named checks, and refusals at commit.
 */
import { describe, expect, it } from 'vitest'
import { checkReceipt, commit, drawFromBlock, makeReceipts, parseCommitment, verify, type Proof } from '../../../src/core/index.js'
import type { StageInput } from '../../../src/core/kinds/index.js'
import type { StagesOutcomeJson } from '../../../src/core/kinds/index.js'
import type { PreferenceLotteryOutcomeJson } from '../../../src/core/kinds/index.js'
import type { PreferenceCategoryInput } from '../../../src/core/kinds/index.js'
import { stagesKind } from '../../../src/core/kinds/index.js'
import { stageMaxima, stageMinima } from '../../../src/core/kinds/stages.js'
import { streamFromSeed } from '../../../src/core/random/stream.js'
import fc from 'fast-check'
import { stagesDraw } from '../../../src/core/kinds/index.js'
import { preferenceLotteryKind } from '../../../src/core/kinds/index.js'
import { preferenceLotteryDraw } from '../../../src/core/kinds/index.js'
import { makePool } from '../../../src/core/sortition/index.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'

const CHAIN = buildChain(12, 'allocation')
const TARGET = 10
const base = { beacon: BEACON_NAME, target: TARGET, after: { sequence: 7, block: CHAIN[7]!.cid }, label: 'allocation' }
const SECRET = new Uint8Array(32).fill(9)

const WAGES = ['I', 'II', 'III', 'IV']
const registrations = makePool(
  ['degree', 'wage'],
  Array.from({ length: 80 }, (_, i) => ({ id: `reg${String(i).padStart(3, '0')}`, values: [i % 3 === 0 ? 'advanced' : 'bachelor', WAGES[i % 4]!] })),
)
const WEIGHTS = { I: 1, II: 2, III: 3, IV: 4 }
const H1B: StageInput[] = [
  { name: 'regular', method: 'weighted', count: 20, weightBy: 'wage', weights: WEIGHTS },
  { name: 'advanced degree', method: 'weighted', count: 8, where: { degree: ['advanced'] }, weightBy: 'wage', weights: WEIGHTS },
]

const applications = makePool(
  ['disability', 'local', 'veteran'],
  Array.from({ length: 50 }, (_, i) => ({ id: `app${String(i).padStart(2, '0')}`, values: [i % 7 === 0 ? 'yes' : 'no', i % 2 === 0 ? 'yes' : 'no', i % 5 === 0 ? 'yes' : 'no'] })),
)
const CATEGORIES: PreferenceCategoryInput[] = [
  { name: 'disability', where: { disability: ['yes'] }, units: 2 },
  { name: 'veteran', where: { veteran: ['yes'] }, units: 2 },
  { name: 'local', where: { local: ['yes'] }, units: 4 },
]

function proofOf(draw: unknown, participants: readonly string[], priv = false): Proof {
  const { commitment } = commit({ ...base, draw: draw as never, participants, ...(priv ? { private: { secret: SECRET } } : {}) })
  return drawFromBlock(commitment, participants, CHAIN[TARGET]!, priv ? { disclosure: 'winners', secret: SECRET } : {})
}
const failed = (r: { checks: readonly { name: string; ok: boolean }[] }): string[] => r.checks.filter((c) => !c.ok).map((c) => c.name)
function tampered<T>(proof: Proof, edit: (o: T) => void): unknown {
  const j = JSON.parse(JSON.stringify(proof)) as { outcome: T }
  edit(j.outcome)
  return j
}

describe('stages kind', () => {
  const { draw, participants } = stagesDraw(registrations, H1B)

  it('commits the columns, draws each stage from its eligible entries, and verifies', async () => {
    expect(draw.features.map((f) => f.name)).toEqual(['degree', 'wage'])
    expect(participants[0]).toMatch(/^reg[0-9]{3}\|degree=advanced\|wage=I$/)
    const proof = proofOf(draw, participants)
    const r = await verify(proof, ENGINE_ONLY)
    expect(failed(r)).toEqual([])
    const o = proof.outcome as StagesOutcomeJson
    expect(o.stages.map((s) => [s.name, s.eligible, s.target, s.winners.length])).toEqual([
      ['regular', 80, 20, 20],
      ['advanced degree', 27 - o.stages[0]!.winners.filter((w) => w.entry.includes('degree=advanced')).length, 8, 8],
    ])
    const first = new Set(o.stages[0]!.winners.map((w) => w.index))
    for (const w of o.stages[1]!.winners) {
      expect(w.entry).toContain('|degree=advanced|')
      expect(first.has(w.index)).toBe(false)
    }
    expect(stagesKind.describe(draw, 80)).toBe('2 stages over 80 entries, each excluding earlier winners: "regular": weighted by wage 20 of every entry; "advanced degree": weighted by wage 8 of degree=advanced')
    const d = stagesKind.display(o)
    expect(d.layout === 'sections' && d.sections.map((s) => s.title)).toEqual(['Stages', 'Stage 1: regular (20)', 'Stage 2: advanced degree (8)'])
  })

  it('a private list reveals only the winners of every stage, and verifies; a receipt checks', async () => {
    const proof = proofOf(draw, participants, true)
    expect(proof.participants?.disclosure).toBe('winners')
    expect(proof.participants!.disclosure === 'winners' && proof.participants!.revealed).toHaveLength(28)
    const r = await verify(proof, ENGINE_ONLY)
    expect(failed(r)).toEqual([])
    const book = makeReceipts(commit({ ...base, draw, participants, private: { secret: SECRET } }), participants, SECRET)
    expect(checkReceipt(book.receiptFor(3)).checks.filter((c) => !c.ok)).toEqual([])
  })

  it('tampering fails the named check: a swapped winner or a wrong eligible count fails outcome; an entry of another type fails participants', async () => {
    const proof = proofOf(draw, participants)
    const o = proof.outcome as StagesOutcomeJson
    const loser = participants.findIndex((_, i) => !o.stages.some((s) => s.winners.some((w) => w.index === i)))
    const swapped = await verify(tampered<StagesOutcomeJson>(proof, (x) => ((x.stages[1]!.winners as unknown[])[0] = { rank: 1, index: loser, entry: participants[loser] })), ENGINE_ONLY)
    expect(failed(swapped)).toEqual(['outcome'])
    expect(swapped.checks.find((c) => c.name === 'outcome')?.detail).toMatch(/^stage 2 \("advanced degree"\): rank 1 should be/)
    const count = await verify(tampered<{ stages: { eligible: number }[] }>(proof, (x) => (x.stages[1]!.eligible += 1)), ENGINE_ONLY)
    expect(failed(count)).toEqual(['outcome'])
    const priv = proofOf(draw, participants, true)
    const j = JSON.parse(JSON.stringify(priv)) as { participants: { revealed: { entry: string }[] } }
    const e = j.participants.revealed[0]!.entry
    j.participants.revealed[0]!.entry = e.includes('degree=advanced') ? e.replace('degree=advanced', 'degree=bachelor') : e.replace('degree=bachelor', 'degree=advanced')
    const r = await verify(j, ENGINE_ONLY)
    expect(failed(r)).toContain('participants')
  })

  it('a winners-only proof must reveal at least the fewest winners the stages can draw, or nothing is recomputed', async () => {
    // Found by fuzzing: a forged private commitment whose first stage draws half of 1,000,000 claimed
    // entries, revealing none, made verify draw every stage and name 500,000 winners (about 1 s and
    // 240 MB) before outcome failed. The stages draw 20 of 80, then 8 of the 27 advanced degrees less
    // those already taken (at most 20): at least 20 + 7 winners, at most 28.
    expect([stageMinima(draw), stageMaxima(draw)]).toEqual([[20, 7], [20, 8]])
    const proof = proofOf(draw, participants, true)
    const short = JSON.parse(JSON.stringify(proof)) as { participants: { revealed: unknown[] } }
    short.participants.revealed.splice(26)
    const r = await verify(short, ENGINE_ONLY)
    expect(failed(r)).toEqual(['outcome', 'revealed-winners'])
    expect(r.checks.find((c) => c.name === 'outcome')?.detail).toBe('the proof reveals 26 entries where the commitment draws at least 27 winner(s): the outcome is not recomputed')
    expect(r.checks.find((c) => c.name === 'revealed-winners')?.detail).toBe('the commitment draws at least 27 winner(s) but the proof reveals 26: the outcome is not recomputed')
  })

  it('every seed draws between the fewest and the most winners per stage (property)', () => {
    const values = ['a', 'b', 'c']
    const stage = fc.record({
      method: fc.constantFrom('pick' as const, 'weighted' as const),
      count: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.record({ fraction: fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 5, max: 9 })), rounding: fc.constantFrom('down' as const, 'up' as const, 'nearest' as const) })),
      where: fc.subarray(values, { minLength: 1 }),
    })
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...values), { minLength: 1, maxLength: 40 }), fc.array(stage, { minLength: 1, maxLength: 5 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (column, stages, seed) => {
        const pool = makePool(['x'], column.map((x, i) => ({ id: `p${i}`, values: [x] })))
        const present = [...new Set(column)]
        const inputs: StageInput[] = stages.map((s, i) => ({
          name: `s${i}`,
          method: s.method,
          count: typeof s.count === 'number' ? s.count : { fraction: s.count.fraction, rounding: s.count.rounding },
          where: { x: s.where.filter((v) => present.includes(v)).length > 0 ? s.where.filter((v) => present.includes(v)) : present },
          ...(s.method === 'weighted' ? { weightBy: 'x', weights: Object.fromEntries(present.map((v, j) => [v, j + 1])) } : {}),
        }))
        const d = stagesDraw(pool, inputs).draw
        const o = stagesKind.compute(streamFromSeed(seed), d, { participants: [] } as never)
        const lo = stageMinima(d)
        const hi = stageMaxima(d)
        o.stages.forEach((s, i) => {
          expect(s.winners.length).toBeGreaterThanOrEqual(lo[i]!)
          expect(s.winners.length).toBeLessThanOrEqual(hi[i]!)
        })
      }),
      { seed: 2211, numRuns: 300 },
    )
  })

  it('fraction counts, rounding and a pick stage; the spec round-trips through parseCommitment', () => {
    const d2 = stagesDraw(registrations, [
      { name: 'rehearsal', method: 'pick', count: { fraction: [1, 3], rounding: 'up' }, where: { wage: ['IV', 'I'] } },
      { name: 'main', method: 'pick', count: 5 },
    ])
    expect(d2.draw.stages[0]).toEqual({ name: 'rehearsal', method: 'pick', fraction: [1, 3], rounding: 'up', where: [{ feature: 'wage', values: ['I', 'IV'] }] })
    const c = commit({ ...base, draw: d2.draw, participants: d2.participants })
    const commitment = c.commitment
    expect(parseCommitment(c.json).draw).toEqual(d2.draw)
    const proof = drawFromBlock(commitment, d2.participants, CHAIN[TARGET]!)
    const o = proof.outcome as StagesOutcomeJson
    expect(o.stages[0]!.target).toBe(14) // ceil(40 / 3)
  })

  it('refuses bad stages with INVALID_DRAW at the path', () => {
    const bad = (s: StageInput[]): unknown => {
      try {
        stagesDraw(registrations, s)
      } catch (e) {
        return { code: (e as { code: string }).code, path: (e as { path?: string }).path }
      }
      return 'accepted'
    }
    expect(bad([{ name: 'x', method: 'pick', count: 1, where: { degree: ['phd'] } }])).toEqual({ code: 'INVALID_DRAW', path: '$.draw.stages[0].where[0].values[0]' })
    expect(bad([{ name: 'x', method: 'pick', count: 1, where: { colour: ['red'] } }])).toEqual({ code: 'INVALID_DRAW', path: '$.draw.stages[0].where[0].feature' })
    expect(bad([{ name: 'x', method: 'weighted', count: 1, weightBy: 'wage', weights: { I: 1 } }])).toEqual({ code: 'INVALID_DRAW', path: '$.draw.stages[0].weights' })
    expect(bad([{ name: 'x', method: 'pick', count: 1 }, { name: 'x', method: 'pick', count: 1 }])).toEqual({ code: 'INVALID_DRAW', path: '$.draw.stages[1].name' })
    expect(bad([{ name: 'x', method: 'pick', count: { fraction: [4, 3], rounding: 'up' } }])).toEqual({ code: 'INVALID_DRAW', path: '$.draw.stages[0].fraction' })
  })
})

describe('preference-lottery kind', () => {
  const { draw, participants } = preferenceLotteryDraw(applications, CATEGORIES, 12)

  it('ranks every application once, fills the categories in priority order, the rest by rank, and verifies', async () => {
    const proof = proofOf(draw, participants)
    const r = await verify(proof, ENGINE_ONLY)
    expect(failed(r)).toEqual([])
    const o = proof.outcome as PreferenceLotteryOutcomeJson
    expect([...o.order].sort((a, b) => a - b)).toEqual(participants.map((_, i) => i))
    expect(o.categories.map((c) => [c.name, c.winners.length])).toEqual([['disability', 2], ['veteran', 2], ['local', 4]])
    expect(o.general.units).toBe(4)
    for (const w of o.categories[0]!.winners) expect(w.entry).toContain('disability=yes')
    for (const w of [...o.categories.flatMap((c) => c.winners), ...o.general.winners]) expect(o.order[w.rank - 1]).toBe(w.index)
    const d = preferenceLotteryKind.display(o)
    expect(d.layout === 'sections' && d.sections.map((s) => s.title)).toEqual(['Allocation', 'disability (2 of 2)', 'veteran (2 of 2)', 'local (4 of 4)', 'General pool (4 of 4)'])
  })

  it('a private list reveals only the allocated applications, and verifies', async () => {
    const proof = proofOf(draw, participants, true)
    expect(proof.participants!.disclosure === 'winners' && proof.participants!.revealed).toHaveLength(12)
    expect(failed(await verify(proof, ENGINE_ONLY))).toEqual([])
  })

  it('a winners-only proof must carry the whole ranking before verify ranks the claimed applications', async () => {
    // Found by fuzzing: a forged private commitment claiming 1,000,000 applications, revealing none and
    // carrying an empty outcome, made verify rank them all (4.6 to 6.1 s, 570 MB) before outcome failed.
    const proof = proofOf(draw, participants, true)
    const n = (proof.outcome as PreferenceLotteryOutcomeJson).order.length
    const r = await verify(tampered<{ order: number[] }>(proof, (x) => x.order.pop()), ENGINE_ONLY)
    expect(failed(r)).toContain('outcome')
    expect(r.checks.find((c) => c.name === 'outcome')?.detail).toBe(`the commitment ranks ${n} application(s) but the proof's outcome carries ${n - 1}: the outcome is not recomputed`)
  })

  it('tampering: a reordered rank, a shortened ranked list or a moved winner fails outcome', async () => {
    const proof = proofOf(draw, participants)
    const swap = await verify(tampered<{ order: number[] }>(proof, (x) => ([x.order[0], x.order[1]] = [x.order[1]!, x.order[0]!])), ENGINE_ONLY)
    expect(failed(swap)).toEqual(['outcome'])
    expect(swap.checks.find((c) => c.name === 'outcome')?.detail).toMatch(/^the global rank: position 1/)
    const short = await verify(tampered<{ categories: { ranked: number[] }[] }>(proof, (x) => x.categories[2]!.ranked.pop()), ENGINE_ONLY)
    expect(failed(short)).toEqual(['outcome'])
    const moved = await verify(tampered<PreferenceLotteryOutcomeJson>(proof, (x) => ((x.general as { units: number }).units = 5)), ENGINE_ONLY)
    expect(failed(moved)).toEqual(['outcome'])
  })

  it('refuses set-asides over the total and a category without a claim condition', () => {
    expect(() => preferenceLotteryDraw(applications, CATEGORIES, 7)).toThrow(/set aside 8 units, more than the 7/)
    expect(() => preferenceLotteryDraw(applications, [{ name: 'all', where: {}, units: 1 }], 3)).toThrow(/at least one condition/)
  })
})
