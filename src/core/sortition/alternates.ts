/**
 * Alternates: a committed, ranked replacement list drawn from the same stream right after the panel
 * (docs/spec.md, Sortition, Alternates).
 *
 * Ranking: the respondents not on the panel, in canonical order, are ranked by the spec's `pick`
 * (sparse forward Fisher–Yates, one `uniform(n − k − i)` per rank), extended one rank at a time. A ranked
 * respondent becomes the next alternate when it could replace at least one panel member with every quota
 * still met; the ranking stops when `count` alternates are found or every non-member is ranked.
 *
 * Replacement rule, when panel member `p` drops out: the first unused alternate (in rank order) of the
 * same type as `p` (same value on every feature); if there is none, the first unused alternate `a` such
 * that the panel without `p` and with `a` meets every quota; if there is none, no replacement keeps the
 * quotas.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import type { RandomStream } from '../random/stream.js'
import { uniformIndex } from '../random/uniform.js'
import type { QuotaTable, SortitionPool } from './pool.js'

/**
 * Ranked alternates and how much of the ranking was needed.
 * @category Sortition
 */
export interface AlternatesDraw {
  /** The alternates, best first: canonical pool indices. */
  readonly alternates: number[]
  /** Non-members ranked to find them (each rank reads one uniform draw). */
  readonly ranked: number
}

/** Per-feature value counts of a panel. */
function countsOf(pool: SortitionPool, members: readonly number[]): number[][] {
  const cnt = pool.features.map((f) => new Array<number>(f.values.length).fill(0))
  for (const m of members) pool.respondents[m]!.type.forEach((v, f) => cnt[f]![v]!++)
  return cnt
}

/** Can `a` replace `p` in a panel with value counts `cnt` (every quota still met)? */
function canReplace(pool: SortitionPool, table: QuotaTable, cnt: readonly (readonly number[])[], p: number, a: number): boolean {
  const tp = pool.respondents[p]!.type
  const ta = pool.respondents[a]!.type
  for (let f = 0; f < tp.length; f++) {
    if (tp[f] === ta[f]) continue
    if (cnt[f]![tp[f]!]! - 1 < table.min[f]![tp[f]!]!) return false
    if (cnt[f]![ta[f]!]! + 1 > table.max[f]![ta[f]!]!) return false
  }
  return true
}

/**
 * Draws `count` ranked alternates after a panel (see the module rule).
 *
 * @param stream - the draw's stream, positioned right after the panel.
 * @param panel - the panel (canonical pool indices, ascending), meeting every quota.
 * @param count - alternates wanted, `0 <= count`; fewer are returned when fewer non-members qualify.
 * @param allowed - an extra rule a swap of member `p` for `a` must keep (households:
 *   `householdSwapAllowed`); default: none.
 * @example
 * ```ts
 * const stream = streamFromSeed(seed)
 * const { members } = drawPanel(plan, stream)
 * const { alternates } = drawAlternates(stream, plan.pool, plan.quotas, members, 10)
 * ```
 * @category Sortition
 */
export function drawAlternates(stream: RandomStream, pool: SortitionPool, table: QuotaTable, panel: readonly number[], count: number, allowed?: (p: number, a: number) => boolean): AlternatesDraw {
  if (!Number.isSafeInteger(count) || count < 0) throw new InvalidInputError('INVALID_ARGUMENT', `the alternates count must be a whole number >= 0, got ${String(count)}`, 'pass the number of alternates')
  const inPanel = new Set(panel)
  const others: number[] = []
  for (let i = 0; i < pool.respondents.length; i++) if (!inPanel.has(i)) others.push(i)
  const cnt = countsOf(pool, panel)
  const alternates: number[] = []
  const moved = new Map<number, number>()
  const n = others.length
  let i = 0
  for (; i < n && alternates.length < count; i++) {
    const j = i + uniformIndex(stream, n - i)
    const atI = moved.get(i) ?? i
    const pos = j === i ? atI : (moved.get(j) ?? j)
    if (j !== i) moved.set(j, atI)
    moved.delete(i)
    const a = others[pos]!
    if (panel.some((p) => canReplace(pool, table, cnt, p, a) && (allowed === undefined || allowed(p, a)))) alternates.push(a)
  }
  return { alternates, ranked: i }
}

/**
 * The committed replacement rule: which alternate replaces panel member `p`, given the alternates
 * already used. Same type first, then any alternate keeping every quota, in rank order; with `allowed`
 * (households: `householdSwapAllowed`), only alternates whose swap for `p` it allows.
 *
 * @returns the alternate's pool index, or `undefined` when none keeps every quota.
 * @category Sortition
 */
export function replacementFor(pool: SortitionPool, table: QuotaTable, panel: readonly number[], alternates: readonly number[], p: number, used: ReadonlySet<number> = new Set(), allowed?: (p: number, a: number) => boolean): number | undefined {
  if (!panel.includes(p)) throw new InvalidInputError('INVALID_ARGUMENT', `respondent ${p} is not on the panel`, 'name a panel member')
  const tp = pool.respondents[p]!.type.join(',')
  const free = alternates.filter((a) => !used.has(a) && (allowed === undefined || allowed(p, a)))
  const same = free.find((a) => pool.respondents[a]!.type.join(',') === tp)
  if (same !== undefined) return same
  const cnt = countsOf(pool, panel)
  return free.find((a) => canReplace(pool, table, cnt, p, a))
}
