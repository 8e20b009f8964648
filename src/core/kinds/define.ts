/**
 * A draw kind declared once: {@link defineKind} takes a kind's declaration (its name, the valibot
 * fields of its spec and of its outcome, how it draws, and optional facets) and makes the
 * {@link DrawKind} the registry holds. The fields are the one source of the spec's and the outcome's
 * TypeScript types (`v.InferOutput`), of their published JSON Schema and of their parsing; the rules a
 * schema cannot say (against the number of participants, between fields) are the `rules` facet's small
 * named refinements. See docs/draw-kinds.md.
 *
 * @module
 */
import * as v from 'valibot'
import { InvalidInputError, OrbitdrawError } from '../errors.js'
import { show, type JsonObject } from '../json.js'
import type { RandomStream } from '../random/index.js'
import { option, parseShape, strictObject, type DeepReadonly, type ShapeMessage } from '../schema/kit.js'
import type { DrawInput, DrawKind, KindCli, NamedCheck, OutcomeBase, OutcomeDisplay } from './kind.js'

/**
 * The declared object of a kind's spec or outcome: `kind` (the literal name) and the given fields.
 * @category Draw kinds
 */
export type KindShape<N extends string, E extends v.ObjectEntries> = v.StrictObjectSchema<{ readonly kind: v.LiteralSchema<N, undefined> } & E, ShapeMessage>

/**
 * The type of declared fields (valibot's output type), read-only.
 * @category Draw kinds
 */
export type Fields<E extends v.ObjectEntries> = DeepReadonly<v.InferOutput<v.StrictObjectSchema<E, undefined>>>

/**
 * The spec (or outcome JSON) type a kind's fields declare: `{ kind: N, …fields }`, read-only.
 * @category Draw kinds
 */
export type Declared<N extends string, E extends v.ObjectEntries> = Listed<{ readonly kind: N } & Fields<E>>

/**
 * `T` with its members listed: through it a kind's spec and outcome read, in an editor and in the
 * published declarations, as the object types they are (`{ readonly kind: 'pick'; readonly count:
 * number }`), not as the valibot fields they come from (which spelled out took up to 60 kB per kind).
 * @category Draw kinds
 */
export type Listed<T> = { [K in keyof T]: T[K] }

/**
 * The rules of a kind that its fields cannot say, each optional. See {@link DrawKind} for each one's
 * contract; `validate` here runs on a spec that its declared fields accept.
 * @category Draw kinds
 */
export interface KindRules<S, J> {
  /**
   * Rules of a spec beyond its fields' types (against the participants' number, between fields,
   * limits). Runs after the spec's fields are checked (a typed spec from code is checked against
   * them too, `INVALID_DRAW` at the bad field), so it may rely on their types.
   * @throws {@link InvalidInputError} `INVALID_DRAW` with a path under `path`.
   */
  validate?(spec: S, participantCount: number, path: string): void
  /** See {@link DrawKind.validateCommit}. */
  validateCommit?(spec: S, participantCount: number, path: string): void
  /** See {@link DrawKind.checkEntries}. */
  checkEntries?(spec: S, rows: readonly { readonly index: number; readonly entry: string }[], full: boolean): string | undefined
  /** See {@link DrawKind.carried} (bounds `verify`'s work by the proof's size where the carried list does not). */
  carried?(spec: S, claimed: J | undefined): string | undefined
  /** See {@link DrawKind.outcomeBytesFloor}. */
  outcomeBytesFloor?(spec: S, count: number, entryBytes: number): number
  /** The first difference of two outcomes (default: the first differing field, by its path). */
  compare?(expected: J, claimed: J): string | undefined
  /** See {@link DrawKind.claimChecks} (with {@link KindRules.claimCheckNames}). */
  claimChecks?(spec: S, claimed: J, expected: J): readonly NamedCheck[]
  /** See {@link DrawKind.claimCheckNames}. */
  readonly claimCheckNames?: readonly string[]
  /**
   * The spec's IPLD form, when it is not its declared fields as they are (default: the declared
   * fields of the spec, bigints as decimal strings).
   */
  encode?(spec: S): { readonly [key: string]: unknown }
}

/**
 * How a kind is told and shown (each optional, with a plain default).
 * @category Draw kinds
 */
export interface KindView<S, J> {
  /** The draw in words, e.g. "pick 3 of 120" (default: the kind's name). */
  describe?(spec: S, participantCount: number | undefined): string
  /** The detail of a passed `outcome` check (default: "the <name> outcome follows from the seed"). */
  describeOutcome?(outcome: J): string
  /** How the CLI and the page show the outcome (default: one line per field). */
  display?(outcome: J): OutcomeDisplay
}

/**
 * A draw kind as its author declares it: four members (`name`, `draw`, `outcome`, `compute`) and
 * optional facets. `draw` and `outcome` are valibot fields built with the validation kit
 * (src/core/schema/kit.ts: `integer`, `text`, `list`, `boolean`, …); `kind` is added to both.
 *
 * @example
 * ```ts
 * const coinKind = defineKind({
 *   name: 'coin',
 *   participants: 'none',
 *   draw: { flips: integer(1, 64) },
 *   outcome: { heads: list(boolean(), 64) },
 *   compute: (stream, spec) => ({ kind: 'coin', heads: Array.from({ length: spec.flips }, () => uniformIndex(stream, 2) === 1) }),
 * })
 * ```
 * @category Draw kinds
 */
