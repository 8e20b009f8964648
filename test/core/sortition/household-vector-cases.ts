/**
 * The household vectors (test/vectors/households.json): a pool CSV with a household column, quotas, k,
 * alternates and a seed; the committed `households`, every round of the draw with why it was kept or
 * not, the members, the alternates and the stream bytes read. Each round is traced here by the spec's
 * loop written out (relaxedPanel, then the two tests), independently of the kind's draw loop.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, hexToBytes } from '../../../src/core/bytes.js'
import type { PanelSpec } from '../../../src/core/sortition/index.js'
import type { PanelOutcome } from '../../../src/core/sortition/index.js'
import { panelKind } from '../../../src/core/kinds/index.js'
import { panelDraw } from '../../../src/core/sortition/index.js'
import { computeOutcome } from '../../../src/core/kinds/index.js'
import { streamFromSeed } from '../../../src/core/random/index.js'
import { checkQuotas, meetsQuotas, planPanel, relaxedPanel, SORTITION_LIMITS } from '../../../src/core/sortition/index.js'
import { acceptanceStream } from '../../../src/core/sortition/plan.js'
import { householdIndex, sharedHousehold } from '../../../src/core/sortition/household.js'
import { compositionPool, compositionQuotas } from '../../../src/core/kinds/sortition.js'
import { methodOptions } from '../../../src/core/kinds/panel.js'
import { plan2Inputs } from './plan2-cases.js'
import { lcg } from './fixtures.js'
import { parseHouseholdPoolCsv, parseQuotasCsv } from '../../../src/sortition/csv.js'

export interface HouseholdVectorInput {
  readonly name: string
  readonly pool: string
  readonly quotas: string
  readonly k: number
  readonly alternateCount: number
  readonly exactFeatures?: readonly string[]
  readonly seed: string
  /** Record the draw's rounds in the compact form (docs/spec.md, Households, Vectors) instead of every round. */
  readonly compact?: true
}

/** One round in full: its number, the stream bytes read before it, its cell counts, members and verdict. */
export interface FullRound {
  readonly round: number
  readonly offset: number
  readonly cellCounts: readonly number[]
  readonly members: readonly number[]
  readonly verdict: Verdict
}

type Verdict = 'kept' | 'quota' | 'household'

/**
 * The compact record of a draw's rounds (docs/spec.md, Households, Vectors): the number of rounds, the
 * verdicts' tally, the running SHA-256 of the rounds (`h_0` = 32 zero bytes; `h_r` = SHA-256(`h_{r−1}` ‖
 * u32be(r) ‖ verdict byte (0 quota, 1 household, 2 kept) ‖ u32be of each member, ascending)), its value
 * after every 1,024th round, and the first and last 3 rounds in full (the last one is the kept round).
 */
export interface CompactRounds {
  readonly count: number
  readonly verdicts: { readonly quota: number; readonly household: number; readonly kept: number }
  readonly sha256: string
  readonly checkpointEvery: number
  readonly checkpoints: readonly string[]
  readonly first: readonly FullRound[]
  readonly last: readonly FullRound[]
}

/** Rounds kept in full at each end of a compact record, and the checkpoint spacing. */
const ENDS = 3
const CHECKPOINT_EVERY = 1024
const VERDICT_BYTE: Record<Verdict, number> = { quota: 0, household: 1, kept: 2 }

/** The running hash's next value: SHA-256(previous ‖ u32be(round) ‖ verdict byte ‖ u32be(member)…). */
export function nextRoundHash(previous: Uint8Array, round: number, verdict: Verdict, members: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(32 + 4 + 1 + 4 * members.length)
  const view = new DataView(bytes.buffer)
  bytes.set(previous, 0)
  view.setUint32(32, round)
  bytes[36] = VERDICT_BYTE[verdict]
  members.forEach((m, i) => view.setUint32(37 + 4 * i, m))
  return sha256(bytes)
}

/** The compact record of full rounds (every round given: the generator's own trace). */
export function compactRounds(rounds: readonly FullRound[]): CompactRounds {
  let h: Uint8Array = new Uint8Array(32)
  const checkpoints: string[] = []
  const verdicts = { quota: 0, household: 0, kept: 0 }
  for (const r of rounds) {
    h = nextRoundHash(h, r.round, r.verdict, r.members)
    verdicts[r.verdict]++
    if (r.round % CHECKPOINT_EVERY === 0) checkpoints.push(bytesToHex(h))
  }
  return { count: rounds.length, verdicts, sha256: bytesToHex(h), checkpointEvery: CHECKPOINT_EVERY, checkpoints, first: rounds.slice(0, ENDS), last: rounds.slice(-ENDS) }
}

