/**
 * A worked example of a user's own draw kind, used only by the tests: `dice`, `rolls` throws of a die
 * with `sides` faces (each 1..sides, uniform, independent). It is written exactly as a user would
 * write one outside the library: one object, registered with `withKinds([diceKind])`, no edit of
 * orbitdraw itself. See docs/draw-kinds.md.
 */
import { defineKind, integer, intFlagValue, LIMITS, list, uniformIndex, type DrawSpec, type OutcomeJsonOf, type SpecOf } from '../../../src/core/index.js'

/** The most faces a die may have (any larger range is a `range` draw). */
export const MAX_SIDES = 1_000_000

/**
 * The dice spec as a `DrawSpec`. A program that registers its own kind would rather declare it once
 * (docs/draw-kinds.md: `declare module 'orbitdraw/core' { interface DrawKindTypes { dice: typeof diceKind } }`);
 * here that declaration would reach every test file of the suite, so the example casts instead.
 */
export function diceDraw(rolls: number, sides: number): DrawSpec {
  return { kind: 'dice', rolls, sides } satisfies DiceSpec as unknown as DrawSpec
}

/** The faces of a dice outcome (computed or from a proof). */
export function facesOf(outcome: { readonly kind: string }): number[] {
  return [...(outcome as unknown as DiceOutcome).faces]
}

/**
 * The `dice` kind: its spec's and outcome's fields are its whole declaration of both (types, JSON
 * Schema, parsing, the typed spec's check at commit); it has no rule a schema cannot say.
 */
export const diceKind = defineKind({
  name: 'dice',
  participants: 'none',
  draw: { rolls: integer(1, LIMITS.maxDrawCount), sides: integer(2, MAX_SIDES) },
  outcome: { faces: list(integer(1, MAX_SIDES), LIMITS.maxDrawCount) },
  compute: (stream, spec) => ({ kind: 'dice' as const, faces: Array.from({ length: spec.rolls }, () => uniformIndex(stream, spec.sides) + 1) }),
  rules: {
    carried(spec, claimed) {
      const n = claimed?.faces.length ?? 0
      return n === spec.rolls ? undefined : `the commitment throws ${spec.rolls} time(s) but the proof carries ${n} face(s)`
    },
    compare(e, c) {
      const i = e.faces.findIndex((f, j) => f !== c.faces[j])
      return i < 0 ? undefined : `throw ${i + 1} is ${e.faces[i]}, the proof claims ${String(c.faces[i])}`
    },
  },
  view: {
    describeOutcome: (o) => `the faces ${o.faces.join(', ')} follow from the seed`,
    describe: (spec) => `${spec.rolls} throw(s) of a ${spec.sides}-sided die`,
    display: (o) => ({ layout: 'values', title: 'Faces', values: o.faces.map(String) }),
  },
  cli: {
    flag: 'dice',
    options: { dice: 'string', sides: 'string' },
    usage: '--dice M --sides S',
    help: '  --dice M --sides S       M throws of an S-sided die (no participants)',
    fromFlags: (flags) => ({ kind: 'dice', rolls: intFlagValue(flags, 'dice', 1)!, sides: intFlagValue(flags, 'sides', 2) ?? 6 }),
  },
})

/** `rolls` throws of a die with `sides` faces. */
export type DiceSpec = SpecOf<typeof diceKind>

/** The faces thrown, in order. */
export type DiceOutcome = OutcomeJsonOf<typeof diceKind>
