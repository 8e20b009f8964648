/** How the sortition kinds show their outcome (src/core/kinds/sortition-display.ts), through the registry. */
import { describe, expect, it } from 'vitest'
import { DEFAULT_DRAW_KINDS } from '../../../src/core/kinds/registry.js'
import { type OutcomeBase, type RankedDisplay, type SectionsDisplay, type TableDisplay } from '../../../src/core/kinds/kind.js'

const q = (feature: string, value: string, min: number, max: number, selected: number) => ({ feature, value, min, max, selected })
const members = [{ rank: 1, index: 3, entry: 'r3|g=f' }, { rank: 2, index: 7, entry: 'r7|g=m' }]
const show = (o: object): SectionsDisplay => DEFAULT_DRAW_KINDS.get((o as OutcomeBase).kind)!.display(o as OutcomeBase) as SectionsDisplay

describe('sortition outcome display', () => {
  it('a panel: members, quotas (met or not), alternates, probabilities by type when exact', () => {
    const d = show({ kind: 'panel', members, alternates: [{ rank: 1, index: 9, entry: 'r9|g=f' }], rounds: 3, quotas: [q('g', 'f', 1, 1, 1), q('g', 'm', 0, 0, 1)], probabilities: [{ type: 'g=f', respondents: 4, probability: '1/4', decimal: '0.250000000000' }] })
    expect(d.layout).toBe('sections')
    expect(d.title).toBe('Panel of 2')
    expect(d.sections.map((s) => [s.layout, s.title])).toEqual([['ranked', 'Members (2)'], ['table', 'Quotas (1 of 2 met)'], ['ranked', 'Alternates (1)'], ['table', 'Selection probability by type']])
    expect(d.sections[0]!.note).toContain('drawn in 3 rounds')
    const quotas = d.sections[1] as TableDisplay
    expect(quotas.note).toBeUndefined()
    expect(quotas.rows).toEqual([['g', 'f', '1', '1', '1', { text: 'yes', tone: 'ok' }], ['g', 'm', '0', '0', '1', { text: 'no', tone: 'bad' }]])
    expect((d.sections[3] as TableDisplay).rows).toEqual([['g=f', '4', '0.250000000000', '1/4']])
  })

  it('without alternates or exact probabilities: no empty sections, and the quota table says why no probabilities', () => {
    const d = show({ kind: 'panel', members, alternates: [], rounds: 1, quotas: [q('g', 'f', 1, 1, 1)] })
    expect(d.sections.map((s) => s.title)).toEqual(['Members (2)', 'Quotas (1 of 1 met)'])
    expect(d.sections[0]!.note).toContain('drawn in 1 round')
    expect(d.sections[1]!.note).toMatch(/does not count every feature exactly, or the draw has a household rule\): 'orbitdraw inspect PROOF --probabilities' and the verifier page estimate them/)
  })

  it('exact probabilities end with the comparison line: lowest, highest, their ratio, k/n', () => {
    const d = show({ kind: 'panel', members, alternates: [], rounds: 1, quotas: [q('g', 'f', 1, 1, 1)], probabilities: [{ type: 'g=f', respondents: 4, probability: '1/4', decimal: '0.250000000000' }, { type: 'g=m', respondents: 2, probability: '1/2', decimal: '0.500000000000' }] })
    expect(d.sections.at(-1)!.note).toBe('the chance that a given respondent of the type is on the panel, exact (every feature is counted exactly); lowest 0.250000 (g=f), highest 0.500000 (g=m), highest/lowest 2.00; equal share k/n 0.333333 (what a maximin tool aims at for everyone)')
  })

  it('a panel replacement: the replacements, the remaining members and the new panel\'s quotas', () => {
    const d = show({ kind: 'panel-replacement', members: [...members, { rank: 3, index: 11, entry: 'r11|g=m' }], replacements: [{ rank: 2, index: 7, entry: 'r7|g=m' }], rounds: 2, quotas: [q('g', 'f', 1, 1, 1)] })
    expect(d.title).toBe('Replacements (1) in a panel of 3')
    expect(d.sections.map((s) => [s.layout, s.title])).toEqual([['ranked', 'Replacements (1)'], ['ranked', 'Remaining members (2)'], ['table', 'Quotas (1 of 1 met)']])
    expect(d.sections[0]!.note).toContain('drawn in 2 rounds')
    expect((d.sections[1] as RankedDisplay).rows.map((r) => r.index)).toEqual([3, 11])
  })

  it('a panel lottery: the winning candidate, its members and quotas', () => {
    const d = show({ kind: 'panel-lottery', panel: 2, members, quotas: [q('g', 'f', 1, 1, 1)] })
    expect(d.title).toBe('Panel 2 of the portfolio')
    expect(d.sections.map((s) => s.title)).toEqual(['Members (2)', 'Quotas (1 of 1 met)'])
  })
})
