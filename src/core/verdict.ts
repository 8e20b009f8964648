/**
 * One wording of a verification verdict, shared by the CLI and the verifier page, so that the same
 * proof under the same policy reads the same everywhere. Plain text: front ends escape it for their
 * medium (terminal or HTML); untrusted parts (labels, names) are quoted with JSON escaping here.
 *
 * @module
 */
import type { CheckName } from './check-names.js'
import { formatUnixTime } from './unix-time.js'
import type { VerifyResult } from './verify-result.js'

/**
 * The verdict in words.
 * @category Verify
 */
export interface VerdictText {
  /** `verified`, `verified-relaxed`, `incomplete` or `failed` (the same as `VerifyResult.verdict`). */
  readonly status: VerifyResult['verdict']
  /** One line: what the verdict is. */
  readonly headline: string
  /**
   * The facts a reader must see first, in order: the commitment CID (pinned or to compare), the beacon
   * and target block with its time, the commitment's time-stamp, then each relaxed rule with what to
   * check instead.
   */
  readonly lines: readonly string[]
  /**
   * For a failed verdict, one plain sentence saying what is wrong (the most telling failed check,
   * for example `The outcome in the file is not the one the block decides: rank 1 should be "Amara"
   * (index 0); the proof claims "Mallory" (rank 1, index 4).`); undefined otherwise.
   */
  readonly reason?: string
}

/**
 * @internal The failed checks a reader most needs explained, most telling first: the CLI's and the
 * page's order (the page, which words them in the reader's language, adds `version`).
 */
export const TELLING_CHECKS = [
  'format',
  'commitment-pinned',
  'beacon-trusted',
  'panel-quotas',
  'lottery-panels',
  'outcome',
  'participants',
  'revealed-winners',
  'distinct-winners',
  'block-content',
  'beacon-authenticity',
  'commitment-time',
  'commitment-cid',
  'seed',
  'drand-chain-trusted',
  'drand-round',
  'drand-signature',
  'source-order',
] as const satisfies readonly CheckName[]

/** Plain openings for the telling failed checks (a list of its own, so the page, which has its own words, carries none of these). */
const LEADS: Readonly<Record<(typeof TELLING_CHECKS)[number], string>> = {
  format: 'The file is not a valid proof',
  'commitment-pinned': 'This is not the commitment you pinned',
  'beacon-trusted': 'The draw names a beacon you do not trust',
  'panel-quotas': 'The panel in the file breaks a quota',
  'lottery-panels': 'A candidate panel of the lottery breaks the rules',
  outcome: 'The outcome in the file is not the one the block decides',
  participants: 'The participants in the file are not the committed ones',
  'revealed-winners': 'The revealed winners are not the drawn ones',
  'distinct-winners': 'A winner is revealed more than once',
  'block-content': 'A beacon block in the file was altered',
  'beacon-authenticity': 'Nothing in the file shows the beacon published these blocks',
  'commitment-time': 'Nothing shows the commitment was made before its randomness existed',
  'commitment-cid': 'The commitment does not match its CID',
  seed: 'The seed is not the one the commitment and block give',
  'drand-chain-trusted': 'The draw names a drand chain you do not trust',
  'drand-round': 'The drand round is not the committed one',
  'drand-signature': 'The drand round was not signed by its chain',
  'source-order': 'Nothing shows the block was fixed before the drand round was public',
}

/**
 * @internal The most telling failed check: the first of `order` that failed, else the first failed one
 * (a check that could not run on this host is not a failure here). Undefined when nothing failed.
 */
export function mostTellingFailure(checks: VerifyResult['checks'], order: readonly CheckName[] = TELLING_CHECKS): VerifyResult['checks'][number] | undefined {
  const failed = checks.filter((c) => !c.ok && c.uncheckable !== true)
  if (failed.length === 0) return undefined
  for (const name of order) {
    const c = failed.find((x) => x.name === name)
    if (c !== undefined) return c
  }
  return failed[0]!
}