export interface KindDeclaration<N extends string, D extends v.ObjectEntries, O extends v.ObjectEntries, R> {
  /** The value of `draw.kind` and `outcome.kind`. */
  readonly name: N
  /** What the draw takes as participants (default `'entries'`): see {@link DrawKind.participants}. */
  readonly participants?: 'none' | 'entries' | 'weighted'
  /** The spec's fields besides `kind`: its type, its JSON Schema and its parser. */
  readonly draw: D
  /**
   * The order in which `parse` checks the spec's fields, when the protocol's order is not their
   * declared order (the fields not named follow, in their declared order); an unknown field's hint
   * still lists them as declared.
   */
  readonly parseOrder?: readonly (keyof D & string)[]
  /** The proof outcome's fields besides `kind`. */
  readonly outcome: O
  /** Computes the outcome from a fresh stream of the seed (see {@link DrawKind.compute}). */
  compute(stream: RandomStream, spec: Declared<N, D>, input: DrawInput): R
  /** The outcome's proof form, `entry(i)` naming committed entry `i` (default: the outcome as computed). */
  toJson?(outcome: R, entry: (index: number) => string): Declared<N, O>
  /** Present when a winners-only (private) proof is possible: see {@link DrawKind.winnersOnly}. */
  readonly winnersOnly?: DrawKind<Declared<N, D>, R & OutcomeBase, Declared<N, O>>['winnersOnly']
  /** What the fields cannot say. */
  readonly rules?: KindRules<Declared<N, D>, Declared<N, O>>
  /** How it is told and shown. */
  readonly view?: KindView<Declared<N, D>, Declared<N, O>>
  /** What `orbitdraw commit` needs; a kind without it is usable from the library only. */
  readonly cli?: KindCli<Declared<N, D>>
}

/** The IPLD form of a declared value: bigints as decimal strings, `undefined` fields dropped. */
function toIpld(x: unknown): unknown {
  if (typeof x === 'bigint') return x.toString()
  if (Array.isArray(x)) return x.map(toIpld)
  if (x !== null && typeof x === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, value] of Object.entries(x)) if (value !== undefined) out[k] = toIpld(value)
    return out
  }
  return x
}

/** The first difference of two JSON values, by path (`.winners[2].entry`), or undefined. */
function firstDifference(e: unknown, c: unknown, path: string): string | undefined {
  if (Array.isArray(e) && Array.isArray(c)) {
    if (e.length !== c.length) return `${path} has ${e.length} item(s), the proof claims ${c.length}`
    for (let i = 0; i < e.length; i++) {
      const d = firstDifference(e[i], c[i], `${path}[${i}]`)
      if (d !== undefined) return d
    }
    return undefined
  }
  if (e !== null && c !== null && typeof e === 'object' && typeof c === 'object' && !Array.isArray(e) && !Array.isArray(c)) {
    for (const k of new Set([...Object.keys(e), ...Object.keys(c)])) {
      const d = firstDifference((e as JsonObject)[k], (c as JsonObject)[k], `${path}.${k}`)
      if (d !== undefined) return d
    }
    return undefined
  }
  return Object.is(e, c) ? undefined : `${path} is ${show(e)}, the proof claims ${show(c)}`
}

/** `make()`, called once, the first time the returned function is. */
function once<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined
  return () => (made ??= { value: make() }).value
}

/** A parsed object with `kind` first, set to the kind's name. */
function withKind(name: string, parsed: unknown): object {
  return Object.assign({ kind: name }, parsed, { kind: name })
}

/** Specs made by a kind's parser (their fields were checked on the way in) or by a kind's own builder. */
const parsedSpecs = new WeakSet<object>()

/**
 * @internal Records a spec that a kind's own builder (`panelDraw`) just made from values it checked
 * (a pool, its quotas, the plan it chose) as having its declared fields: `validate` then skips the
 * fields' parse (in a fresh process, its first run over the 1,000+ committed types of a `panel` spec
 * costs 10–20 ms) and runs the kind's rules, which check every field again. A spec is immutable data:
 * the same object is the key of the plans (`panel.ts`) and of the specs parsed or checked before.
 */
export function builtSpec(spec: object): void {
  parsedSpecs.add(spec)
}

/**
 * Makes the {@link DrawKind} the registry holds from a kind's declaration: the spec's and the
 * outcome's declared shapes (`kind` plus the fields), their parsers (strict: unknown fields first,
 * then each field in declaration order; `ParseError` / `LimitExceededError` with the field's path),
 * the encoder (the declared fields, bigints as decimal strings), `validate` (a typed spec's fields,
 * then `rules.validate`), and the defaults of the facets.
 *
 * @throws {@link InvalidInputError} `INVALID_DRAW_KIND` when `draw` or `outcome` is not an object of fields.
 * @category Draw kinds
 */
