/**
 * The result of one named verification check.
 *
 * @module
 */
import type { CheckName, KindCheckName } from './check-names.js'

/**
 * A verification rule that the verifier may relax knowingly (never the proof).
 * @category Verify
 */
export type RelaxableRule = 'allowUnsigned' | 'allowUntimestamped'

/**
 * One named check performed by `verify` (or, with `N` = {@link ReceiptCheckName}, by `checkReceipt`).
 * @typeParam N - the names it may have: by default a {@link CheckName}, or the {@link KindCheckName}
 *   of a check added by a draw kind of your own.
 * @category Verify
 */
export interface Check<N extends string = CheckName | KindCheckName> {
  /** Stable check name, for example `commitment-cid` or `chain-links` (see {@link CHECK_NAMES}). Unique within one result. */
  readonly name: N
  /**
   * Whether the check passed. A check that passed only because the verifier relaxed its rule has
   * `ok: true` and `relaxedBy` set: the evidence is missing and the reader must check by other means.
   */
  readonly ok: boolean
  /** What was checked and, on failure, what was wrong. */
  readonly detail: string
  /** Set when the check did not find its evidence and passed only because the verifier relaxed this rule. */
  readonly relaxedBy?: RelaxableRule
  /**
   * Set (with `ok: false`) when this host could not do the check's cryptography (for example RSA in a
   * page served over plain http, without Web Crypto): nothing is known to be wrong, nothing is proven.
   */
  readonly uncheckable?: true
  /**
   * Set (with `ok: true`) when the check had nothing to look at and did not run: it failed nothing,
   * and it proves nothing either. Show it apart from the passed checks and never count it as passed
   * (for example `after-block` when the proof does not carry the block seen at commit time).
   */
  readonly notChecked?: true
}

/** Builds a {@link Check}. */
export function check<N extends string>(name: N, ok: boolean, detail: string): Check<N> {
  return { name, ok, detail }
}

/** Builds a check this host could not perform (`ok: false`, `uncheckable: true`). */
export function uncheckableCheck<N extends string>(name: N, detail: string): Check<N> {
  return { name, ok: false, detail, uncheckable: true }
}

/** Builds a check that did not run for want of anything to check (`ok: true`, `notChecked: true`). */
export function notCheckedCheck<N extends string>(name: N, detail: string): Check<N> {
  return { name, ok: true, detail, notChecked: true }
}

/** Builds a check that passed only because the verifier relaxed `rule`. */
export function relaxedCheck<N extends string>(name: N, rule: RelaxableRule, detail: string): Check<N> {
  return { name, ok: true, detail, relaxedBy: rule }
}
