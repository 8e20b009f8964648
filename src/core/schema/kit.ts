/**
 * The one validation kit for orbitdraw's wire formats. Every shape (proof, commitment, receipt,
 * commitment file, beacon block) is declared once, with these helpers, as a
 * [valibot](https://valibot.dev) schema; the TypeScript types are inferred from it, the parsers run
 * it, and `npm run schema` turns it into the published JSON Schemas (docs/*.schema.json).
 *
 * Why valibot: its validators are plain functions (no `new Function`, no `eval`), so the verifier
 * page keeps its strict Content-Security-Policy; it is modular, so the page carries only the few
 * validators used (about 3 KB gzip, against about 25 KB for TypeBox's `Value` and 8 KB for zod
 * mini, measured on the same shapes); its issues carry the path of the bad value, which maps onto
 * the project's `OrbitdrawError` codes and JSON paths; and `@valibot/to-json-schema` (a dev
 * dependency only) derives draft 2020-12 JSON Schema from the same declarations.
 *
 * What a schema cannot say stays hand-written beside it: duplicate keys, sizes checked before
 * decoding, strict UTF-8, canonical DAG-JSON, bigint-safe integers, hash-first block checks, and
 * rules that relate two fields.
 *
 * @module
 */
import * as v from 'valibot'
import type { ParseErrorCode } from '../error-codes.js'
import { InvalidInputError, LimitExceededError, ParseError } from '../errors.js'
import { describe } from '../json.js'

/**
 * Any valibot schema the kit builds (input and output unknown to the caller).
 * @category Formats
 */
export type Shape = v.GenericSchema

const SEP = '\u0000'

/**
 * The codes a declared shape's messages carry: a {@link ParseError}'s, or `LIMIT_EXCEEDED`.
 * @category Draw kinds
 */
export type ShapeErrorCode = ParseErrorCode | 'LIMIT_EXCEEDED'

/**
 * A valibot message function: encodes the code, detail and hint of the error a failed check becomes.
 * @category Formats
 */
export type ShapeMessage = (issue: v.BaseIssue<unknown>) => string

/**
 * Encodes an error (code, detail, hint, and what to add to the issue's path) as a valibot message;
 * {@link parseShape} decodes it.
 */
function encode(code: ShapeErrorCode | typeof BRANCH, detail: string, hint = '', pathSuffix = ''): string {
  return `${code}${SEP}${detail}${SEP}${hint}${SEP}${pathSuffix}`
}

/**
 * How a runtime piece is published when it is not itself: {@link anyObject} passes the object on
 * as it is (a valibot object would copy it), the large-array pieces validate their items in one
 * tight loop (a valibot `v.array` spends a dataset object per item) or leave them to a later check;
 * each records here the declared shape the published JSON Schema describes.
 * `scripts/json-schemas.ts` reads it through {@link publishedForm}.
 */
const PUBLISHED = new WeakMap<object, Shape>()

/** The declared shape a runtime piece is published as (JSON Schema generation only), if it differs. */
export function publishedForm(schema: object): Shape | undefined {
  return PUBLISHED.get(schema)
}

/**
 * Publishes `piece` as `declared` (a piece that runs otherwise than its JSON form says, e.g. a
 * decimal string parsed to a bigint): returns `piece`.
 */
export function publishedAs<S extends Shape>(piece: S, declared: Shape): S {
  PUBLISHED.set(piece, declared)
  return piece
}

/**
 * `piece` (any shape, a pipe too), published as `declared`: for a field that is parsed more
 * loosely than it is published, so that a value the rules refuse in their own words (a size over
 * its limit, an index out of range) is theirs to word. A no-op last step carries the declared form
 * (a pipe is published from its last schema on).
 */
export function declaredAs<S extends Shape>(piece: S, declared: Shape) {
  return v.pipe(piece, publishedAs(v.custom<v.InferOutput<S>>(() => true), declared))
}

/** Code of a guard that only picks a union branch (never reported itself). */
const BRANCH = 'BRANCH' as const

/**
 * A valibot message: `expected <what>, got <the value, described briefly>`, with `code` (default
 * `INVALID_FIELD`) and an optional hint (default: "fix the field at <path>").
 */
