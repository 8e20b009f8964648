/**
 * Forged `panel` proofs that make a verifier replay the most rejection rounds the work bound
 * admits (docs/performance.md, "The worst a forged commitment costs a verifier"). Each is a private
 * (salted) commitment of plan method 3 that every rule of `commit` and `verify` accepts: the work bound
 * holds (nothing counted exactly, so the counter is one cell; 64-bit counts, `w` = 1), `maxRounds` is
 * the largest the draw cost allows (since issue 22, when each round is charged its real work: 1,391,645
 * rounds of 12,345 units for `min`, 1,032,133 of 16,645 with `households`, within 2^34; before, 4,000,000
 * rounds of 2k + 1 = 535 units within 2^31; `maxRounds` may be given above the limit, as a forger would
 * write it, and `verify` then refuses the commitment), and the
 * quotas are each feasible alone but break every round together: two features have the same value for
 * every respondent, one asks at least `m` members of value `v`, the other at most `m − 1`. (Or, with
 * `households`: loose quotas and one household of `N − k + 2` respondents, so every panel has two of
 * its members.) No gate is run by a verifier for method 3 (docs/spec.md, Plan methods), so a verifier
 * replays all `maxRounds` rounds before it can say the outcome is unproven. The proof reveals no entry
 * (a winners-only proof may reveal fewer than `k`) and claims an empty panel; it is over the tests'
 * made-up chain, so it verifies only under a relaxed policy (`allowUnsigned`, `allowUntimestamped`),
 * as every bench proof does. A real forger would use a real beacon block: the replay does not depend
 * on who signed the block.
 */
import { commit, describeCommitment } from '../src/core/commitment.js'
import { bytesToHex } from '../src/core/bytes.js'
import { deriveSeed } from '../src/core/seed.js'
import type { PanelSpec } from '../src/core/kinds/panel.js'
import { poolParticipants } from '../src/core/kinds/sortition.js'
import { planCost, type PlanCost } from '../src/core/sortition/cost.js'
import { checkQuotas, makePool, SORTITION_LIMITS, type QuotaRow } from '../src/core/sortition/pool.js'
import { BEACON_NAME, buildChain } from '../test/helpers/chain.js'

/** The shape of a forged commitment. */
export interface HostileShape {
  /** Features (2 … 16), every one with the same value for every respondent. */
  readonly features: number
  /** Values per feature (2 … 64). */
  readonly values: number
  /** Break every round by one household of `N − k + 2` respondents instead of by the quotas. */
  readonly households?: boolean
  /** The committed round cap (default: the largest the draw cost allows, at most 4,000,000). */
  readonly maxRounds?: number
}

/** A forged proof and what the work bound charges for it. */
export interface HostileProof {
  /** The proof as compact JSON text. */
  readonly text: string
  /** The commitment alone (its canonical JSON text, as the proof carries it). */
  readonly commitmentText: string
  /** The work bound of the committed plan (`rounds` = its `maxRounds`). */
  readonly cost: PlanCost
  readonly k: number
  readonly n: number
  readonly maxRounds: number
}

/** Panel size and pool: `w` = 1 (C(277, 267) < 2^64): the counts are cheap and the picks many. */
export const HOSTILE_K = 267
export const HOSTILE_N = 277

/** 64 one-character value names, in code-point order. */
const ALPHABET = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz'

/** Builds the forged commitment and its proof (deterministic: the same bytes every run). */
export function hostileProof(shape: HostileShape): HostileProof {
  const { features: F, values: V } = shape
  if (F < 2 || F > SORTITION_LIMITS.maxFeatures || V < 2 || V > SORTITION_LIMITS.maxValuesPerFeature) throw new Error('2 … 16 features of 2 … 64 values')
  const k = HOSTILE_K
  const n = HOSTILE_N
  const d = n - k
  // Value j has `avail[j]` respondents; the last value has 20 (more than N − k, so its count is at least 10 in every panel).
  const avail = Array.from({ length: V }, (_, j) => (j === V - 1 ? 20 : Math.floor((n - 20) / (V - 1)) + (j < (n - 20) % (V - 1) ? 1 : 0)))
  const names = Array.from({ length: F }, (_, f) => String.fromCharCode(97 + f))
  const rows: { id: string; values: string[] }[] = []
  avail.forEach((a, j) => {
    for (let r = 0; r < a; r++) rows.push({ id: String(rows.length).padStart(3, '0'), values: names.map(() => ALPHABET[j]!) })
  })
  const pool = makePool(names, rows)
  // The last value's count c lies in [a − d, a]: the second-to-last feature asks c ≥ m, the last c ≤ m − 1, with
  // m = a − d + 1, the smallest m each feature's own checks admit (its maxes, capped by the respondents, still reach k).
  const m = avail[V - 1]! - d + 1
  const quotas: QuotaRow[] = pool.features.flatMap((f, fi) =>
    f.values.map((value, v) => {
      const last = v === V - 1 && shape.households !== true
      return { feature: f.name, value, min: last && fi === F - 2 ? m : 0, max: last && fi === F - 1 ? m - 1 : k }
    }),
  )
  const table = checkQuotas(pool, quotas, k)
  const { types, entries } = poolParticipants(pool)
  const households = shape.households === true
  const round = planCost(pool, table, k, [], 1, Infinity, households).round
  const maxRounds = shape.maxRounds ?? Math.min(SORTITION_LIMITS.maxRejectionRoundsV3, Math.floor(SORTITION_LIMITS.maxDrawCost / round))
  const draw: PanelSpec = {
    kind: 'panel',
    k,
    alternates: 0,
    features: pool.features.map((f, fi) => ({ name: f.name, values: [...f.values], min: [...table.min[fi]!], max: [...table.max[fi]!] })),
    types,
    exact: [],
    plan: 3,
    maxRounds,
    // The last N − k + 2 committed indices: every panel leaves out at most N − k of them.
    ...(shape.households === true ? { households: [Array.from({ length: d + 2 }, (_, i) => n - d - 2 + i)] } : {}),
  }
  const chain = buildChain(3, 'hostile')
  // Committed with one round, then given its cap: a cap over the draw cost (as the 4,000,000 rounds the work
  // bound admitted before issue 22) is what a forger writes by hand, and `commit` would refuse it.
  const one = commit({ beacon: BEACON_NAME, target: 2, after: { sequence: 1, block: chain[1]!.cid }, label: 'h', draw: { ...draw, maxRounds: 1 }, participants: entries, private: { secret: new Uint8Array(32).fill(1) } })
  const { cid, json, bytes } = describeCommitment({ ...one.commitment, draw: { ...draw, maxRounds } })
  const text = forgedProofText(json, cid, chain[2]!)
  return { text, commitmentText: new TextDecoder().decode(bytes), cost: planCost(pool, table, k, [], maxRounds, Infinity, households), k, n, maxRounds }
}

