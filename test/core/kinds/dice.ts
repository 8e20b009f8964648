/**
 * A worked example of a user's own draw kind, used only by the tests: `dice`, `rolls` throws of a die
 * with `sides` faces (each 1..sides, uniform, independent). It is written exactly as a user would
 * write one outside the library: one object, registered with `withKinds([diceKind])`, no edit of
 * orbitdraw itself. See docs/draw-kinds.md.
 */
import { expectArray, expectInteger, expectOnlyKeys, field } from '../../../src/core/json.js'
import { InvalidInputError } from '../../../src/core/errors.js'
import { intFlagValue, type DrawKind } from '../../../src/core/kinds/kind.js'
import { LIMITS } from '../../../src/core/limits.js'
import { uniformIndex } from '../../../src/core/random/uniform.js'
import { type DrawSpec } from '../../../src/core/kinds/registry.js'

/** `rolls` throws of a die with `sides` faces. */
export interface DiceSpec {
  readonly kind: 'dice'
  readonly rolls: number
  readonly sides: number
}

/** The faces thrown, in order. */
export interface DiceOutcome {
  readonly kind: 'dice'
  readonly faces: readonly number[]
}

/** The most faces a die may have (any larger range is a `range` draw). */
export const MAX_SIDES = 1_000_000

/**
 * The dice spec as a `DrawSpec`. A program that registers its own kind would rather declare it once
 * (docs/draw-kinds.md: `declare module 'orbitdraw/kinds' { interface DrawKindTypes { dice: typeof diceKind } }`);
 * here that declaration would reach every test file of the suite, so the example casts instead.
 */
export function diceDraw(rolls: number, sides: number): DrawSpec {
  return { kind: 'dice', rolls, sides } satisfies DiceSpec as unknown as DrawSpec
}

/** The faces of a dice outcome (computed or from a proof). */
export function facesOf(outcome: { readonly kind: string }): number[] {
  return [...(outcome as unknown as DiceOutcome).faces]
}

const bad = (path: string, detail: string, hint: string): never => {
  throw new InvalidInputError('INVALID_DRAW', detail, hint, { path })
}

export const diceKind: DrawKind<DiceSpec, DiceOutcome, DiceOutcome> = {
  name: 'dice',
  participants: 'none',
  validate(spec, _n, path) {
    if (!Number.isSafeInteger(spec.rolls) || spec.rolls < 1 || spec.rolls > LIMITS.maxDrawCount) bad(`${path}.rolls`, `rolls must be 1 to ${LIMITS.maxDrawCount}, got ${String(spec.rolls)}`, 'throw the die at least once')
    if (!Number.isSafeInteger(spec.sides) || spec.sides < 2 || spec.sides > MAX_SIDES) bad(`${path}.sides`, `sides must be 2 to ${MAX_SIDES}, got ${String(spec.sides)}`, 'a die has at least two faces')
  },
  parse(draw, path) {
    expectOnlyKeys(draw, ['kind', 'rolls', 'sides'], path)
    return { kind: 'dice', rolls: expectInteger(field(draw, 'rolls', path), `${path}.rolls`, 1), sides: expectInteger(field(draw, 'sides', path), `${path}.sides`, 2) }
  },
  encode: (spec) => ({ kind: 'dice', rolls: spec.rolls, sides: spec.sides }),
  compute: (stream, spec) => ({ kind: 'dice', faces: Array.from({ length: spec.rolls }, () => uniformIndex(stream, spec.sides) + 1) }),
  toJson: (o) => o,
  parseOutcome(o, path) {
    expectOnlyKeys(o, ['kind', 'faces'], path)
    return { kind: 'dice', faces: expectArray(field(o, 'faces', path), `${path}.faces`, LIMITS.maxDrawCount).map((f, i) => expectInteger(f, `${path}.faces[${i}]`, 1)) }
  },
  carried(spec, claimed) {
    const n = claimed?.faces.length ?? 0
    return n === spec.rolls ? undefined : `the commitment throws ${spec.rolls} time(s) but the proof carries ${n} face(s)`
  },
  compare(e, c) {
    const i = e.faces.findIndex((f, j) => f !== c.faces[j])
    return i < 0 ? undefined : `throw ${i + 1} is ${e.faces[i]}, the proof claims ${String(c.faces[i])}`
  },
  describeOutcome: (o) => `the faces ${o.faces.join(', ')} follow from the seed`,
  describe: (spec) => `${spec.rolls} throw(s) of a ${spec.sides}-sided die`,
  display: (o) => ({ layout: 'values', title: 'Faces', values: o.faces.map(String) }),
  cli: {
    flag: 'dice',
    options: { dice: 'string', sides: 'string' },
    usage: '--dice M --sides S',
    help: '  --dice M --sides S       M throws of an S-sided die (no participants)',
    fromFlags: (flags) => ({ kind: 'dice', rolls: intFlagValue(flags, 'dice', 1)!, sides: intFlagValue(flags, 'sides', 2) ?? 6 }),
  },
}
