/**
 * The emulator's error codes.
 *
 * @module
 */

/**
 * The codes of `InvalidInputError` that only the emulator throws (the core's own are `INVALID_INPUT_ERROR_CODES`).
 * @category Errors
 */
export const EMULATOR_INPUT_ERROR_CODES = ['INVALID_COUNT', 'INVALID_CTRNG_COUNT', 'INVALID_INTERVAL', 'INVALID_KEY'] as const
/**
 * A code of {@link EMULATOR_INPUT_ERROR_CODES}.
 * @category Errors
 */
export type EmulatorInputErrorCode = (typeof EMULATOR_INPUT_ERROR_CODES)[number]

declare module '../core/error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: adds this edge's codes
  interface EdgeInvalidInputErrorCodes extends Record<EmulatorInputErrorCode, true> {}
}
