/**
 * Draw kinds and their parameters, with validation.
 *
 * @module
 */
import { InvalidInputError } from './errors.js'
import { LIMITS } from './limits.js'
import { show } from './json.js'

/** A full ranking of all entries. */
export interface ShuffleSpec {
  readonly kind: 'shuffle'
}
/** `count` ranked winners out of the entries; winner 1 first, then the alternates in order. */
export interface PickSpec {
  readonly kind: 'pick'
  readonly count: number
}
/** `count` integers in [`min`, `max`] inclusive, distinct or with repetition. */
export interface RangeSpec {
  readonly kind: 'range'
  readonly min: bigint
  readonly max: bigint
  readonly count: number
  readonly distinct: boolean
}
/** `count` distinct ranked winners, each drawn with probability proportional to its weight among those left. */
export interface WeightedSpec {
  readonly kind: 'weighted'
  readonly count: number
}

/** What a draw decides. */
export type DrawSpec = ShuffleSpec | PickSpec | RangeSpec | WeightedSpec

/** The draw kinds this release implements. */
export const DRAW_KINDS = ['shuffle', 'pick', 'range', 'weighted'] as const

/** True when the draw kind takes a participants list. */
export function usesParticipants(spec: DrawSpec): boolean {
  return spec.kind !== 'range'
}

/**
 * Validates a draw spec against the number of participants (ignored for `range`).
 * @throws {@link InvalidInputError} naming the bad parameter.
 */
export function validateDrawSpec(spec: DrawSpec, participantCount: number, path = '$.draw'): void {
  const bad: (detail: string, hint: string, sub: string) => never = (detail, hint, sub) => {
    throw new InvalidInputError('INVALID_DRAW', detail, hint, { path: `${path}${sub}` })
  }
  if (typeof spec !== 'object' || spec === null) bad('draw must be an object', 'pass { kind: "pick", count: 3 } or another draw kind', '')
  switch (spec.kind) {
    case 'shuffle':
      return
    case 'pick':
    case 'weighted':
      if (!Number.isSafeInteger(spec.count) || spec.count < 1) bad(`count must be a positive integer, got ${String(spec.count)}`, 'ask for at least one winner', '.count')
      if (spec.count > participantCount) bad(`cannot draw ${spec.count} winners from ${participantCount} participants`, 'lower count or add participants', '.count')
      if (spec.count > LIMITS.maxDrawCount) bad(`count ${spec.count} is over the limit ${LIMITS.maxDrawCount}`, 'draw fewer winners', '.count')
      return
    case 'range': {
      if (typeof spec.min !== 'bigint' || typeof spec.max !== 'bigint') bad('min and max must be bigints', 'pass e.g. { min: 1n, max: 100n }', '')
      if (spec.max < spec.min) bad(`max ${spec.max} is below min ${spec.min}`, 'swap them or fix the bounds', '.max')
      const width = spec.max - spec.min + 1n
      if (width > 1n << BigInt(LIMITS.maxRangeWidthBits)) bad(`range width ${width} is over 2^${LIMITS.maxRangeWidthBits}`, 'narrow the range', '.max')
      if (!Number.isSafeInteger(spec.count) || spec.count < 1) bad(`count must be a positive integer, got ${String(spec.count)}`, 'ask for at least one value', '.count')
      if (spec.count > LIMITS.maxDrawCount) bad(`count ${spec.count} is over the limit ${LIMITS.maxDrawCount}`, 'draw fewer values', '.count')
      if (typeof spec.distinct !== 'boolean') bad('distinct must be a boolean', 'pass distinct: true for no repetition', '.distinct')
      if (spec.distinct && BigInt(spec.count) > width) bad(`cannot draw ${spec.count} distinct values from a range of ${width}`, 'lower count, widen the range, or allow repetition', '.count')
      return
    }
    default:
      bad(`unknown draw kind ${show((spec as { kind?: unknown }).kind)}`, `use one of ${DRAW_KINDS.join(', ')}`, '.kind')
  }
}
