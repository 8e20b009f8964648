// Issue 23, "the spec, to the letter" (verify side): each rule of docs/spec.md ("What verify checks" and
// the sortition kinds' checks) that an independent implementer found ambiguous or contradicted by the
// code, pinned on the published vectors (test/vectors/draws.json) and their tampered copies.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseCommitment } from '../../src/core/commitment.js'
import { LIMITS } from '../../src/core/limits.js'
import { panelDraw, panelKind } from '../../src/core/kinds/panel.js'
import { streamFromSeed } from '../../src/core/random/stream.js'
import { checkQuotas, makePool } from '../../src/core/sortition/pool.js'
import { verify, type VerifyResult } from '../../src/core/verify.js'
import { ENGINE_ONLY } from '../helpers/policy.js'

type J = any // eslint-disable-line @typescript-eslint/no-explicit-any
const DIR = join(import.meta.dirname, '..', 'vectors')
const DRAWS: J = JSON.parse(readFileSync(join(DIR, 'draws.json'), 'utf8'))
const BLOCKS: J = JSON.parse(readFileSync(join(DIR, 'blocks.json'), 'utf8'))
const proofOf = (name: string): J => structuredClone(DRAWS.cases.find((c: J) => c.name === name).proof)
const blockOf = (name: string): { cid: string; bytes: string } => {
  const b = BLOCKS.blocks.find((x: J) => x.name === name)
  return { cid: b.cid, bytes: Buffer.from(b.text, 'utf8').toString('base64') }
}
const byName = (r: VerifyResult, name: string) => r.checks.find((c) => c.name === name)
const names = (r: VerifyResult) => r.checks.map((c) => c.name)

describe('row 7: a failed chain-target stops 13–17, but after-block (8) still runs', () => {
  it('a chain that stops below the target: after-block is checked and reported; commitment-time, randomness, seed, outcome are not, and a note says so', async () => {
    const p = proofOf('pick-3-of-10')
    p.chain.blocks = [blockOf('block-3'), blockOf('block-2')]
    const r = await verify(p, ENGINE_ONLY)
    expect(byName(r, 'chain-links')?.ok).toBe(true)
    expect(byName(r, 'chain-target')?.ok).toBe(false)
    const after = byName(r, 'after-block')!
    expect(after.ok).toBe(true)
    expect(after.notChecked).toBeUndefined()
    expect(after.detail).toMatch(/commitment was made after it/)
    for (const n of ['commitment-time', 'randomness', 'seed', 'outcome']) expect(names(r)).not.toContain(n)
    expect(r.notes.join(' ')).toMatch(/commitment-time, randomness, seed and outcome checks were not run/)
  })
})

