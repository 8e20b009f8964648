/**
 * test/vectors/allocation.json: the library reproduces every case byte for byte, and a literal
 * re-implementation of docs/spec.md (Allocation kinds) on Node's own ChaCha20 (dense Fisher–Yates,
 * linear-scan weighted pick, the entries' columns parsed from their text) reproduces every intermediate
 * value. Regenerate with `npx tsx scripts/make-allocation-vectors.ts`.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { allocationVectorInputs, runAllocationVector } from './vector-cases.js'
import { SpecChaChaReference } from '../../helpers/spec-chacha-reference.js'

type J = any // eslint-disable-line @typescript-eslint/no-explicit-any
const FILE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'vectors', 'allocation.json')
const VECTORS: J = JSON.parse(readFileSync(FILE, 'utf8'))

/** An entry's columns, from its text `id|col=value|…`. */
const columnsOf = (entry: string): Record<string, string> => Object.fromEntries(entry.split('|').slice(1).map((p) => p.split('=') as [string, string]))
const passes = (entry: string, where: { feature: string; values: string[] }[]): boolean => where.every((c) => c.values.includes(columnsOf(entry)[c.feature]!))

function referenceStages(v: J): J {
  const s = new SpecChaChaReference(v.seed)
  const entries: string[] = v.participants
  const selected = new Set<number>()
  const stages = v.draw.stages.map((st: J) => {
    const E = entries.map((_, i) => i).filter((i) => passes(entries[i]!, st.where) && !selected.has(i))
    const e = BigInt(E.length)
    const target = st.count !== undefined ? st.count : Number(st.rounding === 'down' ? (BigInt(st.fraction[0]) * e) / BigInt(st.fraction[1]) : st.rounding === 'up' ? (BigInt(st.fraction[0]) * e + BigInt(st.fraction[1]) - 1n) / BigInt(st.fraction[1]) : (2n * BigInt(st.fraction[0]) * e + BigInt(st.fraction[1])) / (2n * BigInt(st.fraction[1])))
    const k = Math.min(target, E.length)
    const col = v.draw.features.find((f: J) => f.name === st.weightBy)
    const J = st.method === 'pick' ? s.pick(E.length, k) : s.weighted(E.map((i) => st.weights[col.values.indexOf(columnsOf(entries[i]!)[st.weightBy]!)]), k)
    const winners = J.map((j) => E[j]!)
    for (const i of winners) selected.add(i)
    return { name: st.name, eligible: E, target, winners }
  })
  return { stages, consumed: s.pos }
}

function referencePreference(v: J): J {
  const s = new SpecChaChaReference(v.seed)
  const entries: string[] = v.participants
  const order = s.pick(entries.length, Math.max(0, entries.length - 1))
  if (entries.length > 0) order.push(...entries.map((_, i) => i).filter((i) => !order.includes(i)))
  const taken = new Set<number>()
  const categories = v.draw.categories.map((c: J) => {
    const ranked = order.filter((i) => passes(entries[i]!, c.where))
    const winners = ranked.filter((i) => !taken.has(i)).slice(0, c.units)
    for (const i of winners) taken.add(i)
    return { name: c.name, ranked, winners }
  })
  const units = v.draw.units - categories.reduce((a: number, c: J) => a + c.winners.length, 0)
  return { order, categories, general: { units, winners: order.filter((i) => !taken.has(i)).slice(0, units) }, consumed: s.pos }
}

describe('allocation.json', () => {
  it('the library reproduces every case exactly (regenerate only on a deliberate protocol change)', () => {
    expect(JSON.parse(JSON.stringify(allocationVectorInputs().map(runAllocationVector)))).toEqual(VECTORS.cases)
    expect(VECTORS.cases.map((c: J) => c.name)).toEqual(['stages-h1b', 'stages-fractions', 'preference-2-categories'])
  })

  it('a literal re-implementation of the spec on Node\'s ChaCha20 gives every intermediate value', () => {
    for (const v of VECTORS.cases) {
      if (v.draw.kind === 'stages') expect(referenceStages(v), v.name).toEqual({ stages: v.stages, consumed: v.consumed })
      else expect(referencePreference(v), v.name).toEqual({ order: v.order, categories: v.categories, general: v.general, consumed: v.consumed })
    }
  })

  it('the cases exercise what they say: a fraction rounded each way, a stage short of eligible entries, a category filled by earlier ones', () => {
    const [h1b, fr, pref] = VECTORS.cases
    expect(h1b.stages[1].eligible.every((i: number) => h1b.participants[i].includes('degree=advanced'))).toBe(true)
    expect(fr.stages[2].winners.length).toBeLessThan(fr.stages[2].target)
    expect(pref.general.units).toBeGreaterThanOrEqual(3)
  })
})
