/**
 * The smallest relaxation of an infeasible or too-tight quota set, from a real solver (HiGHS, an
 * integer-programming solver compiled to WebAssembly: the npm package `highs`), at any pool size.
 *
 * A panel is, for the quotas, only how many members it takes of each respondent type. So some panel
 * meets quotas relaxed by `lower(f, v)` seats on a min and `raise(f, v)` seats on a max if and only if
 * integers `x_t` (members of type `t`, `0 ≤ x_t ≤ n_t`) exist with `Σ x_t = k` and, for every feature
 * value, `min − lower ≤ Σ_{t has v} x_t ≤ max + raise`. The solver minimizes `Σ lower + Σ raise`,
 * the seats changed: zero when the quotas can be met together. The model has one variable per type
 * present and two per feature value, whatever the pool's size.
 *
 * Edge code (Node): the solver is loaded on first use only, when a commit is refused.
 *
 * @module
 */
import { InfeasibleQuotasError, checkQuotas, type QuotaRow, type SortitionPool } from '../core/sortition/pool.js'
import { LimitExceededError, OrbitdrawError } from '../core/errors.js'

/**
 * One quota changed by a relaxation.
 * @category Sortition
 */
export interface QuotaChange {
  readonly feature: string
  readonly value: string
  /** Which bound moves: the min goes down, the max goes up. */
  readonly side: 'min' | 'max'
  readonly from: number
  readonly to: number
}

/**
 * The smallest relaxation: the fewest seats changed over all quota bounds, and which bounds.
 * @category Sortition
 */
export interface QuotaRelaxation {
  /** Seats changed in total (0: the quotas can be met together as they are). */
  readonly seats: number
  /** The bounds changed, canonical feature and value order, mins before maxes. */
  readonly changes: readonly QuotaChange[]
  /** One panel composition that meets the relaxed quotas: members per type (value indices, canonical). */
  readonly composition: readonly { readonly type: readonly number[]; readonly members: number }[]
}

interface Solution {
  Status: string
  Columns: Record<string, { Primal: number }>
}
interface Solver {
  solve(problem: string, options?: Record<string, unknown>): Solution
}
let solver: Promise<Solver> | undefined

/** The HiGHS solver, loaded once (its WebAssembly file ships in the `highs` package: no network). */
function loadSolver(): Promise<Solver> {
  solver ??= import('highs').then((m) => (m.default as unknown as () => Promise<Solver>)())
  return solver
}

/** Terms `c x` of an LP-format line, wrapped so that no line is long. */
function terms(list: readonly string[]): string {
  const out: string[] = []
  for (let i = 0; i < list.length; i += 20) out.push(list.slice(i, i + 20).join(' + '))
  return out.join('\n   + ')
}

/**
 * Finds the smallest relaxation of the quotas for a panel of `k`: the fewest seats by which mins
 * must be lowered and maxes raised, all together, so that some panel meets every quota. Exact (an
 * integer program solved to optimality), at any pool size.
 *
 * @returns the relaxation, or undefined if the solver stops without proving an optimum (it has no
 *   time limit set, so only on a solver fault).
 * @throws the errors of `checkQuotas` for quota rows that are malformed (the per-feature shapes with
 *   their own relaxations).
 * @example
 * ```ts
 * const r = await smallestQuotaRelaxation(pool, quotaRows, 40)
 * if (r !== undefined && r.seats > 0) console.log(describeRelaxation(r))
 * ```
 * @category Sortition
 */