/**
 * The shape of a forged commitment that attacks the exact counter instead of the rounds (issue 22,
 * `worstcase`; docs/security.md, "A forged `panel` commitment's count"): two features `a` and `b` of
 * 64 values each, both counted exactly (`exact: ["a", "b"]`, the committed counter order: equal numbers
 * of values, canonical order), one respondent per type, the types the grid `a < rows` × every `b`, then
 * `(a, 0)` for the other 58 or so values of `a` (each value present once). Every quota is `[0, k]`. In
 * the counter's order the 64 values of `b` come back in every row of the grid, so after the first row all
 * of them stay open to the end: a state is a vector of about `64 + rows` counts, and with a small `k`
 * there are millions of them per layer. The count cost charges each transition `w` = 1 unit, but the
 * counter copies and hashes the whole vector for it and keeps it (4 bytes a count) with a bigint.
 */
export interface HostileCountShape {
  /** Rows of the grid (values of `a` that meet every value of `b`), 1 … 63. */
  readonly rows: number
  /** Panel size (small: many states per layer, `w` = 1). */
  readonly k: number
  /** Values of `b` (2 … 64; default 64): fewer values, smaller state keys, so more states within the key cost. */
  readonly values?: number
  /**
   * Add rejection rounds: two more features `c` and `d`, not exact, with value `1` for the last 4
   * respondents of the grid and `0` for every other, `c` asking at least 1 member of value `1` and `d`
   * at most 0, so no round is kept; plan method 3 with `maxRounds` = this (`'max'`: the largest the
   * draw cost allows). The rounds then walk a counter of millions of states.
   */
  readonly rounds?: number | 'max'
}

/** A forged count proof: the proof, its commitment, its work bound. */
export interface HostileCountProof {
  readonly text: string
  readonly commitmentText: string
  readonly cost: PlanCost
  readonly k: number
  readonly n: number
  /** Rounds charged: the committed `maxRounds`, else 1. */
  readonly maxRounds: number
}

/** The pool and quotas of a {@link HostileCountShape} (for tests: its work bound without a proof). */
export function hostileCountPlan(shape: HostileCountShape): { pool: ReturnType<typeof makePool>; table: ReturnType<typeof checkQuotas>; exact: number[] } {
  const { rows: A, k } = shape
  const B = shape.values ?? 64
  if (!Number.isSafeInteger(A) || A < 1 || A > 63) throw new Error('rows: 1 … 63')
  if (!Number.isSafeInteger(B) || B < 2 || B > 64) throw new Error('values: 2 … 64')
  const reject = shape.rounds !== undefined
  const value = (v: number): string => ALPHABET[v]!
  const out: { id: string; values: string[] }[] = []
  const grid = B * A
  const push = (a: number, b: number): void => {
    const x = out.length >= grid - 4 && out.length < grid ? '1' : '0'
    out.push({ id: String(out.length).padStart(5, '0'), values: reject ? [value(a), value(b), x, x] : [value(a), value(b)] })
  }
  for (let a = 0; a < A; a++) for (let b = 0; b < B; b++) push(a, b)
  for (let a = A; a < 64; a++) push(a, 0)
  const pool = makePool(reject ? ['a', 'b', 'c', 'd'] : ['a', 'b'], out)
  const bounds = (f: string, v: string): [number, number] => (f === 'c' && v === '1' ? [1, k] : f === 'd' && v === '1' ? [0, 0] : [0, k])
  const table = checkQuotas(pool, pool.features.flatMap((f) => f.values.map((v) => ({ feature: f.name, value: v, min: bounds(f.name, v)[0], max: bounds(f.name, v)[1] }))), k)
  return { pool, table, exact: [0, 1] }
}