export function expected(what: string, code: ShapeErrorCode = 'INVALID_FIELD', hint?: string): (issue: v.BaseIssue<unknown>) => string {
  return (issue) => encode(code, `expected ${what}, got ${describe(issue.input)}`, hint)
}

/** A valibot message with a fixed code and a detail computed from the bad value. */
export function message(code: ShapeErrorCode, detail: (input: unknown) => string, hint = ''): (issue: v.BaseIssue<unknown>) => string {
  return (issue) => encode(code, detail(issue.input), hint)
}

/** A string. */
export function text(what = 'a string'): v.StringSchema<(issue: v.BaseIssue<unknown>) => string> {
  return v.string(expected(what))
}

/** A string matching `re`; both a non-string and a mismatch are "expected <what>" (code `code`). */
export function pattern(re: RegExp, what: string, code: ShapeErrorCode = 'INVALID_FIELD', hint?: string) {
  const m = expected(what, code, hint)
  return v.pipe(v.string(m), v.regex(re, m))
}

/** A safe integer from `min` to `max` (JSON Schema: `integer` with bounds). */
export function integer(min = 0, max = Number.MAX_SAFE_INTEGER) {
  const m = expected(`an integer from ${min} to ${max}`)
  return v.pipe(v.number(m), v.integer(m), v.minValue(min, m), v.maxValue(max, m))
}

/** A boolean. */
export function boolean() {
  return v.boolean(expected('a boolean'))
}

function isJsonObject(x: unknown): boolean {
  return typeof x === 'object' && x !== null && !Array.isArray(x)
}

/**
 * A plain object (not null, not an array), whatever its keys, passed on as it is: the draw kind's
 * parser after it (a commitment's `draw`, a proof's `outcome`) or the commitment's own checks see
 * every key (a valibot object's copy would drop `__proto__`, `constructor` and `prototype`).
 * Published as an object schema.
 */
export function anyObject() {
  const object = v.custom<{ [key: string]: unknown }, ShapeMessage>(isJsonObject, expected('an object'))
  PUBLISHED.set(object, v.looseObject({}))
  return object
}

function objectMessage(keys: readonly string[], strict: boolean): (issue: v.BaseIssue<unknown>) => string {
  return (issue) => {
    if (strict && issue.expected === 'never') return unknownField(String(issue.input), keys)
    return encode('INVALID_FIELD', `expected an object, got ${describe(issue.input)}`)
  }
}

function unknownField(key: string, allowed: readonly string[]): string {
  return encode('UNKNOWN_FIELD', `unknown field ${JSON.stringify(key)}`, `remove it; allowed fields here are: ${allowed.join(', ')}`, `.${key}`)
}

function firstUnknown(input: unknown, allowed: readonly string[]): string | undefined {
  return Object.keys(input as object).find((k) => !allowed.includes(k))
}

/**
 * Refuses unknown fields *before* the fields are checked (the protocol's order: docs/spec.md), and
 * without looking further (the strict object after it would report them only after every field).
 */
function onlyKeys(allowed: (input: unknown) => readonly string[] | undefined) {
  return v.check<unknown, ShapeMessage>(
    (input) => {
      const keys = allowed(input)
      return keys === undefined || firstUnknown(input, keys) === undefined
    },
    (issue) => unknownField(firstUnknown(issue.input, allowed(issue.input)!)!, allowed(issue.input)!),
  )
}

/**
 * The object's own fields among `keys`, in a new object: a field is present only as an own property
 * (as `hasOwnProperty` says; valibot's objects would read one inherited from a JavaScript caller's
 * prototype), so an inherited field is `MISSING_FIELD` in its place. `undefined`: the object as
 * it is (a variant with a loose option). Published as nothing.
 */
function ownFields(keys: readonly string[] | undefined) {
  return v.transform<unknown, unknown>((input) => {
    if (keys === undefined) return input
    const o = input as Record<string, unknown>
    const own: Record<string, unknown> = {}
    for (const k of keys) if (Object.prototype.hasOwnProperty.call(o, k)) own[k] = o[k]
    return own
  })
}

