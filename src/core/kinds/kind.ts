/**
 * The draw-kind interface the registry holds and the registry type. A kind is declared once with
 * `defineKind` (./define.ts: its name, the valibot fields of its spec and outcome, how it draws, and
 * optional facets), which makes this form: its name, how its parameters are validated, encoded in
 * the commitment and parsed back, how it consumes the seed's stream, its outcome's JSON form in the
 * proof, how `verify` compares outcomes, and how the CLI and the verifier page show it. Everything
 * here is pure data and pure functions, so kinds live in the core and run in browsers. See
 * docs/draw-kinds.md.
 *
 * @module
 */
import type { CheckName, KindCheckName } from '../check-names.js'
import { InvalidInputError } from '../errors.js'
import type { JsonObject } from '../json.js'
import type { RandomStream } from '../random/stream.js'
import type { GenericSchema } from 'valibot'

/**
 * The part every draw spec has: its kind's name.
 * @category Draw kinds
 */
export interface DrawSpecBase {
  readonly kind: string
}

/**
 * The part every outcome (computed or as JSON in a proof) has: its kind's name.
 * @category Draw kinds
 */
export interface OutcomeBase {
  readonly kind: string
}

/**
 * A ranked row of an outcome in a proof: winner 1 first.
 * @category Draw kinds
 */
export interface RankedJson {
  /** 1 for the winner, 2 for the first alternate, … */
  readonly rank: number
  /** 0-based position in the committed list. */
  readonly index: number
  /** The entry. */
  readonly entry: string
}

/**
 * A list of values (a `range` draw's integers, a `dice` draw's faces).
 * @category Draw kinds
 */
export interface ValuesDisplay {
  readonly layout: 'values'
  readonly title: string
  readonly values: readonly string[]
  /** Optional: one line under the title (what the values mean, a caveat). */
  readonly note?: string
}

/**
 * A ranked table of committed entries: rank, entry, position in the list.
 * @category Draw kinds
 */
export interface RankedDisplay {
  readonly layout: 'ranked'
  readonly title: string
  readonly rows: readonly RankedJson[]
  /** Optional: one line under the title. */
  readonly note?: string
}

/**
 * A table cell: its text, or its text with an emphasis. `'ok'` marks a satisfied condition (a quota
 * met), `'bad'` an unsatisfied one; the CLI prints `✓`/`✗` after the text and the page colours the
 * cell and adds the same mark, so the meaning never rests on colour alone.
 * @category Draw kinds
 */
export type TableCell = string | { readonly text: string; readonly tone: 'ok' | 'bad' }

/**
 * A table column: its header and how its cells align (`'right'` for numbers; default `'left'`).
 * @category Draw kinds
 */
export interface TableColumn {
  readonly label: string
  readonly align?: 'left' | 'right'
}

/**
 * A plain table: column headers and rows of text cells (each row has one cell per column).
 * @category Draw kinds
 */
export interface TableDisplay {
  readonly layout: 'table'
  readonly title: string
  readonly columns: readonly TableColumn[]
  readonly rows: readonly (readonly TableCell[])[]
  /** Optional: one line under the title. */
  readonly note?: string
}

/**
 * One titled part of a {@link SectionsDisplay}.
 * @category Draw kinds
 */
export type DisplaySection = ValuesDisplay | RankedDisplay | TableDisplay

/**
 * Several titled sections under one title, e.g. a panel's members, its quota table and its
 * alternates. The page's "was I in the draw?" search takes a matching entry's rank from the first
 * ranked section.
 * @category Draw kinds
 */
export interface SectionsDisplay {
  readonly layout: 'sections'
  readonly title: string
  readonly sections: readonly DisplaySection[]
}

