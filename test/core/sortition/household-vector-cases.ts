/**
 * The household vectors (test/vectors/households.json): a pool CSV with a household column, quotas, k,
 * alternates and a seed; the committed `households`, every round of the draw with why it was kept or
 * not, the members, the alternates and the stream bytes read. Each round is traced here by the spec's
 * loop written out (relaxedPanel, then the two tests), independently of the kind's draw loop.
 */
import { hexToBytes } from '../../../src/core/bytes.js'
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
}

export interface HouseholdVector extends HouseholdVectorInput {
  readonly exact: readonly string[]
  /** The committed plan method when not 1 (docs/spec.md, Plan methods; Households). */
  readonly plan?: 2
  /** Plan method 2: the gate with households on method 2's gate stream, the (1-based) trials kept by both rules, up to the 12th. */
  readonly gateKept?: readonly number[]
  readonly households: readonly (readonly number[])[]
  readonly rounds: readonly { readonly members: readonly number[]; readonly verdict: 'kept' | 'quota' | 'household' }[]
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

export function householdVectorInputs(): HouseholdVectorInput[] {
  return [
    { name: 'every feature counted, households by rejection', pool: pool(16, 6, 3), quotas: 'feature,value,min,max\ngender,f,1,3\ngender,m,1,3\nage,a,0,2\nage,b,0,2\nage,c,0,2\n', k: 4, alternateCount: 2, seed: '04'.repeat(32) },
    { name: 'nothing counted exactly: quotas and households by rejection', pool: pool(16, 5, 8), quotas: 'feature,value,min,max\ngender,f,2,2\ngender,m,2,2\nage,a,1,2\nage,b,1,2\nage,c,0,2\n', k: 4, alternateCount: 2, exactFeatures: [], seed: '02'.repeat(32) },
    // Method 1's gate (with or without households) refuses this plan; method 2's gate with households
    // admits it: its stream, kept count and round cap (400,000) are method 2's.
    { name: 'plan method 2 with households: method 2\'s gate stream and round cap', ...plan2Pool(), alternateCount: 2, exactFeatures: [], seed: '26'.repeat(32) },
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
  const rounds: HouseholdVector['rounds'][number][] = []
  for (;;) {
    const { members } = relaxedPanel(plan.counter, stream)
    const verdict = !meetsQuotas(cpool, table, members, others) ? 'quota' : sharedHousehold(of, members) !== undefined ? 'household' : 'kept'
    rounds.push({ members, verdict })
    if (verdict === 'kept') break
  }
  // Plan method 2: its gate with households, traced on method 2's gate stream from its start.
  const gateKept: number[] = []
  if (spec.plan === 2) {
    const gate = acceptanceStream(2)
    for (let t = 1; gateKept.length < SORTITION_LIMITS.minAcceptedTrialsV2 && t <= SORTITION_LIMITS.acceptanceTrialsV2; t++) {
      const { members } = relaxedPanel(plan.counter, gate)
      if (meetsQuotas(cpool, table, members, others) && sharedHousehold(of, members) === undefined) gateKept.push(t)
    }
  }
  const o = computeOutcome(hexToBytes(input.seed), spec, n) as PanelOutcome
  if (o.members.join() !== rounds.at(-1)!.members.join() || o.rounds !== rounds.length) throw new Error('the kind and the spec loop differ')
  // Bytes read by the whole draw (panel and alternates): the kind on a stream whose reads are counted.
  const counted = streamFromSeed(hexToBytes(input.seed))
  panelKind.compute(counted, spec, { count: n })
  return { ...input, exact: spec.exact, ...(spec.plan === 2 ? { plan: 2 as const, gateKept } : {}), households: spec.households!, rounds, members: o.members, alternates: o.alternates, consumed: counted.consumed }
}
