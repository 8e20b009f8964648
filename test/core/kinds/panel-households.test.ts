/**
 * The `panel` kind with one person per household (issue 22 item 4) through the public API: commit ->
 * drawFromBlock -> verify, public and private, the `panel-households` check, tampered proofs failing
 * their named checks, malformed households refused when read, and a panel without households unchanged.
 */
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, parseCommitment, verify, type Proof } from '../../../src/core/index.js'
import type { PanelSpec } from '../../../src/core/sortition/index.js'
import type { PanelOutcomeJson } from '../../../src/core/sortition/index.js'
import { panelKind } from '../../../src/core/kinds/index.js'
import { panelDraw } from '../../../src/core/sortition/index.js'
import { householdIndex, sharedHousehold } from '../../../src/core/sortition/household.js'
import { parseHouseholdPoolCsv } from '../../../src/sortition/csv.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { lcg, proportionalQuotas, smallPool } from '../sortition/fixtures.js'

const CHAIN = buildChain(12, 'households')
const TARGET = 10
const base = { beacon: BEACON_NAME, target: TARGET, after: { sequence: 7, block: CHAIN[7]!.cid }, label: 'assembly with households' }
const SECRET = new Uint8Array(32).fill(9)

const pool = smallPool(60, [2, 3, 4], 11)
const quotas = proportionalQuotas(pool, 10, 1)
// About 25 households: respondents share one by chance, addresses written in varying case and spacing.
const rnd = lcg(5)
const households = new Map(pool.respondents.map((r) => [r.id, rnd(2) === 0 ? `  ${rnd(25)} Main  St ` : `${rnd(25)} MAIN ST`]))
const failed = (r: { checks: readonly { name: string; ok: boolean }[] }): string[] => r.checks.filter((c) => !c.ok).map((c) => c.name)

function householdProof(opts: { private?: boolean } = {}): { proof: Proof; participants: readonly string[]; spec: PanelSpec } {
  const { draw, participants } = panelDraw(pool, quotas, 10, { alternates: 3, households })
  const { commitment } = commit({ ...base, draw, participants, ...(opts.private === true ? { private: { secret: SECRET } } : {}) })
  const proof = drawFromBlock(commitment, participants, CHAIN[TARGET]!, opts.private === true ? { disclosure: 'winners', secret: SECRET } : {})
  return { proof, participants, spec: draw }
}

