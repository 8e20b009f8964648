/**
 * Draw kind `weighted`: `count` distinct ranked winners, each drawn with probability proportional to
 * its integer weight among the entries left. Its participants are `{ entry, weight }`.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { weightedPick } from '../random/index.js'
import { integer } from '../schema/kit.js'
import { defineKind } from './define.js'
import { intFlagValue, type OutcomeJsonOf, type SpecOf } from './kind.js'
import { validateWinnerCount } from './pick.js'
import { rankedRowsBytesFloor, winners } from './ranked.js'

/**
 * The `weighted` kind: `count` distinct ranked winners, each drawn with probability proportional to
 * its weight among those left.
 * @category Draw kinds
 */
export const weightedKind = defineKind({
  name: 'weighted',
  participants: 'weighted',
  draw: { count: integer(1) },
  outcome: winners.outcome,
  compute(stream, spec, { count, weights }) {
    if (weights === undefined || weights.length !== count) {
      throw new InvalidInputError('MISSING_WEIGHTS', `a weighted outcome needs one weight per participant (${count}), got ${weights?.length ?? 'none'}`, 'pass the committed weights, in committed order')
    }
    return { kind: 'weighted' as const, indices: weightedPick(stream, weights, spec.count) }
  },
  toJson: winners.toJson,
  rules: {
    validate: (spec, n, path) => validateWinnerCount(spec.count, n, path),
    outcomeBytesFloor: (spec) => rankedRowsBytesFloor(spec.count),
    compare: winners.compare,
  },
  view: {
    describe: (spec, n) => `weighted pick ${spec.count}${n === undefined ? '' : ` of ${n}`}`,
    describeOutcome: winners.describeOutcome,
    display: winners.display,
  },
  cli: {
    flag: 'weighted',
    options: { weighted: 'string' },
    usage: '--weighted K',
    help: '  --weighted K             K distinct winners, chances proportional to integer weights\n                           (needs --weight-column, or a JSON array of {"entry","weight"})',
    fromFlags: (flags) => ({ kind: 'weighted', count: intFlagValue(flags, 'weighted', 1)! }),
  },
})

/**
 * `count` distinct ranked winners, each drawn with probability proportional to its weight among those left.
 * @category Draw kinds
 */
export type WeightedSpec = SpecOf<typeof weightedKind>

/**
 * The winners of a weighted draw, as carried in a proof.
 * @category Draw kinds
 */
export type WeightedOutcomeJson = OutcomeJsonOf<typeof weightedKind>