/**
 * How an outcome is shown, as plain text: a list of values, a ranked table of entries, a plain
 * table, or several titled sections of those. The CLI escapes every cell before printing it (and
 * aligns table columns) and the page inserts every cell as DOM text, so a kind never produces markup
 * or terminal codes.
 *
 * @example
 * ```ts
 * display: (o) => ({
 *   layout: 'sections',
 *   title: 'Panel',
 *   sections: [
 *     { layout: 'ranked', title: 'Members', rows: o.members },
 *     { layout: 'table', title: 'Quotas', columns: [{ label: 'Feature' }, { label: 'Selected', align: 'right' }, { label: 'OK' }],
 *       rows: [['gender', '20', { text: 'yes', tone: 'ok' }]] },
 *   ],
 * })
 * ```
 * @category Draw kinds
 */
export type OutcomeDisplay = DisplaySection | SectionsDisplay

/**
 * A named check a kind adds to `verify`'s result (see {@link DrawKind.claimChecks}).
 * @category Draw kinds
 */
export interface NamedCheck {
  /**
   * Stable check name, unique in a result: a built-in kind's is listed in `CHECK_NAMES`; a kind of
   * your own names its checks `x-…` ({@link KindCheckName}).
   */
  readonly name: CheckName | KindCheckName
  /** Whether it passed. */
  readonly ok: boolean
  /** What was checked, or what was wrong. */
  readonly detail: string
}

/**
 * What a kind's `compute` gets besides the stream and its spec.
 * @category Draw kinds
 */
export interface DrawInput {
  /** Number of committed participants (0 for a kind without participants). */
  readonly count: number
  /** The participants' weights in committed order (kinds with `participants: 'weighted'` only). */
  readonly weights?: readonly number[]
}

/**
 * The command-line flags handed to a kind: flag name (without `--`) to its string or boolean value.
 * @category Draw kinds
 */
export type KindFlags = { readonly [flag: string]: string | boolean | undefined }

/**
 * What `orbitdraw commit` needs from a kind.
 * @category Draw kinds
 */
export interface KindCli<S extends DrawSpecBase> {
  /** The flag that selects this kind (`pick` for `--pick K`). Unique among the registered kinds. */
  readonly flag: string
  /** Every flag this kind reads, the selecting one first, with its type. Names are unique across kinds. */
  readonly options: { readonly [flag: string]: 'string' | 'boolean' }
  /** Its usage, e.g. `--range MIN..MAX --count M [--distinct]`. */
  readonly usage: string
  /** Its lines in `commit --help` (already indented to the help's columns). */
  readonly help: string
  /**
   * Builds the spec from the flags (only this kind's flags are set).
   * @throws {@link InvalidInputError} `INVALID_FLAG` whose detail the CLI prints as a usage error.
   */
  fromFlags(flags: KindFlags): S
  /**
   * Optional: the flags that name input files, with their format. The CLI reads and parses each
   * given file (`sortition-pool`, `sortition-quotas`: src/sortition/csv.ts; `sortition-lottery`: a
   * portfolio CSV) and passes the results to {@link KindCli.build}.
   */
  readonly files?: { readonly [flag: string]: KindFileFormat }
  /**
   * Optional, for a kind that makes its spec (and maybe its participants list) from its own inputs (the
   * sortition pool, a followed proof): the spec and the participants from the flags and the parsed files,
   * in place of `fromFlags` (and of `--participants`, when it returns participants). `orbitdraw commit`
   * writes built participants next to the commitment and prints the draw command that reads them;
   * without them it reads `--participants` as for any draw, by the built spec's kind.
   * @throws {@link InvalidInputError} (a usage error for `INVALID_FLAG`, otherwise printed with its hint).
   */
  build?(flags: KindFlags, files: KindFiles): { readonly draw: S; readonly participants?: readonly string[] }
}

/**
 * The input file formats the CLI can read for a kind (see {@link KindCli.files}).
 * @category Draw kinds
 */
export type KindFileFormat = 'sortition-pool' | 'sortition-quotas' | 'sortition-lottery' | 'proof-json' | 'text-lines' | 'allocation-stages'

/**
 * Parsed input files handed to {@link KindCli.build}, by flag name: a `SortitionPool`, `QuotaRow[]`,
 * or `{ panels: string[][], weights: number[] }` after their format.
 * @category Draw kinds
 */
