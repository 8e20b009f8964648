/**
 * The command's own codes of `InvalidInputError` (it also throws the sortition readers' file codes and
 * the beacon client's `UNAUTHENTICATED_HEAD`).
 *
 * @module
 */

/**
 * The codes of `InvalidInputError` that only the `orbitdraw` command throws (the core's own are `INVALID_INPUT_ERROR_CODES`).
 * @category Errors
 */
export const CLI_INPUT_ERROR_CODES = ['CREDENTIALS_INCOMPLETE', 'CREDENTIALS_UNREADABLE', 'ENTRIES_CONFUSABLE', 'FILE_UNWRITABLE', 'INVALID_ENTRY', 'INVALID_FORMAT', 'NOT_A_COMMITMENT', 'UNKNOWN_COLUMN'] as const
/**
 * A code of {@link CLI_INPUT_ERROR_CODES}.
 * @category Errors
 */
export type CliInputErrorCode = (typeof CLI_INPUT_ERROR_CODES)[number]

declare module '../core/error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: adds this edge's codes
  interface EdgeInvalidInputErrorCodes extends Record<CliInputErrorCode, true> {}
}