describe('rows 16–17: the outcome is never dropped, and no check after it vanishes', () => {
  it('a full list of the wrong size fails outcome unrecomputed for a pick too (not only shuffle and weighted)', async () => {
    const p = proofOf('pick-3-of-10')
    p.participants.entries.pop()
    const r = await verify(p, ENGINE_ONLY)
    expect(byName(r, 'outcome')).toMatchObject({ ok: false, detail: 'the commitment claims 10 participants but the proof carries 9: the outcome is not recomputed' })
  })

  it('too few revealed winners: outcome fails (not recomputed) and revealed-winners fails, in that order', async () => {
    const p = proofOf('pick-3-of-10-private')
    p.participants.revealed.pop()
    const r = await verify(p, ENGINE_ONLY)
    const o = names(r).indexOf('outcome')
    expect(o).toBeGreaterThan(0)
    expect(names(r)[o + 1]).toBe('revealed-winners')
    expect(byName(r, 'outcome')).toMatchObject({ ok: false, detail: 'the proof reveals 2 entries where the commitment draws 3 winner(s): the outcome is not recomputed' })
    expect(byName(r, 'revealed-winners')).toMatchObject({ ok: false })
    expect(byName(r, 'revealed-winners')!.detail).toMatch(/draws 3 winner\(s\) but the proof reveals 2/)
  })

  it('too many revealed panel members: outcome, every panel-* check and revealed-winners are reported, failed "not checked"', async () => {
    const p = proofOf('panel-6-of-30-private')
    p.participants.revealed.push(p.participants.revealed[0])
    const r = await verify(p, ENGINE_ONLY)
    expect(byName(r, 'outcome')!.ok).toBe(false)
    for (const n of ['panel-size', 'panel-distinct', 'panel-members-known', 'panel-quotas', 'panel-replay']) {
      expect(byName(r, n), n).toMatchObject({ ok: false })
      expect(byName(r, n)!.detail).toMatch(/^not checked: the outcome was not recomputed \(the proof reveals 9 entries where the commitment draws at most 8 winner\(s\)\)$/)
    }
    expect(byName(r, 'revealed-winners')!.ok).toBe(false)
    // The order of the spec's table: outcome, 16a, 17.
    const order = names(r).slice(names(r).indexOf('outcome'))
    expect(order).toEqual(['outcome', 'panel-size', 'panel-distinct', 'panel-members-known', 'panel-quotas', 'panel-replay', 'revealed-winners'])
  })

  it('a panel-lottery full list of the wrong size: lottery-panels and lottery-winner are reported, failed "not checked"', async () => {
    const p = proofOf('panel-lottery-3')
    p.participants.entries.pop()
    const r = await verify(p, ENGINE_ONLY)
    expect(byName(r, 'outcome')!.ok).toBe(false)
    for (const n of ['lottery-panels', 'lottery-winner']) expect(byName(r, n)!.detail, n).toMatch(/^not checked: the outcome was not recomputed/)
  })

  it('a panel proof claiming another kind of outcome: the panel checks are reported, failed "not checked"', async () => {
    const p = proofOf('panel-4-of-16-exact')
    p.outcome = { kind: 'pick', winners: p.outcome.members }
    const r = await verify(p, ENGINE_ONLY)
    expect(byName(r, 'outcome')!.detail).toBe('the draw is a panel, the proof claims a pick')
    for (const n of ['panel-size', 'panel-replay']) expect(byName(r, n)!.detail).toBe('not checked: the proof claims a pick outcome, not a panel')
  })
})

describe('the sortition checks judge a member by its index, never its entry text', () => {
  it('a member index outside the pool fails panel-members-known and panel-quotas (not passed on the recomputed table), whatever its entry says', async () => {
    for (const entry of [undefined, 'zzz']) {
      const p = proofOf('panel-4-of-16-exact')
      p.outcome.members[0].index = 999
      if (entry !== undefined) p.outcome.members[0].entry = entry
      const r = await verify(p, ENGINE_ONLY)
      expect(byName(r, 'panel-members-known')).toMatchObject({ ok: false, detail: 'member 999 is not in the pool of 16' })
      expect(byName(r, 'panel-quotas')!.ok).toBe(false)
      expect(byName(r, 'panel-quotas')!.detail).toMatch(/^not checked: member 999 is outside the pool of 16/)
    }
  })
})