export type KindFiles = { readonly [flag: string]: unknown }

/**
 * A draw kind as the registry holds it: `S` its spec (what the commitment's `draw` object says), `R`
 * its computed outcome, `J` its outcome's JSON form in a proof. Made by `defineKind` from a kind's
 * declaration (write a `KindDeclaration`, not this). Declared with method syntax, so a
 * `DrawKind<PickSpec, …>` is an {@link AnyDrawKind}.
 *
 * @example
 * ```ts
 * const coinKind = defineKind({ name: 'coin', participants: 'none', draw: { flips: integer(1, 64) }, outcome: { heads: list(boolean(), 64) }, compute })
 * const kinds = withKinds([coinKind])          // the built-in kinds plus coin
 * commit({ …, draw: { kind: 'coin', flips: 3 }, kinds })
 * ```
 * @category Draw kinds
 */
export interface DrawKind<S extends DrawSpecBase, R extends OutcomeBase, J extends OutcomeBase> {
  /** The value of `draw.kind` and `outcome.kind`. */
  readonly name: S['kind']
  /**
   * What the draw takes as participants: `'none'` (no list: the commitment has no `participants`),
   * `'entries'` (strings) or `'weighted'` (`{ entry, weight }`).
   */
  readonly participants: 'none' | 'entries' | 'weighted'
  /**
   * Present when a winners-only (private) proof is possible: the outcome is ranked winners, and the
   * proof reveals `count(spec)` entries, `winners(outcome)` in rank order.
   */
  readonly winnersOnly?: {
    count(spec: S): number
    winners(outcome: R): readonly number[]
    /**
     * True when the number of winners depends on the draw and `count(spec)` is only its most (the
     * `panel` kind's alternates): a proof may then reveal fewer, and `revealed-winners` compares them
     * with the recomputed winners. The recomputation must stay bounded by `validate`'s limits.
     */
    readonly upTo?: boolean
    /**
     * With `upTo`: the fewest winners the spec can draw, whatever the seed (default 0). A proof revealing
     * fewer is refused before recomputing, so that a claimed size the proof does not carry costs no work.
     */
    fewest?(spec: S): number
  }
  /**
   * Optional: the fewest bytes the kind's outcome for `spec` takes in a serialized proof of `count`
   * entries whose texts take at least `entryBytes` bytes (`shuffle` ranks every entry; `pick` lists
   * `spec.count` winners). Added to the full disclosure's floor, it lets `commit` refuse a draw whose
   * proof would be over `LIMITS.maxProofBytes` (no verifier reads one). It must never be above the
   * real size.
   */
  outcomeBytesFloor?(spec: S, count: number, entryBytes: number): number
  /**
   * Optional: the first problem of committed entries against the spec (for example entries that must
   * spell out the type the spec gives their index), or undefined. `full` is true for the whole list in
   * committed order (commit, draw, a full disclosure), false for the revealed entries of a
   * winners-only proof. A problem refuses the commit (`INVALID_PARTICIPANTS`) and fails check
   * `participants` in `verify`.
   */
  checkEntries?(spec: S, rows: readonly { readonly index: number; readonly entry: string }[], full: boolean): string | undefined
  /**
   * Optional: checks made when committing only, after `validate`: rules whose breach `verify` reports
   * as a named check of its own (see {@link DrawKind.claimChecks}) rather than refusing to read the
   * commitment.
   * @throws {@link InvalidInputError} with a path under the given one.
   */
  validateCommit?(spec: S, participantCount: number, path: string): void
  /**
   * Optional: named checks of the claimed outcome that `verify` reports after `outcome` (each passed
   * or failed), with `expected` the outcome recomputed from the seed. Their names are listed by the
   * kind's module (for example `PANEL_CHECK_NAMES`) and unique across kinds.
   */
  claimChecks?(spec: S, claimed: J, expected: J): readonly NamedCheck[]
  /**
   * The names {@link DrawKind.claimChecks} returns, in order (required with it). `verify` reports each of
   * them whenever it reports `outcome`: when the outcome was not recomputed (or the claimed outcome is of
   * another kind) each fails with a detail starting "not checked:" and the reason, never dropped.
   */
  readonly claimCheckNames?: readonly string[]
  /**
   * Validates a typed spec against the number of participants (0 for `participants: 'none'`). The
   * `kind` field is already known to be this kind's name.
   * @throws {@link InvalidInputError} `INVALID_DRAW` with `path` under the given one.
   */
  validate(spec: S, participantCount: number, path: string): void
  /**
   * Parses the commitment's `draw` object (DAG-JSON data model, untrusted) into a spec by
   * {@link DrawKind.drawShape}: only its own keys (unknown ones first), each of the right type, in
   * declaration order. Limits are then checked by `validate`.
   * @throws {@link ParseError} with the path of the first bad field.
   */
  parse(draw: JsonObject, path: string): S
  /**
   * The declared shape (a valibot strict object with `kind` as a literal of `name`) of the
   * commitment's `draw`: the source of `S`, of {@link DrawKind.parse} and of the published JSON Schemas.
   */
  readonly drawShape: GenericSchema
  /** The spec's canonical IPLD form in the commitment (bigints as decimal strings), `kind` included. */
  encode(spec: S): { readonly [key: string]: unknown }
  /** Computes the outcome from a fresh stream of the seed. Work and memory must be bounded by `validate`'s limits. */
  compute(stream: RandomStream, spec: S, input: DrawInput): R
  /** The outcome's proof form; `entry(i)` names committed entry `i`. */
  toJson(outcome: R, entry: (index: number) => string): J
  /**
   * Parses a claimed outcome from a proof (untrusted) by {@link DrawKind.outcomeShape}: only its own keys.
   * @throws {@link ParseError} with the path of the first bad field.
   */
  parseOutcome(outcome: JsonObject, path: string): J
  /** The declared shape of the proof's `outcome` for this kind (as {@link DrawKind.drawShape}). */
  readonly outcomeShape: GenericSchema
  /**
   * Why the claimed outcome (`undefined` when it is of another kind) is not of the size the spec
   * draws, or undefined. `verify` refuses before recomputing, so its work stays bounded by the proof's
   * own size. For `participants: 'none'`; and for a kind whose winners-only proofs may reveal fewer
   * entries than the work (`preference-lottery`: its outcome ranks every application). Kinds with
   * participants are otherwise bounded by the carried list.
   */
  carried?(spec: S, claimed: J | undefined): string | undefined
  /** The first difference between the recomputed and the claimed outcome (check `outcome`), or undefined. */
  compare(expected: J, claimed: J): string | undefined
  /** The detail of a passed `outcome` check, e.g. "the winners "a", "b" follow from the seed". */
  describeOutcome(outcome: J): string
  /** The draw in words, e.g. "pick 3 of 120"; `participantCount` is undefined when unknown. */
  describe(spec: S, participantCount: number | undefined): string
  /** How the CLI and the page show the outcome. */
  display(outcome: J): OutcomeDisplay
  /** What `orbitdraw commit` needs; a kind without it is usable from the library only. */
  readonly cli?: KindCli<S>
}

