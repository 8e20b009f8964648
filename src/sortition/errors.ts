/**
 * The sortition CSV readers' error codes.
 *
 * @module
 */

/**
 * The codes of `InvalidInputError` that only the sortition CSV readers (and the command, reading files) throws (the core's own are `INVALID_INPUT_ERROR_CODES`).
 * @category Errors
 */
export const SORTITION_INPUT_ERROR_CODES = ['FILE_TOO_LARGE', 'FILE_UNREADABLE', 'INVALID_CSV', 'LOTTERY_INVALID'] as const
/**
 * A code of {@link SORTITION_INPUT_ERROR_CODES}.
 * @category Errors
 */
export type SortitionInputErrorCode = (typeof SORTITION_INPUT_ERROR_CODES)[number]

declare module '../core/error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: adds this edge's codes
  interface EdgeInvalidInputErrorCodes extends Record<SortitionInputErrorCode, true> {}
}
