/**
 * Exact selection probabilities under a household rule (issue 22 items 3 and 4; docs/spec.md,
 * Households, Selection probabilities with households): with households, respondents of one type no
 * longer share one chance (one who shares a household has less chance than one who lives alone), so
 * the figures are given per **group**, a respondent type and a household size (1 = alone), each the
 * average over the group's respondents, as exact fractions when the count below stays within its
 * budget (a library bound, not part of any proof); else the caller gives the reproducible estimate.
 *
 * The count: the panel is uniform among the panels that meet every quota and have at most one member
 * per household, whatever the plan's exact features (docs/spec.md, Households, Draw). Those panels are
 * counted by a dynamic program over **items**: each household of two or more (none or one of its
 * members), and each group's respondents living alone (`c` of its `n`, `C(n, c)` ways); its state is
 * every feature value's count so far (the panel size is the first feature's total), states over a
 * max, or that can no longer reach a min or the panel size, dropped. A forward pass counts each
 * state's partial panels `F`; a backward pass its completions `B` (1 for a final state of size `k`),
 * so `V = B(empty)` valid panels, and group `g`'s members over all valid panels are the sum, over every
 * item, state `s` and choice of `c` members of `g` in `w` ways, of `F(s) · w · c · B(s + choice)`;
 * its figure is that sum over `V · n_g`.
 *
 * @module
 */
import { InvalidInputError } from '../errors.js'
import { binomialRow } from './count.js'
import type { QuotaTable, SortitionPool } from './pool.js'
import { decimalString } from './probabilities.js'

/**
 * The exact selection probability of one group (a respondent type and a household size) under a
 * household rule: the average over the group's respondents, a reduced fraction.
 * @category Sortition
 */
export interface HouseholdGroupProbability {
  /** The type: value index per feature (canonical order). */
  readonly type: readonly number[]
  /** The size of the respondents' household (1 = alone). */
  readonly household: number
  /** Respondents of the group. */
  readonly respondents: number
  /** Numerator of the group's average probability of being on the panel. */
  readonly numerator: bigint
  /** Denominator (positive). */
  readonly denominator: bigint
  /** The probability as a decimal string rounded down to 12 digits. */
  readonly decimal: string
}

/**
 * The budget of {@link householdProbabilities}: at most this many transitions (a state and one choice
 * of an item) in the count's forward pass (default 500,000: about 1 to 2 s in Node); over it, no exact figures.
 * @category Sortition
 */
export const HOUSEHOLD_EXACT_BUDGET = 500_000

/**
 * A respondent's group: its type and household size, and the groups in canonical order (type, then size).
 * @category Sortition
 */
export interface HouseholdGroups {
  /** Group of each respondent. */
  readonly of: Int32Array
  /** Each group's type, household size and respondents, in canonical order. */
  readonly groups: readonly { readonly type: readonly number[]; readonly household: number; readonly respondents: number }[]
}

/**
 * The groups (type × household size) of a pool under a household index (`householdIndex`: each
 * respondent's household, -1 alone), in canonical order: by type, then household size.
 * @category Sortition
 */
export function householdGroupsOf(pool: SortitionPool, households: Int32Array): HouseholdGroups {
  const size = new Map<number, number>()
  for (const h of households) if (h >= 0) size.set(h, (size.get(h) ?? 0) + 1)
  const keyOf = pool.respondents.map((r, i) => {
    const h = households[i] ?? -1
    return { type: r.type, household: h < 0 ? 1 : size.get(h)! }
  })
  const index = new Map<string, number>()
  const found: { type: readonly number[]; household: number; respondents: number }[] = []
  const raw = keyOf.map((g) => {
    const key = `${g.type.join(',')}|${g.household}`
    let x = index.get(key)
    if (x === undefined) {
      x = found.length
      index.set(key, x)
      found.push({ ...g, respondents: 0 })
    }
    found[x]!.respondents++
    return x
  })
  const order = found.map((_, i) => i).sort((a, b) => {
    const x = found[a]!
    const y = found[b]!
    for (let j = 0; j < x.type.length; j++) if (x.type[j] !== y.type[j]) return x.type[j]! - y.type[j]!
    return x.household - y.household
  })
  const rank = new Int32Array(found.length)
  order.forEach((g, r) => (rank[g] = r))
  return { of: Int32Array.from(raw, (g) => rank[g]!), groups: order.map((g) => found[g]!) }
}

