/**
 * Draw kind `pick`: `count` ranked winners out of the entries (the first `count` of the shuffle, in
 * O(count) memory). The only kind that allows a winners-only (private) proof.
 *
 * @module
 */
import { expectInteger, expectOnlyKeys, field } from '../json.js'
import { LIMITS } from '../limits.js'
import { pickIndices } from '../random/shuffle.js'
import { badDraw, checkCount, intFlagValue, type DrawKind, type RankedJson } from './kind.js'
import { rankedRowsBytesFloor, winnersOutcome, type RankedOutcome } from './ranked.js'
import * as v from 'valibot'
import { integer, option } from '../schema/kit.js'
import { rankedListShape } from './ranked.js'

/**
 * `count` ranked winners out of the entries; winner 1 first, then the alternates in order.
 * @category Draw kinds
 */
export interface PickSpec {
  readonly kind: 'pick'
  readonly count: number
}

/**
 * The winners of a pick, as carried in a proof.
 * @category Draw kinds
 */
export interface PickOutcomeJson {
  readonly kind: 'pick'
  readonly winners: readonly RankedJson[]
}

/** Validates the `count` of a kind that draws distinct winners from the entries (pick, weighted). */
export function validateWinnerCount(count: number, participantCount: number, path: string): void {
  checkCount(count, `${path}.count`, 'ask for at least one winner')
  if (count > participantCount) badDraw(`${path}.count`, `cannot draw ${count} winners from ${participantCount} participants`, 'lower count or add participants')
  if (count > LIMITS.maxDrawCount) badDraw(`${path}.count`, `count ${count} is over the limit ${LIMITS.maxDrawCount}`, 'draw fewer winners')
}

/**
 * The `pick` kind.
 * @category Draw kinds
 */
export const pickKind: DrawKind<PickSpec, RankedOutcome<'pick'>, PickOutcomeJson> = {
  name: 'pick',
  drawShape: option({ kind: v.literal('pick'), count: integer(1) }),
  outcomeShape: option({ kind: v.literal('pick'), winners: rankedListShape }),
  participants: 'entries',
  winnersOnly: { count: (spec) => spec.count, winners: (o) => o.indices },
  validate: (spec, n, path) => validateWinnerCount(spec.count, n, path),
  parse(draw, path) {
    expectOnlyKeys(draw, ['kind', 'count'], path)
    return { kind: 'pick', count: expectInteger(field(draw, 'count', path), `${path}.count`, 1) }
  },
  encode: (spec) => ({ kind: 'pick', count: spec.count }),
  compute: (stream, spec, { count }) => ({ kind: 'pick', indices: pickIndices(stream, count, spec.count) }),
  outcomeBytesFloor: (spec) => rankedRowsBytesFloor(spec.count),
  ...winnersOutcome('pick'),
  describe: (spec, n) => `pick ${spec.count}${n === undefined ? '' : ` of ${n}`}`,
  cli: {
    flag: 'pick',
    options: { pick: 'string' },
    usage: '--pick K',
    help: '  --pick K                 K ranked winners (winner 1 first, then alternates in order)',
    fromFlags: (flags) => ({ kind: 'pick', count: intFlagValue(flags, 'pick', 1)! }),
  },
}
