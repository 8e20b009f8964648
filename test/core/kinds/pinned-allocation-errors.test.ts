/**
 * Pins what the allocation kinds (`stages`, `preference-lottery`) make of bad input, so that a change
 * of how they are declared cannot change it (as pinned-errors.test.ts does for the other built-in
 * kinds): for a table of inputs made by mutating one valid draw and outcome of each, field by field,
 * plus values on either side of each limit, the error (class, code, path, detail, hint) or the parsed
 * value of the kind's `parse` and `parseOutcome`, of `parseCommitment` (alone and with a later field
 * also bad), of `validateDrawSpec` of a typed spec, and `encode` and `describe` of the valid specs.
 *
 * The table is in __pins__/allocation-kind-errors.json (written from the code before the change).
 */
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, type DrawSpec } from '../../../src/core/index.js'
import { preferenceLotteryDraw } from '../../../src/core/kinds/preference-lottery.js'
import { stagesDraw } from '../../../src/core/kinds/stages.js'
import { LIMITS } from '../../../src/core/limits.js'
import { makePool } from '../../../src/core/sortition/pool.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { editedCopies, kindPinRows, mutations, type J, type KindSample } from './pin-table.js'

const CHAIN = buildChain(12, 'pinned-allocation')
const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: CHAIN[7]!.cid }, label: 'pinned' }

function sample(draw: DrawSpec, participants: readonly string[]): { commitment: Record<string, J>; outcome: Record<string, J>; n: number } {
  const { commitment } = commit({ ...base, draw, participants })
  const proof = drawFromBlock(commitment, participants, CHAIN[10]!)
  const j = JSON.parse(JSON.stringify(proof)) as { commitment: Record<string, J>; outcome: Record<string, J> }
  return { commitment: j.commitment, outcome: j.outcome, n: participants.length }
}

function samples(): KindSample[] {
  const wages = ['I', 'II', 'III']
  const registrations = makePool(['degree', 'wage'], Array.from({ length: 12 }, (_, i) => ({ id: `r${String(i).padStart(2, '0')}`, values: [i % 3 === 0 ? 'advanced' : 'bachelor', wages[i % 3]!] })))
  const stages = stagesDraw(registrations, [
    { name: 'regular', method: 'weighted', count: 3, weightBy: 'wage', weights: { I: 1, II: 2, III: 3 } },
    { name: 'advanced', method: 'pick', count: { fraction: [1, 2], rounding: 'up' }, where: { degree: ['advanced'] } },
  ])
  const applications = makePool(['disability', 'local'], Array.from({ length: 10 }, (_, i) => ({ id: `a${i}`, values: [i % 4 === 0 ? 'yes' : 'no', i % 2 === 0 ? 'yes' : 'no'] })))
  const preference = preferenceLotteryDraw(applications, [
    { name: 'disability', where: { disability: ['yes'] }, units: 1 },
    { name: 'local', where: { local: ['yes'] }, units: 2 },
  ], 4)
  return [
    { name: 'stages', ...sample(stages.draw as DrawSpec, stages.participants) },
    { name: 'preference-lottery', ...sample(preference.draw as DrawSpec, preference.participants) },
  ]
}

