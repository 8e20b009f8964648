/**
 * The draw itself: `randomness` (the target block carries values), `seed` (from the proven sources),
 * `outcome` (recomputed, within bounds the proof's own size sets), the kind's own claim checks, and
 * `revealed-winners` for a winners-only proof.
 *
 * @module
 */
import { bytesToHex } from '../bytes.js'
import { check, type Check } from '../check.js'
import type { Commitment } from '../commitment.js'
import { kindOf } from '../draw-spec.js'
import { outcomeToJson } from '../draw.js'
import { OrbitdrawError } from '../errors.js'
import type { AnyDrawKind, DrawKinds } from '../kinds/kind.js'
import { computeOutcome, type Outcome } from '../outcome.js'
import type { WeightedEntry } from '../participants.js'
import type { Proof } from '../proof.js'
import { checkRevealedWinners } from '../verify-participants.js'
import type { Evidence } from './read.js'
import type { SeedOf } from './sources.js'
import type { Policy, ProvenTarget, StepResult } from './step.js'

/** The entry at a committed index, when the participants section names it (undefined: no valid section). */
export type EntryOf = ((i: number) => string | undefined) | undefined

/** `randomness`, then `seed`, `outcome` and the checks after it. */
export function checkDraw({ proof, commitment }: Evidence, cid: string, target: ProvenTarget, seedOf: SeedOf, entry: EntryOf, policy: Pick<Policy, 'kinds'>): StepResult<true> {
  const checks: Check[] = []
  const hasRandomness = target.values.length > 0
  checks.push(check('randomness', hasRandomness, hasRandomness ? `the target block carries ${target.values.length} ctrng value(s)` : 'the target block carries no ctrng values: it cannot decide a draw'))
  if (hasRandomness) {
    const seed = seedOf(cid, target)
    const seedOk = bytesToHex(seed) === proof.seed
    checks.push(check('seed', seedOk, seedOk ? `seed ${proof.seed}` : `the seed is ${bytesToHex(seed)}, not the claimed ${proof.seed}`))
    checkOutcome(commitment, proof, seed, entry, checks, policy.kinds)
  }
  return { checks, next: true }
}

function checkOutcome(commitment: Commitment, proof: Proof, seed: Uint8Array, entry: ((i: number) => string | undefined) | undefined, checks: Check[], kinds: DrawKinds): void {
  const kind = kindOf(commitment.draw, kinds)
  const winnersOnly = proof.participants?.disclosure === 'winners'
  // The outcome was not recomputed: `outcome` fails, and every check after it that applies to this proof
  // (the kind's claim checks, `revealed-winners` for a winners-only proof) is reported failed, "not checked:
  // <why>", never dropped (docs/spec.md, What verify checks, rows 16–17).
  const notRecomputed = (outcomeDetail: string, why: string, revealedDetail?: string): void => {
    checks.push(check('outcome', false, outcomeDetail))
    for (const name of kind.claimCheckNames ?? []) checks.push(check(name as Check['name'], false, `not checked: ${why}`))
    if (winnersOnly) checks.push(check('revealed-winners', false, revealedDetail ?? `not checked: ${why}`))
  }
  const unbounded = claimExceedsCarriedData(commitment, proof, kind)
  if (unbounded !== undefined) {
    notRecomputed(`${unbounded.why}: the outcome is not recomputed`, `the outcome was not recomputed (${unbounded.why})`, unbounded.revealed)
    return
  }
  const weighted = kind.participants === 'weighted'
  const weights =
    weighted && proof.participants?.disclosure === 'full' && proof.participants.entries.length === commitment.participants?.count
      ? (proof.participants.entries as readonly (string | WeightedEntry)[]).map((e) => (typeof e === 'string' ? NaN : e.weight))
      : undefined
  if (weighted && (weights === undefined || weights.some((w) => !Number.isSafeInteger(w) || w < 1))) {
    notRecomputed(`the ${kind.name} outcome cannot be recomputed without every entry and weight`, 'the outcome was not recomputed (not every entry carries a valid weight)')
    return
  }
  if (kind.participants !== 'none' && entry === undefined) {
    notRecomputed('the outcome cannot be named without a valid participants section', 'the outcome was not recomputed (the participants section is invalid)')
    return
  }
  let computed: Outcome
  try {
    computed = computeOutcome(seed, commitment.draw, commitment.participants?.count ?? 0, weights, kinds)
  } catch (err) {
    // A replay that hits a protocol limit (a sortition draw's rejection rounds): the claim is unproven.
    if (!(err instanceof OrbitdrawError)) throw err
    notRecomputed(`the outcome cannot be recomputed: ${err.detail}`, `the outcome could not be recomputed (${err.detail})`)
    return
  }
  const expected = outcomeToJson(computed, (i) => entry?.(i) ?? `<undisclosed #${i}>`, kinds)
  const claimed = proof.outcome
  const sameKind = expected.kind === claimed.kind
  const mismatch = !sameKind ? `the draw is a ${expected.kind}, the proof claims a ${claimed.kind}` : kind.compare(expected, claimed)
  checks.push(check('outcome', mismatch === undefined, mismatch === undefined ? kind.describeOutcome(expected) : mismatch))
  if (sameKind && kind.claimChecks !== undefined) for (const c of kind.claimChecks(commitment.draw, claimed, expected)) checks.push(check(c.name, c.ok, c.detail))
  else for (const name of kind.claimCheckNames ?? []) checks.push(check(name as Check['name'], false, `not checked: the proof claims a ${claimed.kind} outcome, not a ${expected.kind}`))
  checkRevealedWinners(proof, kind.winnersOnly?.winners(computed), checks)
}

