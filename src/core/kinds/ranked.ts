/**
 * Pieces shared by the kinds whose outcome is a ranking of committed entries (shuffle, pick,
 * weighted): the ranked rows' JSON form, their parser, their comparison and their words.
 *
 * @module
 */
import { expectArray, expectInteger, expectObject, expectOnlyKeys, expectString, field } from '../json.js'
import { LIMITS } from '../limits.js'
import type { DrawKind, RankedJson } from './kind.js'
import { index } from '../schema/common.js'
import { integer, list, strictObject, text } from '../schema/kit.js'

/** The declared shape of a ranked row in an outcome: rank (1 = winner), committed index, entry. */
export const rankedShape = strictObject({ rank: integer(1), index: index, entry: text() })

/** The declared shape of a ranked list of winners (`pick`, `weighted`) or a full ranking (`shuffle`). */
export const rankedListShape = list(rankedShape, LIMITS.maxParticipants)

/**
 * A computed ranked outcome: indices into the committed participants, winner 1 first.
 * @category Draw kinds
 */
export interface RankedOutcome<K extends string> {
  readonly kind: K
  readonly indices: readonly number[]
}

/** The proof rows of ranked indices. */
export function rankedRows(indices: readonly number[], entry: (index: number) => string): RankedJson[] {
  return indices.map((index, i) => ({ rank: i + 1, index, entry: entry(index) }))
}

/** Parses a list of `{ rank, index, entry }` rows (at most `LIMITS.maxParticipants`). */
export function parseRankedRows(v: unknown, path: string): RankedJson[] {
  return expectArray(v, path, LIMITS.maxParticipants).map((r, i) => {
    const p = `${path}[${i}]`
    const ro = expectObject(r, p)
    expectOnlyKeys(ro, ['rank', 'index', 'entry'], p)
    return { rank: expectInteger(field(ro, 'rank', p), `${p}.rank`, 1), index: expectInteger(field(ro, 'index', p), `${p}.index`), entry: expectString(field(ro, 'entry', p), `${p}.entry`) }
  })
}

/** The first difference between recomputed and claimed rows, or undefined. */
export function compareRankedRows(e: readonly RankedJson[], c: readonly RankedJson[]): string | undefined {
  if (e.length !== c.length) return `${e.length} ranked entries expected, ${c.length} claimed`
  for (let i = 0; i < e.length; i++) {
    const x = e[i]!
    const y = c[i]!
    if (x.rank !== y.rank || x.index !== y.index || x.entry !== y.entry) {
      return `rank ${i + 1} should be ${JSON.stringify(x.entry)} (index ${x.index}); the proof claims ${JSON.stringify(y.entry)} (rank ${y.rank}, index ${y.index})`
    }
  }
  return undefined
}

/** "the winners "a", "b" follow from the seed" (at most ten named). */
export function describeWinners(rows: readonly RankedJson[]): string {
  return `the winners ${rows.slice(0, 10).map((w) => JSON.stringify(w.entry)).join(', ')}${rows.length > 10 ? ', …' : ''} follow from the seed`
}

/** The proof form of an outcome that lists ranked winners (`pick`, `weighted`). */
export interface WinnersJson<K extends string> {
  readonly kind: K
  readonly winners: readonly RankedJson[]
}

/**
 * The outcome half of a kind whose outcome is a list of ranked winners: written, read, compared and
 * shown the same way whatever the kind's name (`pick`, `weighted`).
 */
export function winnersOutcome<K extends string>(kind: K): Pick<DrawKind<{ readonly kind: K }, RankedOutcome<K>, WinnersJson<K>>, 'toJson' | 'parseOutcome' | 'compare' | 'describeOutcome' | 'display'> {
  return {
    toJson: (o, entry) => ({ kind, winners: rankedRows(o.indices, entry) }),
    parseOutcome(o, path) {
      expectOnlyKeys(o, ['kind', 'winners'], path)
      return { kind, winners: parseRankedRows(field(o, 'winners', path), `${path}.winners`) }
    },
    compare: (e, c) => compareRankedRows(e.winners, c.winners),
    describeOutcome: (o) => describeWinners(o.winners),
    display: (o) => ({ layout: 'ranked', title: 'Winners', rows: o.winners }),
  }
}
