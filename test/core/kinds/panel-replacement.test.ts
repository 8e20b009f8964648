/**
 * Verifiable replacements (issue 22 item 5): `panel-replacement` through the public API. Exact
 * completion probabilities by enumeration, chi-square (alpha = 0.001, fixed seeds) with a negative
 * control, commit -> drawFromBlock -> verify with the original carried, tampered links and originals
 * failing their named checks, properties.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, verify, type Proof } from '../../../src/core/index.js'
import type { PanelReplacementSpec } from '../../../src/core/sortition/index.js'
import type { PanelReplacementOutcomeJson } from '../../../src/core/sortition/index.js'
import type { PanelReplacementOutcome } from '../../../src/core/sortition/index.js'
import type { PanelOutcomeJson } from '../../../src/core/sortition/index.js'
import { panelReplacementDraw } from '../../../src/core/sortition/index.js'
import { panelDraw } from '../../../src/core/sortition/index.js'
import { computeOutcome } from '../../../src/core/kinds/index.js'
import { withOriginal } from '../../../src/core/follow-up.js'
import { householdIndex, sharedHousehold } from '../../../src/core/sortition/household.js'
import { checkQuotas, type SortitionPool } from '../../../src/core/sortition/index.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { ENGINE_ONLY } from '../../helpers/policy.js'
import { chiSquareTest } from '../../helpers/stats.js'
import { seedOf } from '../random/util.js'
import { enumeratePanels, proportionalQuotas, smallPool, valid } from '../sortition/fixtures.js'

const CHAIN = buildChain(14, 'replacement')
const after = { sequence: 5, block: CHAIN[5]!.cid }
const base = { beacon: BEACON_NAME, after, label: 'assembly' }
const failed = (r: { checks: readonly { name: string; ok: boolean }[] }): string[] => r.checks.filter((c) => !c.ok).map((c) => c.name)

/** The pool in committed order (type, id), as the kinds see it. */
function committedPool(pool: SortitionPool, participants: readonly string[]): SortitionPool {
  const byId = new Map(pool.respondents.map((r) => [r.id, r]))
  return { features: pool.features, respondents: participants.map((e) => byId.get(e.split('|')[0]!)!) }
}

function originalProof(pool: SortitionPool, k: number, slack: number, households?: Map<string, string>): { proof: Proof; cid: string; participants: readonly string[] } {
  const { draw, participants } = panelDraw(pool, proportionalQuotas(pool, k, slack), k, households === undefined ? {} : { households })
  const { commitment, cid } = commit({ ...base, target: 8, draw, participants })
  return { proof: drawFromBlock(commitment, participants, CHAIN[8]!), cid, participants }
}