/**
 * Any draw kind, as the registry holds it.
 * @category Draw kinds
 */
export type AnyDrawKind = DrawKind<DrawSpecBase, OutcomeBase, OutcomeBase>

/**
 * The spec type of a kind.
 * @category Draw kinds
 */
export type SpecOf<K> = K extends DrawKind<infer S, infer _R, infer _J> ? S : never
/**
 * The computed outcome type of a kind.
 * @category Draw kinds
 */
export type OutcomeOf<K> = K extends DrawKind<infer _S, infer R, infer _J> ? R : never
/**
 * The proof outcome type of a kind.
 * @category Draw kinds
 */
export type OutcomeJsonOf<K> = K extends DrawKind<infer _S, infer _R, infer J> ? J : never

/**
 * A set of draw kinds, looked up by name. Every core function that meets a draw spec or an outcome
 * takes one as its `kinds` option (default {@link DEFAULT_DRAW_KINDS}); make one with {@link withKinds}.
 * @category Draw kinds
 */
export interface DrawKinds {
  /** The kinds' names, in registration order. */
  readonly names: readonly string[]
  /** Every kind, in registration order. */
  readonly list: readonly AnyDrawKind[]
  /** The kind of that name, or undefined (any value may be asked: it comes from untrusted input). */
  get(name: unknown): AnyDrawKind | undefined
}