/**
 * An object with exactly these fields (unknown fields refused first, `UNKNOWN_FIELD`; own fields
 * only), checked in the order of `entries`. `allowed`: the fields as an unknown field's hint lists
 * them, when that is not their order of checking (default: the keys of `entries`).
 */
export function strictObject<E extends v.ObjectEntries>(entries: E, allowed: readonly string[] = Object.keys(entries)) {
  const keys = Object.keys(entries)
  return v.pipe(v.unknown(), v.check(isJsonObject, expected('an object')), onlyKeys(() => allowed), ownFields(keys), v.strictObject(entries, objectMessage(allowed, true)))
}

/** The bare strict object (for the options of {@link variant}, whose input is already checked). */
export function option<E extends v.ObjectEntries>(entries: E): v.StrictObjectSchema<E, (issue: v.BaseIssue<unknown>) => string> {
  return v.strictObject(entries, objectMessage(Object.keys(entries), true))
}

/**
 * An object in which each of `keys` is an own field (`MISSING_FIELD` at the first absent one, in
 * order), whatever their values and whatever other fields it has: a document's head, read before its
 * shape (its `type` and `version`, judged on their own). Parse with it for the check only; the value
 * it gives has only these fields.
 */
export function requiredFields(...keys: string[]) {
  return v.pipe(v.unknown(), v.check(isJsonObject, expected('an object')), ownFields(keys), v.looseObject(Object.fromEntries(keys.map((k) => [k, v.unknown()]))))
}

/** An object with these fields; other fields are tolerated (beacon blocks: the publisher may add some). */
export function looseObject<E extends v.ObjectEntries>(entries: E, notAnObject?: (input: unknown) => string | undefined) {
  const m = (issue: v.BaseIssue<unknown>): string => notAnObject?.(issue.input) ?? encode('INVALID_FIELD', `expected an object, got ${describe(issue.input)}`)
  return v.pipe(v.unknown(), v.check(isJsonObject, m), v.looseObject(entries, m))
}

/**
 * One of several object shapes told apart by the string field `key` (a discriminated union). An
 * absent `key` is `MISSING_FIELD`; another value is `INVALID_FIELD` with `unknown(value)` as detail.
 */
export function variant<K extends string, O extends v.VariantOptions<K>>(key: K, options: O, unknown: (value: unknown) => string, hint: string) {
  // The option the discriminator picks refuses unknown fields before its fields are checked.
  const allowed = (input: unknown): readonly string[] | undefined => {
    const value = (input as Record<string, unknown>)[key]
    const picked = (options as unknown as readonly { type: string; entries: Record<string, v.GenericSchema> }[]).find((o) => {
      const d = o.entries[key]
      return d !== undefined && 'literal' in d && d.literal === value
    })
    // A loose option (a user draw kind without a declared shape) tolerates other fields.
    return picked === undefined || picked.type !== 'strict_object' ? undefined : Object.keys(picked.entries)
  }
  // Strict options only: own fields of every option (a loose option keeps its other fields).
  const all = options as unknown as readonly { type: string; entries: Record<string, v.GenericSchema> }[]
  const own = all.every((o) => o.type === 'strict_object') ? [...new Set(all.flatMap((o) => Object.keys(o.entries)))] : undefined
  return v.pipe(v.unknown(), v.check(isJsonObject, expected('an object')), onlyKeys(allowed), ownFields(own), v.variant(key, options, message('INVALID_FIELD', unknown, hint)))
}

/** The error of an array with a hole or an `undefined` item, at the first one (`indexOf` skips holes). */
function holes(a: readonly unknown[]): string {
  let i = 0
  while (i < a.length && i in a && a[i] !== undefined) i++
  return encode('INVALID_FIELD', `expected an array without holes or undefined items, got an array with a missing item at index ${i}`)
}

/**
 * An array of `item`, at most `max` items (over it: `LIMIT_EXCEEDED`, checked before any item),
 * without holes or `undefined` items (a JavaScript caller's sparse array).
 */
