/**
 * The names of the checks `verify` and `checkReceipt` report: declared once, here, as const arrays
 * with their unions. A check of another name cannot be built (`check()` takes a {@link CheckName}),
 * and `test/core/check-names.test.ts` proves that every listed name is reported by some proof of the
 * tamper tables and that every name they report is listed.
 *
 * Adding a check: add its name to the list below (one line), in the order `verify` reports it.
 *
 * @module
 */

/**
 * Every check `verify` can report with the built-in kinds (the core's, the built-in kinds' own checks,
 * then the Node entry's `online` re-check), in the order they are reported. A draw kind of your own
 * that adds checks (`DrawKind.claimChecks`) names them `x-…` ({@link KindCheckName}).
 * @category Verify
 */
export const CHECK_NAMES = [
  // The options and the run itself.
  'policy',
  'internal',
  // The proof and its commitment.
  'version',
  'format',
  'commitment-cid',
  'commitment-pinned',
  'beacon-trusted',
  // The participants.
  'participants',
  'distinct-winners',
  // The beacon's blocks and chain (checkChain), and who published them.
  'block-content',
  'chain-links',
  'chain-target',
  'after-block',
  'ipns-record-signature',
  'ipns-record-name',
  'ipns-record-value',
  'beacon-authenticity',
  // When the commitment was made.
  'commitment-time',
  // The second source of a mixed (version 2) draw: the drand round, and block N fixed before it.
  'drand-chain-trusted',
  'drand-round',
  'drand-signature',
  'source-order',
  // The draw.
  'randomness',
  'seed',
  'outcome',
  // The built-in kinds' own checks of the claimed outcome (DrawKind.claimChecks), after `outcome`:
  // `panel` (PANEL_CHECK_NAMES) and `panel-lottery` (LOTTERY_CHECK_NAMES).
  'panel-size',
  'panel-distinct',
  'panel-members-known',
  'panel-quotas',
  'panel-replay',
  'panel-households',
  // A re-roll (`reroll`, `weighted-reroll`: REROLL_CHECK_NAMES).
  'reroll-kept',
  'reroll-never-won',
  // A follow-up draw (`panel-replacement`, `reroll`, `weighted-reroll`): the carried original proof and the link to it.
  'follow-up-original',
  'follow-up-link',
  'lottery-panels',
  'lottery-winner',
  'revealed-winners',
  // Node's verify with `online` (verifyOnline).
  'online-blocks',
  'online-chain',
] as const

/**
 * The name of a check `verify` can report with the built-in kinds: one of {@link CHECK_NAMES}.
 * @category Verify
 */
export type CheckName = (typeof CHECK_NAMES)[number]

/**
 * The name of a check a draw kind of your own adds (`DrawKind.claimChecks`): `x-` and its own
 * words, so that it can never take a built-in name, today's or a later release's.
 * @category Verify
 */
export type KindCheckName = `x-${string}`

/**
 * Every check `checkReceipt` can report, in order.
 * @category Verify
 */
export const RECEIPT_CHECK_NAMES = ['format', 'commitment-cid', 'commitment-pinned', 'inclusion'] as const

/**
 * The name of a check `checkReceipt` can report: one of {@link RECEIPT_CHECK_NAMES}.
 * @category Verify
 */
export type ReceiptCheckName = (typeof RECEIPT_CHECK_NAMES)[number]
