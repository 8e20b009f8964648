/**
 * Draw kind `weighted`: `count` distinct ranked winners, each drawn with probability proportional to
 * its integer weight among the entries left. Its participants are `{ entry, weight }`.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { expectInteger, expectOnlyKeys, field } from '../json.js'
import { weightedPick } from '../random/weighted.js'
import { intFlagValue, type DrawKind, type RankedJson } from './kind.js'
import { validateWinnerCount } from './pick.js'
import { rankedRowsBytesFloor, winnersOutcome, type RankedOutcome } from './ranked.js'
import * as v from 'valibot'
import { integer, option } from '../schema/kit.js'
import { rankedListShape } from './ranked.js'

/**
 * `count` distinct ranked winners, each drawn with probability proportional to its weight among those left.
 * @category Draw kinds
 */
export interface WeightedSpec {
  readonly kind: 'weighted'
  readonly count: number
}

/**
 * The winners of a weighted draw, as carried in a proof.
 * @category Draw kinds
 */
export interface WeightedOutcomeJson {
  readonly kind: 'weighted'
  readonly winners: readonly RankedJson[]
}

/**
 * The `weighted` kind.
 * @category Draw kinds
 */
export const weightedKind: DrawKind<WeightedSpec, RankedOutcome<'weighted'>, WeightedOutcomeJson> = {
  name: 'weighted',
  drawShape: option({ kind: v.literal('weighted'), count: integer(1) }),
  outcomeShape: option({ kind: v.literal('weighted'), winners: rankedListShape }),
  participants: 'weighted',
  validate: (spec, n, path) => validateWinnerCount(spec.count, n, path),
  parse(draw, path) {
    expectOnlyKeys(draw, ['kind', 'count'], path)
    return { kind: 'weighted', count: expectInteger(field(draw, 'count', path), `${path}.count`, 1) }
  },
  encode: (spec) => ({ kind: 'weighted', count: spec.count }),
  compute(stream, spec, { count, weights }) {
    if (weights === undefined || weights.length !== count) {
      throw new InvalidInputError('MISSING_WEIGHTS', `a weighted outcome needs one weight per participant (${count}), got ${weights?.length ?? 'none'}`, 'pass the committed weights, in committed order')
    }
    return { kind: 'weighted', indices: weightedPick(stream, weights, spec.count) }
  },
  ...winnersOutcome('weighted'),
  outcomeBytesFloor: (spec) => rankedRowsBytesFloor(spec.count),
  describe: (spec, n) => `weighted pick ${spec.count}${n === undefined ? '' : ` of ${n}`}`,
  cli: {
    flag: 'weighted',
    options: { weighted: 'string' },
    usage: '--weighted K',
    help: '  --weighted K             K distinct winners, chances proportional to integer weights\n                           (needs --weight-column, or a JSON array of {"entry","weight"})',
    fromFlags: (flags) => ({ kind: 'weighted', count: intFlagValue(flags, 'weighted', 1)! }),
  },
}