describe('panel kind with households', () => {
  it('commits the groups of matching addresses (normalized), never the addresses', () => {
    const { spec, participants } = householdProof()
    expect(spec.households!.length).toBeGreaterThan(5)
    const key = (id: string): string => households.get(id)!.trim().replace(/\s+/g, ' ').toLowerCase()
    for (const g of spec.households!) {
      const ids = g.map((i) => participants[i]!.split('|')[0]!)
      expect(new Set(ids.map(key)).size).toBe(1)
    }
    const grouped = new Set(spec.households!.flat())
    const keys = participants.map((e) => key(e.split('|')[0]!))
    // Every pair of participants with one key is in one listed household.
    keys.forEach((k, i) => {
      if (keys.filter((x) => x === k).length > 1) expect(grouped.has(i)).toBe(true)
    })
    expect(JSON.stringify(commit({ ...base, draw: spec, participants }).json)).not.toMatch(/main st/i)
    expect(panelKind.describe(spec, 60)).toContain('at most one member per household')
  })

  it('a public household panel verifies with panel-households passed; no two members share a household', async () => {
    const { proof, spec } = householdProof()
    const r = await verify(proof, ENGINE_ONLY)
    expect(failed(r)).toEqual([])
    const c = r.checks.find((x) => x.name === 'panel-households')
    expect(c?.detail).toBe(`no two of the 10 members share one of the ${spec.households!.length} committed household(s)`)
    const o = proof.outcome as PanelOutcomeJson
    const of = householdIndex(spec.households!, 60)
    expect(sharedHousehold(of, o.members.map((m) => m.index))).toBeUndefined()
    expect(o.alternates).toHaveLength(3)
    expect(o.probabilities).toBeUndefined() // the counter's exact per-type figures do not hold under the household rule
  })

  it('a private household panel reveals only members and alternates and verifies', async () => {
    const { proof } = householdProof({ private: true })
    expect(proof.participants?.disclosure).toBe('winners')
    expect(failed(await verify(proof, ENGINE_ONLY))).toEqual([])
  })

  it('a member swapped for a housemate of another member fails outcome, panel-replay and panel-households', async () => {
    const { proof, participants, spec } = householdProof()
    const o = proof.outcome as PanelOutcomeJson
    const members = o.members.map((m) => m.index)
    const group = spec.households!.find((g) => g.some((i) => members.includes(i)) && g.some((i) => !members.includes(i)))!
    const mate = group.find((i) => !members.includes(i))!
    const j = JSON.parse(JSON.stringify(proof)) as { outcome: PanelOutcomeJson & { members: { rank: number; index: number; entry: string }[] } }
    const at = members.findIndex((m) => !group.includes(m))
    j.outcome.members[at] = { rank: at + 1, index: mate, entry: participants[mate]! }
    const r = await verify(j, ENGINE_ONLY)
    expect(failed(r)).toEqual(expect.arrayContaining(['outcome', 'panel-replay', 'panel-households']))
    expect(r.checks.find((x) => x.name === 'panel-households')?.detail).toMatch(/^members [0-9]+ and [0-9]+ share a committed household$/)
  })

  it('a commitment whose households were edited no longer matches its CID; malformed households are refused when read', async () => {
    const { proof } = householdProof()
    const j = JSON.parse(JSON.stringify(proof)) as { commitment: { draw: { households: number[][] } } }
    j.commitment.draw.households = j.commitment.draw.households.slice(1)
    expect(failed(await verify(j, ENGINE_ONLY))).toContain('commitment-cid')
    const { draw, participants } = panelDraw(pool, quotas, 10, { households })
    const { json } = commit({ ...base, draw, participants })
    const refused = (edit: (h: number[][]) => unknown): unknown => {
      const x = JSON.parse(JSON.stringify(json)) as { draw: { households: unknown } }
      x.draw.households = edit(x.draw.households as number[][])
      try {
        parseCommitment(x)
        return 'accepted'
      } catch (err) {
        return { code: (err as { code: string }).code, path: (err as { path: string }).path }
      }
    }
    expect(refused((h) => [[h[0]![0]!], ...h.slice(1)])).toEqual({ code: 'INVALID_DRAW', path: '$.draw.households[0]' })
    expect(refused((h) => [[h[0]![0]!, 60], ...h.slice(1)])).toEqual({ code: 'INVALID_DRAW', path: '$.draw.households[0][1]' })
    expect(refused((h) => [[...h[0]!].reverse(), ...h.slice(1)])).toEqual({ code: 'INVALID_DRAW', path: '$.draw.households[0][1]' })
    expect(refused((h) => [h[1]!, h[0]!, ...h.slice(2)])).toEqual({ code: 'INVALID_DRAW', path: '$.draw.households[1]' })
    expect(refused((h) => [h[0]!, [...h[0]!], ...h.slice(1)])).toMatchObject({ code: 'INVALID_DRAW' })
    expect(refused(() => 'x')).toMatchObject({ path: '$.draw.households' })
    expect(refused((h) => h)).toBe('accepted')
  })

  it('a panel committed without households has no households key and no panel-households check', async () => {
    const { draw, participants } = panelDraw(pool, quotas, 10)
    expect('households' in draw).toBe(false)
    const { commitment } = commit({ ...base, draw, participants })
    const r = await verify(drawFromBlock(commitment, participants, CHAIN[TARGET]!), ENGINE_ONLY)
    expect(r.checks.some((c) => c.name === 'panel-households')).toBe(false)
  })

  it('bad household input: a value for someone outside the pool, an empty value, a column that is the id', () => {
    expect(() => panelDraw(pool, quotas, 10, { households: new Map([...households, ['nobody', 'x']]) })).toThrow(expect.objectContaining({ code: 'SORTITION_HOUSEHOLD_INVALID' }))
    expect(() => panelDraw(pool, quotas, 10, { households: new Map([...households, [pool.respondents[0]!.id, '   ']]) })).toThrow(expect.objectContaining({ code: 'SORTITION_HOUSEHOLD_INVALID', detail: expect.stringContaining('empty household value') }))
    expect(() => parseHouseholdPoolCsv('id,g,address\nr1,f,x\n', { householdColumn: 'addr' })).toThrow(expect.objectContaining({ code: 'SORTITION_POOL_INVALID', detail: 'pool has no column "addr"' }))
    expect(() => parseHouseholdPoolCsv('id,g\nr1,f\n', { householdColumn: 'id' })).toThrow(expect.objectContaining({ code: 'SORTITION_POOL_INVALID' }))
    const { pool: p, households: h } = parseHouseholdPoolCsv('id,g,address\nr1,f,1 Main St\nr2,m, 1 main  st\n', { householdColumn: 'address' })
    expect(p.features.map((f) => f.name)).toEqual(['g'])
    expect([...h]).toEqual([['r1', '1 Main St'], ['r2', ' 1 main  st']])
  })
})
