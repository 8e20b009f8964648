/**
 * Pins what every built-in draw kind makes of bad input, so that a change of how kinds are declared
 * cannot change it: for a table of bad (and good) inputs made by mutating one valid draw and outcome
 * of each kind, field by field (deleted, replaced by a value of another type or out of range, an
 * unknown field added), the error (class, code, path, detail, hint) or the parsed value of
 *
 * - the kind's `parse` of a commitment's `draw` and `parseOutcome` of a proof's `outcome`,
 * - `parseCommitment` of a whole commitment with that draw (alone, and with a later field also bad,
 *   so the protocol's order of the two errors is pinned too),
 * - `validateDrawSpec` of a typed spec (as a JavaScript caller builds one) for a few list sizes,
 * - `encode` and `describe` of the valid specs.
 *
 * The table is in __pins__/kind-errors.json (written once from the code before the change).
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { commit, DEFAULT_DRAW_KINDS, drawFromBlock, OrbitdrawError, panelDraw, panelLotteryDraw, parseCommitment, validateDrawSpec, type DrawSpec, type PanelOutcomeJson } from '../../../src/core/index.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { proportionalQuotas, smallPool } from '../sortition/fixtures.js'

const CHAIN = buildChain(12, 'pinned-kinds')
const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: CHAIN[7]!.cid }, label: 'pinned' }

type J = unknown
const BAD: readonly J[] = [null, 'x', '', -1, 0, 1.5, 2 ** 53, true, [], {}, '01', '-0', '+7', 'a|b', [1], ['x'], [[]], 12345678901234567890n]
/** Deeper in a document, fewer values (every type once). */
const BAD_DEEP: readonly J[] = [null, 'x', -1, 1.5, true, [], {}]

/** A sample of one valid commitment and proof per built-in kind. */
function samples(): { name: string; commitment: Record<string, J>; outcome: Record<string, J>; n: number }[] {
  const people = ['alice', 'bob', 'carol', 'dave', 'erin']
  const out: { name: string; commitment: Record<string, J>; outcome: Record<string, J>; n: number }[] = []
  const add = (name: string, draw: DrawSpec, participants?: readonly (string | { entry: string; weight: number })[]): void => {
    const { commitment } = commit({ ...base, draw, ...(participants === undefined ? {} : { participants: participants as never }) })
    const proof = drawFromBlock(commitment, participants as never, CHAIN[10]!)
    const j = JSON.parse(JSON.stringify(proof)) as { commitment: Record<string, J>; outcome: Record<string, J> }
    out.push({ name, commitment: j.commitment, outcome: j.outcome, n: participants?.length ?? 0 })
  }
  add('pick', { kind: 'pick', count: 2 }, people)
  add('weighted', { kind: 'weighted', count: 2 }, people.map((entry, i) => ({ entry, weight: i + 1 })))
  add('shuffle', { kind: 'shuffle' }, people)
  add('range', { kind: 'range', min: -3n, max: 40n, count: 3, distinct: true })
  const pool = smallPool(24, [2, 3], 5)
  const quotas = proportionalQuotas(pool, 6, 1)
  const panel = panelDraw(pool, quotas, 6, { alternates: 2 })
  add('panel', panel.draw, panel.participants)
  const panels = [8, 9].map((t) => {
    const { commitment } = commit({ ...base, target: t, draw: panel.draw, participants: panel.participants })
    return (drawFromBlock(commitment, panel.participants, CHAIN[t]!).outcome as PanelOutcomeJson).members.map((m) => m.entry.split('|')[0]!)
  })
  const lottery = panelLotteryDraw(pool, quotas, panels, [1, 3])
  add('panel-lottery', lottery.draw, lottery.participants)
  return out
}

/** Every path into `v` (objects fully, arrays at their first and last item, deeper arrays at their first), up to `depth`. */
function paths(v: J, depth: number, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [at]
  if (depth === 0 || v === null || typeof v !== 'object') return out
  const keys: (string | number)[] = Array.isArray(v) ? [...new Set([0, at.length < 2 ? v.length - 1 : 0])].filter((i) => i >= 0) : Object.keys(v)
  for (const k of keys) out.push(...paths((v as Record<string | number, J>)[k], depth - 1, [...at, k]))
  return out
}

function clone<T>(v: T): T {
  return structuredClone(v)
}

