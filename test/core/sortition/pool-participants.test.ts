/**
 * `poolParticipants` sorts the respondents by type with numeric keys when they fit (and with the
 * comparator otherwise): both give the stable sort by type of the pool's order, the same types and
 * entries as the literal rule (`id|feature=value|…` in (type, id) order).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { poolParticipants, sortitionEntry } from '../../../src/core/kinds/sortition.js'
import type { SortitionPool } from '../../../src/core/sortition/pool.js'

/** The literal rule: a stable sort of the pool's indices by type (lexicographic value indices). */
function reference(pool: SortitionPool): { types: number[][]; entries: string[]; order: number[] } {
  const m = pool.features.length
  const cmp = (a: readonly number[], b: readonly number[]): number => {
    for (let f = 0; f < m; f++) if (a[f] !== b[f]) return a[f]! - b[f]!
    return 0
  }
  const order = pool.respondents.map((_, i) => i).sort((a, b) => cmp(pool.respondents[a]!.type, pool.respondents[b]!.type) || a - b)
  const types: number[][] = []
  for (const i of order) {
    const t = pool.respondents[i]!.type
    const last = types.at(-1)
    if (last !== undefined && cmp(last, t) === 0) last[m]!++
    else types.push([...t, 1])
  }
  return { types, entries: order.map((i) => sortitionEntry(pool.features, pool.respondents[i]!.id, pool.respondents[i]!.type)), order }
}

/** A pool of `n` respondents over features of the given value counts (ids in code-point order). */
const poolOf = (sizes: readonly number[], rows: readonly (readonly number[])[]): SortitionPool => ({
  features: sizes.map((s, f) => ({ name: `f${String(f).padStart(2, '0')}`, values: Array.from({ length: s }, (_, v) => `v${v}`) })),
  respondents: rows.map((type, i) => ({ id: `r${String(i).padStart(5, '0')}`, type })),
})

describe('poolParticipants', () => {
  it('equals the literal rule on random pools, with numeric keys and (over 2^53) with the comparator', () => {
    const pools = fc
      .array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 12 })
      .chain((sizes) => fc.array(fc.tuple(...sizes.map((s) => fc.integer({ min: 0, max: s - 1 }))), { minLength: 1, maxLength: 300 }).map((rows) => poolOf(sizes, rows)))
    let wide = 0
    fc.assert(
      fc.property(pools, (pool) => {
        if (pool.features.reduce((p, f) => p * f.values.length, pool.respondents.length) > Number.MAX_SAFE_INTEGER) wide++
        expect(poolParticipants(pool)).toEqual(reference(pool))
      }),
      { numRuns: 400, seed: 22 },
    )
    expect(wide).toBeGreaterThan(10)
  })

  it('sorts a type that is not a value index of its feature as the comparator does', () => {
    const pool = poolOf([2, 3], [[1, 0], [0, 2], [1, 0], [0, 7], [0, 2]])
    expect(poolParticipants(pool)).toEqual(reference(pool))
  })
})