const KIND_NAME = /^[a-z][a-z0-9-]{0,31}$/

/**
 * Makes a registry from a list of kinds.
 * @throws {@link InvalidInputError} `INVALID_DRAW_KIND` for a kind without a valid name (lowercase
 *   letters, digits and `-`, at most 32, a letter first) or `participants` mode; `DUPLICATE_DRAW_KIND`
 *   when two kinds share a name.
 * @category Draw kinds
 */
export function drawKinds(list: readonly AnyDrawKind[]): DrawKinds {
  if (!Array.isArray(list)) throw new InvalidInputError('INVALID_DRAW_KIND', 'kinds must be an array of draw kinds', 'pass e.g. [myKind]', { path: '$.kinds' })
  const byName = new Map<string, AnyDrawKind>()
  list.forEach((k, i) => {
    const path = `$.kinds[${i}]`
    if (typeof k !== 'object' || k === null || typeof k.name !== 'string' || !KIND_NAME.test(k.name)) {
      throw new InvalidInputError('INVALID_DRAW_KIND', `kind ${i} has no valid name`, 'name it with lowercase letters, digits and -, at most 32 characters, a letter first', { path: `${path}.name` })
    }
    if (k.participants !== 'none' && k.participants !== 'entries' && k.participants !== 'weighted') {
      throw new InvalidInputError('INVALID_DRAW_KIND', `kind ${k.name}: participants must be "none", "entries" or "weighted"`, 'say what list the kind takes', { path: `${path}.participants` })
    }
    if (byName.has(k.name)) {
      throw new InvalidInputError('DUPLICATE_DRAW_KIND', `two draw kinds are named ${JSON.stringify(k.name)}`, 'a kind cannot replace a registered one (proofs of it would mean something else); give yours another name', { path: `${path}.name` })
    }
    byName.set(k.name, k)
  })
  const frozen = Object.freeze([...list])
  return Object.freeze({
    names: Object.freeze(frozen.map((k) => k.name)),
    list: frozen,
    get: (name: unknown) => (typeof name === 'string' ? byName.get(name) : undefined),
  })
}

/**
 * Reads a whole-number flag for {@link KindCli.fromFlags}, with the CLI's wording.
 * @throws {@link InvalidInputError} `INVALID_FLAG`.
 * @category Draw kinds
 */
export function intFlagValue(flags: KindFlags, name: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const v = flags[name]
  if (v === undefined) return undefined
  const text = String(v)
  if (/^-[0-9]+$/.test(text)) throw new InvalidInputError('INVALID_FLAG', `--${name} must be a whole number of at least ${min}, got ${text}`, `give a whole number of at least ${min}`)
  if (!/^(?:0|[1-9][0-9]*)$/.test(text) || !Number.isSafeInteger(Number(text))) throw new InvalidInputError('INVALID_FLAG', `--${name} must be a whole number, got ${JSON.stringify(text)}`, 'give a whole number')
  const n = Number(text)
  if (n < min || n > max) throw new InvalidInputError('INVALID_FLAG', `--${name} must be between ${min} and ${max}, got ${n}`, 'give a number in range')
  return n
}

/** Throws the `INVALID_DRAW` error of a bad parameter at `path`. */
export function badDraw(path: string, detail: string, hint: string): never {
  throw new InvalidInputError('INVALID_DRAW', detail, hint, { path })
}

/** Checks a count parameter: a positive safe integer, at most `max`. */
export function checkCount(count: unknown, path: string, hint: string): void {
  if (!Number.isSafeInteger(count) || (count as number) < 1) badDraw(path, `count must be a positive integer, got ${String(count)}`, hint)
}
