/**
 * Draw kind `shuffle`: a full ranking of every committed entry (forward Fisher–Yates).
 *
 * @module
 */
import { expectOnlyKeys, field } from '../json.js'
import { shuffleIndices } from '../random/shuffle.js'
import type { DrawKind, RankedJson } from './kind.js'
import { compareRankedRows, parseRankedRows, rankedRows, rankedRowsBytesFloor, type RankedOutcome } from './ranked.js'
import * as v from 'valibot'
import { option } from '../schema/kit.js'
import { rankedListShape } from './ranked.js'

/**
 * A full ranking of all entries.
 * @category Draw kinds
 */
export interface ShuffleSpec {
  readonly kind: 'shuffle'
}

/**
 * The ranking of a shuffle, as carried in a proof.
 * @category Draw kinds
 */
export interface ShuffleOutcomeJson {
  readonly kind: 'shuffle'
  readonly ranking: readonly RankedJson[]
}

/**
 * The `shuffle` kind.
 * @category Draw kinds
 */
export const shuffleKind: DrawKind<ShuffleSpec, RankedOutcome<'shuffle'>, ShuffleOutcomeJson> = {
  name: 'shuffle',
  drawShape: option({ kind: v.literal('shuffle') }),
  outcomeShape: option({ kind: v.literal('shuffle'), ranking: rankedListShape }),
  participants: 'entries',
  validate() {},
  parse(draw, path) {
    expectOnlyKeys(draw, ['kind'], path)
    return { kind: 'shuffle' }
  },
  encode: () => ({ kind: 'shuffle' }),
  outcomeBytesFloor: (_spec, count, entryBytes) => (count === 0 ? 0 : entryBytes + rankedRowsBytesFloor(count)),
  compute: (stream, _spec, { count }) => ({ kind: 'shuffle', indices: Array.from(shuffleIndices(stream, count)) }),
  toJson: (o, entry) => ({ kind: 'shuffle', ranking: rankedRows(o.indices, entry) }),
  parseOutcome(o, path) {
    expectOnlyKeys(o, ['kind', 'ranking'], path)
    return { kind: 'shuffle', ranking: parseRankedRows(field(o, 'ranking', path), `${path}.ranking`) }
  },
  compare: (e, c) => compareRankedRows(e.ranking, c.ranking),
  describeOutcome: (o) => `the ranking of ${o.ranking.length} entries follows from the seed`,
  describe: (_spec, n) => (n === undefined ? 'shuffle (rank everyone)' : `shuffle all ${n}`),
  display: (o) => ({ layout: 'ranked', title: 'Ranking', rows: o.ranking }),
  cli: {
    flag: 'shuffle',
    options: { shuffle: 'boolean' },
    usage: '--shuffle',
    help: '  --shuffle                a full ranking of every entry',
    fromFlags: () => ({ kind: 'shuffle' }),
  },
}
