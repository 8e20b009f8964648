/**
 * The draw-kind-specific parts of the wire formats, one piece per kind: its parameters (the
 * commitment's `draw`, DAG-JSON form) and its outcome (the proof's `outcome`). The commitment and
 * proof shapes compose these pieces into discriminated unions on `kind`; adding a kind is adding
 * one entry here (and its module in the draw-kind registry).
 *
 * @module
 */
import { LIMITS } from '../limits.js'
import { decimal, index } from './common.js'
import * as v from 'valibot'
import { boolean, described, integer, list, option, strictObject, text } from './kit.js'

/** A ranked winner in an outcome: rank (1 = winner), committed index, entry. */
export const rankedShape = strictObject({ rank: integer(1), index: index, entry: text() })

/** A ranked list of winners (`pick`, `weighted`) or a full ranking (`shuffle`). */
export const ranked = list(rankedShape, LIMITS.maxParticipants)

/** `shuffle`: a full ranking of every entry. */
export const shuffleKind = {
  params: option({ kind: v.literal('shuffle') }),
  outcome: option({ kind: v.literal('shuffle'), ranking: ranked }),
} as const

/** `pick`: `count` ranked winners, winner first, then the alternates. */
export const pickKind = {
  params: option({ kind: v.literal('pick'), count: integer(1) }),
  outcome: option({ kind: v.literal('pick'), winners: ranked }),
} as const

/** `weighted`: `count` distinct ranked winners, each with probability proportional to its weight. */
export const weightedKind = {
  params: option({ kind: v.literal('weighted'), count: integer(1) }),
  outcome: option({ kind: v.literal('weighted'), winners: ranked }),
} as const

/** `range`: `count` integers in [`min`, `max`] (canonical decimal strings, any size), distinct or not. */
export const rangeKind = {
  params: option({ kind: v.literal('range'), min: decimal, max: decimal, count: integer(1), distinct: boolean() }),
  outcome: option({ kind: v.literal('range'), values: described(list(decimal, LIMITS.maxDrawCount), 'The drawn integers as canonical decimal strings, in draw order.') }),
} as const




/** The commitment's `draw` options, one per kind (for the union on `kind`). */
export const PARAMS_OPTIONS = [shuffleKind.params, pickKind.params, weightedKind.params, rangeKind.params] as const

/** The proof's `outcome` options, one per kind (for the union on `kind`). */
export const OUTCOME_OPTIONS = [shuffleKind.outcome, pickKind.outcome, weightedKind.outcome, rangeKind.outcome] as const