export function list<T extends Shape>(item: T, max?: number) {
  // Array.isArray, not v.array(v.unknown()), which would copy every item before the limit is checked.
  const isArray = v.custom<unknown[], ShapeMessage>(Array.isArray, expected('an array'))
  const noHoles = v.check<unknown[], ShapeMessage>(
    (a) => !a.includes(undefined),
    (issue) => holes(issue.input as unknown[]),
  )
  const items = v.array(item)
  if (max === undefined) return v.pipe(isArray, noHoles, items)
  const tooLong = <I extends unknown[]>() =>
    v.maxLength<I, number, ShapeMessage>(max, (issue) =>
      encode('LIMIT_EXCEEDED', `expected an array of at most ${max} items, got ${(issue.input as unknown[]).length}`, 'reduce the input below the documented limit (see docs/security.md)'),
    )
  // The limit is checked before the items; repeated after them only so that the published JSON
  // Schema, which describes a pipe from its last schema on, says `maxItems`.
  return v.pipe(isArray, tooLong<unknown[]>(), noHoles, items, tooLong<v.InferOutput<T>[]>())
}

/**
 * The head of a large array, checked in one step: an array (`INVALID_FIELD`), at most `max` items
 * (`LIMIT_EXCEEDED`, before any item is read), without holes or `undefined` items. Its items are
 * checked after it ({@link bulkList}) or later ({@link deferredItems}); it is published as `declared`.
 */
export function arrayHead(max: number, declared: Shape) {
  const head = v.custom<unknown[], ShapeMessage>(
    (a) => Array.isArray(a) && a.length <= max && !a.includes(undefined),
    (issue) => {
      const a = issue.input
      if (!Array.isArray(a)) return encode('INVALID_FIELD', `expected an array, got ${describe(a)}`)
      if (a.length > max) return encode('LIMIT_EXCEEDED', `expected an array of at most ${max} items, got ${a.length}`, 'reduce the input below the documented limit (see docs/security.md)')
      return holes(a)
    },
  )
  PUBLISHED.set(head, declared)
  return head
}

/**
 * The fast path of a bulk item check: `accept(x)` is true only for items `item` accepts, and
 * `copy(x)` is then what `item` would output (a new object for an object item).
 */
export interface FastItem<O> {
  readonly accept: (x: unknown) => boolean
  readonly copy?: (x: unknown) => O
}

/**
 * Checks every item of `a` against `item` in one loop: an item `fast.accept`s is copied as is
 * (`fast.copy`); the first other item is run through `item` itself, so its issue (code, detail,
 * path below the item) is exactly the declared shape's. Returns the checked copy, or undefined
 * after adding the issue to `dataset`.
 */
function checkItems<T extends Shape>(a: readonly unknown[], item: T, fast: FastItem<v.InferOutput<T>>, dataset: v.OutputDataset<unknown, v.BaseIssue<unknown>>, key?: string): v.InferOutput<T>[] | undefined {
  const out = new Array<v.InferOutput<T>>(a.length)
  const { accept, copy } = fast
  for (let i = 0; i < a.length; i++) {
    const x = a[i]
    if (accept(x)) {
      out[i] = copy === undefined ? (x as v.InferOutput<T>) : copy(x)
      continue
    }
    const r = v.safeParse(item, x, FIRST)
    if (r.success) {
      out[i] = r.output
      continue
    }
    // The item's own issue, with the array item (and the array's field, for a deferred check) in front of its path.
    const at: v.IssuePathItem = { type: 'array', origin: 'value', input: a as unknown[], key: i, value: x }
    const field: v.IssuePathItem[] = key === undefined ? [] : [{ type: 'object', origin: 'value', input: dataset.value as Record<string, unknown>, key, value: a }]
    const issue = r.issues[0]
    const moved = { ...issue, path: [...field, at, ...(issue.path ?? [])] } as v.BaseIssue<unknown>
    ;(dataset as { issues?: v.BaseIssue<unknown>[]; typed: boolean }).issues = [moved]
    dataset.typed = false
    return undefined
  }
  return out
}

