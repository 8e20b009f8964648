/**
 * An independent, spec-literal re-implementation of the `panel` draw (docs/spec.md, Sortition), written
 * from the spec only: canonical order by UTF-8 bytes, cells by key, W by memoized recursion over full
 * count vectors (no open-value DP, no pruning), the spec's uniform and pick on bigints over `nextBytes`.
 * Slow, for small vectors only.
 */
import type { RandomStream } from '../../../src/core/random/stream.js'
import { specUniform } from '../random/util.js'

const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8')
const byBytes = (a: string, b: string): number => Buffer.compare(utf8(a), utf8(b))

function binom(n: number, c: number): bigint {
  let r = 1n
  for (let i = 0; i < c; i++) r = (r * BigInt(n - i)) / BigInt(i + 1)
  return r
}

function pick(stream: RandomStream, n: number, k: number): number[] {
  const a = Array.from({ length: n }, (_, i) => i)
  for (let i = 0; i < k; i++) {
    const j = i + Number(specUniform(stream, BigInt(n - i)))
    ;[a[i], a[j]] = [a[j]!, a[i]!]
  }
  return a.slice(0, k)
}

/** Replays a vector's draw; returns what the vector records. */
export function referencePanel(
  header: string[],
  rows: string[][],
  quotas: [string, string, number, number][],
  k: number,
  exactFeatures: string[],
  stream: RandomStream,
  alternates = 0,
): { relaxedCount: bigint; firstRound: number[]; rounds: number; members: string[]; alternates: string[] } {
  const names = header.slice(1).map((name, col) => ({ name, col: col + 1 })).sort((a, b) => byBytes(a.name, b.name))
  const values = names.map(({ col }) => [...new Set(rows.map((r) => r[col]!))].sort(byBytes))
  const people = rows.map((r) => ({ id: r[0]!, type: names.map(({ col }, f) => values[f]!.indexOf(r[col]!)) })).sort((a, b) => byBytes(a.id, b.id))
  const fIdx = (name: string): number => names.findIndex((x) => x.name === name)
  const min = values.map((vs) => vs.map(() => 0))
  const max = values.map((vs) => vs.map(() => 0))
  for (const [f, v, lo, hi] of quotas) {
    min[fIdx(f)]![values[fIdx(f)]!.indexOf(v)] = lo
    max[fIdx(f)]![values[fIdx(f)]!.indexOf(v)] = hi
  }
  const E = exactFeatures.map(fIdx)
  const cellMap = new Map<string, { key: number[]; members: number[] }>()
  people.forEach((p, i) => {
    const key = E.map((f) => p.type[f]!)
    const s = JSON.stringify(key)
    if (!cellMap.has(s)) cellMap.set(s, { key, members: [] })
    cellMap.get(s)!.members.push(i)
  })
  const cells = [...cellMap.values()].sort((a, b) => {
    for (let j = 0; j < a.key.length; j++) if (a.key[j] !== b.key[j]) return a.key[j]! - b.key[j]!
    return 0
  })
  const memo = new Map<string, bigint>()
  // counts: per exact feature, per value; size = total so far.
  const W = (i: number, counts: number[][], size: number): bigint => {
    if (size > k) return 0n
    if (i === cells.length) {
      if (size !== k) return 0n
      return E.every((f, j) => counts[j]!.every((c, v) => c >= min[f]![v]! && c <= max[f]![v]!)) ? 1n : 0n
    }
    const key = `${i}|${size}|${JSON.stringify(counts)}`
    const hit = memo.get(key)
    if (hit !== undefined) return hit
    let total = 0n
    const n = cells[i]!.members.length
    for (let c = 0; c <= n; c++) total += binom(n, c) * W(i + 1, add(counts, cells[i]!.key, c), size + c)
    memo.set(key, total)
    return total
  }
  const add = (counts: number[][], key: number[], c: number): number[][] => counts.map((row, j) => row.map((x, v) => (v === key[j] ? x + c : x)))
  const start = E.map((f) => values[f]!.map(() => 0))
  const relaxedCount = W(0, start, 0)
  let firstRound: number[] = []
  for (let round = 1; round <= 100_000; round++) {
    let counts = start
    let size = 0
    const cs: number[] = []
    for (let i = 0; i < cells.length; i++) {
      let x = specUniform(stream, W(i, counts, size))
      const n = cells[i]!.members.length
      for (let c = 0; c <= n; c++) {
        const b = binom(n, c) * W(i + 1, add(counts, cells[i]!.key, c), size + c)
        if (x < b) {
          cs.push(c)
          counts = add(counts, cells[i]!.key, c)
          size += c
          break
        }
        x -= b
      }
    }
    if (round === 1) firstRound = cs
    const members: number[] = []
    cells.forEach((cell, i) => {
      if (cs[i]! > 0) for (const p of pick(stream, cell.members.length, cs[i]!)) members.push(cell.members[p]!)
    })
    members.sort((a, b) => a - b)
    const others = names.map((_, f) => f).filter((f) => !E.includes(f))
    const ok = others.every((f) => values[f]!.every((_, v) => {
      const c = members.filter((m) => people[m]!.type[f] === v).length
      return c >= min[f]![v]! && c <= max[f]![v]!
    }))
    if (!ok) continue
    // Alternates: rank the non-members (canonical order) by pick, one rank at a time; keep those who
    // could replace some member with every quota met.
    const meets = (panel: number[]): boolean =>
      names.every((_, f) => values[f]!.every((_, v) => {
        const c = panel.filter((m) => people[m]!.type[f] === v).length
        return c >= min[f]![v]! && c <= max[f]![v]!
      }))
    const rest = people.map((_, i) => i).filter((i) => !members.includes(i))
    const order = rest.slice()
    const alts: number[] = []
    for (let i = 0; i < order.length && alts.length < alternates; i++) {
      const j = i + Number(specUniform(stream, BigInt(order.length - i)))
      ;[order[i], order[j]] = [order[j]!, order[i]!]
      const a = order[i]!
      if (members.some((p) => meets([...members.filter((m) => m !== p), a]))) alts.push(a)
    }
    return { relaxedCount, firstRound, rounds: round, members: members.map((m) => people[m]!.id), alternates: alts.map((m) => people[m]!.id) }
  }
  throw new Error('reference: rejection limit')
}