function setAt(root: J, path: readonly (string | number)[], edit: (parent: Record<string | number, J>, key: string | number) => void): J {
  const copy = clone(root)
  let p = copy as Record<string | number, J>
  for (const k of path.slice(0, -1)) p = p[k] as Record<string | number, J>
  edit(p, path.at(-1)!)
  return copy
}

/** The mutations of `v`: each path deleted (object fields), replaced by each bad value, an unknown field added to each object. */
function mutations(v: J, depth: number): { what: string; value: J }[] {
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
    for (const b of path.length > 2 ? BAD_DEEP : BAD) out.push({ what: `${at} = ${label(b)}`, value: setAt(v, path, (p, k) => (p[k] = clone(b))) })
    const here = path.reduce<J>((o, k) => (o as Record<string | number, J>)[k], v)
    if (here !== null && typeof here === 'object' && !Array.isArray(here)) out.push({ what: `${at} + unknown field`, value: setAt(v, path, (p, k) => ((p[k] as Record<string, J>).zz = 1)) })
  }
  return out
}

function label(b: J): string {
  return typeof b === 'bigint' ? `${b}n` : JSON.stringify(b)
}

/** A value's JSON text (bigints as `<digits>n`), or its SHA-256 when long (the pin stays small). */
function json(v: J): string {
  const text = JSON.stringify(v, (_k, x: J) => (typeof x === 'bigint' ? `${x}n` : x)) ?? 'undefined'
  return text.length <= 120 ? text : `sha256:${createHash('sha256').update(text).digest('hex')}`
}

/** `ok <value>`, or the error as [class, code, path, detail, hint]. */
function result(f: () => J): J {
  try {
    return `ok ${json(f())}`
  } catch (err) {
    if (!(err instanceof OrbitdrawError)) return `threw ${String(err)}`
    return [err.constructor.name, err.code, err.path, err.detail, err.hint]
  }
}

/** A typed spec as `parse` would give it, with the typed value `b` at `path` (bigints kept). */
function typedMutations(spec: J): { what: string; value: J }[] {
  const out = mutations(spec, 3)
  out.push({ what: 'min 1 (a number)', value: { ...(spec as object), min: 1 } })
  return out
}

describe('the built-in kinds refuse bad input as they always did (pinned)', () => {
  it('parse, parseOutcome, parseCommitment, validateDrawSpec, encode and describe over a table of inputs', async () => {
    const rows: J[] = []
    for (const s of samples()) {
      const kind = DEFAULT_DRAW_KINDS.get(s.name)!
      const draw = s.commitment.draw as Record<string, J>
      for (const m of mutations(draw, 4)) {
        // `parse` is only ever given an object (parseCommitment checks it first).
        if (m.what.startsWith('root =')) continue
        rows.push({ kind: s.name, on: 'parse', what: m.what, result: result(() => kind.parse(m.value as Record<string, J>, '$.draw')) })
        if (m.what === 'as is') continue
        rows.push({ kind: s.name, on: 'parseCommitment', what: m.what, result: result(() => parseCommitment({ ...s.commitment, draw: m.value })) })
        rows.push({ kind: s.name, on: 'parseCommitment, label bad too', what: m.what, result: result(() => parseCommitment({ ...s.commitment, draw: m.value, label: 5 })) })
      }
      for (const m of mutations(s.outcome, 3)) {
        if (m.what.startsWith('root =')) continue
        rows.push({ kind: s.name, on: 'parseOutcome', what: m.what, result: result(() => kind.parseOutcome(m.value as Record<string, J>, '$.outcome')) })
      }
      const spec = parseCommitment(s.commitment).draw
      rows.push({ kind: s.name, on: 'encode', result: result(() => kind.encode(spec)) })
      rows.push({ kind: s.name, on: 'describe', result: result(() => [kind.describe(spec, s.n), kind.describe(spec, undefined)]) })
      for (const m of typedMutations(spec)) {
        for (const n of s.n > 20 ? [s.n] : [...new Set([0, 1, s.n, s.n + 3])]) {
          rows.push({ kind: s.name, on: `validateDrawSpec n=${n}`, what: m.what, result: result(() => validateDrawSpec(m.value as DrawSpec, n)) })
        }
      }
    }
    expect(rows.length).toBeGreaterThan(1000)
    await expect(`[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`).toMatchFileSnapshot('./__pins__/kind-errors.json')
  }, 120_000)
})