export async function smallestQuotaRelaxation(pool: SortitionPool, rows: readonly QuotaRow[], k: number): Promise<QuotaRelaxation | undefined> {
  const table = checkQuotas(pool, rows, k)
  const types = new Map<string, { type: readonly number[]; n: number }>()
  for (const r of pool.respondents) {
    const key = r.type.join(',')
    const t = types.get(key)
    if (t === undefined) types.set(key, { type: r.type, n: 1 })
    else t.n++
  }
  const list = [...types.values()].sort((a, b) => {
    for (let f = 0; f < a.type.length; f++) if (a.type[f] !== b.type[f]) return a.type[f]! - b.type[f]!
    return 0
  })
  const lines: string[] = ['Minimize']
  const slack: string[] = []
  pool.features.forEach((f, fi) => f.values.forEach((_, v) => slack.push(`l${fi}_${v}`, `h${fi}_${v}`)))
  lines.push(` obj: ${terms(slack)}`, 'Subject To', ` size: ${terms(list.map((_, i) => `x${i}`))} = ${k}`)
  pool.features.forEach((f, fi) =>
    f.values.forEach((_, v) => {
      const xs = list.flatMap((t, i) => (t.type[fi] === v ? [`x${i}`] : []))
      lines.push(` lo${fi}_${v}: ${terms([...xs, `l${fi}_${v}`])} >= ${table.min[fi]![v]!}`)
      lines.push(` hi${fi}_${v}: ${terms(xs)} - h${fi}_${v} <= ${table.max[fi]![v]!}`)
    }),
  )
  lines.push('Bounds')
  list.forEach((t, i) => lines.push(` 0 <= x${i} <= ${t.n}`))
  pool.features.forEach((f, fi) => f.values.forEach((_, v) => lines.push(` 0 <= l${fi}_${v} <= ${table.min[fi]![v]!}`, ` 0 <= h${fi}_${v} <= ${k}`)))
  lines.push('General', terms(list.map((_, i) => `x${i}`)).replace(/ \+ /g, ' '), terms(slack).replace(/ \+ /g, ' '), 'End')
  const highs = await loadSolver()
  const sol = highs.solve(lines.join('\n'), { output_flag: false, mip_rel_gap: 0 })
  if (sol.Status !== 'Optimal') return undefined
  const val = (name: string): number => Math.round(sol.Columns[name]?.Primal ?? 0)
  const changes: QuotaChange[] = []
  pool.features.forEach((f, fi) =>
    f.values.forEach((value, v) => {
      const lower = val(`l${fi}_${v}`)
      const raise = val(`h${fi}_${v}`)
      if (lower > 0) changes.push({ feature: f.name, value, side: 'min', from: table.min[fi]![v]!, to: table.min[fi]![v]! - lower })
      if (raise > 0) changes.push({ feature: f.name, value, side: 'max', from: table.max[fi]![v]!, to: table.max[fi]![v]! + raise })
    }),
  )
  const seats = changes.reduce((a, c) => a + Math.abs(c.to - c.from), 0)
  return { seats, changes, composition: list.map((t, i) => ({ type: t.type, members: val(`x${i}`) })).filter((c) => c.members > 0) }
}

/**
 * A relaxation in words: `lower the min of "age"="16-29" from 8 to 6; raise the max of … (3 seats in total)`.
 * @category Sortition
 */
export function describeRelaxation(r: QuotaRelaxation): string {
  if (r.seats === 0) return 'the quotas can all be met together as they are'
  const one = (c: QuotaChange): string => `${c.side === 'min' ? 'lower the min' : 'raise the max'} of ${JSON.stringify(c.feature)}=${JSON.stringify(c.value)} from ${c.from} to ${c.to}`
  return `${r.changes.map(one).join('; ')} (${r.seats} seat(s) in total, the fewest of any change of the quotas; found by the HiGHS solver)`
}

/**
 * A commit's refusal with the solver's smallest relaxation: for `NO_VALID_PANEL`, and for
 * `SORTITION_ACCEPTANCE_TOO_LOW` when no panel meets the quotas at all, the hint names the fewest
 * seats to change and which quotas; a too-tight but feasible set keeps the gate's own hint (what to
 * relax and by how much, from its trials) and says that panels exist. Other errors come back as they are.
 * @category Sortition
 */
export async function explainQuotaError(err: unknown, pool: SortitionPool | undefined, rows: readonly QuotaRow[] | undefined, k: number): Promise<unknown> {
  if (!(err instanceof OrbitdrawError) || pool === undefined || rows === undefined) return err
  const infeasible = err instanceof InfeasibleQuotasError && err.code === 'NO_VALID_PANEL'
  const tight = err instanceof LimitExceededError && err.code === 'SORTITION_ACCEPTANCE_TOO_LOW'
  if (!infeasible && !tight) return err
  let r: QuotaRelaxation | undefined
  try {
    r = await smallestQuotaRelaxation(pool, rows, k)
  } catch {
    return err
  }
  if (r === undefined) return err
  if (infeasible) return new InfeasibleQuotasError('NO_VALID_PANEL', `${err.detail}; the smallest relaxation changes ${r.seats} seat(s)`, describeRelaxation(r))
  if (r.seats > 0) return new LimitExceededError('SORTITION_ACCEPTANCE_TOO_LOW', `${err.detail}; no panel meets every quota at all`, `${describeRelaxation(r)}; after that, the gate may still ask for more: ${err.hint ?? ''}`)
  return new LimitExceededError('SORTITION_ACCEPTANCE_TOO_LOW', `${err.detail}; panels meeting every quota exist (checked by the HiGHS solver), but too few for the draw to finish`, err.hint ?? 'relax the tightest quotas')
}
