/**
 * The error classes, for a caller that tells failures apart by class: the core's subclasses of
 * `OrbitdrawError` (the base class itself is at the root, `orbitdraw` and `orbitdraw/core`), each
 * class's code list, and the network error family every edge throws (`edge` says which). An edge's own
 * classes are on its subpath (`orbitdraw/beacon`, `/rest`, `/timestamp`, `/drand`, `/sortition`).
 * Browser-safe.
 *
 * ```ts
 * import { InvalidInputError, RateLimitedError } from 'orbitdraw/errors'
 * ```
 *
 * The `orbitdraw/errors` entry: this file is the only list of its names (docs/architecture.md, "Public
 * surface").
 *
 * @module orbitdraw/errors
 */
/** @category Errors */
export { InvalidInputError, ParseError, IntegrityError, MismatchError, LimitExceededError, UnsupportedVersionError, type OrbitdrawErrorOptions } from './core/errors.js'
// Each error class's codes: a const list and its union (the type of the class's `code`).
/** @category Errors */
export {
  INVALID_INPUT_ERROR_CODES,
  PARSE_ERROR_CODES,
  INTEGRITY_ERROR_CODES,
  MISMATCH_ERROR_CODES,
  LIMIT_EXCEEDED_ERROR_CODES,
  UNSUPPORTED_VERSION_ERROR_CODES,
  type InvalidInputErrorCode,
  type EdgeInvalidInputErrorCodes,
  type ParseErrorCode,
  type IntegrityErrorCode,
  type MismatchErrorCode,
  type LimitExceededErrorCode,
  type UnsupportedVersionErrorCode,
} from './core/error-codes.js'
// One network error family for every edge (beacon, REST, time-stamping).
/** @category Errors */
export { NetError, NetworkError, TimeoutError, RateLimitedError, AbortedError, NET_ERROR_CODES, type NetErrorCode, type NetEdge, type NetErrorInit, type RateLimitedInit } from './net/errors.js'
