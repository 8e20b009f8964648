/**
 * Pins what every built-in draw kind makes of bad input, so that a change of how kinds are declared
 * cannot change it: for a table of bad (and good) inputs made by mutating one valid draw and outcome
 * of each kind, field by field (deleted, replaced by a value of another type or out of range, an
 * unknown field added), the error (class, code, path, detail, hint) or the parsed value of
 *
 * - the kind's `parse` of a commitment's `draw` and `parseOutcome` of a proof's `outcome`,
 * - `parseCommitment` of a whole commitment with that draw (alone, and with a later field also bad,
 *   so the protocol's order of the two errors is pinned too),
 * - `validateDrawSpec` of a typed spec (as a JavaScript caller builds one) for a few list sizes,
 * - `encode` and `describe` of the valid specs.
 *
 * The table is in __pins__/kind-errors.json (written once from the code before the change).
 */
import { describe, expect, it } from 'vitest'
import { commit, drawFromBlock, type DrawSpec } from '../../../src/core/index.js'
import type { PanelOutcomeJson } from '../../../src/core/sortition/index.js'
import { panelLotteryDraw } from '../../../src/core/sortition/index.js'
import { panelDraw } from '../../../src/core/sortition/index.js'
import { BEACON_NAME, buildChain } from '../../helpers/chain.js'
import { proportionalQuotas, smallPool } from '../sortition/fixtures.js'
import { kindPinRows, mutations, type J, type KindSample } from './pin-table.js'

const CHAIN = buildChain(12, 'pinned-kinds')
const base = { beacon: BEACON_NAME, target: 10, after: { sequence: 7, block: CHAIN[7]!.cid }, label: 'pinned' }

/** A sample of one valid commitment and proof per built-in kind. */
function samples(): KindSample[] {
  const people = ['alice', 'bob', 'carol', 'dave', 'erin']
  const out: KindSample[] = []
  const add = (name: string, draw: DrawSpec, participants?: readonly (string | { entry: string; weight: number })[]): void => {
    const { commitment } = commit({ ...base, draw, ...(participants === undefined ? {} : { participants: participants as never }) })
    const proof = drawFromBlock(commitment, participants as never, CHAIN[10]!)
    const j = JSON.parse(JSON.stringify(proof)) as { commitment: Record<string, J>; outcome: Record<string, J> }
    out.push({ name, commitment: j.commitment, outcome: j.outcome, n: participants?.length ?? 0 })
  }
  add('pick', { kind: 'pick', count: 2 }, people)
  add('weighted', { kind: 'weighted', count: 2 }, people.map((entry, i) => ({ entry, weight: i + 1 })))
  add('shuffle', { kind: 'shuffle' }, people)
  add('range', { kind: 'range', min: -3n, max: 40n, count: 3, distinct: true })
  const pool = smallPool(24, [2, 3], 5)
  const quotas = proportionalQuotas(pool, 6, 1)
  const panel = panelDraw(pool, quotas, 6, { alternates: 2 })
  add('panel', panel.draw, panel.participants)
  const panels = [8, 9].map((t) => {
    const { commitment } = commit({ ...base, target: t, draw: panel.draw, participants: panel.participants })
    return (drawFromBlock(commitment, panel.participants, CHAIN[t]!).outcome as PanelOutcomeJson).members.map((m) => m.entry.split('|')[0]!)
  })
  const lottery = panelLotteryDraw(pool, quotas, panels, [1, 3])
  add('panel-lottery', lottery.draw, lottery.participants)
  return out
}

/** A typed spec as `parse` would give it, with the typed value `b` at `path` (bigints kept). */
function typedMutations(spec: J): { what: string; value: J }[] {
  const out = mutations(spec, 3)
  out.push({ what: 'min 1 (a number)', value: { ...(spec as object), min: 1 } })
  return out
}

describe('the built-in kinds refuse bad input as they always did (pinned)', () => {
  it('parse, parseOutcome, parseCommitment, validateDrawSpec, encode and describe over a table of inputs', async () => {
    const rows: J[] = []
    for (const s of samples()) {
      const listSizes = s.n > 20 ? [s.n] : [...new Set([0, 1, s.n, s.n + 3])]
      rows.push(...kindPinRows(s, { draws: mutations(s.commitment.draw, 4), outcomes: mutations(s.outcome, 3), typed: typedMutations, listSizes }))
    }
    expect(rows.length).toBeGreaterThan(1000)
    await expect(`[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`).toMatchFileSnapshot('./__pins__/kind-errors.json')
  }, 120_000)
})