describe('replacement completion: exact by enumeration', () => {
  const pool = smallPool(14, [2, 3], 41)
  const k = 5
  const ids = pool.respondents.map((r) => r.id)
  const households = new Map(ids.map((id, i) => [id, `h${i % 9}`]))
  const { proof, cid, participants } = originalProof(pool, k, 1, households)
  const spec0 = (proof.commitment as { draw: { households: number[][] } }).draw
  const members = (proof.outcome as PanelOutcomeJson).members.map((m) => m.index)
  const dropped = members.slice(0, 2)
  const keep = members.slice(2)
  const spec = panelReplacementDraw(proof, dropped, cid)
  const cpool = committedPool(pool, participants)
  const table = checkQuotas(cpool, proportionalQuotas(pool, k, 1), k)
  const of = householdIndex(spec0.households, cpool.respondents.length)
  // Every valid panel that extends the kept members, never re-admitting a dropped one.
  const panels = enumeratePanels(cpool, table, k).filter((p) => keep.every((m) => p.includes(m)) && dropped.every((m) => !p.includes(m)) && sharedHousehold(of, p) === undefined)
  const index = new Map(panels.map((p, i) => [p.join(','), i]))

  it('the replacement draw only gives panels that extend the kept members, keep every quota and the household rule', () => {
    expect(spec.keep).toEqual(keep)
    expect(panels.length).toBeGreaterThanOrEqual(5)
    for (let s = 0; s < 200; s++) {
      const o = computeOutcome(seedOf(9000 + s), spec, cpool.respondents.length) as PanelReplacementOutcome
      expect(index.has(o.members.join(',')), o.members.join(',')).toBe(true)
      expect(o.replacements.every((r) => !keep.includes(r) && !dropped.includes(r))).toBe(true)
    }
  })

  it('each valid completion has probability 1/V: per-respondent exact fractions match the frequencies, chi-square accepts', () => {
    const N = 200 * panels.length
    const counts = new Array<number>(panels.length).fill(0)
    const seen = new Array<number>(cpool.respondents.length).fill(0)
    for (let t = 0; t < N; t++) {
      const o = computeOutcome(seedOf(100_000 + t), spec, cpool.respondents.length) as PanelReplacementOutcome
      counts[index.get(o.members.join(','))!]!++
      for (const r of o.replacements) seen[r]!++
    }
    expect(chiSquareTest(counts).pass).toBe(true)
    const V = panels.length
    cpool.respondents.forEach((_, i) => {
      if (keep.includes(i)) return
      const p = panels.filter((x) => x.includes(i)).length / V // exact: #(completions with i) / V
      expect(Math.abs(seen[i]! / N - p)).toBeLessThanOrEqual(4.5 * Math.sqrt((p * (1 - p)) / N) + 1e-12)
    })
  })

  it('negative control: filling the seats with the first fitting respondents of a random order is rejected', () => {
    const N = 200 * panels.length
    const counts = new Array<number>(panels.length).fill(0)
    for (let t = 0; t < N; t++) {
      const stream = seedOf(200_000 + t)
      // Greedy: respondents in a random order (from the seed's first bytes), add whoever keeps every max and the households.
      const order = cpool.respondents.map((_, i) => i).filter((i) => !keep.includes(i) && !dropped.includes(i)).sort((a, b) => stream[a % 32]! - stream[b % 32]! || a - b)
      for (;;) {
        const panel = [...keep]
        for (const i of order) {
          if (panel.length === k) break
          const next = [...panel, i]
          if (sharedHousehold(of, next) === undefined && table.max.every((mx, f) => mx.every((m, v) => next.filter((x) => cpool.respondents[x]!.type[f] === v).length <= m))) panel.push(i)
        }
        panel.sort((a, b) => a - b)
        if (panel.length === k && valid(cpool, table, panel)) {
          counts[index.get(panel.join(','))!]!++
          break
        }
        order.push(order.shift()!)
      }
    }
    expect(chiSquareTest(counts).pass).toBe(false)
  })
})