export interface HouseholdVector extends HouseholdVectorInput {
  readonly exact: readonly string[]
  /** The committed plan method when not 1 (docs/spec.md, Plan methods; Households). */
  readonly plan?: 2 | 3
  /** Plan method 3: the committed round cap, 16 times the 10th kept trial of its gate. */
  readonly maxRounds?: number
  /** Plan methods 2 and 3: the gate with households on method 2's gate stream, the (1-based) trials kept by both rules, up to the 12th (method 2) or the 10th (method 3). */
  readonly gateKept?: readonly number[]
  readonly households: readonly (readonly number[])[]
  /** Every round of the draw (the cases without `compact`). */
  readonly rounds?: readonly { readonly members: readonly number[]; readonly verdict: Verdict }[]
  /** The compact record of the rounds (the cases with `compact`). */
  readonly roundsCompact?: CompactRounds
  readonly members: readonly number[]
  readonly alternates: readonly number[]
  readonly consumed: number
}

function pool(n: number, households: number, seed: number): string {
  const rnd = lcg(seed)
  const rows = ['id,gender,age,address']
  for (let i = 0; i < n; i++) rows.push(`p${String(i).padStart(2, '0')},${['f', 'm'][rnd(2)]},${['a', 'b', 'c'][rnd(3)]},${rnd(2) === 0 ? `${rnd(households)} Elm  Rd` : `${rnd(households)} ELM RD `}`)
  return `${rows.join('\n')}\n`
}

/**
 * Plan method 2's vector pool (method 1's gate keeps 5 of 2,000 trials) with an address column: three
 * households of two (spelled differently), everyone else alone.
 */
function plan2Pool(): { pool: string; quotas: string; k: number } {
  const input = plan2Inputs()[0]!
  const pairs: Record<string, string> = { r01: '7 Oak St', r02: ' 7  OAK st', r10: 'Flat 2, 9 Mill Lane', r20: 'flat 2, 9 mill lane', r05: '3 Rue Haute', r30: '3 rue haute ' }
  const rows = [[...input.header, 'address'].join(','), ...input.rows.map((r) => [...r, JSON.stringify(pairs[r[0]!] ?? `${r[0]!} alone`)].join(','))]
  const quotas = ['feature,value,min,max', ...input.quotas.map((q) => q.join(','))]
  return { pool: `${rows.join('\n')}\n`, quotas: `${quotas.join('\n')}\n`, k: input.k }
}

/**
 * Plan method 3 with households: 27 respondents of one feature whose quotas every panel meets (counted
 * exactly), households of 4, 4, 4, 3, 3, 2 and 2 and five alone, k = 12: about 1 round in 7,500 keeps the
 * household rule, so methods 1 and 2 refuse and method 3 commits 16 x its 10th kept trial.
 */
function plan3Pool(): { pool: string; quotas: string; k: number } {
  const rows = ['id,g,address']
  let i = 0
  ;[4, 4, 4, 3, 3, 2, 2].forEach((size, h) => {
    for (let j = 0; j < size; j++, i++) rows.push(`h${h}-${j},${i % 2 === 0 ? 'a' : 'b'},"${h} Main St${j % 2 === 0 ? '' : ' '}"`)
  })
  for (let j = 0; j < 5; j++, i++) rows.push(`s${j},${i % 2 === 0 ? 'a' : 'b'},s${j} alone`)
  return { pool: `${rows.join('\n')}\n`, quotas: 'feature,value,min,max\ng,a,0,12\ng,b,0,12\n', k: 12 }
}

