/** Small sortition pools whose valid panels can be enumerated, and a brute-force reference. */
import { makePool, type QuotaRow, type QuotaTable, type SortitionPool } from '../../../src/core/sortition/pool.js'

/** Deterministic generator (Park–Miller), for building fixtures only (never for draws). */
export function lcg(seed: number): (m: number) => number {
  let x = seed % 2147483647 || 1
  return (m) => {
    x = (x * 48271) % 2147483647
    return x % m
  }
}

/** A pool of `n` respondents with features of the given sizes (values `v0`, `v1`, ...). */
export function smallPool(n: number, sizes: readonly number[], seed: number): SortitionPool {
  const rnd = lcg(seed)
  const names = sizes.map((_, f) => `f${f}`)
  const rows = Array.from({ length: n }, (_, i) => ({ id: `r${String(i).padStart(3, '0')}`, values: sizes.map((s) => `v${rnd(s)}`) }))
  return makePool(names, rows)
}

/** Quota rows around the proportional share: [floor(e) - slack, ceil(e) + slack], clipped at 0. */
export function proportionalQuotas(pool: SortitionPool, k: number, slack: number): QuotaRow[] {
  const n = pool.respondents.length
  return pool.features.flatMap((f, fi) => {
    const cnt = new Array<number>(f.values.length).fill(0)
    for (const r of pool.respondents) cnt[r.type[fi]!]!++
    return f.values.map((v, j) => {
      const e = (cnt[j]! * k) / n
      return { feature: f.name, value: v, min: Math.max(0, Math.floor(e) - slack), max: Math.ceil(e) + slack }
    })
  })
}

/** Does the panel meet every quota on the given features (default all)? */
export function valid(pool: SortitionPool, table: QuotaTable, members: readonly number[], features?: readonly number[]): boolean {
  for (const f of features ?? pool.features.map((_, i) => i)) {
    const c = new Array<number>(pool.features[f]!.values.length).fill(0)
    for (const m of members) c[pool.respondents[m]!.type[f]!]!++
    for (let v = 0; v < c.length; v++) if (c[v]! < table.min[f]![v]! || c[v]! > table.max[f]![v]!) return false
  }
  return true
}

/** Every size-k subset (ascending index lists) meeting the quotas of `features` (default all). */
export function enumeratePanels(pool: SortitionPool, table: QuotaTable, k: number, features?: readonly number[]): number[][] {
  const n = pool.respondents.length
  const out: number[][] = []
  const cur: number[] = []
  const rec = (start: number): void => {
    if (cur.length === k) {
      if (valid(pool, table, cur, features)) out.push(cur.slice())
      return
    }
    for (let i = start; i <= n - (k - cur.length); i++) {
      cur.push(i)
      rec(i + 1)
      cur.pop()
    }
  }
  rec(0)
  return out
}