describe('panel-replacement: commit, draw, verify with the original carried', () => {
  const pool = smallPool(60, [2, 3, 4], 11)
  const ids = pool.respondents.map((r) => r.id)
  const households = new Map(ids.map((id, i) => [id, `${i % 40} Oak Rd`]))
  const { proof: original, cid, participants } = originalProof(pool, 10, 1, households)
  const members = (original.outcome as PanelOutcomeJson).members.map((m) => m.index)
  const dropped = [members[1]!, members[4]!]
  const spec = panelReplacementDraw(original, dropped, cid)

  function replacementProof(target = 12, s: PanelReplacementSpec = spec): Proof {
    const { commitment } = commit({ ...base, target, draw: s, participants })
    return withOriginal(drawFromBlock(commitment, participants, CHAIN[target]!), original) as Proof
  }

  it('verifies with follow-up-original and follow-up-link passed; the new panel keeps the remaining members', async () => {
    const proof = replacementProof()
    const r = await verify(proof, ENGINE_ONLY)
    expect(failed(r)).toEqual([])
    const names = r.checks.map((c) => c.name)
    for (const n of ['follow-up-original', 'follow-up-link', 'panel-replay', 'panel-quotas', 'panel-households']) expect(names).toContain(n)
    const o = proof.outcome as PanelReplacementOutcomeJson
    expect(o.replacements).toHaveLength(2)
    expect(o.members.map((m) => m.index).filter((m) => members.includes(m))).toEqual(members.filter((m) => !dropped.includes(m)))
    expect(r.checks.find((c) => c.name === 'follow-up-link')?.detail).toContain(`follows commitment ${cid}`)
  })

  it('without the original carried: follow-up-original and follow-up-link fail, by name', async () => {
    const { original: _, ...bare } = replacementProof() as Proof & { original: unknown }
    expect(failed(await verify(bare, ENGINE_ONLY))).toEqual(['follow-up-original', 'follow-up-link'])
  })

  it('a tampered original fails follow-up-original (naming its failing check); another panel as original fails follow-up-original (pinned CID)', async () => {
    const proof = replacementProof() as Proof & { original: Proof }
    const bad = JSON.parse(JSON.stringify(proof)) as { original: { seed: string } }
    bad.original.seed = '00'.repeat(32)
    const r = await verify(bad, ENGINE_ONLY)
    expect(failed(r)).toEqual(['follow-up-original', 'follow-up-link'])
    expect(r.checks.find((c) => c.name === 'follow-up-original')?.detail).toMatch(/^the original proof does not verify: seed/)
    const other = originalProof(pool, 10, 2, households).proof
    const swapped = await verify({ ...proof, original: other }, ENGINE_ONLY)
    expect(failed(swapped)).toEqual(['follow-up-original', 'follow-up-link'])
    expect(swapped.checks.find((c) => c.name === 'follow-up-original')?.detail).toContain('commitment-pinned')
  })

  it('a replacement that does not keep the original members, or at the original block, fails follow-up-link', async () => {
    // Kept members that were never members (a forged keep list): the commitment is consistent, the link is not.
    const outsider = participants.findIndex((_, i) => !members.includes(i))
    const forged = panelReplacementDraw(original, dropped, cid)
    const forgedKeep = { ...forged, keep: [...forged.keep.slice(1), outsider].sort((a, b) => a - b) }
    const r = await verify(replacementProof(12, forgedKeep), ENGINE_ONLY)
    expect(failed(r)).toContain('follow-up-link')
    expect(r.checks.find((c) => c.name === 'follow-up-link')?.detail).toMatch(/^the kept members are not the original members but the dropped/)
    const early = await verify(replacementProof(8), ENGINE_ONLY)
    expect(failed(early)).toEqual(['follow-up-link'])
    expect(early.checks.find((c) => c.name === 'follow-up-link')?.detail).toMatch(/is not later than the original's 8/)
  })

  it('a replacement over another list (the same per-type counts, strangers in the free places) fails follow-up-link', async () => {
    // Found by the red team: every consistency check of the replacement passes on a list of its own, so
    // only the link to the original's committed participants stops whoever commits it from choosing who fills the seats.
    const kept = new Set(spec.keep)
    const strangers = participants.map((e, i) => (kept.has(i) ? e : e.replace('|', '-stranger|')))
    const { commitment } = commit({ ...base, target: 12, draw: spec, participants: strangers })
    const forged = withOriginal(drawFromBlock(commitment, strangers, CHAIN[12]!), original) as Proof
    expect((forged.outcome as PanelReplacementOutcomeJson).replacements.every((m) => m.entry.includes('-stranger|'))).toBe(true)
    const r = await verify(forged, ENGINE_ONLY)
    expect(failed(r)).toEqual(['follow-up-link'])
    expect(r.checks.find((c) => c.name === 'follow-up-link')?.detail).toMatch(/^the replacement is not over the same committed participants \(root, count and salting\)/)
  })

  it('a tampered rank fails outcome, the detail showing the claimed rank', async () => {
    const j = JSON.parse(JSON.stringify(replacementProof())) as { outcome: { members: { rank: number }[] } }
    j.outcome.members[0]!.rank = 2
    const r = await verify(j, ENGINE_ONLY)
    expect(failed(r)).toContain('outcome')
    expect(r.checks.find((c) => c.name === 'outcome')?.detail).toMatch(/^member 1 should be "[^"]+" \(index \d+\); the proof claims "[^"]+" \(rank 2, index \d+\)$/)
  })

  it('the exact features are committed in the counter\'s order, and a spec naming them in another order is refused', () => {
    const named = panelReplacementDraw(original, dropped, cid, { exactFeatures: ['f0', 'f2'] })
    expect(named.exact).toEqual(['f2', 'f0']) // 4 values before 2
    const swapped = { ...named, exact: ['f0', 'f2'] }
    expect(() => commit({ ...base, target: 12, draw: swapped, participants })).toThrow(expect.objectContaining({ code: 'INVALID_DRAW', path: '$.draw.exact[1]' }))
  })

  it('an original that is not a panel (a replacement nested in a replacement) is refused before it is verified', async () => {
    // Nesting forged replacements, each with a costly plan, multiplied verify's work by the depth: the
    // carried original's kind is now checked first, and a replacement follows a panel only.
    const inner = replacementProof()
    const nested = { ...inner, original: inner }
    const r = await verify(nested, ENGINE_ONLY)
    expect(failed(r)).toEqual(['follow-up-original', 'follow-up-link'])
    expect(r.checks.find((c) => c.name === 'follow-up-original')?.detail).toBe('not verified: a panel-replacement follows a panel draw, and the carried original claims a "panel-replacement" draw')
    const shapeless = await verify({ ...inner, original: { commitment: null } }, ENGINE_ONLY)
    expect(shapeless.checks.find((c) => c.name === 'follow-up-original')?.detail).toMatch(/claims no draw kind$/)
  })

  it('a private panel is replaced over its own secret; another secret (another root) fails follow-up-link', async () => {
    const SECRET = new Uint8Array(32).fill(7)
    const { draw, participants: list } = panelDraw(pool, proportionalQuotas(pool, 10, 1), 10, { households })
    const made = commit({ ...base, target: 8, draw, participants: list, private: { secret: SECRET } })
    const priv = drawFromBlock(made.commitment, list, CHAIN[8]!, { disclosure: 'winners', secret: SECRET })
    const m = (priv.outcome as PanelOutcomeJson).members.map((x) => x.index)
    const s = panelReplacementDraw(priv, [m[0]!, m[2]!], made.cid)
    const replaced = (secret: Uint8Array): Proof => {
      const { commitment } = commit({ ...base, target: 12, draw: s, participants: list, private: { secret } })
      return withOriginal(drawFromBlock(commitment, list, CHAIN[12]!, { disclosure: 'winners', secret }), priv) as Proof
    }
    expect(failed(await verify(replaced(SECRET), ENGINE_ONLY))).toEqual([])
    const other = await verify(replaced(new Uint8Array(32).fill(8)), ENGINE_ONLY)
    expect(failed(other)).toEqual(['follow-up-link'])
    expect(other.checks.find((c) => c.name === 'follow-up-link')?.detail).toContain('same committed participants')
  })

  it('a replacement member swapped for a housemate of a kept member fails panel-households and panel-replay', async () => {
    const proof = replacementProof()
    const o = proof.outcome as PanelReplacementOutcomeJson
    const of = householdIndex(spec.households!, participants.length)
    const mate = participants.findIndex((_, i) => !o.members.some((m) => m.index === i) && spec.keep.some((k) => of[k]! >= 0 && of[k] === of[i]))
    expect(mate).toBeGreaterThanOrEqual(0)
    const j = JSON.parse(JSON.stringify(proof)) as { outcome: { members: { rank: number; index: number; entry: string }[] } }
    const at = j.outcome.members.findIndex((m) => m.index === o.replacements[0]!.index)
    j.outcome.members[at] = { rank: at + 1, index: mate, entry: participants[mate]! }
    j.outcome.members.sort((a, b) => a.index - b.index).forEach((m, i) => (m.rank = i + 1))
    expect(failed(await verify(j, ENGINE_ONLY))).toEqual(expect.arrayContaining(['outcome', 'panel-replay', 'panel-households']))
  })

  it('refuses a dropped index that is not a member, and a plain panel proof carrying an original', async () => {
    const outsider = participants.findIndex((_, i) => !members.includes(i))
    expect(() => panelReplacementDraw(original, [outsider], cid)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    const r = await verify(withOriginal(original, original), ENGINE_ONLY)
    expect(failed(r)).toEqual(['follow-up-link'])
  })

  it('property: for any dropped subset, the replacement keeps the rest, meets every quota and the household rule', () => {
    const of = householdIndex(spec.households!, participants.length)
    const cpool = committedPool(pool, participants)
    const table = checkQuotas(cpool, proportionalQuotas(pool, 10, 1), 10)
    fc.assert(
      fc.property(fc.subarray(members, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 1_000_000 }), (drop, seed) => {
        const s = panelReplacementDraw(original, drop, cid)
        const o = computeOutcome(seedOf(seed), s, participants.length) as PanelReplacementOutcome
        expect(o.members).toHaveLength(10)
        expect(members.filter((m) => !drop.includes(m)).every((m) => o.members.includes(m))).toBe(true)
        expect(o.replacements.some((x) => drop.includes(x))).toBe(false)
        expect(valid(cpool, table, o.members)).toBe(true)
        expect(sharedHousehold(of, o.members)).toBeUndefined()
      }),
      { numRuns: 25, seed: 5 },
    )
  })
})