export function defineKind<N extends string, D extends v.ObjectEntries, O extends v.ObjectEntries, R extends OutcomeBase = Declared<N, O>>(decl: KindDeclaration<N, D, O, R>): DrawKind<Declared<N, D>, R, Declared<N, O>> {
  type S = Declared<N, D>
  type J = Declared<N, O>
  const { name, rules = {}, view = {} } = decl
  for (const part of ['draw', 'outcome'] as const) {
    const fields: unknown = decl[part]
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields) || 'kind' in fields) {
      throw new InvalidInputError('INVALID_DRAW_KIND', `kind ${show(name)}: ${part} must be an object of fields (without kind, which is added)`, 'declare e.g. draw: { count: integer(1) }', { path: `$.kinds.${part}` })
    }
  }
  // The shapes and parsers are built the first time they are used (a strict `verify` of a proof
  // uses one kind's: docs/performance.md, Start-up), not when the registry loads.
  const shapes = once(() => {
    const drawShape = option({ kind: v.literal(name), ...decl.draw }) as unknown as KindShape<N, D>
    const outcomeShape = option({ kind: v.literal(name), ...decl.outcome }) as unknown as KindShape<N, O>
    // The registry calls a kind's parsers for a `kind` it already matched to this kind's name.
    const matched = v.optional(v.unknown())
    const order = [...new Set([...(decl.parseOrder ?? []), ...Object.keys(decl.draw)])]
    const drawParser = strictObject(Object.fromEntries([['kind', matched], ...order.map((k) => [k, drawShape.entries[k]!])]) as typeof drawShape.entries, Object.keys(drawShape.entries))
    const outcomeParser = strictObject({ ...outcomeShape.entries, kind: matched })
    return { drawShape, outcomeShape, drawParser, outcomeParser }
  })
  const drawKeys = ['kind', ...Object.keys(decl.draw)]
  const parse = (draw: JsonObject, path: string): S => {
    const spec = withKind(name, parseShape(shapes().drawParser, draw, path)) as S
    parsedSpecs.add(spec)
    return spec
  }
  const encode = rules.encode ?? ((spec: S) => toIpld(Object.fromEntries(drawKeys.map((k) => [k, (spec as JsonObject)[k]]))) as { readonly [key: string]: unknown })
  /** The first problem of a typed spec's fields, as the `INVALID_DRAW` error at the bad field. */
  const fieldsProblem = (spec: S, path: string): InvalidInputError | undefined => {
    if (parsedSpecs.has(spec)) return undefined
    try {
      parseShape(shapes().drawParser, toIpld(Object.fromEntries(drawKeys.map((k) => [k, (spec as JsonObject)[k]]))), path)
      parsedSpecs.add(spec)
      return undefined
    } catch (err) {
      if (!(err instanceof OrbitdrawError)) throw err
      return new InvalidInputError('INVALID_DRAW', err.detail, err.hint, { path: err.path ?? path, cause: err })
    }
  }
  return {
    name: name as S['kind'],
    participants: decl.participants ?? 'entries',
    get drawShape() {
      return shapes().drawShape
    },
    get outcomeShape() {
      return shapes().outcomeShape
    },
    ...(decl.winnersOnly === undefined ? {} : { winnersOnly: decl.winnersOnly }),
    validate(spec, n, path) {
      const problem = fieldsProblem(spec, path)
      if (problem === undefined) return rules.validate?.(spec, n, path)
      // A rule that words this spec's fault in its own terms is reported first (the built-in kinds
      // word a bad count or bound so); a rule that fails otherwise on mistyped fields is not.
      try {
        rules.validate?.(spec, n, path)
      } catch (err) {
        if (err instanceof OrbitdrawError) throw err
      }
      throw problem
    },
    parse,
    encode,
    compute: (stream, spec, input) => decl.compute(stream, spec, input),
    toJson: decl.toJson ?? ((o) => o as unknown as J),
    parseOutcome: (o, path) => withKind(name, parseShape(shapes().outcomeParser, o, path)) as J,
    compare: rules.compare ?? ((e, c) => firstDifference(e, c, 'outcome')),
    describeOutcome: view.describeOutcome ?? (() => `the ${name} outcome follows from the seed`),
    describe: view.describe ?? (() => name),
    display: view.display ?? ((o) => ({ layout: 'values', title: name, values: Object.entries(o).filter(([k]) => k !== 'kind').map(([k, x]) => `${k}: ${show(x)}`) })),
    ...(rules.validateCommit === undefined ? {} : { validateCommit: rules.validateCommit }),
    ...(rules.checkEntries === undefined ? {} : { checkEntries: rules.checkEntries }),
    ...(rules.carried === undefined ? {} : { carried: rules.carried }),
    ...(rules.outcomeBytesFloor === undefined ? {} : { outcomeBytesFloor: rules.outcomeBytesFloor }),
    ...(rules.claimChecks === undefined ? {} : { claimChecks: rules.claimChecks }),
    ...(rules.claimCheckNames === undefined ? {} : { claimCheckNames: rules.claimCheckNames }),
    ...(decl.cli === undefined ? {} : { cli: decl.cli }),
  }
}