/**
 * A large array of `item` (the proof's participants and salts), at most `max` items, checked in one
 * tight loop with the same result and the same first issue as {@link list}; published as `declared`
 * (default `list(item, max)`).
 */
export function bulkList<T extends Shape>(item: T, max: number, fast: FastItem<v.InferOutput<T>>, declared: Shape = list(item, max)) {
  return v.pipe(
    arrayHead(max, declared),
    v.rawTransform<unknown[], v.InferOutput<T>[]>(({ dataset, NEVER }) => checkItems(dataset.value, item, fast, dataset as v.OutputDataset<unknown, v.BaseIssue<unknown>>) ?? NEVER),
  )
}

/**
 * The item check of an object's array field `key` whose head was checked in its place
 * ({@link arrayHead}) and whose items the protocol checks after the object's later fields (the
 * proof's `entries`, after `salts`): `pick(array)` gives the item shape and its fast path. A pipe
 * action on the object (output type `O`: the object with the field's items checked); the published
 * schema says the items where the field is declared.
 */
export function deferredItems<I extends object, O>(key: string, pick: (a: readonly unknown[]) => { item: Shape; fast: FastItem<unknown> }) {
  return v.rawTransform<I, O>(({ dataset, NEVER }) => {
    const o = dataset.value as Record<string, unknown>
    const a = o[key] as readonly unknown[] | undefined
    if (a === undefined) return o as O
    const { item, fast } = pick(a)
    const items = checkItems(a, item, fast, dataset as v.OutputDataset<unknown, v.BaseIssue<unknown>>, key)
    return items === undefined ? NEVER : ({ ...o, [key]: items } as O)
  })
}

/** The protocol version field: a number, published as `const`. */
export function version(value: number) {
  return v.pipe(v.number(expected(String(value))), v.value(value, expected(String(value))))
}

/**
 * A union of array shapes in which `choose(array)` says which branch applies (for example "the
 * first item is an object"): only that branch's issues are reported. The choice is a parsing rule
 * only; the published JSON Schema says `anyOf`.
 */
export function arrayUnion<A, B>(first: v.GenericSchema<unknown[], A>, second: v.GenericSchema<unknown[], B>, useSecond: (a: readonly unknown[]) => boolean) {
  const guard = (want: boolean) => v.check<unknown[], (issue: v.BaseIssue<unknown>) => string>((a) => useSecond(a) === want, () => encode(BRANCH, ''))
  const isArray = () => v.custom<unknown[], ShapeMessage>(Array.isArray, expected('an array'))
  return v.union([v.pipe(isArray(), guard(false), first), v.pipe(isArray(), guard(true), second)], expected('an array'))
}

/**
 * Parsing stops at the first issue: valibot checks in declaration order, which is the protocol's
 * order, and the work and memory spent on a bad document stay those of its first fault.
 */
const FIRST = { abortEarly: true, abortPipeEarly: true } as const
/** Every issue, for a small document whose fields the protocol does not check in declaration order. */
const ALL = { abortEarly: false, abortPipeEarly: true } as const

type Key = string | number

function keysOf(issue: v.BaseIssue<unknown>): Key[] {
  return (issue.path ?? []).map((p) => p.key as Key)
}

function codeOf(issue: v.BaseIssue<unknown>): string {
  return issue.message.split(SEP, 1)[0]!
}

/**
 * A union's issues are those of the branch its guard chose (never the guards' own), with the
 * union's path in front; other issues are themselves.
 */
function flatten(issue: v.BaseIssue<unknown>): v.BaseIssue<unknown>[] {
  if (issue.type !== 'union' || issue.issues === undefined) return [issue]
  const inner = issue.issues.filter((i) => codeOf(i) !== BRANCH)
  if (inner.length === 0) return [issue]
  return inner.flatMap(flatten).map((i) => ({ ...i, path: [...(issue.path ?? []), ...(i.path ?? [])] as v.BaseIssue<unknown>['path'] }))
}

/**
 * The issue the protocol reports (docs/spec.md): the first, or with `rank` the first of the lowest
 * rank (a field the protocol checks later than its place in the declaration has a higher rank).
 */