/**
 * Recomputing an outcome costs time and memory in the size the commitment claims (n participants, k
 * winners, m values). The claim is untrusted: before any such work, the proof must carry data of that
 * size (a full disclosure: exactly `participants.count` entries, whatever the kind; a winners-only proof:
 * the kind's number of winners, or at most it, and what the kind's `carried` asks of its outcome (a
 * kind without participants; a kind whose outcome ranks every entry), so the work stays bounded by the
 * proof's own size. Returns why not (and, for a
 * winners-only proof revealing the wrong number, the `revealed-winners` detail), or undefined.
 */
function claimExceedsCarriedData(commitment: Commitment, proof: Proof, kind: AnyDrawKind): { why: string; revealed?: string } | undefined {
  const d = commitment.draw
  const n = commitment.participants?.count ?? 0
  const p = proof.participants
  // What the kind asks of its outcome (every full disclosure is bounded by its entries instead).
  const carried = kind.carried?.(d, proof.outcome.kind === kind.name ? proof.outcome : undefined)
  if (kind.participants === 'none') return carried === undefined ? undefined : { why: carried }
  if (p === undefined) return { why: 'the proof carries no participants section' }
  if (p.disclosure === 'full') return p.entries.length === n ? undefined : { why: `the commitment claims ${n} participants but the proof carries ${p.entries.length}` }
  if (carried !== undefined) return { why: carried }
  if (kind.winnersOnly === undefined) return { why: `a ${d.kind} draw needs every entry` }
  const count = kind.winnersOnly.count(d)
  const revealed = p.revealed.length
  if (kind.winnersOnly.upTo === true) {
    const fewest = kind.winnersOnly.fewest?.(d) ?? 0
    if (revealed < fewest) return { why: `the proof reveals ${revealed} entries where the commitment draws at least ${fewest} winner(s)`, revealed: `the commitment draws at least ${fewest} winner(s) but the proof reveals ${revealed}: the outcome is not recomputed` }
    return revealed <= count ? undefined : { why: `the proof reveals ${revealed} entries where the commitment draws at most ${count} winner(s)`, revealed: `the commitment draws at most ${count} winner(s) but the proof reveals ${revealed}: the outcome is not recomputed` }
  }
  return revealed === count ? undefined : { why: `the proof reveals ${revealed} entries where the commitment draws ${count} winner(s)`, revealed: `the commitment draws ${count} winner(s) but the proof reveals ${revealed}: the revealed entries are not exactly the winners, and the outcome is not recomputed` }
}
