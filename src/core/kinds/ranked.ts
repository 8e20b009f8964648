/**
 * Pieces shared by the kinds whose outcome is a ranking of committed entries (shuffle, pick,
 * weighted): the ranked rows' JSON form, their parser, their comparison and their words.
 *
 * @module
 */
import { LIMITS } from '../limits.js'
import type { OutcomeDisplay, RankedJson } from './kind.js'
import { index } from '../schema/common.js'
import { bulkList, integer, list, parseShape, strictObject, text, type Shape } from '../schema/kit.js'

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

/** A row `rankedShape` accepts: an object with exactly its three own fields, each valid. */
function isRankedRow(x: unknown): boolean {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false
  const r = x as { rank?: unknown; index?: unknown; entry?: unknown }
  return (
    Number.isSafeInteger(r.rank) && (r.rank as number) >= 1 && Number.isSafeInteger(r.index) && (r.index as number) >= 0 && typeof r.entry === 'string' &&
    Object.hasOwn(r, 'rank') && Object.hasOwn(r, 'index') && Object.hasOwn(r, 'entry') && Object.keys(r).length === 3
  )
}

/**
 * Ranked rows checked as {@link rankedRowsCheck} does, published as `declared` (an equal list that is
 * not the shared definition is written out in place in the JSON Schema).
 */
export function rankedRowsChecked(declared: Shape = rankedListShape) {
  return bulkList(
    rankedShape,
    LIMITS.maxParticipants,
    {
      accept: isRankedRow,
      copy: (x) => ({ rank: (x as RankedJson).rank, index: (x as RankedJson).index, entry: (x as RankedJson).entry }),
    },
    declared,
  )
}

/**
 * The ranked rows as `parseRankedRows` checks them: `rankedListShape`, its rows (up to a full
 * ranking of every participant) in one tight loop (`bulkList`); the first bad row is run through
 * `rankedShape`, so its error is the declared shape's.
 */
export const rankedRowsCheck = rankedRowsChecked()

/** Parses a list of `{ rank, index, entry }` rows (at most `LIMITS.maxParticipants`), by `rankedListShape`. */
export function parseRankedRows(v: unknown, path: string): RankedJson[] {
  return parseShape(rankedRowsCheck, v, path) as RankedJson[]
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

/**
 * The fewest bytes `count` ranked rows take in a serialized proof, their entries' own bytes aside: each
 * row's '{', '"rank": 1,', '"index": 0,', '"entry": ""' and '}' on lines of their own, indented 6 and 8
 * (75 bytes with one digit each), and a comma between rows.
 */
export function rankedRowsBytesFloor(count: number): number {
  return count === 0 ? 0 : 76 * count - 1
}

/** "the winners "a", "b" follow from the seed" (at most ten named). */
export function describeWinners(rows: readonly RankedJson[]): string {
  return `the winners ${rows.slice(0, 10).map((w) => JSON.stringify(w.entry)).join(', ')}${rows.length > 10 ? ', …' : ''} follow from the seed`
}

/**
 * The parts of a kind whose outcome is a list of ranked winners (`pick`, `weighted`): its outcome's
 * field, its proof form, its comparison, its words and its display.
 */
export const winners = {
  /** The outcome's field: `winners`, ranked rows. */
  outcome: { winners: rankedRowsCheck },
  /** The ranked rows of the computed indices. */
  toJson: <K extends string>(o: RankedOutcome<K>, entry: (index: number) => string) => ({ kind: o.kind, winners: rankedRows(o.indices, entry) }),
  compare: (e: { readonly winners: readonly RankedJson[] }, c: { readonly winners: readonly RankedJson[] }) => compareRankedRows(e.winners, c.winners),
  describeOutcome: (o: { readonly winners: readonly RankedJson[] }) => describeWinners(o.winners),
  display: (o: { readonly winners: readonly RankedJson[] }): OutcomeDisplay => ({ layout: 'ranked', title: 'Winners', rows: o.winners }),
} as const
