/**
 * Draw kinds `reroll` and `weighted-reroll` (issue 27 item 3; docs/spec.md, Re-rolls): when winners of a
 * `pick` (`weighted`) draw decline or are disqualified, a follow-up commitment to a later block names
 * the draw it follows (`follows`: its CID, seed, target and the declined winners), its winners in rank
 * order (`winners`), everyone who won before and declined (`past`), the seed of the committed ranking
 * (`ranking`: the first draw's) and the rule:
 *
 * - `next`: the declined seats go to the next entries of the first draw's committed ranking (its
 *   alternates: `pick` / `weighted` of more winners from the `ranking` seed) that never won;
 * - `fresh`: a fresh draw at the new block, uniform (`reroll`) or by weight (`weighted-reroll`) among
 *   the entries that never won (neither `winners` nor `past`).
 *
 * The replacements take the declined winners' ranks, in rank order; every other winner keeps its rank.
 * A re-roll may follow a re-roll (a replacement who declines in turn). The link to the followed draw
 * (check `follow-up-link`) is ./reroll-link.ts.
 *
 * @module
 */
import * as v from 'valibot'
import { hexToBytes } from '../bytes.js'
import { InvalidInputError } from '../errors.js'
import { followsShape, validateFollows, type FollowUpLink } from '../follow-up.js'
import { pickIndices, streamFromSeed, weightedPick, type RandomStream } from '../random/index.js'
import { hash } from '../schema/common.js'
import { described, list, integer } from '../schema/kit.js'
import { LIMITS } from '../limits.js'
import { defineKind } from './define.js'
import { rerollCli } from './reroll-cli.js'
import { badDraw, type KindCli, type NamedCheck, type OutcomeJsonOf, type RankedJson, type SpecOf } from './kind.js'
import { compareRankedRows, describeWinners, rankedRows, rankedRowsBytesFloor, rankedRowsCheck } from './ranked.js'

/**
 * Bounds of a re-roll's commitment: the followed draw's winners and the earlier declined winners each
 * at most 10,000 (the commitment stays well under `LIMITS.maxCommitmentBytes`); the declined of one
 * re-roll at most 1,000 (`follows.dropped`).
 * @category Draw kinds
 */
export const REROLL_LIMITS = Object.freeze({ maxWinners: 10_000, maxPast: 10_000 })

/**
 * The names of the checks a re-roll adds to `verify` (after `outcome`).
 * @category Draw kinds
 */
export const REROLL_CHECK_NAMES = ['reroll-kept', 'reroll-never-won'] as const

const indexList = (max: number, what: string) => described(list(integer(0, LIMITS.maxParticipants - 1), max), what)

/** The spec fields the two re-roll kinds share. */
const rerollDraw = {
  rule: described(v.picklist(['next', 'fresh']), '`next`: the next entries of the first draw\'s committed ranking that never won; `fresh`: a fresh draw at this block among the entries that never won.'),
  follows: followsShape,
  ranking: described(hash, 'The seed (64 lowercase hex digits) of the first draw in the chain (the pick or weighted draw): its ranking is what `next` walks.'),
  winners: indexList(REROLL_LIMITS.maxWinners, 'The followed draw\'s winners (committed indices) in rank order.'),
  past: indexList(REROLL_LIMITS.maxPast, 'Earlier winners who declined before the followed draw (committed indices, strictly ascending; [] after a first draw).'),
}

/** The outcome fields of a re-roll. */
const rerollOutcomeFields = {
  winners: described(rankedRowsCheck, 'The winners after the re-roll, in rank order: the followed winners, each declined one replaced in place.'),
  replacements: described(rankedRowsCheck, 'The new winners, in rank order (rank = the seat each takes).'),
}

/**
 * The computed outcome of a re-roll: committed indices.
 * @category Draw kinds
 */
export interface RerollOutcome<K extends 'reroll' | 'weighted-reroll'> {
  readonly kind: K
  /** The winners after the re-roll, in rank order. */
  readonly winners: readonly number[]
  /** The new winners in the order they were drawn (the declined seats in rank order). */
  readonly replacements: readonly number[]
  /** The ranks (1-based) the replacements take, ascending. */
  readonly seats: readonly number[]
}

/** The parts of a spec the sampler reads. */
interface RerollParts {
  readonly rule: 'next' | 'fresh'
  readonly follows: FollowUpLink
  readonly ranking: string
  readonly winners: readonly number[]
  readonly past: readonly number[]
}

/** Every entry that may not be drawn again (the winners and the past), ascending. */
export function rerollExcluded(spec: Pick<RerollParts, 'winners' | 'past'>): number[] {
  return [...new Set([...spec.winners, ...spec.past])].sort((a, b) => a - b)
}

/**
 * The `j`-th (0-based) committed index, ascending, that is not in `excluded` (sorted ascending, distinct):
 * `j + k` for the number `k` of excluded indices `e_i` with `e_i − i ≤ j` (nondecreasing in `i`, so a
 * binary search: O(log |excluded|)).
 */
