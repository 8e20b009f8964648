/**
 * The verifier page's own codes of `InvalidInputError`.
 *
 * @module
 */

/**
 * The codes of `InvalidInputError` that only the verifier page throws (the core's own are `INVALID_INPUT_ERROR_CODES`).
 * @category Errors
 */
export const VERIFIER_INPUT_ERROR_CODES = ['INVALID_PEM'] as const
/**
 * A code of {@link VERIFIER_INPUT_ERROR_CODES}.
 * @category Errors
 */
export type VerifierInputErrorCode = (typeof VERIFIER_INPUT_ERROR_CODES)[number]

declare module '../core/error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: adds this edge's codes
  interface EdgeInvalidInputErrorCodes extends Record<VerifierInputErrorCode, true> {}
}
