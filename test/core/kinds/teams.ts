/**
 * A test-only draw kind whose outcome is shown in the `sections` layout (as `dice` is for a kind
 * without participants): `teams`, every committed entry shuffled and dealt round-robin into `teams`
 * teams; the first of each team is its captain. Its display has one section of each layout: the
 * captains (ranked), a table of the teams (a right-aligned count, the captain's untrusted name, and
 * an emphasised cell: "even" is `ok` for a team of even size, `bad` for an odd one), and the sizes
 * (values). Written as a user would, registered with `withKinds([teamsKind])`.
 */
import { defineKind, integer, InvalidInputError, LIMITS, shuffleIndices, type DrawSpec, type OutcomeJsonOf, type RankedJson, type SpecOf } from '../../../src/core/index.js'
import { compareRankedRows, rankedRows, rankedRowsCheck } from '../../../src/core/kinds/ranked.js'

export interface TeamsOutcome {
  readonly kind: 'teams'
  readonly teams: number
  readonly indices: readonly number[]
}

/** The teams spec as a `DrawSpec` (see dice.ts for why the example casts). */
export function teamsDraw(teams: number): DrawSpec {
  return { kind: 'teams', teams } satisfies TeamsSpec as unknown as DrawSpec
}

const bad = (path: string, detail: string, hint: string): never => {
  throw new InvalidInputError('INVALID_DRAW', detail, hint, { path })
}

/** Team t's members (0-based t), captain first. */
function members(o: { readonly teams: number; readonly order: readonly RankedJson[] }, t: number): RankedJson[] {
  return o.order.filter((_, i) => i % o.teams === t)
}

export const teamsKind = defineKind({
  name: 'teams',
  draw: { teams: integer(1) },
  outcome: { teams: integer(1, LIMITS.maxParticipants), order: rankedRowsCheck },
  compute: (stream, spec, { count }): TeamsOutcome => ({ kind: 'teams', teams: spec.teams, indices: Array.from(shuffleIndices(stream, count)) }),
  toJson: (o, entry) => ({ kind: 'teams', teams: o.teams, order: rankedRows(o.indices, entry) }),
  rules: {
    validate(spec, n, path) {
      if (spec.teams > n) bad(`${path}.teams`, `teams must be 1 to ${n}, got ${String(spec.teams)}`, 'make at most one team per participant')
    },
    compare: (e, c) => (e.teams !== c.teams ? `${e.teams} teams expected, ${c.teams} claimed` : compareRankedRows(e.order, c.order)),
  },
  view: {
  describeOutcome: (o) => `the ${o.teams} teams follow from the seed`,
  describe: (spec, n) => `${spec.teams} teams of ${n ?? '?'}`,
  display: (o) => {
    const teams = Array.from({ length: o.teams }, (_, t) => members(o, t))
    return {
      layout: 'sections',
      title: 'Teams',
      sections: [
        { layout: 'ranked', title: 'Captains', rows: teams.map((m) => m[0]!) },
        {
          layout: 'table',
          title: 'Team sizes',
          note: 'even: a team of even size can pair up',
          columns: [{ label: 'Team' }, { label: 'Members', align: 'right' }, { label: 'Captain' }, { label: 'Even' }],
          rows: teams.map((m, t) => [`team ${t + 1}`, String(m.length), m[0]!.entry, m.length % 2 === 0 ? { text: 'yes', tone: 'ok' } : { text: 'no', tone: 'bad' }]),
        },
        { layout: 'values', title: 'Sizes', values: teams.map((m) => String(m.length)) },
      ],
    }
  },
  },
})

export type TeamsSpec = SpecOf<typeof teamsKind>
export type TeamsOutcomeJson = OutcomeJsonOf<typeof teamsKind>
