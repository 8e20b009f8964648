/**
 * The codes of `InvalidInputError` that only the Node part of the library (`orbitdraw/node`) throws.
 *
 * @module
 */

/**
 * The codes of `InvalidInputError` that only `orbitdraw/node` throws, reading participants files and writing proofs (the
 * core's own are `INVALID_INPUT_ERROR_CODES`).
 * @category Errors
 */
export const NODE_INPUT_ERROR_CODES = ['FILE_EXISTS', 'FILE_TOO_LARGE', 'FILE_UNREADABLE', 'FILE_UNWRITABLE', 'INVALID_CSV', 'UNKNOWN_COLUMN'] as const
/**
 * A code of {@link NODE_INPUT_ERROR_CODES}.
 * @category Errors
 */
export type NodeInputErrorCode = (typeof NODE_INPUT_ERROR_CODES)[number]

declare module '../core/error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: adds this edge's codes
  interface EdgeInvalidInputErrorCodes extends Record<NodeInputErrorCode, true> {}
}