/**
 * The plan's work bound (docs/spec.md, Sortition, Work bound), spec-literal: cells as above, and per
 * layer every vector of the open values' boxes enumerated one by one (no convolution, no prefix sums),
 * with exact bigints saturated at 2^40 after each operation. Small plans only.
 */
export function referenceCost(
  header: string[],
  rows: string[][],
  quotas: [string, string, number, number][],
  k: number,
  exactFeatures: string[],
  rounds: number,
  households = false,
): { words: number; states: number; transitions: number; keys: number; count: number; round: number; blocks: number; choose: number; picks: number; keep: number; household: number; walk: number; draw: number } {
  const CAP = 1n << 40n
  const sat = (x: bigint): bigint => (x > CAP ? CAP : x)
  const names = header.slice(1).map((name, col) => ({ name, col: col + 1 })).sort((a, b) => byBytes(a.name, b.name))
  const values = names.map(({ col }) => [...new Set(rows.map((r) => r[col]!))].sort(byBytes))
  const fIdx = (name: string): number => names.findIndex((x) => x.name === name)
  const min = values.map((vs) => vs.map(() => 0))
  const max = values.map((vs) => vs.map(() => 0))
  for (const [f, v, lo, hi] of quotas) {
    min[fIdx(f)]![values[fIdx(f)]!.indexOf(v)] = lo
    max[fIdx(f)]![values[fIdx(f)]!.indexOf(v)] = hi
  }
  const E = exactFeatures.map(fIdx)
  const keyOf = (r: string[]): number[] => E.map((f) => values[f]!.indexOf(r[names[f]!.col]!))
  const sizes = new Map<string, { key: number[]; n: number }>()
  for (const r of rows) {
    const key = keyOf(r)
    const s = JSON.stringify(key)
    if (!sizes.has(s)) sizes.set(s, { key, n: 0 })
    sizes.get(s)!.n++
  }
  const cells = [...sizes.values()].sort((a, b) => {
    for (let j = 0; j < a.key.length; j++) if (a.key[j] !== b.key[j]) return a.key[j]! - b.key[j]!
    return 0
  })
  const N = rows.length
  const words = BigInt(Math.ceil(binom(N, k).toString(2).length / 64))
  const has = (i: number, j: number, v: number): number => (cells[i]!.key[j] === v ? cells[i]!.n : 0)
  let count = 0n
  let blocks = 0n
  let states = 0n
  let transitions = 0n
  let keys = 0n
  for (let i = 0; i < cells.length; i++) {
    const before = cells.slice(0, i).reduce((a, c) => a + c.n, 0)
    let m = Math.min(cells[i]!.n, k)
    E.forEach((f, j) => (m = Math.min(m, max[f]![cells[i]!.key[j]!]!)))
    blocks += BigInt(m + 1)
    let open = 0
    let layerStates = 0n
    let layerTrans = 0n
    for (let S = Math.max(0, k - (N - before)); S <= Math.min(k, before); S++) {
      let prod = 1n
      open = 0
      E.forEach((f, j) => {
        let cMin = 0
        let cMax = 0
        const boxes: [number, number][] = []
        values[f]!.forEach((_, v) => {
          const idx = cells.map((_, c) => c).filter((c) => cells[c]!.key[j] === v)
          const first = idx.length === 0 ? cells.length : Math.min(...idx)
          const last = idx.length === 0 ? -1 : Math.max(...idx)
          const seen = cells.slice(0, i).reduce((a, _, c) => a + has(c, j, v), 0)
          const avail = cells.reduce((a, _, c) => a + has(c, j, v), 0)
          if (last < i) {
            cMin += min[f]![v]!
            cMax += Math.min(max[f]![v]!, avail)
          } else if (first < i) boxes.push([Math.max(0, min[f]![v]! - (avail - seen)), Math.min(max[f]![v]!, seen, k)])
        })
        open += boxes.length
        // Enumerate every vector of the boxes; count those whose sum is in [S − cMax, S − cMin].
        let g = 0n
        const walk = (p: number, sum: number): void => {
          if (p === boxes.length) {
            if (sum >= S - cMax && sum <= S - cMin) g++
            return
          }
          for (let x = boxes[p]![0]; x <= boxes[p]![1]; x++) walk(p + 1, sum + x)
        }
        walk(0, 0)
        prod = prod === 0n || g === 0n ? 0n : sat(prod * sat(g))
      })
      if (prod === 0n) continue
      layerStates = sat(layerStates + prod)
      layerTrans = sat(layerTrans + sat(prod * BigInt(Math.min(m, k - S) + 1)))
    }
    states = sat(states + layerStates)
    transitions = sat(transitions + layerTrans)
    // Keys: each transition builds a state of at most 1 + P_i + E counts, charged 16 + P_i + E.
    keys = sat(keys + sat(layerTrans * BigInt(16 + open + E.length)))
    count = sat(count + sat(words * layerTrans) + sat(BigInt(k + 1) * BigInt(1 + open)))
  }
  // Round: 512 units, the blocks at w + 16 units each, 25 units a pick, the keep test over the features outside E
  // (k per feature plus its values), 2 units a member for the household test, and the walk: 64 units a cell,
  // 64 + 512 when the states (summed over the layers) are more than 4,096.
  const others = names.map((_, f) => f).filter((f) => !E.includes(f))
  const keep = BigInt(k * others.length + others.reduce((a, f) => a + values[f]!.length, 0))
  const choose = sat((words + 16n) * blocks)
  const picks = 25n * BigInt(k)
  const household = households ? 2n * BigInt(k) : 0n
  const walk = sat((states > 4096n ? 64n + 512n : 64n) * BigInt(cells.length))
  const round = sat(512n + choose + picks + keep + household + walk)
  return { words: Number(words), states: Number(states), transitions: Number(transitions), keys: Number(keys), count: Number(count), round: Number(round), blocks: Number(blocks), choose: Number(choose), picks: Number(picks), keep: Number(keep), household: Number(household), walk: Number(walk), draw: Number(sat(BigInt(rounds) * round)) }
}
