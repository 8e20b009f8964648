/** Household vectors (test/vectors/households.json): every case recomputed byte for byte; the compact round record checked against the spec's byte layout. */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { hexToBytes } from '../../../src/core/bytes.js'
import { streamFromSeed } from '../../../src/core/random/index.js'
import { checkQuotas, meetsQuotas, panelDraw, planPanel, relaxedPanel } from '../../../src/core/sortition/index.js'
import { householdIndex, sharedHousehold } from '../../../src/core/sortition/household.js'
import { compositionPool, compositionQuotas } from '../../../src/core/kinds/sortition.js'
import { methodOptions } from '../../../src/core/kinds/panel-method.js'
import { parseHouseholdPoolCsv, parseQuotasCsv } from '../../../src/sortition/csv.js'
import { householdVectorInputs, runHouseholdVector, type HouseholdVector } from './household-vector-cases.js'

const doc = JSON.parse(readFileSync(new URL('../../vectors/households.json', import.meta.url), 'utf8')) as { cases: HouseholdVector[] }

/** The compact record's running hash as docs/spec.md words it, with node:crypto: h_r = SHA-256(h_{r-1} ‖ u32be(r) ‖ verdict ‖ u32be(members)). */
function specHash(previous: Buffer, round: number, verdict: string, members: readonly number[]): Buffer {
  const head = Buffer.alloc(5)
  head.writeUInt32BE(round, 0)
  head[4] = ['quota', 'household', 'kept'].indexOf(verdict)
  const body = Buffer.alloc(4 * members.length)
  members.forEach((m, i) => body.writeUInt32BE(m, 4 * i))
  return createHash('sha256').update(previous).update(head).update(body).digest()
}

describe('household vectors (test/vectors/households.json)', () => {
  it('cover every input, a round refused for a household and one refused for a quota, a compact plan-3 case', () => {
    expect(doc.cases.length).toBe(householdVectorInputs().length)
    const verdicts = doc.cases.flatMap((c) => (c.rounds ?? []).map((r) => r.verdict))
    expect(verdicts).toContain('household')
    expect(verdicts).toContain('quota')
    expect(doc.cases.every((c) => c.households.length > 0)).toBe(true)
    const compact = doc.cases.filter((c) => c.roundsCompact !== undefined)
    expect(compact.map((c) => c.plan)).toEqual([3])
    expect(compact[0]!.roundsCompact!.count).toBeGreaterThan(1000)
  })
  for (const c of doc.cases) {
    it(c.name, () => {
      const { name, pool, quotas, k, alternateCount, seed } = c
      const input = { name, pool, quotas, k, alternateCount, ...(c.exactFeatures === undefined ? {} : { exactFeatures: c.exactFeatures }), seed, ...(c.compact === undefined ? {} : { compact: c.compact }) }
      expect(JSON.stringify(runHouseholdVector(input))).toBe(JSON.stringify(c))
    })
  }

  it('the compact record: the spec\'s byte layout (node:crypto, a separate trace), its ends, tally and checkpoints; one changed round moves every later hash', () => {
    const c = doc.cases.find((x) => x.roundsCompact !== undefined)!
    const rc = c.roundsCompact!
    const { pool, households } = parseHouseholdPoolCsv(c.pool, { householdColumn: 'address' })
    const table0 = parseQuotasCsv(c.quotas)
    checkQuotas(pool, table0, c.k)
    const spec = panelDraw(pool, table0, c.k, { alternates: c.alternateCount, households }).draw
    expect([spec.plan, spec.maxRounds]).toEqual([3, c.maxRounds])
    expect(c.maxRounds).toBe(16 * c.gateKept!.at(-1)!)
    const cpool = compositionPool(spec)
    const table = compositionQuotas(spec)
    const plan = planPanel(cpool, table, spec.k, { exactFeatures: spec.exact, explain: false, ...methodOptions(spec) })
    const of = householdIndex(spec.households!, cpool.respondents.length)
    const stream = streamFromSeed(hexToBytes(c.seed))
    let h: Buffer = Buffer.alloc(32)
    const checkpoints: string[] = []
    const tally = { quota: 0, household: 0, kept: 0 }
    let forged: Buffer = Buffer.alloc(32)
    for (let round = 1; round <= rc.count; round++) {
      const offset = stream.consumed
      const { members, cellCounts } = relaxedPanel(plan.counter, stream)
      const verdict = !meetsQuotas(cpool, table, members, []) ? 'quota' : sharedHousehold(of, members) !== undefined ? 'household' : 'kept'
      tally[verdict]++
      if (round <= 3) expect(rc.first[round - 1]).toEqual({ round, offset, cellCounts, members, verdict })
      if (round > rc.count - 3) expect(rc.last[round - (rc.count - 2)]).toEqual({ round, offset, cellCounts, members, verdict })
      h = specHash(h, round, verdict, members)
      // A stranger whose round 5 differs in one member: every hash from round 5 on differs.
      forged = specHash(forged, round, verdict, round === 5 ? [...members.slice(0, -1), members.at(-1)! + 1] : members)
      if (round % rc.checkpointEvery === 0) {
        checkpoints.push(h.toString('hex'))
        expect(forged.toString('hex')).not.toBe(h.toString('hex'))
      }
    }
    expect(rc.last.at(-1)!.verdict).toBe('kept')
    expect(rc.last.at(-1)!.members).toEqual(c.members)
    expect(tally).toEqual(rc.verdicts)
    expect(tally.kept).toBe(1)
    expect(checkpoints).toEqual(rc.checkpoints)
    expect(h.toString('hex')).toBe(rc.sha256)
  })
})
