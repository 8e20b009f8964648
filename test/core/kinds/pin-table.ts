/**
 * The mutation table of the kinds' pinned errors (pinned-*.test.ts): one valid draw and outcome of a
 * kind mutated field by field (deleted, replaced by a value of another type or out of range, an
 * unknown field added), and each result as `ok <value>` or the error's [class, code, path, detail, hint];
 * {@link kindPinRows} makes one kind's rows of the table.
 */
import { createHash } from 'node:crypto'
import { OrbitdrawError, parseCommitment, type DrawSpec } from '../../../src/core/index.js'
import { DEFAULT_DRAW_KINDS, validateDrawSpec } from '../../../src/core/kinds/index.js'

export type J = unknown
export const BAD: readonly J[] = [null, 'x', '', -1, 0, 1.5, 2 ** 53, true, [], {}, '01', '-0', '+7', 'a|b', [1], ['x'], [[]], 12345678901234567890n]
/** Deeper in a document, fewer values (every type once). */
export const BAD_DEEP: readonly J[] = [null, 'x', -1, 1.5, true, [], {}]

/** Every path into `v` (objects fully, arrays at their first and last item, deeper arrays at their first), up to `depth`. */
function paths(v: J, depth: number, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [at]
  if (depth === 0 || v === null || typeof v !== 'object') return out
  const keys: (string | number)[] = Array.isArray(v) ? [...new Set([0, at.length < 2 ? v.length - 1 : 0])].filter((i) => i >= 0) : Object.keys(v)
  for (const k of keys) out.push(...paths((v as Record<string | number, J>)[k], depth - 1, [...at, k]))
  return out
}

function setAt(root: J, path: readonly (string | number)[], edit: (parent: Record<string | number, J>, key: string | number) => void): J {
  const copy = structuredClone(root)
  let p = copy as Record<string | number, J>
  for (const k of path.slice(0, -1)) p = p[k] as Record<string | number, J>
  edit(p, path.at(-1)!)
  return copy
}

export function label(b: J): string {
  return typeof b === 'bigint' ? `${b}n` : JSON.stringify(b)
}

/** The mutations of `v`: each path deleted (object fields), replaced by each bad value, an unknown field added to each object. */
export function mutations(v: J, depth: number): { what: string; value: J }[] {
  const out: { what: string; value: J }[] = [{ what: 'as is', value: v }]
  for (const path of paths(v, depth)) {
    const at = path.join('.') || '(root)'
    if (path.length === 0) {
      for (const b of BAD) out.push({ what: `root = ${label(b)}`, value: b })
      out.push({ what: 'root + unknown field', value: { zz: 1, ...(v as object) } })
      continue
    }
    const parentIsArray = Array.isArray(path.slice(0, -1).reduce<J>((o, k) => (o as Record<string | number, J>)[k], v))
    if (!parentIsArray) out.push({ what: `${at} deleted`, value: setAt(v, path, (p, k) => delete p[k]) })
    else out.push({ what: `${at} a hole`, value: setAt(v, path, (p, k) => delete p[k]) })
    for (const b of path.length > 2 ? BAD_DEEP : BAD) out.push({ what: `${at} = ${label(b)}`, value: setAt(v, path, (p, k) => (p[k] = structuredClone(b))) })
    const here = path.reduce<J>((o, k) => (o as Record<string | number, J>)[k], v)
    if (here !== null && typeof here === 'object' && !Array.isArray(here)) out.push({ what: `${at} + unknown field`, value: setAt(v, path, (p, k) => ((p[k] as Record<string, J>).zz = 1)) })
  }
  return out
}

/** Hand-made mutations of `v`: `edit(what, f)` records a copy of `v` changed by `f` under the name `what`; `out` lists them in order. */
export function editedCopies(v: Record<string, J>): { edit: (what: string, f: (copy: Record<string, J>) => void) => void; out: { what: string; value: J }[] } {
  const out: { what: string; value: J }[] = []
  const edit = (what: string, f: (copy: Record<string, J>) => void): void => {
    const copy = structuredClone(v)
    f(copy)
    out.push({ what, value: copy })
  }
  return { edit, out }
}

/** A value's JSON text (bigints as `<digits>n`), or its SHA-256 when long (the pin stays small). */
export function json(v: J): string {
  const text = JSON.stringify(v, (_k, x: J) => (typeof x === 'bigint' ? `${x}n` : x)) ?? 'undefined'
  return text.length <= 120 ? text : `sha256:${createHash('sha256').update(text).digest('hex')}`
}

/** `ok <value>`, or the error as [class, code, path, detail, hint]. */
export function result(f: () => J): J {
  try {
    return `ok ${json(f())}`
  } catch (err) {
    if (!(err instanceof OrbitdrawError)) return `threw ${String(err)}`
    return [err.constructor.name, err.code, err.path, err.detail, err.hint]
  }
}

/** One valid commitment and proof of a built-in kind (as JSON), and the size of its list. */
export interface KindSample {
  name: string
  commitment: Record<string, J>
  outcome: Record<string, J>
  n: number
}

/** What a pin test feeds a kind: the mutated draws and outcomes, the mutated typed specs, and the list sizes to validate those for. */
export interface KindPinInputs {
  draws: readonly { what: string; value: J }[]
  outcomes: readonly { what: string; value: J }[]
  typed: (spec: DrawSpec) => readonly { what: string; value: J }[]
  listSizes: readonly number[]
}

/**
 * One kind's rows of a pin table, in this order: `parse` of each mutated draw (with `parseCommitment` of a
 * commitment carrying it, alone and with `label` also bad), `parseOutcome` of each mutated outcome, `encode`
 * and `describe` of the valid spec, and `validateDrawSpec` of each typed mutation for each list size.
 */
export function kindPinRows(s: KindSample, inputs: KindPinInputs): J[] {
  const rows: J[] = []
  const kind = DEFAULT_DRAW_KINDS.get(s.name)!
  for (const m of inputs.draws) {
    // `parse` is only ever given an object (parseCommitment checks it first).
    if (m.what.startsWith('root =')) continue
    rows.push({ kind: s.name, on: 'parse', what: m.what, result: result(() => kind.parse(m.value as Record<string, J>, '$.draw')) })
    if (m.what === 'as is') continue
    rows.push({ kind: s.name, on: 'parseCommitment', what: m.what, result: result(() => parseCommitment({ ...s.commitment, draw: m.value })) })
    rows.push({ kind: s.name, on: 'parseCommitment, label bad too', what: m.what, result: result(() => parseCommitment({ ...s.commitment, draw: m.value, label: 5 })) })
  }
  for (const m of inputs.outcomes) {
    if (m.what.startsWith('root =')) continue
    rows.push({ kind: s.name, on: 'parseOutcome', what: m.what, result: result(() => kind.parseOutcome(m.value as Record<string, J>, '$.outcome')) })
  }
  const spec = parseCommitment(s.commitment).draw
  rows.push({ kind: s.name, on: 'encode', result: result(() => kind.encode(spec)) })
  rows.push({ kind: s.name, on: 'describe', result: result(() => [kind.describe(spec, s.n), kind.describe(spec, undefined)]) })
  for (const m of inputs.typed(spec)) {
    for (const n of inputs.listSizes) rows.push({ kind: s.name, on: `validateDrawSpec n=${n}`, what: m.what, result: result(() => validateDrawSpec(m.value as DrawSpec, n)) })
  }
  return rows
}
