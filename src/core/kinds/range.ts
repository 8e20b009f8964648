/**
 * Draw kind `range`: `count` integers in [`min`, `max`], distinct or with repetition. It takes no
 * participants; its bounds are bigints (decimal strings in the commitment and the proof).
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { LIMITS } from '../limits.js'
import { rangeValues } from '../random/index.js'
import { bigDecimal, decimal } from '../schema/common.js'
import { boolean, described, integer, list } from '../schema/kit.js'
import { defineKind } from './define.js'
import { badDraw, checkCount, intFlagValue, type OutcomeJsonOf, type OutcomeOf, type SpecOf } from './kind.js'

/**
 * The `range` kind: `count` integers in [`min`, `max`] inclusive, distinct or with repetition.
 * @category Draw kinds
 */
export const rangeKind = defineKind({
  name: 'range',
  participants: 'none',
  draw: { min: bigDecimal, max: bigDecimal, count: integer(1), distinct: boolean() },
  outcome: { values: described(list(decimal, LIMITS.maxDrawCount), 'The drawn integers as canonical decimal strings, in draw order.') },
  compute: (stream, spec) => ({ kind: 'range' as const, values: rangeValues(stream, spec.min, spec.max, spec.count, spec.distinct) }),
  toJson: (o) => ({ kind: 'range', values: o.values.map((v) => v.toString()) }),
  rules: {
    validate(spec, _n, path) {
      if (typeof spec.min !== 'bigint' || typeof spec.max !== 'bigint') badDraw(path, 'min and max must be bigints', 'pass e.g. { min: 1n, max: 100n }')
      const bound = 1n << BigInt(LIMITS.maxRangeBoundBits)
      for (const key of ['min', 'max'] as const) {
        const x = spec[key]
        if (x > bound || x < -bound) badDraw(`${path}.${key}`, `${key} is ${x > 0n ? 'over' : 'under'} ${x > 0n ? '' : '−'}2^${LIMITS.maxRangeBoundBits} (LIMITS.maxRangeBoundBits)`, `use bounds within ±2^${LIMITS.maxRangeBoundBits}`)
      }
      if (spec.max < spec.min) badDraw(`${path}.max`, `max ${spec.max} is below min ${spec.min}`, 'swap them or fix the bounds')
      const width = spec.max - spec.min + 1n
      if (width > 1n << BigInt(LIMITS.maxRangeWidthBits)) badDraw(`${path}.max`, `range width ${width} is over 2^${LIMITS.maxRangeWidthBits}`, 'narrow the range')
      checkCount(spec.count, `${path}.count`, 'ask for at least one value')
      if (spec.count > LIMITS.maxDrawCount) badDraw(`${path}.count`, `count ${spec.count} is over the limit ${LIMITS.maxDrawCount}`, 'draw fewer values')
      if (typeof spec.distinct !== 'boolean') badDraw(`${path}.distinct`, 'distinct must be a boolean', 'pass distinct: true for no repetition')
      if (spec.distinct && BigInt(spec.count) > width) badDraw(`${path}.count`, `cannot draw ${spec.count} distinct values from a range of ${width}`, 'lower count, widen the range, or allow repetition')
    },
    carried(spec, claimed) {
      const carried = claimed?.values.length ?? 0
      return carried === spec.count ? undefined : `the commitment draws ${spec.count} value(s) but the proof carries ${carried}`
    },
    compare(e, c) {
      if (e.values.length !== c.values.length) return `${e.values.length} values expected, ${c.values.length} claimed`
      const i = e.values.findIndex((v, j) => v !== c.values[j])
      return i < 0 ? undefined : `value ${i + 1} is ${e.values[i]}, the proof claims ${c.values[i]}`
    },
  },
  view: {
    describe: (d) => `${d.count} ${d.distinct ? 'distinct ' : ''}integer${d.count === 1 ? '' : 's'} in ${d.min}..${d.max}`,
    describeOutcome: (o) => `the values ${o.values.slice(0, 10).join(', ')}${o.values.length > 10 ? ', …' : ''} follow from the seed`,
    display: (o) => ({ layout: 'values', title: 'Values', values: o.values }),
  },
  cli: {
    flag: 'range',
    options: { range: 'string', count: 'string', distinct: 'boolean' },
    usage: '--range MIN..MAX --count M [--distinct]',
    help: '  --range MIN..MAX --count M [--distinct]\n                           M integers in [MIN, MAX] (no participants)',
    fromFlags(flags) {
      const text = flags.range === undefined ? undefined : String(flags.range)
      const r = /^(-?[0-9]+)\.\.(-?[0-9]+)$/.exec(text ?? '')
      if (r === null) throw new InvalidInputError('INVALID_FLAG', `--range must look like MIN..MAX (e.g. 1..49), got ${JSON.stringify(text)}`, 'e.g. --range 1..49')
      const count = intFlagValue(flags, 'count', 1)
      if (count === undefined) throw new InvalidInputError('INVALID_FLAG', '--range needs --count M (how many values)', 'add --count M')
      const min = BigInt(r[1]!)
      const max = BigInt(r[2]!)
      if (max < min) throw new InvalidInputError('INVALID_FLAG', `--range ${min}..${max}: MAX is below MIN`, 'swap the bounds')
      return { kind: 'range', min, max, count, distinct: flags.distinct === true }
    },
  },
})

/**
 * `count` integers in [`min`, `max`] inclusive, distinct or with repetition.
 * @category Draw kinds
 */
export type RangeSpec = SpecOf<typeof rangeKind>

/**
 * The computed values of a range draw.
 * @category Draw kinds
 */
export type RangeOutcome = OutcomeOf<typeof rangeKind>

/**
 * The values of a range draw, as carried in a proof (canonical decimal strings).
 * @category Draw kinds
 */
export type RangeOutcomeJson = OutcomeJsonOf<typeof rangeKind>