/** One choice of an item: the members taken, their type's value slots, their group and the ways. */
interface Choice {
  readonly c: number
  readonly slots: readonly number[]
  readonly group: number
  readonly ways: bigint
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b]
  return a
}

/**
 * Exact per-group selection probabilities (type × household size, each the average over the group's
 * respondents) of the uniform panel among the size-`k` panels that meet every quota of `quotas` and
 * have at most one member per household, or undefined when the count passes `budget` (the caller then
 * estimates). Rows in canonical order (type, then household size).
 *
 * @param households - the household index (`householdIndex(groups, n)`: each respondent's household, -1 alone).
 * @param budget - most transitions of the forward pass (default {@link HOUSEHOLD_EXACT_BUDGET}).
 * @throws {@link InvalidInputError} `INVALID_ARGUMENT` for a budget that is not a whole number >= 1.
 *   A pool with no such panel gets every figure 0.
 * @category Sortition
 */
export function householdProbabilities(pool: SortitionPool, quotas: QuotaTable, k: number, households: Int32Array, budget = HOUSEHOLD_EXACT_BUDGET): HouseholdGroupProbability[] | undefined {
  if (!Number.isSafeInteger(budget) || budget < 1) throw new InvalidInputError('INVALID_ARGUMENT', `budget must be a whole number >= 1, got ${String(budget)}`, 'pass a positive budget')
  const { of: groupOf, groups } = householdGroupsOf(pool, households)
  const G = groups.length
  // Value slots: feature f's value v is slot base[f] + v.
  const base: number[] = []
  let slots = 0
  for (const f of pool.features) {
    base.push(slots)
    slots += f.values.length
  }
  const lo = new Int32Array(slots)
  const hi = new Int32Array(slots)
  pool.features.forEach((f, fi) => f.values.forEach((_, v) => ((lo[base[fi]! + v] = quotas.min[fi]![v]!), (hi[base[fi]! + v] = quotas.max[fi]![v]!))))
  const slotsOf = (r: number): number[] => pool.respondents[r]!.type.map((v, f) => base[f]! + v)
  // Items: each household of two or more (none or one member, by type), then each group living alone.
  const members = new Map<number, number[]>()
  const alone = new Map<number, number[]>()
  pool.respondents.forEach((_, r) => {
    const h = households[r] ?? -1
    const m = h < 0 ? alone : members
    const key = h < 0 ? groupOf[r]! : h
    m.set(key, [...(m.get(key) ?? []), r])
  })
  const items: { choices: Choice[]; cap: Int32Array; size: number }[] = []
  for (const rs of members.values()) {
    if (rs.length < 2) {
      // A household of one listed (not in a committed index, but accepted): a group of one living alone.
      alone.set(groupOf[rs[0]!]!, [...(alone.get(groupOf[rs[0]!]!) ?? []), ...rs])
      continue
    }
    const byGroup = new Map<number, number[]>()
    for (const r of rs) byGroup.set(groupOf[r]!, [...(byGroup.get(groupOf[r]!) ?? []), r])
    const cap = new Int32Array(slots)
    const choices: Choice[] = [...byGroup.entries()].map(([g, list]) => {
      const s = slotsOf(list[0]!)
      for (const x of s) cap[x] = 1
      return { c: 1, slots: s, group: g, ways: BigInt(list.length) }
    })
    items.push({ choices, cap, size: 1 })
  }
  for (const [g, rs] of alone) {
    const n = rs.length
    const s = slotsOf(rs[0]!)
    const cap = new Int32Array(slots)
    for (const x of s) cap[x] = n
    const row = binomialRow(n, Math.min(n, k))
    const choices: Choice[] = []
    for (let c = 1; c < row.length; c++) choices.push({ c, slots: s, group: g, ways: row[c]! })
    items.push({ choices, cap, size: Math.min(n, k) })
  }
  // What the items after position i can still add, per slot and in size.
  const T = items.length
  const capAfter: Int32Array[] = new Array<Int32Array>(T + 1)
  const sizeAfter = new Array<number>(T + 1).fill(0)
  capAfter[T] = new Int32Array(slots)
  for (let i = T - 1; i >= 0; i--) {
    const c = new Int32Array(slots)
    for (let x = 0; x < slots; x++) c[x] = capAfter[i + 1]![x]! + items[i]!.cap[x]!
    capAfter[i] = c
    sizeAfter[i] = sizeAfter[i + 1]! + items[i]!.size
  }
  const first = pool.features[0]!.values.length
  const sizeOf = (counts: Int32Array): number => {
    let s = 0
    for (let v = 0; v < first; v++) s += counts[v]!
    return s
  }
  // A state's key: its counts in mixed radix (each slot's radix its max + 1, capped at k + 1); when
  // that passes 2^53 the counts are too many to count exactly here.
  const mult = new Float64Array(slots)
  let radix = 1
  for (let x = 0; x < slots; x++) {
    mult[x] = radix
    radix *= Math.min(hi[x]!, k) + 1
  }
  if (radix > Number.MAX_SAFE_INTEGER) return undefined
  const fits = (counts: Int32Array, ch: Choice | undefined, i: number): boolean => {
    const after = capAfter[i]!
    let size = 0
    for (let v = 0; v < first; v++) size += counts[v]!
    if (ch !== undefined) {
      for (const x of ch.slots) if (counts[x]! + ch.c > hi[x]!) return false
      size += ch.c
    }
    if (size > k || size + sizeAfter[i]! < k) return false
    for (let x = 0; x < slots; x++) if (counts[x]! + after[x]! < lo[x]! && (ch === undefined || !ch.slots.includes(x) || counts[x]! + ch.c + after[x]! < lo[x]!)) return false
    return true
  }
  const shift = (ch: Choice): number => {
    let d = 0
    for (const x of ch.slots) d += ch.c * mult[x]!
    return d
  }
  const shifts = items.map((it) => it.choices.map(shift))
  // Forward: the states after each item (those that can still complete) and their partial panels F.
  const layers: Map<number, { counts: Int32Array; F: bigint }>[] = [new Map([[0, { counts: new Int32Array(slots), F: 1n }]])]
  let work = 0
  for (let i = 0; i < T; i++) {
    const next = new Map<number, { counts: Int32Array; F: bigint }>()
    const { choices } = items[i]!
    for (const [key, s] of layers[i]!) {
      work += choices.length + 1
      if (work > budget) return undefined
      for (let j = -1; j < choices.length; j++) {
        const ch = choices[j]
        if (!fits(s.counts, ch, i + 1)) continue
        const to = ch === undefined ? key : key + shifts[i]![j]!
        const add = ch === undefined ? s.F : ch.ways * s.F
        const e = next.get(to)
        if (e !== undefined) {
          e.F += add
          continue
        }
        let counts = s.counts
        if (ch !== undefined) {
          counts = Int32Array.from(s.counts)
          for (const x of ch.slots) counts[x]! += ch.c
        }
        next.set(to, { counts, F: add })
      }
    }
    layers.push(next)
  }
  // Backward: B = the completions of each state; group g's members over all valid panels, Σ F · ways · c · B.
  const sums = new Array<bigint>(G).fill(0n)
  let B = new Map<number, bigint>()
  for (const [key, s] of layers[T]!) if (sizeOf(s.counts) === k) B.set(key, 1n)
  for (let i = T - 1; i >= 0; i--) {
    const prev = new Map<number, bigint>()
    const { choices } = items[i]!
    for (const [key, s] of layers[i]!) {
      let total = B.get(key) ?? 0n
      for (let j = 0; j < choices.length; j++) {
        const ch = choices[j]!
        // A count over its max would carry into the next slot's digit of the key: not a transition.
        if (ch.slots.some((x) => s.counts[x]! + ch.c > hi[x]!)) continue
        const b = B.get(key + shifts[i]![j]!)
        if (b === undefined) continue
        const wb = ch.ways * b
        total += wb
        sums[ch.group]! += s.F * wb * BigInt(ch.c)
      }
      if (total !== 0n) prev.set(key, total)
    }
    layers[i + 1] = new Map()
    B = prev
  }
  const V = B.get(0) ?? 0n
  return groups.map((g, h) => {
    let num = sums[h]!
    let den = V === 0n ? 1n : V * BigInt(g.respondents)
    const d = gcd(num, den)
    if (d > 1n) {
      num /= d
      den /= d
    }
    return { type: g.type, household: g.household, respondents: g.respondents, numerator: num, denominator: den, decimal: decimalString(num, den) }
  })
}
