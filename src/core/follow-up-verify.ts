/**
 * `verify`'s step for follow-up draws (docs/spec.md, Follow-up draws): the carried original proof
 * verified as a proof of its own, pinned to the CID the follow-up names (`follow-up-original`), and the
 * link between the two by the follow-up kind's rule (`follow-up-link`).
 *
 * @module
 */
import { check, type Check } from './check.js'
import type { Commitment } from './commitment.js'
import { MAX_FOLLOW_UP_DEPTH, type FollowUpLink } from './follow-up.js'
import { panelReplacementLink } from './kinds/panel-replacement-link.js'
import { rerollLink } from './kinds/reroll-link.js'
import type { Proof } from './proof.js'

/** The part of a verdict this step reads. */
interface Verdict {
  readonly ok: boolean
  readonly checks: readonly { readonly name: string; readonly ok: boolean; readonly detail: string }[]
  readonly commitment?: Commitment
  readonly commitmentCid?: string
}

/** How deep the verification of a follow-up's originals is, by the options object of each call. */
const DEPTH = new WeakMap<object, number>()

/** The link rule of each follow-up kind: the first problem, or undefined. */
type LinkRule = (spec: never, follow: { commitment: Commitment; proof: Proof }, original: { commitment: Commitment; proof: Proof }) => string | undefined

/**
 * Each follow-up kind: its link rule; the kinds it may follow (its link rule refuses any other),
 * checked on the carried original's claimed kind before that is verified, so that no work is spent on
 * an original whose link cannot hold (this bounds nesting by kind: a panel replacement follows a
 * `panel`, never another follow-up, so a proof carries at most two sortition plans; re-roll chains are
 * of `pick` (`weighted`) draws); and what its messages call it.
 */
const FOLLOW_UPS: Record<string, { readonly link: LinkRule; readonly follows: readonly string[]; readonly noun: string }> = {
  'panel-replacement': { link: panelReplacementLink as LinkRule, follows: ['panel'], noun: 'replacement' },
  reroll: { link: rerollLink as LinkRule, follows: ['pick', 'reroll'], noun: 're-roll' },
  'weighted-reroll': { link: rerollLink as LinkRule, follows: ['weighted', 'weighted-reroll'], noun: 're-roll' },
}

/** The draw kind a carried original claims (`original.commitment.draw.kind`), read without trusting its shape. */
function claimedKind(carried: unknown): unknown {
  try {
    const draw = (carried as { commitment?: { draw?: { kind?: unknown } } } | null)?.commitment?.draw
    return typeof draw === 'object' && draw !== null ? draw.kind : undefined
  } catch {
    return undefined
  }
}

/** True when both commitments are over the same committed participants: root, count and salting. */
function sameParticipants(a: Commitment, b: Commitment): boolean {
  const x = a.participants
  const y = b.participants
  return x?.root === y?.root && x?.count === y?.count && x?.salted === y?.salted
}

/** Is `kind` a follow-up kind (its draw names the draw it follows)? */
export function isFollowUpKind(kind: string): boolean {
  return kind in FOLLOW_UPS
}

/**
 * Adds `follow-up-original` and `follow-up-link` to `checks` for a proof whose draw follows another
 * (or that carries an original proof). Never throws; the original is verified with `verifyFn` and the
 * same options, pinned to the named CID, at most {@link MAX_FOLLOW_UP_DEPTH} levels deep.
 */
export async function checkFollowUp<O extends object>(proof: Proof, commitment: Commitment, checks: Check[], options: O, verifyFn: (proof: unknown, options: O & { commitment: string }) => Promise<Verdict>): Promise<void> {
  const draw = commitment.draw as { kind: string; follows?: FollowUpLink }
  const carried = (proof as { original?: unknown }).original
  if (!isFollowUpKind(draw.kind)) {
    if (carried !== undefined) checks.push(check('follow-up-link', false, `the proof carries an original proof, but a ${draw.kind} draw follows no other draw`))
    return
  }
  const follows = draw.follows!
  if (carried === undefined) {
    checks.push(check('follow-up-original', false, `the proof does not carry the original proof (commitment ${follows.commitment}): the replacement cannot be checked against it`))
    checks.push(check('follow-up-link', false, 'not checked: no original proof'))
    return
  }
  const depth = DEPTH.get(options) ?? 0
  if (depth + 1 >= MAX_FOLLOW_UP_DEPTH) {
    checks.push(check('follow-up-original', false, `follow-ups nested more than ${MAX_FOLLOW_UP_DEPTH} deep are not verified`))
    checks.push(check('follow-up-link', false, 'not checked: the original proof was not verified'))
    return
  }
  const kind = FOLLOW_UPS[draw.kind]!
  const claimed = claimedKind(carried)
  if (typeof claimed !== 'string' || !kind.follows.includes(claimed)) {
    const what = typeof claimed === 'string' ? `a ${JSON.stringify(claimed).slice(0, 40)} draw` : 'no draw kind'
    checks.push(check('follow-up-original', false, `not verified: a ${draw.kind} follows a ${kind.follows.join(' or ')} draw, and the carried original claims ${what}`))
    checks.push(check('follow-up-link', false, 'not checked: the original proof was not verified'))
    return
  }
  const nested = { ...options, commitment: follows.commitment }
  DEPTH.set(nested, depth + 1)
  const r = await verifyFn(carried, nested)
  const failed = r.checks.filter((c) => !c.ok)
  checks.push(check('follow-up-original', r.ok, r.ok ? `the original proof verifies (${r.checks.length} checks), for commitment ${follows.commitment} as named` : `the original proof does not verify: ${failed.map((c) => `${c.name} (${c.detail})`).join('; ')}`))
  if (!r.ok || r.commitment === undefined) {
    checks.push(check('follow-up-link', false, 'not checked: the original proof does not verify'))
    return
  }
  const original = { commitment: r.commitment, proof: carried as Proof }
  const problem =
    (original.proof.seed !== follows.seed ? `the follow-up names the original seed ${follows.seed}, the original proof has ${original.proof.seed}` : undefined) ??
    (r.commitment.target !== follows.target ? `the follow-up names the original target ${follows.target}, the original commitment has ${r.commitment.target}` : undefined) ??
    (commitment.target <= r.commitment.target ? `the follow-up's target block ${commitment.target} is not later than the original's ${r.commitment.target}` : undefined) ??
    (commitment.beacon !== r.commitment.beacon ? `the follow-up uses beacon ${commitment.beacon}, the original ${r.commitment.beacon}` : undefined) ??
    // The same people: a list with other people in the places left (the same counts, its own root) would
    // let whoever commits the follow-up choose who takes them.
    (!sameParticipants(commitment, r.commitment) ? `the ${kind.noun} is not over the same committed participants (root, count and salting) as the draw it follows: commit it over that draw's list (and, for a private list, its secret)` : undefined) ??
    kind.link(draw as never, { commitment, proof }, original)
  checks.push(check('follow-up-link', problem === undefined, problem ?? `follows commitment ${follows.commitment} (block ${follows.target}) at the later block ${commitment.target}: ${follows.dropped.length} dropped, the rest kept as the original proof shows them`))
}
