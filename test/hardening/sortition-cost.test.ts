/**
 * The work bound of a `panel` plan (docs/spec.md, Sortition, Work bound; issue 22, part 2). A private
 * `panel` commitment of about 800 bytes claiming a pool of 5,000 in 16 types and k = 1,000 once made
 * `verify`, `check-receipt` and the page's worker multiply millions of 3,600-bit integers for minutes
 * (its counter stayed under the old state cap). It is now refused from its bound, before any counting,
 * with `SORTITION_COST_LIMIT`: a thrown typed error when read, a named failed check in `verify` and
 * `checkReceipt`. Times are never asserted (a hang fails on the runner's timeout).
 */
import { describe, expect, it } from 'vitest'
import { checkReceipt, makeReceipts } from '../../src/core/receipt.js'
import { commit, commitmentCid, parseCommitment } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { panelDraw } from '../../src/core/kinds/panel.js'
import { verify } from '../../src/core/verify.js'
import { SORTITION_LIMITS, makePool } from '../../src/core/sortition/pool.js'
import { planCost } from '../../src/core/sortition/cost.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { ENGINE_ONLY } from '../helpers/policy.js'
import { isTyped } from './helpers.js'

type J = any // eslint-disable-line @typescript-eslint/no-explicit-any

const CHAIN = buildChain(6, 'sortition-cost')
const SECRET = new Uint8Array(32).fill(9)
const base = { beacon: BEACON_NAME, target: 4, after: { sequence: 2, block: CHAIN[2]!.cid } }

/** An honest private panel commitment of 32 respondents, one feature of 16 values, k = 4. */
function honest(): { commitment: J; participants: readonly string[]; result: ReturnType<typeof commit> } {
  const rows = Array.from({ length: 32 }, (_, i) => ({ id: `p${String(i).padStart(2, '0')}`, values: [`v${String(i % 16).padStart(2, '0')}`] }))
  const pool = makePool(['f'], rows)
  const quotas = pool.features[0]!.values.map((value) => ({ feature: 'f', value, min: 0, max: 4 }))
  const { draw, participants } = panelDraw(pool, quotas, 4)
  const result = commit({ ...base, draw, participants, private: { secret: SECRET } })
  return { commitment: JSON.parse(JSON.stringify(result.json)) as J, participants, result }
}

/** The hostile edit: 5,000 respondents in the same 16 types, k = 1,000, quotas 0..1,000. */
function hostile(c: J): J {
  const h = JSON.parse(JSON.stringify(c)) as J
  h.draw.k = 1000
  h.draw.types = h.draw.types.map((t: number[], i: number) => [t[0], i < 8 ? 313 : 312])
  h.draw.features[0].min = h.draw.features[0].min.map(() => 0)
  h.draw.features[0].max = h.draw.features[0].max.map(() => 1000)
  h.participants.count = 5000
  return h
}

describe('the work bound of a panel plan (SORTITION_COST_LIMIT)', () => {
  it('the hostile commitment is about 800 bytes and its bound is far over the limit', () => {
    const h = hostile(honest().commitment)
    expect(JSON.stringify(h.draw).length).toBeLessThan(900)
    const rows = h.draw.types.flatMap((t: number[], i: number) => Array.from({ length: t[1]! }, (_, j) => ({ id: `x${i}-${j}`, values: [h.draw.features[0].values[t[0]!]] })))
    const pool = makePool(['f'], rows)
    const c = planCost(pool, { min: [h.draw.features[0].min], max: [h.draw.features[0].max] }, 1000, [0], 1)
    expect(c.words).toBe(57) // C(5000, 1000) has 3,611 bits
    expect(c.count).toBeGreaterThan(SORTITION_LIMITS.maxCountCost)
  })

  it('reading it throws the typed limit error, named, before any counting', () => {
    let err: J
    try {
      parseCommitment(hostile(honest().commitment))
    } catch (e) {
      err = e
    }
    expect(isTyped(err)).toBe(true)
    expect(err.code).toBe('SORTITION_COST_LIMIT')
    expect(err.detail).toMatch(/work units/)
  })

  it('verify returns a named failed check (commitment-cid) naming the limit, never a throw', async () => {
    const { result, participants } = honest()
    const proof = JSON.parse(JSON.stringify(drawFromBlock(result.commitment, participants, CHAIN[4]!, { disclosure: 'winners', secret: SECRET }))) as J
    proof.commitment = hostile(proof.commitment)
    const r = await verify(proof, ENGINE_ONLY)
    expect(r.ok).toBe(false)
    const failed = r.checks.filter((c) => !c.ok)
    expect(failed.map((c) => c.name)).toContain('commitment-cid')
    expect(failed.find((c) => c.name === 'commitment-cid')!.detail).toMatch(/SORTITION_COST_LIMIT|work units/)
  })

  it('checkReceipt of a receipt carrying it fails commitment-cid, naming the limit', () => {
    const { result, participants } = honest()
    const receipt = JSON.parse(JSON.stringify(makeReceipts(result, participants, SECRET).receiptFor(3))) as J
    receipt.commitment = hostile(receipt.commitment)
    const r = checkReceipt(receipt)
    expect(r.ok).toBe(false)
    expect(r.checks.find((c) => c.name === 'commitment-cid')).toMatchObject({ ok: false, detail: expect.stringMatching(/work units/) })
  })

  it('the honest commitment it was edited from is read and drawn as before', () => {
    const { commitment, result } = honest()
    expect(commitmentCid(parseCommitment(commitment))).toBe(result.cid)
  })
})