export function householdVectorInputs(): HouseholdVectorInput[] {
  return [
    { name: 'every feature counted, households by rejection', pool: pool(16, 6, 3), quotas: 'feature,value,min,max\ngender,f,1,3\ngender,m,1,3\nage,a,0,2\nage,b,0,2\nage,c,0,2\n', k: 4, alternateCount: 2, seed: '04'.repeat(32) },
    { name: 'nothing counted exactly: quotas and households by rejection', pool: pool(16, 5, 8), quotas: 'feature,value,min,max\ngender,f,2,2\ngender,m,2,2\nage,a,1,2\nage,b,1,2\nage,c,0,2\n', k: 4, alternateCount: 2, exactFeatures: [], seed: '02'.repeat(32) },
    // Method 1's gate (with or without households) refuses this plan; method 2's gate with households
    // admits it: its stream, kept count and round cap (400,000) are method 2's.
    { name: 'plan method 2 with households: method 2\'s gate stream and round cap', ...plan2Pool(), alternateCount: 2, exactFeatures: [], seed: '26'.repeat(32) },
    // Methods 1 and 2 refuse for the household rule alone; method 3's draw takes thousands of rounds: compact.
    { name: 'plan method 3 with households: thousands of rounds, recorded compactly', ...plan3Pool(), alternateCount: 1, seed: '33'.repeat(32), compact: true },
  ]
}

export function runHouseholdVector(input: HouseholdVectorInput): HouseholdVector {
  const { pool: p, households } = parseHouseholdPoolCsv(input.pool, { householdColumn: 'address' })
  const quotas = parseQuotasCsv(input.quotas)
  checkQuotas(p, quotas, input.k)
  const { draw } = panelDraw(p, quotas, input.k, { alternates: input.alternateCount, households, ...(input.exactFeatures === undefined ? {} : { exactFeatures: input.exactFeatures }) })
  const spec: PanelSpec = draw
  const n = spec.types.reduce((a, t) => a + t.at(-1)!, 0)
  const cpool = compositionPool(spec)
  const table = compositionQuotas(spec)
  const plan = planPanel(cpool, table, spec.k, { exactFeatures: spec.exact, explain: false, ...methodOptions(spec) })
  const of = householdIndex(spec.households!, n)
  const others = cpool.features.map((_, f) => f).filter((f) => !plan.counter.exact.includes(f))
  const stream = streamFromSeed(hexToBytes(input.seed))
  const rounds: FullRound[] = []
  for (;;) {
    const offset = stream.consumed
    const { members, cellCounts } = relaxedPanel(plan.counter, stream)
    const verdict = !meetsQuotas(cpool, table, members, others) ? 'quota' : sharedHousehold(of, members) !== undefined ? 'household' : 'kept'
    rounds.push({ round: rounds.length + 1, offset, cellCounts, members, verdict })
    if (verdict === 'kept') break
  }
  // Plan methods 2 and 3: the gate with households, traced on method 2's gate stream from its start.
  const gateKept: number[] = []
  if (spec.plan === 2 || spec.plan === 3) {
    const gate = acceptanceStream(2)
    const need = spec.plan === 2 ? SORTITION_LIMITS.minAcceptedTrialsV2 : SORTITION_LIMITS.minAcceptedTrialsV3
    const trials = spec.plan === 2 ? SORTITION_LIMITS.acceptanceTrialsV2 : SORTITION_LIMITS.acceptanceTrialsV3
    for (let t = 1; gateKept.length < need && t <= trials; t++) {
      const { members } = relaxedPanel(plan.counter, gate)
      if (meetsQuotas(cpool, table, members, others) && sharedHousehold(of, members) === undefined) gateKept.push(t)
    }
  }
  const o = computeOutcome(hexToBytes(input.seed), spec, n) as PanelOutcome
  if (o.members.join() !== rounds.at(-1)!.members.join() || o.rounds !== rounds.length) throw new Error('the kind and the spec loop differ')
  // Bytes read by the whole draw (panel and alternates): the kind on a stream whose reads are counted.
  const counted = streamFromSeed(hexToBytes(input.seed))
  panelKind.compute(counted, spec, { count: n })
  const method = spec.plan === 2 ? { plan: 2 as const, gateKept } : spec.plan === 3 ? { plan: 3 as const, maxRounds: spec.maxRounds!, gateKept } : {}
  const record = input.compact === true ? { roundsCompact: compactRounds(rounds) } : { rounds: rounds.map((r) => ({ members: r.members, verdict: r.verdict })) }
  return { ...input, exact: spec.exact, ...method, households: spec.households!, ...record, members: o.members, alternates: o.alternates, consumed: counted.consumed }
}
