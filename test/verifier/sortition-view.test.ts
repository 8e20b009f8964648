/**
 * The verifier page's sortition views, computed in its worker (src/verifier/sortition-view.ts): which
 * proofs get a probabilities offer, the probabilities table (exact, or labelled ESTIMATE with each
 * interval), and a follow-up draw's dropped members read from the carried original with the link.
 */
import { describe, expect, it } from 'vitest'
import { panelDraw } from '../../src/core/kinds/panel.js'
import { followUpSection, probabilitiesSection, probabilityOffer, computeProbabilities } from '../../src/verifier/sortition-view.js'
import { proportionalQuotas, smallPool } from '../core/sortition/fixtures.js'

const pool = smallPool(14, [2, 3, 2], 5)
const rows = proportionalQuotas(pool, 5, 1)

describe('probabilityOffer', () => {
  it('offers an estimate for a panel without exact probabilities, nothing when the proof carries them, and replacements by their plan', () => {
    const { draw } = panelDraw(pool, rows, 5, { exactFeatures: ['f0'] })
    expect(probabilityOffer(draw, { kind: 'panel' })).toEqual({ exact: false, panels: 200, scope: 'panel', households: false })
    expect(probabilityOffer(draw, { kind: 'panel', probabilities: [] })).toBeUndefined()
    expect(probabilityOffer({ kind: 'panel-replacement', exact: ['a', 'b'], features: [{}, {}] }, {})).toEqual({ exact: true, panels: 200, scope: 'replacements', households: false })
    expect(probabilityOffer({ kind: 'panel-replacement', exact: ['a', 'b'], features: [{}, {}], households: [[0, 1]] }, {})).toMatchObject({ exact: false, households: true })
    expect(probabilityOffer({ kind: 'pick', k: 3 }, {})).toBeUndefined()
    expect(probabilityOffer(undefined, undefined)).toBeUndefined()
  })
})

describe('probabilitiesSection', () => {
  it('an estimate is titled and noted ESTIMATE, with the CID, each interval and the summary', () => {
    const { draw } = panelDraw(pool, rows, 5, { exactFeatures: ['f0'] })
    const p = computeProbabilities(draw, 'bagaaieraexample', 50)
    const s = probabilitiesSection(p)
    expect(s.title).toBe('Selection probability by type — ESTIMATE')
    expect(s.note).toContain('ESTIMATE from 50 sample panels drawn on a stream derived from the commitment bagaaieraexample alone (never the beacon)')
    expect(s.note).toMatch(/Summary \(estimate\): lowest /)
    expect(s.columns.map((c) => c.label)).toEqual(['Type', 'Respondents', 'Estimate', '95 % interval'])
    expect(s.rows[0]![3]).toMatch(/^[01]\.\d{4} – [01]\.\d{4}$/)
  })

  it('exact figures are titled exact, with the fraction', () => {
    const { draw } = panelDraw(pool, rows, 5)
    const s = probabilitiesSection(computeProbabilities(draw, 'bagaaieraexample', 50))
    expect(s.title).toBe('Selection probability by type (exact)')
    expect(s.rows[0]![3]).toMatch(/^\d+\/\d+$/)
  })
})

describe('followUpSection', () => {
  it('lists the dropped members as the carried original shows them, and names the original commitment', () => {
    const draw = { kind: 'panel-replacement', follows: { commitment: 'bagaaieraoriginal', seed: 'ab', target: 9, dropped: [4, 8] } }
    const proof = { original: { outcome: { members: [{ rank: 1, index: 2, entry: 'a|g=f' }, { rank: 2, index: 4, entry: 'b|g=m' }, { rank: 3, index: 8, entry: 'c|g=f' }] } } }
    const s = followUpSection(draw, proof)!
    expect(s.title).toBe('Declined or dropped out (2)')
    expect(s.note).toContain('commitment bagaaieraoriginal (target block 9)')
    expect(s.layout === 'ranked' && s.rows.map((r) => r.entry)).toEqual(['b|g=m', 'c|g=f'])
    // without the original carried: the link, no rows
    expect(followUpSection(draw, {})).toMatchObject({ title: 'Declined or dropped out (2)', rows: [] })
    expect(followUpSection({ kind: 'panel' }, proof)).toBeUndefined()
  })
})
