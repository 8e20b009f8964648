/**
 * The cases of test/vectors/allocation.json (generator: scripts/make-allocation-vectors.ts): small lists
 * with columns, a spec each, a seed, and every intermediate value of the replay (docs/spec.md, Allocation
 * kinds): per stage the eligible indices, the target, the winners and the stream bytes consumed by then;
 * for a preference lottery the global order, each category's ranked list and winners, the general pool.
 */
import { createHash } from 'node:crypto'
import type { StageInput } from '../../../src/core/kinds/index.js'
import type { PreferenceCategoryInput } from '../../../src/core/kinds/index.js'
import { stagesKind } from '../../../src/core/kinds/index.js'
import { stagesDraw } from '../../../src/core/kinds/index.js'
import { preferenceLotteryKind } from '../../../src/core/kinds/index.js'
import { preferenceLotteryDraw } from '../../../src/core/kinds/index.js'
import { makePool } from '../../../src/core/sortition/index.js'
import { streamFromSeed } from '../../../src/core/random/index.js'
import { entryTypes, typesPassing } from '../../../src/core/kinds/columns.js'

const rows = (n: number): { id: string; values: string[] }[] =>
  Array.from({ length: n }, (_, i) => ({ id: `e${String(i).padStart(2, '0')}`, values: [i % 3 === 0 ? 'advanced' : 'bachelor', ['I', 'II', 'III', 'IV'][(i * 7) % 4]!] }))

export interface AllocationVectorInput {
  readonly name: string
  readonly rows: { id: string; values: string[] }[]
  readonly columns: string[]
  readonly stages?: StageInput[]
  readonly categories?: PreferenceCategoryInput[]
  readonly units?: number
}

export function allocationVectorInputs(): AllocationVectorInput[] {
  const w = { I: 1, II: 2, III: 3, IV: 4 }
  const homes = Array.from({ length: 14 }, (_, i) => ({ id: `a${String(i).padStart(2, '0')}`, values: [i % 4 === 0 ? 'yes' : 'no', i % 2 === 0 ? 'yes' : 'no'] }))
  return [
    { name: 'stages-h1b', rows: rows(16), columns: ['degree', 'wage'], stages: [{ name: 'regular', method: 'weighted', count: 4, weightBy: 'wage', weights: w }, { name: 'advanced degree', method: 'weighted', count: 2, where: { degree: ['advanced'] }, weightBy: 'wage', weights: w }] },
    { name: 'stages-fractions', rows: rows(20), columns: ['degree', 'wage'], stages: [{ name: 'first', method: 'pick', count: { fraction: [1, 3], rounding: 'nearest' }, where: { wage: ['I', 'IV'] } }, { name: 'second', method: 'pick', count: { fraction: [1, 2], rounding: 'up' } }, { name: 'rest', method: 'pick', count: 50 }] },
    { name: 'preference-2-categories', rows: homes, columns: ['disability', 'local'], categories: [{ name: 'disability', where: { disability: ['yes'] }, units: 2 }, { name: 'local', where: { local: ['yes'] }, units: 3 }], units: 8 },
  ]
}

function seedOf(name: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`orbitdraw allocation vector ${name}`).digest())
}

/** Runs a case through the library, recording the intermediate values. */
export function runAllocationVector(c: AllocationVectorInput): object {
  const pool = makePool(c.columns, c.rows)
  const seed = seedOf(c.name)
  const hex = Buffer.from(seed).toString('hex')
  if (c.stages !== undefined) {
    const { draw, participants } = stagesDraw(pool, c.stages)
    const stream = streamFromSeed(seed)
    const o = stagesKind.compute(stream, draw, { count: participants.length })
    const types = entryTypes(draw)
    const selected = new Set<number>()
    const stages = o.stages.map((s, i) => {
      const pass = typesPassing(draw, draw.stages[i]!.where)
      const eligible = participants.map((_, j) => j).filter((j) => pass[types[j]!] === true && !selected.has(j))
      for (const x of s.winners) selected.add(x)
      return { name: s.name, eligible, target: s.target, winners: s.winners }
    })
    return { name: c.name, seed: hex, participants, draw: stagesKind.encode(draw), stages, consumed: stream.consumed }
  }
  const { draw, participants } = preferenceLotteryDraw(pool, c.categories!, c.units!)
  const stream = streamFromSeed(seed)
  const o = preferenceLotteryKind.compute(stream, draw, { count: participants.length })
  return { name: c.name, seed: hex, participants, draw: preferenceLotteryKind.encode(draw), order: o.order, categories: o.categories.map((x) => ({ name: x.name, ranked: x.ranked, winners: x.winners })), general: o.general, consumed: stream.consumed }
}
