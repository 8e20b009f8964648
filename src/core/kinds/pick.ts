/**
 * Draw kind `pick`: `count` ranked winners out of the entries (the first `count` of the shuffle, in
 * O(count) memory). The only kind that allows a winners-only (private) proof.
 *
 * @module
 */
import { LIMITS } from '../limits.js'
import { pickIndices } from '../random/index.js'
import { integer } from '../schema/kit.js'
import { defineKind } from './define.js'
import { badDraw, checkCount, intFlagValue, type OutcomeJsonOf, type SpecOf } from './kind.js'
import { rankedRowsBytesFloor, winners } from './ranked.js'

/** Validates the `count` of a kind that draws distinct winners from the entries (pick, weighted). */
export function validateWinnerCount(count: number, participantCount: number, path: string): void {
  checkCount(count, `${path}.count`, 'ask for at least one winner')
  if (count > participantCount) badDraw(`${path}.count`, `cannot draw ${count} winners from ${participantCount} participants`, 'lower count or add participants')
  if (count > LIMITS.maxDrawCount) badDraw(`${path}.count`, `count ${count} is over the limit ${LIMITS.maxDrawCount}`, 'draw fewer winners')
}

/**
 * The `pick` kind: `count` ranked winners out of the entries; winner 1 first, then the alternates in order.
 * @category Draw kinds
 */
export const pickKind = defineKind({
  name: 'pick',
  draw: { count: integer(1) },
  outcome: winners.outcome,
  compute: (stream, spec, { count }) => ({ kind: 'pick' as const, indices: pickIndices(stream, count, spec.count) }),
  toJson: winners.toJson,
  winnersOnly: { count: (spec) => spec.count, winners: (o) => o.indices },
  rules: {
    validate: (spec, n, path) => validateWinnerCount(spec.count, n, path),
    outcomeBytesFloor: (spec) => rankedRowsBytesFloor(spec.count),
    compare: winners.compare,
  },
  view: {
    describe: (spec, n) => `pick ${spec.count}${n === undefined ? '' : ` of ${n}`}`,
    describeOutcome: winners.describeOutcome,
    display: winners.display,
  },
  cli: {
    flag: 'pick',
    options: { pick: 'string' },
    usage: '--pick K',
    help: '  --pick K                 K ranked winners (winner 1 first, then alternates in order)',
    fromFlags: (flags) => ({ kind: 'pick', count: intFlagValue(flags, 'pick', 1)! }),
  },
})

/**
 * `count` ranked winners out of the entries; winner 1 first, then the alternates in order.
 * @category Draw kinds
 */
export type PickSpec = SpecOf<typeof pickKind>

/**
 * The winners of a pick, as carried in a proof.
 * @category Draw kinds
 */
export type PickOutcomeJson = OutcomeJsonOf<typeof pickKind>