describe('a panel\'s exact features have one committed order; probability rows and decimals', () => {
  it('the published vector\'s exact features reversed are refused (INVALID_DRAW at $.draw.exact[1]); verify fails commitment-cid', async () => {
    const p = proofOf('panel-4-of-16-exact')
    expect(p.commitment.draw.exact).toEqual(['age', 'gender'])
    p.commitment.draw.exact = ['gender', 'age']
    expect(() => parseCommitment(p.commitment)).toThrow(expect.objectContaining({ code: 'INVALID_DRAW', path: '$.draw.exact[1]' }))
    const r = await verify(p, ENGINE_ONLY)
    expect(byName(r, 'commitment-cid')!.ok).toBe(false)
    expect(byName(r, 'commitment-cid')!.detail).toMatch(/counter's order/)
  })

  // Features `a` (2 values) and `b` (3 values): the counter's order is (b, a), not the canonical (a, b).
  const rows = Array.from({ length: 12 }, (_, i) => ({ id: `r${String(i).padStart(2, '0')}`, values: [i % 2 === 0 ? 'x' : 'y', ['p', 'q', 'r'][i % 3]!] }))
  const pool = makePool(['a', 'b'], rows)
  const quotaRows = (k: number) => [
    ...['x', 'y'].map((v) => ({ feature: 'a', value: v, min: 0, max: k })),
    ...['p', 'q', 'r'].map((v) => ({ feature: 'b', value: v, min: 0, max: k })),
  ]

  it('panelDraw puts named exact features in the counter\'s order (more values first, then by name)', () => {
    checkQuotas(pool, quotaRows(4), 4)
    expect(panelDraw(pool, quotaRows(4), 4, { exactFeatures: ['a', 'b'] }).draw.exact).toEqual(['b', 'a'])
    expect(panelDraw(pool, quotaRows(4), 4, { exactFeatures: ['b', 'a'] }).draw.exact).toEqual(['b', 'a'])
  })

  it('probability rows come in the cell order (types sorted by their values taken in the order of exact); a probability of 1 is "1/1", "1.000000000000"', () => {
    const { draw } = panelDraw(pool, quotaRows(4), 4, { exactFeatures: ['a', 'b'] })
    const out = panelKind.compute(streamFromSeed(new Uint8Array(32)), draw, { count: 12 })
    // Sorted by b first (p, q, r), then a (x, y); the type text names the features canonically (a, then b).
    expect(out.probabilities!.map((p) => p.type)).toEqual(['a=x|b=p', 'a=y|b=p', 'a=x|b=q', 'a=y|b=q', 'a=x|b=r', 'a=y|b=r'])
    const all = panelDraw(pool, quotaRows(12), 12, { exactFeatures: ['a', 'b'] })
    const certain = panelKind.compute(streamFromSeed(new Uint8Array(32)), all.draw, { count: 12 })
    for (const p of certain.probabilities!) expect(p).toMatchObject({ probability: '1/1', decimal: '1.000000000000' })
  })
})

describe('the commitment size limit is one number: LIMITS.maxCommitmentBytes in UTF-8 bytes, everywhere', () => {
  it('an embedded commitment under 1 MiB of UTF-16 code units but over it in UTF-8 bytes is refused (LIMIT_EXCEEDED)', () => {
    const c = structuredClone(DRAWS.cases.find((x: J) => x.name === 'pick-3-of-10').inputs.commitment)
    c.label = '中'.repeat(400_000) // 400,000 code units, 1,200,000 UTF-8 bytes
    expect(JSON.stringify(c).length).toBeLessThan(LIMITS.maxCommitmentBytes)
    expect(() => parseCommitment(c)).toThrow(expect.objectContaining({ code: 'LIMIT_EXCEEDED' }))
  })

  it('the published schemas state the limits of LIMITS (the 64 KiB and 96 KiB of old are gone)', () => {
    const proof = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'proof.schema.json'), 'utf8'))
    const commitment = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'commitment.schema.json'), 'utf8'))
    const receipt = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'receipt.schema.json'), 'utf8'))
    expect(proof.description).toContain(`${LIMITS.maxCommitmentBytes.toLocaleString('en-US')} bytes (1 MiB) (maxCommitmentBytes)`)
    expect(commitment.description).toContain(`${LIMITS.maxCommitmentBytes.toLocaleString('en-US')} bytes (1 MiB) (maxCommitmentBytes)`)
    expect(receipt.description).toContain(`${LIMITS.maxReceiptBytes.toLocaleString('en-US')} bytes`)
    for (const d of [proof, commitment, receipt]) expect(d.description).not.toMatch(/64 KiB|96 KiB/)
  })
})
