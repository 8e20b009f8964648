/**
 * The verifier page shows a `tiebreak` outcome from the built-in registry, with no page code of its
 * own: a ranked table (rank, entry, position), and the "was I in the draw?" search finds an entry's rank.
 */
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock } from '../../src/core/index.js'
import type { TiebreakOutcomeJson } from '../../src/core/kinds/index.js'
import { outcomeView, searchEntries, winnerRanks } from '../../src/verifier/model.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'

const CHAIN = buildChain(8, 'tiebreak-page')

describe('verifier page: tiebreak', () => {
  it('shows the ranking with its title, and the search gives each entry its rank', () => {
    const participants = ['ana', 'ben', 'cai', 'dee']
    const { commitment } = commit({ beacon: BEACON_NAME, target: 6, after: { sequence: 4, block: CHAIN[4]!.cid }, label: 'page', participants, draw: { kind: 'tiebreak', scores: [5, 8, 5, 1] } })
    const proof = drawFromBlock(commitment, participants, CHAIN[6]!)
    const view = outcomeView(proof.outcome)
    expect(view?.layout).toBe('ranked')
    if (view?.layout !== 'ranked') throw new Error('expected a ranked view')
    expect(view.title).toBe('Ranking (ties broken by the seed)')
    const ranking = (proof.outcome as TiebreakOutcomeJson).ranking
    expect(view.rows.map((r) => r.entry)).toEqual(ranking.map((r) => r.entry))
    expect(view.rows[0]!.entry).toBe('ben')
    expect(view.rows[3]!.entry).toBe('dee')
    const ranks = winnerRanks(proof.outcome)
    const cai = ranking.find((r) => r.entry === 'cai')!.rank
    expect(searchEntries(participants, 'cai', ranks).matches).toEqual([{ position: 3, entry: 'cai', rank: cai }])
  })
})