/** Values on either side of each limit the commitment's schema states (and a few field values of the wrong kind). */
function limitMutations(name: string, draw: Record<string, J>): { what: string; value: J }[] {
  const { edit, out } = editedCopies(draw)
  type Stage = Record<string, J>
  if (name === 'stages') {
    const s = (d: Record<string, J>, i: number): Stage => (d.stages as Stage[])[i]!
    for (const c of [LIMITS.maxDrawCount, LIMITS.maxDrawCount + 1, 2 ** 53 - 1]) edit(`stages.0.count = ${c}`, (d) => (s(d, 0).count = c))
    for (const f of [[1], [1, 2, 3], [2, 1], [1, 1_000_000], [1, 1_000_001], [0, 2], [1_000_001, 1_000_001], ['1', 2]]) edit(`stages.1.fraction = ${JSON.stringify(f)}`, (d) => (s(d, 1).fraction = f))
    edit('stages.1 count and fraction', (d) => (s(d, 1).count = 2))
    edit('stages.1 neither count nor fraction', (d) => {
      delete s(d, 1).fraction
      delete s(d, 1).rounding
    })
    edit('stages.0 rounding with a count', (d) => (s(d, 0).rounding = 'down'))
    for (const r of ['nearest', 'Up', 'x']) edit(`stages.1.rounding = ${r}`, (d) => (s(d, 1).rounding = r))
    for (const m of ['Pick', 'shuffle', '']) edit(`stages.0.method = ${m}`, (d) => (s(d, 0).method = m))
    edit('stages.1.method = weighted (no weights)', (d) => (s(d, 1).method = 'weighted'))
    edit('stages.0.method = pick (with weights)', (d) => (s(d, 0).method = 'pick'))
    for (const w of [[1, 2], [1, 2, 3, 4], [0, 1, 2], [1, 1_000_000, 2], [1, 1_000_001, 2], Array.from({ length: 65 }, () => 1)]) edit(`stages.0.weights = ${w.length > 8 ? `${w.length} ones` : JSON.stringify(w)}`, (d) => (s(d, 0).weights = w))
    edit('stages.0.weightBy = "x"', (d) => (s(d, 0).weightBy = 'x'))
    edit('stages.1.name = stages.0.name', (d) => (s(d, 1).name = s(d, 0).name))
    for (const n of ['', ' a', 'a\u0007', 'x'.repeat(64), 'x'.repeat(65)]) edit(`stages.0.name = ${JSON.stringify(n.slice(0, 8))} (${n.length})`, (d) => (s(d, 0).name = n))
    edit('stages.1.where = degree=[bachelor, advanced]', (d) => (s(d, 1).where = [{ feature: 'degree', values: ['bachelor', 'advanced'] }]))
    edit('stages.1.where = unknown column', (d) => (s(d, 1).where = [{ feature: 'zz', values: ['a'] }]))
    edit('stages.1.where = no values', (d) => (s(d, 1).where = [{ feature: 'degree', values: [] }]))
    edit('stages = []', (d) => (d.stages = []))
    edit('stages = 17 stages', (d) => (d.stages = Array.from({ length: 17 }, (_, i) => ({ ...s(d, 1), name: `s${i}` }))))
    edit('stages.0 and stages.1 both bad (name, method)', (d) => {
      s(d, 0).name = 5
      s(d, 0).method = 'x'
    })
    edit('stages.1 both bad (count, where)', (d) => {
      s(d, 1).count = 'x'
      s(d, 1).where = 'x'
    })
  } else {
    for (const u of [LIMITS.maxDrawCount, LIMITS.maxDrawCount + 1, 2 ** 53 - 1]) edit(`units = ${u}`, (d) => (d.units = u))
    edit('units = 2 (below the set-asides)', (d) => (d.units = 2))
    const c = (d: Record<string, J>, i: number): Stage => (d.categories as Stage[])[i]!
    edit('categories.0.where = []', (d) => (c(d, 0).where = []))
    edit('categories.1.name = categories.0.name', (d) => (c(d, 1).name = c(d, 0).name))
    edit('categories.0.units = 2^53 - 1', (d) => (c(d, 0).units = 2 ** 53 - 1))
    edit('categories = []', (d) => (d.categories = []))
    edit('categories = 17', (d) => (d.categories = Array.from({ length: 17 }, (_, i) => ({ ...c(d, 0), name: `c${i}`, units: 1 }))))
    edit('categories.0 both bad (name, units)', (d) => {
      c(d, 0).name = 5
      c(d, 0).units = 'x'
    })
  }
  return out
}

function outcomeLimitMutations(name: string, outcome: Record<string, J>): { what: string; value: J }[] {
  const { edit, out } = editedCopies(outcome)
  type Part = Record<string, J>
  if (name === 'stages') {
    const s = (o: Record<string, J>): Part => (o.stages as Part[])[0]!
    edit('stages.0.target = 0', (o) => (s(o).target = 0))
    edit('stages.0.eligible = 2^53', (o) => (s(o).eligible = 2 ** 53))
    edit('stages = 17', (o) => (o.stages = Array.from({ length: 17 }, () => s(o))))
    edit('stages.0 both bad (name, winners)', (o) => {
      s(o).name = 5
      s(o).winners = 'x'
    })
  } else {
    const c = (o: Record<string, J>): Part => (o.categories as Part[])[0]!
    edit('categories.0.units = 0', (o) => (c(o).units = 0))
    edit('general.units = 0', (o) => ((o.general as Part).units = 0))
    edit('order.0 = 2^53', (o) => ((o.order as J[])[0] = 2 ** 53))
    edit('categories = 17', (o) => (o.categories = Array.from({ length: 17 }, () => c(o))))
    edit('order and general both bad', (o) => {
      o.order = 'x'
      o.general = 'x'
    })
    edit('categories and general both bad', (o) => {
      c(o).ranked = 'x'
      ;(o.general as Part).zz = 1
    })
  }
  return out
}

describe('the allocation kinds refuse bad input as they always did (pinned)', () => {
  it('parse, parseOutcome, parseCommitment, validateDrawSpec, encode and describe over a table of inputs', async () => {
    const rows: J[] = []
    for (const s of samples()) {
      const draw = s.commitment.draw as Record<string, J>
      rows.push(
        ...kindPinRows(s, {
          draws: [...mutations(draw, 6), ...limitMutations(s.name, draw)],
          outcomes: [...mutations(s.outcome, 4), ...outcomeLimitMutations(s.name, s.outcome)],
          // A typed spec as a JavaScript caller builds one: the parsed spec mutated (its JSON form's mutations, re-parsed where they parse).
          typed: (spec) => [...mutations(spec, 4), ...limitMutations(s.name, spec as unknown as Record<string, J>)],
          listSizes: [0, s.n, s.n + 3],
        }),
      )
    }
    expect(rows.length).toBeGreaterThan(1000)
    await expect(`[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`).toMatchFileSnapshot('./__pins__/allocation-kind-errors.json')
  }, 120_000)
})