function nthAvailable(j: number, excluded: readonly number[]): number {
  let lo = 0
  let hi = excluded.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (excluded[mid]! - mid <= j) lo = mid + 1
    else hi = mid
  }
  return j + lo
}

/**
 * The replacements of a re-roll, in the order they take the declined seats (docs/spec.md, Re-rolls).
 * `stream` is the new seed's stream (rule `fresh`); `next` reads a fresh stream of `spec.ranking`.
 */
export function rerollReplacements(stream: RandomStream, spec: RerollParts, n: number, weights?: readonly number[]): number[] {
  const excluded = rerollExcluded(spec)
  const d = spec.follows.dropped.length
  const out = new Set(excluded)
  if (spec.rule === 'next') {
    // The first draw's ranking, extended: at most |excluded| of its first |excluded| + d entries are skipped.
    const ranking = streamFromSeed(hexToBytes(spec.ranking))
    const k = Math.min(n, excluded.length + d)
    const ranked = weights === undefined ? pickIndices(ranking, n, k) : weightedPick(ranking, weights, k)
    return ranked.filter((i) => !out.has(i)).slice(0, d)
  }
  if (weights === undefined) return pickIndices(stream, n - excluded.length, d).map((j) => nthAvailable(j, excluded))
  const available: number[] = []
  for (let i = 0; i < n; i++) if (!out.has(i)) available.push(i)
  return weightedPick(stream, available.map((i) => weights[i]!), d).map((j) => available[j]!)
}

/** The winners after the re-roll and the seats the replacements take. */
export function rerollSeats(spec: Pick<RerollParts, 'winners' | 'follows'>, replacements: readonly number[]): { winners: number[]; seats: number[] } {
  const dropped = new Set(spec.follows.dropped)
  const seats: number[] = []
  const winners = [...spec.winners]
  let next = 0
  winners.forEach((w, r) => {
    if (dropped.has(w)) {
      winners[r] = replacements[next++]!
      seats.push(r + 1)
    }
  })
  return { winners, seats }
}

/** The first problem of a spec against `n` participants, or undefined (the rules its fields cannot say). */
function specProblem(spec: RerollParts, n: number): { path: string; detail: string; hint: string } | undefined {
  const seen = new Set<number>()
  for (let i = 0; i < spec.winners.length; i++) {
    const w = spec.winners[i]!
    if (w >= n) return { path: `winners[${i}]`, detail: `index ${w} is not one of the ${n} committed participants`, hint: 'copy the followed draw\'s winners' }
    if (seen.has(w)) return { path: `winners[${i}]`, detail: `winner ${w} is listed twice`, hint: 'copy the followed draw\'s winners' }
    seen.add(w)
  }
  if (spec.winners.length < 1) return { path: 'winners', detail: 'the followed draw has no winners', hint: 'copy the followed draw\'s winners' }
  for (let i = 0; i < spec.past.length; i++) {
    const p = spec.past[i]!
    if (p >= n) return { path: `past[${i}]`, detail: `index ${p} is not one of the ${n} committed participants`, hint: 'copy the earlier declined winners' }
    if (i > 0 && p <= spec.past[i - 1]!) return { path: `past[${i}]`, detail: 'the earlier declined winners must be strictly ascending', hint: 'sort them, each once' }
    if (seen.has(p)) return { path: `past[${i}]`, detail: `participant ${p} is both a winner and an earlier declined winner`, hint: 'list a declined winner in past only' }
  }
  const i = spec.follows.dropped.findIndex((x) => !seen.has(x))
  if (i >= 0) return { path: `follows.dropped[${i}]`, detail: `participant ${spec.follows.dropped[i]!} is not one of the followed draw's winners`, hint: 'name winners who declined' }
  const left = n - spec.winners.length - spec.past.length
  if (left < spec.follows.dropped.length) return { path: 'follows.dropped', detail: `only ${left} participant(s) never won: ${spec.follows.dropped.length} seat(s) cannot be re-rolled`, hint: 're-roll fewer seats' }
  return undefined
}

/** The named checks of a claimed re-roll outcome: the kept winners keep their seats; no new winner ever won. */
function claimChecks(spec: RerollParts, claimed: { readonly winners: readonly RankedJson[]; readonly replacements: readonly RankedJson[] }): NamedCheck[] {
  const dropped = new Set(spec.follows.dropped)
  const kept = spec.winners.map((w, r) => ({ w, r })).filter((x) => !dropped.has(x.w))
  const moved = kept.find(({ w, r }) => claimed.winners[r]?.index !== w)
  const excluded = new Set(rerollExcluded(spec))
  const keptSet = new Set(kept.map((x) => x.w))
  const again = [...claimed.replacements, ...claimed.winners.filter((x) => !keptSet.has(x.index))].find((x) => excluded.has(x.index))
  return [
    moved === undefined
      ? { name: 'reroll-kept', ok: true, detail: `the ${kept.length} winner(s) who did not decline keep their ranks` }
      : { name: 'reroll-kept', ok: false, detail: `winner ${moved.w} (rank ${moved.r + 1}) did not decline but the proof does not keep it at rank ${moved.r + 1}` },
    again === undefined
      ? { name: 'reroll-never-won', ok: true, detail: `no new winner is one of the ${excluded.size} past or declined winner(s)` }
      : { name: 'reroll-never-won', ok: false, detail: `new winner ${again.index} (rank ${again.rank}) already won (or declined) before` },
  ]
}

