/**
 * A test-only draw kind whose outcome is shown in the `sections` layout (as `dice` is for a kind
 * without participants): `teams`, every committed entry shuffled and dealt round-robin into `teams`
 * teams; the first of each team is its captain. Its display has one section of each layout: the
 * captains (ranked), a table of the teams (a right-aligned count, the captain's untrusted name, and
 * an emphasised cell: "even" is `ok` for a team of even size, `bad` for an odd one), and the sizes
 * (values). Written as a user would, registered with `withKinds([teamsKind])`.
 */
import { expectInteger, expectOnlyKeys, field } from '../../../src/core/json.js'
import { InvalidInputError } from '../../../src/core/errors.js'
import { LIMITS } from '../../../src/core/limits.js'
import { shuffleIndices } from '../../../src/core/random/shuffle.js'
import { type DrawKind, type RankedJson } from '../../../src/core/kinds/kind.js'
import { type DrawSpec } from '../../../src/core/kinds/registry.js'
import { compareRankedRows, parseRankedRows, rankedRows } from '../../../src/core/kinds/ranked.js'

export interface TeamsSpec {
  readonly kind: 'teams'
  readonly teams: number
}

export interface TeamsOutcome {
  readonly kind: 'teams'
  readonly teams: number
  readonly indices: readonly number[]
}

export interface TeamsOutcomeJson {
  readonly kind: 'teams'
  readonly teams: number
  /** The whole shuffle; row i is in team (i mod teams) + 1. */
  readonly order: readonly RankedJson[]
}

/** The teams spec as a `DrawSpec` (see dice.ts for why the example casts). */
export function teamsDraw(teams: number): DrawSpec {
  return { kind: 'teams', teams } satisfies TeamsSpec as unknown as DrawSpec
}

const bad = (path: string, detail: string, hint: string): never => {
  throw new InvalidInputError('INVALID_DRAW', detail, hint, { path })
}

/** Team t's members (0-based t), captain first. */
function members(o: TeamsOutcomeJson, t: number): RankedJson[] {
  return o.order.filter((_, i) => i % o.teams === t)
}

export const teamsKind: DrawKind<TeamsSpec, TeamsOutcome, TeamsOutcomeJson> = {
  name: 'teams',
  participants: 'entries',
  validate(spec, n, path) {
    if (!Number.isSafeInteger(spec.teams) || spec.teams < 1 || spec.teams > n) bad(`${path}.teams`, `teams must be 1 to ${n}, got ${String(spec.teams)}`, 'make at most one team per participant')
  },
  parse(draw, path) {
    expectOnlyKeys(draw, ['kind', 'teams'], path)
    return { kind: 'teams', teams: expectInteger(field(draw, 'teams', path), `${path}.teams`, 1) }
  },
  encode: (spec) => ({ kind: 'teams', teams: spec.teams }),
  compute: (stream, spec, { count }) => ({ kind: 'teams', teams: spec.teams, indices: Array.from(shuffleIndices(stream, count)) }),
  toJson: (o, entry) => ({ kind: 'teams', teams: o.teams, order: rankedRows(o.indices, entry) }),
  parseOutcome(o, path) {
    expectOnlyKeys(o, ['kind', 'teams', 'order'], path)
    return { kind: 'teams', teams: expectInteger(field(o, 'teams', path), `${path}.teams`, 1, LIMITS.maxParticipants), order: parseRankedRows(field(o, 'order', path), `${path}.order`) }
  },
  compare: (e, c) => (e.teams !== c.teams ? `${e.teams} teams expected, ${c.teams} claimed` : compareRankedRows(e.order, c.order)),
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
}
