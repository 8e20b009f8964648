/**
 * Draw kind `shuffle`: a full ranking of every committed entry (forward Fisher–Yates).
 *
 * @module
 */
import { shuffleIndices } from '../random/index.js'
import { defineKind } from './define.js'
import type { OutcomeJsonOf, SpecOf } from './kind.js'
import { compareRankedRows, rankedRows, rankedRowsBytesFloor, rankedRowsCheck } from './ranked.js'

/**
 * The `shuffle` kind: a full ranking of all entries.
 * @category Draw kinds
 */
export const shuffleKind = defineKind({
  name: 'shuffle',
  draw: {},
  outcome: { ranking: rankedRowsCheck },
  compute: (stream, _spec, { count }) => ({ kind: 'shuffle' as const, indices: Array.from(shuffleIndices(stream, count)) }),
  toJson: (o, entry) => ({ kind: 'shuffle', ranking: rankedRows(o.indices, entry) }),
  rules: {
    outcomeBytesFloor: (_spec, count, entryBytes) => (count === 0 ? 0 : entryBytes + rankedRowsBytesFloor(count)),
    compare: (e, c) => compareRankedRows(e.ranking, c.ranking),
  },
  view: {
    describe: (_spec, n) => (n === undefined ? 'shuffle (rank everyone)' : `shuffle all ${n}`),
    describeOutcome: (o) => `the ranking of ${o.ranking.length} entries follows from the seed`,
    display: (o) => ({ layout: 'ranked', title: 'Ranking', rows: o.ranking }),
  },
  cli: {
    flag: 'shuffle',
    options: { shuffle: 'boolean' },
    usage: '--shuffle',
    help: '  --shuffle                a full ranking of every entry',
    fromFlags: () => ({ kind: 'shuffle' }),
  },
})

/**
 * A full ranking of all entries.
 * @category Draw kinds
 */
export type ShuffleSpec = SpecOf<typeof shuffleKind>

/**
 * The ranking of a shuffle, as carried in a proof.
 * @category Draw kinds
 */
export type ShuffleOutcomeJson = OutcomeJsonOf<typeof shuffleKind>