/** The parts of the two kinds' declarations they share. */
function rerollDeclaration<N extends 'reroll' | 'weighted-reroll'>(name: N, weighted: boolean) {
  return {
    name,
    draw: rerollDraw,
    outcome: rerollOutcomeFields,
    compute(stream: RandomStream, spec: RerollParts, input: { count: number; weights?: readonly number[] }): RerollOutcome<N> {
      if (weighted && (input.weights === undefined || input.weights.length !== input.count)) {
        throw new InvalidInputError('MISSING_WEIGHTS', `a weighted re-roll needs one weight per participant (${input.count}), got ${input.weights?.length ?? 'none'}`, 'pass the committed weights, in committed order')
      }
      const replacements = rerollReplacements(stream, spec, input.count, weighted ? input.weights : undefined)
      return { kind: name, ...rerollSeats(spec, replacements), replacements }
    },
    toJson: (o: RerollOutcome<N>, entry: (index: number) => string) => ({
      kind: name,
      winners: rankedRows(o.winners, entry),
      replacements: o.replacements.map((index, i) => ({ rank: o.seats[i]!, index, entry: entry(index) })),
    }),
    rules: {
      validate(spec: RerollParts, n: number, path: string) {
        validateFollows(spec.follows, n, path, 'rerollDraw')
        const problem = specProblem(spec, n)
        if (problem !== undefined) badDraw(`${path}.${problem.path}`, problem.detail, problem.hint)
      },
      outcomeBytesFloor: (spec: RerollParts) => rankedRowsBytesFloor(spec.winners.length) + rankedRowsBytesFloor(spec.follows.dropped.length),
      compare: (e: { readonly winners: readonly RankedJson[]; readonly replacements: readonly RankedJson[] }, c: { readonly winners: readonly RankedJson[]; readonly replacements: readonly RankedJson[] }) =>
        compareRankedRows(e.winners, c.winners) ?? (compareRankedRows(e.replacements, c.replacements) === undefined ? undefined : `replacements: ${compareRankedRows(e.replacements, c.replacements)!}`),
      claimCheckNames: REROLL_CHECK_NAMES,
      claimChecks: (spec: RerollParts, claimed: { readonly winners: readonly RankedJson[]; readonly replacements: readonly RankedJson[] }) => claimChecks(spec, claimed),
    },
    view: {
      describe: (spec: RerollParts, n: number | undefined) =>
        `${weighted ? 'weighted ' : ''}re-roll (${spec.rule}) of ${spec.follows.dropped.length} of ${spec.winners.length} winner(s)${n === undefined ? '' : ` among ${n}`} (commitment ${spec.follows.commitment.slice(0, 16)}…)`,
      describeOutcome: (o: { readonly replacements: readonly RankedJson[] }) => `the replacement(s) ${describeWinners(o.replacements).slice('the winners '.length)}`,
      display: (o: { readonly winners: readonly RankedJson[]; readonly replacements: readonly RankedJson[] }) => ({
        layout: 'sections' as const,
        title: `Re-roll: ${o.replacements.length} replacement(s)`,
        sections: [
          { layout: 'ranked' as const, title: 'Winners', rows: o.winners },
          { layout: 'ranked' as const, title: 'Replacements', rows: o.replacements },
        ],
      }),
    },
  }
}

/**
 * The `reroll` kind: declined winners of a `pick` (or of a `reroll`) replaced by the `next` entries of
 * the committed ranking or by a `fresh` uniform draw among those who never won.
 * @category Draw kinds
 */
export const rerollKind = defineKind({
  ...rerollDeclaration('reroll', false),
  participants: 'entries',
  // Its spec is built from the followed proof (a `weighted-reroll` spec when that draw is weighted).
  cli: rerollCli as KindCli<never>,
  winnersOnly: { count: (spec) => spec.winners.length, winners: (o) => o.winners },
})

/**
 * The `weighted-reroll` kind: declined winners of a `weighted` draw (or of a `weighted-reroll`)
 * replaced by the `next` entries of its committed ranking or by a `fresh` draw by weight among those
 * who never won.
 * @category Draw kinds
 */
export const weightedRerollKind = defineKind({
  ...rerollDeclaration('weighted-reroll', true),
  participants: 'weighted',
})

/**
 * A `reroll` draw. Make one with {@link rerollDraw}.
 * @category Draw kinds
 */
export type RerollSpec = SpecOf<typeof rerollKind>
/**
 * A `weighted-reroll` draw. Make one with {@link rerollDraw}.
 * @category Draw kinds
 */
export type WeightedRerollSpec = SpecOf<typeof weightedRerollKind>
/**
 * A re-roll's outcome as carried in a proof.
 * @category Draw kinds
 */
export type RerollOutcomeJson = OutcomeJsonOf<typeof rerollKind> | OutcomeJsonOf<typeof weightedRerollKind>