/** @internal The names of the failed checks, and of those that passed without running (`notChecked`), in the result's order. */
export function failedAndSkipped(checks: VerifyResult['checks']): { readonly failed: VerifyResult['checks'][number]['name'][]; readonly skipped: VerifyResult['checks'][number]['name'][] } {
  return { failed: checks.filter((c) => !c.ok).map((c) => c.name), skipped: checks.filter((c) => c.ok && c.notChecked === true).map((c) => c.name) }
}

/**
 * One plain sentence for a failed verification: the most telling failed check (see `TELLING_CHECKS`),
 * or the first one, with its detail. Undefined when nothing failed.
 * @category Verify
 */
export function failureReason(checks: VerifyResult['checks']): string | undefined {
  const c = mostTellingFailure(checks)
  if (c === undefined) return undefined
  const lead = Object.hasOwn(LEADS, c.name) ? LEADS[c.name as keyof typeof LEADS] : undefined
  return lead === undefined ? `Check ${c.name} failed: ${c.detail}.` : `${lead}: ${c.detail}.`
}

export { formatUnixTime }

/**
 * Words a {@link VerifyResult}.
 *
 * @example
 * ```ts
 * const v = describeVerdict(await verify(proof))
 * console.log(v.headline)
 * for (const line of v.lines) console.log(line)
 * ```
 * @category Verify
 */
export function describeVerdict(r: VerifyResult): VerdictText {
  const { failed, skipped } = failedAndSkipped(r.checks)
  const every = skipped.length === 0 ? 'every check' : `every check that ran (not checked: ${skipped.join(', ')})`
  const headline =
    r.verdict === 'verified'
      ? r.sources?.eitherHonest === true
        ? `VERIFIED, unbiased unless both Orbitport and drand are dishonest: ${every} passed on its own evidence.`
        : `VERIFIED: ${every} passed on its own evidence.`
      : r.verdict === 'verified-relaxed'
        ? `NOT FULLY VERIFIED: ${every} passed, but only because you relaxed ${r.relaxed.length === 1 ? 'a rule' : `${r.relaxed.length} rules`}; this is not the strict verdict.`
        : r.verdict === 'incomplete'
          ? `NOT VERIFIED HERE: nothing failed, but ${failed.join(', ')} could not be checked on this host; re-check where it can be (over https, from localhost or disk, or with the CLI).`
          : `FAILED: ${failed.join(', ')}.`
  const lines: string[] = []
  if (r.commitmentCid !== undefined) {
    lines.push(r.pinned ? `Commitment ${r.commitmentCid}: the one you pinned.` : `Commitment ${r.commitmentCid}: compare it with the organizer's announcement (made before the target block).`)
  }
  if (r.commitment !== undefined) {
    const beacon = r.beacon === undefined ? `beacon ${r.commitment.beacon}` : `${r.beacon.text}${r.beacon.trusted && r.beacon.source === 'caller' ? ', trusted by your settings' : ''}`
    lines.push(`Beacon: ${beacon}.`)
    lines.push(r.target === undefined ? `Target block ${r.commitment.target}: not proven to be in the chain.` : `Target block ${r.commitment.target}: published ${formatUnixTime(r.target.timestamp)}.`)
  }
  const time = r.checks.find((c) => c.name === 'commitment-time')
  if (time !== undefined && time.relaxedBy === undefined) lines.push(time.ok ? `Commitment time: ${time.detail}.` : time.uncheckable ? 'Commitment time: could not be checked on this host.' : 'Commitment time: not proven (see the commitment-time check).')
  if (r.sources !== undefined) lines.push(`Sources: ${r.sources.statement}`)
  for (const sentence of r.relaxed) lines.push(`Relaxed: ${sentence}`)
  const reason = r.verdict === 'failed' ? failureReason(r.checks) : undefined
  return { status: r.verdict, headline, lines, ...(reason === undefined ? {} : { reason }) }
}
