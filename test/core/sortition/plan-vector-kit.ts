/**
 * What the plan-method vectors (plan2-cases.ts, plan3-cases.ts) share: the inputs built from one string of
 * two-valued feature digits per respondent with floor/ceil quotas of the share, the pool and quota table
 * of an input, the kept trials of a plan method that must refuse it, and the drawn panel's rounds, members and bytes read from the vector's seed.
 */
import { hexToBytes } from '../../../src/core/bytes.js'
import { OrbitdrawError } from '../../../src/core/errors.js'
import { streamFromSeed } from '../../../src/core/random/index.js'
import { checkQuotas, drawPanel, makePool, planPanel, type PanelPlan, type QuotaRow, type QuotaTable, type SortitionPool } from '../../../src/core/sortition/index.js'
import type { SortitionVectorInput } from './vector-cases.js'

/**
 * A vector's inputs from `bits` (one string of 0/1 digits a respondent, one digit a feature f0, f1, …):
 * values v0/v1, ids r00, r01, … in type order (so the canonical order is the committed (type, id) order of
 * a commitment), quotas floor/ceil of each value's share of `k`, nothing exact.
 */
export function twoValuedPlanInputs(name: string, bits: readonly string[], k: number, seed: string): SortitionVectorInput {
  const n = bits.length
  const names = Array.from({ length: bits[0]!.length }, (_, i) => `f${i}`)
  const rows = [...bits].sort().map((b, i) => [`r${String(i).padStart(2, '0')}`, ...[...b].map((d) => `v${d}`)])
  const quotas: [string, string, number, number][] = []
  names.forEach((f, fi) => {
    for (const v of ['v0', 'v1']) {
      const c = rows.filter((r) => r[fi + 1] === v).length
      if (c > 0) quotas.push([f, v, Math.floor((c * k) / n), Math.ceil((c * k) / n)])
    }
  })
  return { name, header: ['id', ...names], rows, quotas, k, exactFeatures: [], seed }
}

/** The pool and the quota rows of a vector's inputs, as a caller of `panelDraw` gives them. */
export function vectorPoolAndRows(input: SortitionVectorInput): { pool: SortitionPool; rows: QuotaRow[] } {
  const pool = makePool(input.header.slice(1), input.rows.map((r) => ({ id: r[0]!, values: r.slice(1) })))
  return { pool, rows: input.quotas.map(([feature, value, min, max]) => ({ feature, value, min, max })) }
}

/** The pool and the checked quota table of a vector's inputs. */
export function planVectorPool(input: SortitionVectorInput): { pool: SortitionPool; table: QuotaTable } {
  const { pool, rows } = vectorPoolAndRows(input)
  return { pool, table: checkQuotas(pool, rows, input.k) }
}

/** The panel drawn by `plan` on the stream of the vector's seed: rounds, member ids, bytes read. */
export function drawnFromSeed(pool: SortitionPool, plan: PanelPlan, seed: string): { rounds: number; members: string[]; consumed: number } {
  const stream = streamFromSeed(hexToBytes(seed))
  const d = drawPanel(plan, stream)
  return { rounds: d.rounds, members: d.members.map((m) => pool.respondents[m]!.id), consumed: stream.consumed }
}

/**
 * How many trials plan method `method`'s gate kept when it refuses the inputs (the number in its
 * SORTITION_ACCEPTANCE_TOO_LOW detail); throws when that method admits them (`vector` names the vector kind
 * the inputs are meant for, e.g. `plan-3`).
 */
export function keptWhenRefused(pool: SortitionPool, table: QuotaTable, input: SortitionVectorInput, method: 1 | 2, vector: string): number {
  try {
    planPanel(pool, table, input.k, { exactFeatures: input.exactFeatures, explain: false, method })
  } catch (err) {
    if (!(err instanceof OrbitdrawError) || err.code !== 'SORTITION_ACCEPTANCE_TOO_LOW') throw err
    return Number(/only (\d+) of/.exec(err.detail)![1])
  }
  throw new Error(`method ${method} admits this plan: not a ${vector} vector`)
}