function firstIssue(issues: readonly v.BaseIssue<unknown>[], rank: (keys: readonly Key[], code: string) => number): v.BaseIssue<unknown> {
  const flat = issues.flatMap(flatten)
  let first = flat[0]!
  let firstRank = rank(keysOf(first), codeOf(first))
  for (const issue of flat) {
    const r = rank(keysOf(issue), codeOf(issue))
    if (r < firstRank) {
      first = issue
      firstRank = r
    }
  }
  return first
}

/** The JSON path of an issue: `.key` for object fields, `[i]` for array items. */
function pathOf(root: string, keys: readonly Key[]): string {
  return root + keys.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('')
}

/**
 * Turns an issue into the project's error: `MISSING_FIELD` for an absent field, else the code its
 * message carries (`INVALID_DRAW`, a draw kind's rule on a raw field, as an {@link InvalidInputError}).
 */
function toError(issue: v.BaseIssue<unknown>, root: string): ParseError | LimitExceededError | InvalidInputError {
  const keys = keysOf(issue)
  const path = pathOf(root, keys)
  const last = issue.path?.at(-1)
  if (last !== undefined && typeof last.key === 'string' && issue.expected !== 'never' && isJsonObject(last.input) && !Object.prototype.hasOwnProperty.call(last.input, last.key)) {
    return new ParseError('MISSING_FIELD', `missing required field "${last.key}"`, `add the field "${last.key}"`, { path })
  }
  const parts = issue.message.split(SEP)
  if (parts.length !== 4) return new ParseError('INVALID_FIELD', `expected ${issue.expected ?? 'another value'}, got ${describe(issue.input)}`, `fix the field at ${path}`, { path })
  // The message was written by encode(), whose code is typed: the first part is a ShapeErrorCode.
  const [code, detail, hint, suffix] = parts as [ShapeErrorCode, string, string, string]
  const options = { path: path + suffix }
  const fix = hint === '' ? `fix the field at ${path + suffix}` : hint
  if (code === 'INVALID_DRAW') return new InvalidInputError(code, detail, fix, options)
  return code === 'LIMIT_EXCEEDED' ? new LimitExceededError(code, detail, fix, options) : new ParseError(code, detail, fix, options)
}

/**
 * Validates untrusted JSON against a shape. Returns the value with only the declared fields (a new
 * object; the input is not changed).
 *
 * @param root - the JSON path of `value` in its document (`$`, or `$.commitment`...).
 * @param rank - for a shape whose fields the protocol does not check in declaration order: the
 *   rank of an issue, from its field's path and its code (an issue of higher rank is reported
 *   after those of lower rank). With it every issue is collected, so use it for small documents only
 *   (the commitment, at most 1 MiB); without it parsing stops at the first issue.
 * @throws {@link ParseError} with the code and the JSON path of the first bad field, in the order the
 *   protocol checks them (docs/spec.md); {@link LimitExceededError} `LIMIT_EXCEEDED` for an array
 *   over its documented limit; {@link InvalidInputError} `INVALID_DRAW` where a draw kind's field says so.
 * @example
 * ```ts
 * const receipt = parseShape(ReceiptShape, JSON.parse(text))
 * ```
 * @category Formats
 */
export function parseShape<S extends Shape>(shape: S, value: unknown, root = '$', rank?: (keys: readonly (string | number)[], code: string) => number): Infer<S> {
  const result = v.safeParse(shape, value, rank === undefined ? FIRST : ALL)
  if (result.success) return result.output as Infer<S>
  throw toError(firstIssue(result.issues, rank ?? (() => 0)), root)
}

/**
 * Makes every property and array of a type `readonly` (parsed documents are not changed).
 * @category Formats
 */
export type DeepReadonly<T> = T extends (infer I)[] ? readonly DeepReadonly<I>[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T

/**
 * The TypeScript type of what a shape accepts, read-only.
 * @category Formats
 */
export type Infer<S extends Shape> = DeepReadonly<v.InferOutput<S>>

/** Attaches a description (kept in the published JSON Schema). */
export function described<S extends Shape>(shape: S, description: string) {
  return v.pipe(shape, v.description(description))
}