/** Builds the forged count commitment and its proof (deterministic). */
export function hostileCountProof(shape: HostileCountShape): HostileCountProof {
  const { pool, table, exact } = hostileCountPlan(shape)
  const k = shape.k
  const { types, entries } = poolParticipants(pool)
  const roundCost = planCost(pool, table, k, exact, 1).round
  const maxRounds = shape.rounds === 'max' ? Math.min(SORTITION_LIMITS.maxRejectionRoundsV3, Math.floor(SORTITION_LIMITS.maxDrawCost / roundCost)) : shape.rounds
  const draw: PanelSpec = {
    kind: 'panel',
    k,
    alternates: 0,
    features: pool.features.map((f, fi) => ({ name: f.name, values: [...f.values], min: [...table.min[fi]!], max: [...table.max[fi]!] })),
    types,
    exact: exact.map((f) => pool.features[f]!.name),
    ...(maxRounds === undefined ? {} : { plan: 3, maxRounds }),
  }
  const chain = buildChain(3, 'hostile')
  // Committed without exact features (one cell: `commit` checks it at once), then given them: `commit`
  // would count the forged plan itself, which is the work this proof makes a verifier do.
  const one = commit({ beacon: BEACON_NAME, target: 2, after: { sequence: 1, block: chain[1]!.cid }, label: 'h', draw: { ...draw, exact: [], plan: 3, maxRounds: 1 }, participants: entries, private: { secret: new Uint8Array(32).fill(1) } })
  const { cid, json, bytes } = describeCommitment({ ...one.commitment, draw })
  const text = forgedProofText(json, cid, chain[2]!)
  return { text, commitmentText: new TextDecoder().decode(bytes), cost: planCost(pool, table, k, exact, maxRounds ?? 1), k, n: pool.respondents.length, maxRounds: maxRounds ?? 1 }
}

/** The proof text of a forged private panel commitment over `block`: nothing revealed, an empty outcome. */
function forgedProofText(commitment: ReturnType<typeof describeCommitment>['json'], cid: string, block: ReturnType<typeof buildChain>[number]): string {
  return JSON.stringify({
    type: 'orbitdraw-proof',
    version: 1,
    commitment,
    commitmentCid: cid,
    participants: { disclosure: 'winners', revealed: [] },
    chain: { blocks: [{ cid: block.cid, bytes: Buffer.from(block.bytes).toString('base64') }] },
    seed: bytesToHex(deriveSeed(cid, block)),
    outcome: { kind: 'panel', members: [], alternates: [], rounds: 1, quotas: [] },
  })
}

/**
 * The forged alternates proof (found by fuzzing after issue 22; docs/security.md): a private (salted)
 * `panel` commitment claiming `N` respondents in two types, `k` members, `features` features and
 * `N − k` alternates (unless given), revealing nothing. Every feature is exact (one cell per type), so the draw cost
 * charges one cheap round, but the last feature asks all `k` members to be `x` and none `y`: no `y` can
 * replace a member, so the alternates' ranking ranks every non-member and tests each against every
 * member on every feature (before the alternates cost: 36 s of CPU and 353 MB for 1,000,000
 * respondents, k = 1000, 16 features). Built by hand: `commit` refuses it.
 */
export function hostileAlternatesProof(shape: { readonly n?: number; readonly k?: number; readonly features?: number; readonly alternates?: number } = {}): { text: string; commitmentText: string; n: number; k: number; features: number; alternates: number } {
  const n = shape.n ?? SORTITION_LIMITS.maxPoolSize
  const k = shape.k ?? SORTITION_LIMITS.maxPanelSize
  const F = shape.features ?? SORTITION_LIMITS.maxFeatures
  const alternates = shape.alternates ?? n - k
  const names = Array.from({ length: F }, (_, i) => `f${String(i).padStart(2, '0')}`)
  const last = names[F - 1]!
  const draw: PanelSpec = {
    kind: 'panel',
    k,
    alternates,
    exact: [last, ...names.slice(0, F - 1)],
    features: names.map((name, i) => (i < F - 1 ? { name, values: ['x'], min: [0], max: [k] } : { name, values: ['x', 'y'], min: [k, 0], max: [k, 0] })),
    types: [
      [...new Array<number>(F).fill(0), k],
      [...new Array<number>(F - 1).fill(0), 1, n - k],
    ],
  }
  const chain = buildChain(3, 'hostile')
  const { cid, json, bytes } = describeCommitment({ version: 1, beacon: BEACON_NAME, target: 2, after: { sequence: 1, block: chain[1]!.cid }, label: 'h', draw, participants: { count: n, root: 'ab'.repeat(32), salted: true } })
  return { text: forgedProofText(json, cid, chain[2]!), commitmentText: new TextDecoder().decode(bytes), n, k, features: F, alternates }
}
