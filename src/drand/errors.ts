/**
 * The drand edge's errors.
 *
 * @module
 */
import { OrbitdrawError } from '../core/errors.js'

/**
 * The codes of {@link DrandError}.
 * @category Errors
 */
export const DRAND_ERROR_CODES = ['DRAND_ABORTED', 'DRAND_BAD_RESPONSE', 'DRAND_CHAIN_MISMATCH', 'DRAND_UNAVAILABLE', 'DRAND_VOID'] as const

/**
 * A code of {@link DRAND_ERROR_CODES}.
 * @category Errors
 */
export type DrandErrorCode = (typeof DRAND_ERROR_CODES)[number]

/**
 * A drand relay could not give a verified round: unreachable, wrong chain, malformed or badly signed
 * answers, or the round never appeared (`DRAND_VOID`: the draw is void; no source is substituted).
 * @category Errors
 */
export class DrandError extends OrbitdrawError<DrandErrorCode> {
  static {
    Object.defineProperty(this, 'name', { value: 'DrandError' })
  }
}

/**
 * The codes of `InvalidInputError` the drand relay client throws (its relay URLs, checked as the
 * REST client checks its own).
 * @category Errors
 */
export const DRAND_INPUT_ERROR_CODES = ['INVALID_URL'] as const
/**
 * A code of {@link DRAND_INPUT_ERROR_CODES}.
 * @category Errors
 */
export type DrandInputErrorCode = (typeof DRAND_INPUT_ERROR_CODES)[number]

declare module '../core/error-codes.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging: adds this edge's codes
  interface EdgeInvalidInputErrorCodes extends Record<DrandInputErrorCode, true> {}
}
