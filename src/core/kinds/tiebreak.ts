/**
 * Draw kind `tiebreak`: the committed entries ranked by their committed scores, highest first, with
 * every tie broken uniformly at random by the seed (a results table with tied places: the winners
 * of a contest on equal points, candidates on equal votes). The random part is the shuffle of the
 * entries (kind `shuffle`); the ranking is that shuffle sorted by score, stably, so each tied group
 * comes out in a uniformly random order and entries with different scores keep the scores' order.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { shuffleIndices } from '../random/index.js'
import { described, integer, list } from '../schema/kit.js'
import { defineKind } from './define.js'
import { badDraw, type OutcomeJsonOf, type SpecOf } from './kind.js'
import { compareRankedRows, rankedRows, rankedRowsBytesFloor, rankedRowsCheck } from './ranked.js'

/**
 * The most entries a tie-break ranks (its scores are in the commitment).
 * @category Draw kinds
 */
export const MAX_TIEBREAK_ENTRIES = 10_000

/**
 * The ranking of a tie-break from a shuffle of the entries: the shuffle sorted by score, highest
 * first, stably (tied entries keep their shuffled order).
 * @category Draw kinds
 */
export function tiebreakOrder(shuffled: readonly number[], scores: readonly number[]): number[] {
  return [...shuffled].sort((a, b) => scores[b]! - scores[a]!)
}

/** The tied groups of a spec: the number of scores shared by at least two entries, and the entries in them. */
function ties(scores: readonly number[]): { groups: number; entries: number } {
  const counts = new Map<number, number>()
  for (const s of scores) counts.set(s, (counts.get(s) ?? 0) + 1)
  const tied = [...counts.values()].filter((c) => c > 1)
  return { groups: tied.length, entries: tied.reduce((a, c) => a + c, 0) }
}

/**
 * The `tiebreak` kind: every entry ranked by its committed score, highest first, ties broken by the seed.
 * @category Draw kinds
 */
export const tiebreakKind = defineKind({
  name: 'tiebreak',
  draw: {
    scores: described(list(integer(0), MAX_TIEBREAK_ENTRIES), "Each committed entry's score (a whole number), in committed order: higher ranks first; entries with equal scores are ordered by the seed."),
  },
  outcome: { ranking: rankedRowsCheck },
  compute: (stream, spec, { count }) => ({ kind: 'tiebreak' as const, indices: tiebreakOrder(Array.from(shuffleIndices(stream, count)), spec.scores) }),
  toJson: (o, entry) => ({ kind: 'tiebreak', ranking: rankedRows(o.indices, entry) }),
  rules: {
    validate(spec, n, path) {
      if (spec.scores.length !== n) badDraw(`${path}.scores`, `${spec.scores.length} score(s) for ${n} participants`, 'give one score per committed entry, in committed order')
    },
    outcomeBytesFloor: (_spec, count, entryBytes) => (count === 0 ? 0 : entryBytes + rankedRowsBytesFloor(count)),
    compare: (e, c) => compareRankedRows(e.ranking, c.ranking),
  },
  view: {
    describe(spec, n) {
      const t = ties(spec.scores)
      return `tie-break: rank ${n ?? spec.scores.length} by score, ${t.groups === 0 ? 'no ties' : `${t.entries} entries tied in ${t.groups} group(s) ordered by the seed`}`
    },
    describeOutcome: (o) => `the order of the ${o.ranking.length} entries, ties broken, follows from the seed`,
    display: (o) => ({ layout: 'ranked', title: 'Ranking (ties broken by the seed)', rows: o.ranking }),
  },
  cli: {
    flag: 'tiebreak',
    options: { tiebreak: 'string' },
    usage: '--tiebreak SCORES',
    help: '  --tiebreak SCORES        rank every entry by its score (SCORES: one whole number per entry, in\n                           order, comma-separated), highest first; ties broken by the seed',
    fromFlags(flags) {
      const text = String(flags.tiebreak ?? '')
      if (!/^(?:0|[1-9][0-9]*)(?:,(?:0|[1-9][0-9]*))*$/.test(text)) throw new InvalidInputError('INVALID_FLAG', `--tiebreak must be whole numbers separated by commas (e.g. 12,9,9,7), got ${JSON.stringify(text.slice(0, 40))}`, 'give one score per entry, in order')
      const scores = text.split(',').map(Number)
      const i = scores.findIndex((s) => !Number.isSafeInteger(s))
      if (i >= 0) throw new InvalidInputError('INVALID_FLAG', `--tiebreak: score ${i + 1} is over 2^53 − 1`, 'give smaller scores')
      return { kind: 'tiebreak', scores }
    },
  },
})

/**
 * A tie-break: one score per committed entry.
 * @category Draw kinds
 */
export type TiebreakSpec = SpecOf<typeof tiebreakKind>

/**
 * The ranking of a tie-break, as carried in a proof.
 * @category Draw kinds
 */
export type TiebreakOutcomeJson = OutcomeJsonOf<typeof tiebreakKind>
