/**
 * The quota test of a round (docs/spec.md, The `panel` draw): the quotas of the features left to
 * rejection, flat for the hot path, and one round that tallies each member as it is picked.
 *
 * {@link roundMeets} reads exactly the bytes of `relaxedInto` (round.ts) (the same counts, the same
 * picks): the stream is where the spec puts it after every round, kept or not. What it saves is
 * work, not bytes: a member's values are counted as it is picked, and once a count passes its max the
 * round cannot be kept, so (with `fast`) the rest of its picks only read their bytes, without
 * looking up members or counting them.
 *
 * @module
 */
import { ChaChaStream, type RandomStream } from '../random/stream.js'
import { drawIndex } from '../random/uniform.js'
import { chooseCounts } from './choose-counts.js'
import type { Counter } from './count.js'
import type { QuotaTable, SortitionPool } from './pool.js'

/**
 * The quotas of a plan's features left to rejection, flat for the rounds' hot path: slot = the
 * feature's offset + the value; {@link OtherQuotas.tally} counts a panel's members per slot.
 */
export class OtherQuotas {
  /** The features left to rejection, canonical order. */
  readonly others: number[]
  /** First slot of each of them. */
  readonly offset: number[]
  /** Number of slots (values of the other features). */
  readonly slots: number
  /** Min and max per slot. */
  readonly lo: Int32Array
  readonly hi: Int32Array
  /** Per slot, the index (into `others`) of its feature. */
  readonly featureOf: Int32Array
  /** Members per slot after {@link OtherQuotas.tally} (or the picks so far of {@link roundMeets}). */
  readonly cnt: Int32Array
  /** Set by {@link roundMeets} when a count of the round passed its max. */
  over = false
  /** Each respondent's slots: `slotOf[r · others.length + j]`. */
  readonly slotOf: Int32Array

  constructor(plan: { readonly pool: SortitionPool; readonly counter: Pick<Counter, 'exact'>; readonly quotas: QuotaTable }) {
    const { pool, quotas } = plan
    const others = (this.others = pool.features.map((_, f) => f).filter((f) => !plan.counter.exact.includes(f)))
    const offset: number[] = []
    let slots = 0
    for (const f of others) {
      offset.push(slots)
      slots += pool.features[f]!.values.length
    }
    this.offset = offset
    this.slots = slots
    this.lo = new Int32Array(slots)
    this.hi = new Int32Array(slots)
    this.featureOf = new Int32Array(slots)
    others.forEach((f, j) =>
      pool.features[f]!.values.forEach((_, v) => {
        this.lo[offset[j]! + v] = quotas.min[f]![v]!
        this.hi[offset[j]! + v] = quotas.max[f]![v]!
        this.featureOf[offset[j]! + v] = j
      }),
    )
    this.slotOf = new Int32Array(pool.respondents.length * others.length)
    pool.respondents.forEach((r, i) => others.forEach((f, j) => (this.slotOf[i * others.length + j] = offset[j]! + r.type[f]!)))
    this.cnt = new Int32Array(slots)
  }

  /** Counts `members` per slot into {@link OtherQuotas.cnt}. */
  tally(members: ArrayLike<number>): void {
    const { cnt, slotOf } = this
    const E = this.others.length
    cnt.fill(0)
    for (let x = 0; x < members.length; x++) {
      const base = members[x]! * E
      for (let j = 0; j < E; j++) cnt[slotOf[base + j]!]!++
    }
  }

  /** True when `members` meet every quota of the other features. */
  meets(members: ArrayLike<number>): boolean {
    if (this.others.length === 0) return true
    this.tally(members)
    const { cnt, lo, hi } = this
    for (let x = 0; x < this.slots; x++) if (cnt[x]! < lo[x]! || cnt[x]! > hi[x]!) return false
    return true
  }
}


/** Scratch of {@link pickTally}: position → 1 + the position now there (0 = untouched), and the positions touched. */
let moved = new Int32Array(1024)
let touched = new Int32Array(1024)

/**
 * One round of the gate and the draw, with its quota test: `relaxedInto` (round.ts)'s bytes (the counts of
 * every cell, then `pickIndices(n_i, c_i)` for each cell with `c_i > 0`, in order), each picked member
 * counted per slot of `check` at once. Returns true when the round meets every quota of the other
 * features (then `out[0 … k)` holds its members in pick order and `check.cnt` its tally).
 *
 * `fast`: once a count passes its max the round is lost, and its remaining picks only read their
 * bytes (`out` and `check.cnt` then stay incomplete). Without it every member is counted (the gate's
 * refusal hints need each trial's full tally).
 */
export function roundMeets(counter: Counter, stream: RandomStream, counts: Int32Array, out: Int32Array, check: OtherQuotas, fast: boolean): boolean {
  chooseCounts(counter, stream, counts)
  const cells = counter.cells
  check.cnt.fill(0)
  check.over = false
  let at = 0
  for (let i = 0; i < cells.length; i++) {
    const c = counts[i]!
    if (c > 0) at = pickTally(stream, cells[i]!.members, c, out, at, check, fast)
  }
  if (check.over) return false
  const { cnt, lo } = check
  for (let x = 0; x < check.slots; x++) if (cnt[x]! < lo[x]!) return false
  return true
}

/**
 * `pickIndices(stream, members.length, c)` (docs/spec.md, Pick k of n), the chosen members written to
 * `out[at …]` in pick order and counted in `check` (setting `check.over` when a count passes its
 * max); the same bytes as {@link drawIndex} for each pick. Returns the index after the last written.
 */
function pickTally(stream: RandomStream, members: readonly number[], c: number, out: Int32Array, at: number, check: OtherQuotas, fast: boolean): number {
  const n = members.length
  if (moved.length < n) moved = new Int32Array(Math.max(n, 2 * moved.length))
  if (touched.length < c) touched = new Int32Array(Math.max(c, 2 * touched.length))
  const chacha = stream instanceof ChaChaStream ? stream : undefined
  const { cnt, hi, slotOf } = check
  const E = check.others.length
  let nt = 0
  for (let i = 0; i < c; i++) {
    const m = n - i
    let j = i
    if (m > 1) {
      if (chacha === undefined) j = i + drawIndex(stream, m)
      else {
        // drawIndex(stream, m), inlined: b = bit length of m − 1, L bytes big-endian, top byte masked. Kept
        // inlined because calling drawIndex here measured 403 against 282 ms of CPU per 20,000 rounds at k = 100 ±2.
        const b = 32 - Math.clz32(m - 1)
        const L = (b + 7) >> 3
        const topMask = (1 << (b - 8 * (L - 1))) - 1
        for (;;) {
          let pos = chacha.pos
          if (pos + L > chacha.end) {
            chacha.refill()
            pos = chacha.pos
          }
          const buf = chacha.buf
          let x = buf[pos]! & topMask
          for (let q = 1; q < L; q++) x = x * 256 + buf[pos + q]!
          chacha.pos = pos + L
          if (x < m) {
            j = i + x
            break
          }
        }
      }
    }
    if (fast && check.over) continue
    const atI = moved[i]! === 0 ? i : moved[i]! - 1
    let r: number
    if (j === i) r = members[atI]!
    else {
      r = members[moved[j]! === 0 ? j : moved[j]! - 1]!
      moved[j] = atI + 1
      touched[nt++] = j
    }
    out[at++] = r
    const base = r * E
    for (let q = 0; q < E; q++) {
      const slot = slotOf[base + q]!
      if (++cnt[slot]! > hi[slot]!) check.over = true
    }
  }
  for (let t = 0; t < nt; t++) moved[touched[t]!] = 0
  return at
}
