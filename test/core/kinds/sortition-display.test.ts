/** How the sortition kinds show their outcome (src/core/kinds/sortition-display.ts), through the registry. */
import { describe, expect, it } from 'vitest'
import { DEFAULT_DRAW_KINDS } from '../../../src/core/kinds/registry.js'
import { type OutcomeBase, type SectionsDisplay, type TableDisplay } from '../../../src/core/kinds/kind.js'

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
    expect(d.sections[1]!.note).toMatch(/does not count every feature exactly/)
  })

  it('a panel lottery: the winning candidate, its members and quotas', () => {
    const d = show({ kind: 'panel-lottery', panel: 2, members, quotas: [q('g', 'f', 1, 1, 1)] })
    expect(d.title).toBe('Panel 2 of the portfolio')
    expect(d.sections.map((s) => s.title)).toEqual(['Members (2)', 'Quotas (1 of 1 met)'])
  })
})
