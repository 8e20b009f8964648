/**
 * The error codes of the core's error classes, each list declared once, here, with its union type.
 * A class's `code` has its union's type, so a code missing from its list does not compile;
 * `test/core/error-codes.test.ts` also scans `src/` for every code thrown and finds it in its
 * class's list. The edges declare theirs beside their classes (`NET_ERROR_CODES`,
 * `BEACON_ERROR_CODES`, `ORBITPORT_ERROR_CODES`, `TIMESTAMP_FAILURE_CODES`), and the codes of
 * {@link InvalidInputError} that only they throw in lists of their own ({@link EdgeInvalidInputErrorCodes}).
 *
 * Adding a code: add it to its class's list (sorted), then throw it.
 *
 * @module
 */

/**
 * A caller passed an invalid argument ({@link InvalidInputError}), besides the quota codes of {@link INFEASIBLE_QUOTAS_ERROR_CODES}.
 * @category Errors
 */
export const INVALID_INPUT_ERROR_CODES = [
  'DUPLICATE_DRAW_KIND', 'ENTRY_CONTROL_CHARACTER', 'ENTRY_DUPLICATE', 'ENTRY_EMPTY',
  'ENTRY_INVISIBLE_CHARACTER', 'ENTRY_LONE_SURROGATE', 'ENTRY_NOT_NFC', 'ENTRY_NOT_STRING',
  'ENTRY_SURROUNDING_WHITESPACE', 'FULL_DISCLOSURE_REQUIRED', 'INDEX_OUT_OF_RANGE', 'INTEGER_OUT_OF_RANGE', 'INTERNAL_ERROR',
  'INVALID_ARGUMENT', 'INVALID_BEACON_NAME', 'INVALID_BLOCK_BYTES', 'INVALID_CHAIN_INPUT', 'INVALID_CID',
  'INVALID_COMMITMENT', 'INVALID_CTRNG', 'INVALID_DRAND_INFO', 'INVALID_DRAND_ROUND', 'INVALID_DRAND_SIGNATURE', 'INVALID_DRAW', 'INVALID_DRAW_KIND', 'INVALID_FLAG',
  'INVALID_HASH_LENGTH', 'INVALID_IPNS_RECORD_BYTES', 'INVALID_JSON', 'INVALID_LEAF', 'INVALID_OPTION',
  'INVALID_PARTICIPANTS', 'INVALID_PUBLIC_KEY', 'INVALID_SALT', 'INVALID_SECRET', 'INVALID_SEED', 'INVALID_STRING',
  'INVALID_TRUSTED_BEACON', 'INVALID_TRUST_ANCHOR', 'INVALID_UTF8', 'LIMIT_EXCEEDED', 'MISSING_DRAND_ROUND', 'MISSING_PARTICIPANTS',
  'MISSING_SECRET', 'MISSING_WEIGHTS', 'NOT_SALTED', 'NO_RANDOMNESS', 'PANEL_BREAKS_QUOTA',
  'PANEL_REPEATS_MEMBER', 'PANEL_SIZE', 'PANEL_UNKNOWN_MEMBER', 'PARTICIPANTS_EMPTY',
  'PARTICIPANTS_NOT_ARRAY', 'PRIVATE_NEEDS_SALTED_LIST', 'QUOTA_INVALID', 'SALTS_MISMATCH',
  'SORTITION_HOUSEHOLD_INVALID', 'SORTITION_NOT_EXACT', 'SORTITION_POOL_INVALID', 'UNEXPECTED_DRAND_ROUND', 'UNEXPECTED_PARTICIPANTS', 'UNEXPECTED_SECRET',
  'UNSUPPORTED_HASH', 'WEIGHTED_ENTRY_NOT_OBJECT', 'WEIGHT_INVALID',
] as const
/**
 * The codes of {@link InvalidInputError} that only an edge throws, each edge's list merged in by the
 * edge itself (TypeScript declaration merging: `declare module '../core/error-codes.js'`), so that the
 * core names none of them and a program that loads an edge sees its codes: the beacon client's
 * (`BEACON_INPUT_ERROR_CODES`), the REST client's (`ORBITPORT_INPUT_ERROR_CODES`), the sortition CSV
 * readers' (`SORTITION_INPUT_ERROR_CODES`), the emulator's, the command's and the verifier page's.
 * @category Errors
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the edges' declaration merging
export interface EdgeInvalidInputErrorCodes {}

/**
 * A code of {@link INVALID_INPUT_ERROR_CODES} or {@link INFEASIBLE_QUOTAS_ERROR_CODES}, or of an edge
 * that is loaded ({@link EdgeInvalidInputErrorCodes}).
 * @category Errors
 */
export type InvalidInputErrorCode = (typeof INVALID_INPUT_ERROR_CODES)[number] | InfeasibleQuotasErrorCode | keyof EdgeInvalidInputErrorCodes

/**
 * Untrusted data failed validation ({@link ParseError}).
 * @category Errors
 */
export const PARSE_ERROR_CODES = [
  'DUPLICATE_KEY', 'INVALID_BASE64', 'INVALID_BEACON_NAME', 'INVALID_CID', 'INVALID_COMMITMENT',
  'INVALID_FIELD', 'INVALID_HEX', 'INVALID_INPUT', 'INVALID_IPNS_NAME', 'INVALID_JSON', 'INVALID_SECRET_FILE',
  'INVALID_UTF8', 'IPNS_KEY_UNSUPPORTED', 'IPNS_RECORD_MALFORMED', 'IPNS_RECORD_TOO_LARGE',
  'LEGACY_BLOCK_FORMAT', 'MISSING_FIELD', 'MISSING_PREVIOUS', 'NON_CANONICAL_BYTES', 'NON_CANONICAL_NUMBER',
  'NOT_A_PROOF', 'NOT_A_RECEIPT', 'PROOF_TOO_LARGE', 'RECEIPT_TOO_LARGE', 'TIMESTAMP_ANCHOR_INVALID',
  'UNEXPECTED_BOM', 'UNEXPECTED_PREVIOUS', 'UNKNOWN_FIELD', 'UNKNOWN_FILE_TYPE', 'UNSUPPORTED_HASH',
] as const
/**
 * A code of {@link PARSE_ERROR_CODES}, or of {@link InvalidInputErrorCode}: a document that breaks an
 * input rule (a commitment read by `parseCommitment` that `commit` would refuse) carries that rule's code.
 * @category Errors
 */
export type ParseErrorCode = (typeof PARSE_ERROR_CODES)[number] | InvalidInputErrorCode

/**
 * Bytes do not match their content address or signature ({@link IntegrityError}).
 * @category Errors
 */
export const INTEGRITY_ERROR_CODES = [
  'BLOCK_CID_MISMATCH', 'IPNS_SIGNATURE_INVALID', 'PROOF_CHAIN_INVALID',
] as const
/**
 * A code of {@link INTEGRITY_ERROR_CODES}.
 * @category Errors
 */
export type IntegrityErrorCode = (typeof INTEGRITY_ERROR_CODES)[number]

/**
 * Well-formed data does not match what was committed ({@link MismatchError}).
 * @category Errors
 */
export const MISMATCH_ERROR_CODES = [
  'AFTER_BLOCK_NOT_IN_CHAIN', 'COMMITMENT_CID_MISMATCH', 'IPNS_KEY_MISSING', 'IPNS_KEY_NAME_MISMATCH',
  'IPNS_RECORD_FIELD_MISMATCH', 'PARTICIPANTS_MISMATCH', 'SECRET_MISMATCH', 'WRONG_BLOCK', 'WRONG_DRAND_ROUND',
] as const
/**
 * A code of {@link MISMATCH_ERROR_CODES}.
 * @category Errors
 */
export type MismatchErrorCode = (typeof MISMATCH_ERROR_CODES)[number]

/**
 * A documented resource limit was exceeded ({@link LimitExceededError}).
 * @category Errors
 */
export const LIMIT_EXCEEDED_ERROR_CODES = [
  'JSON_TOO_DEEP', 'LIMIT_EXCEEDED', 'SORTITION_ACCEPTANCE_TOO_LOW', 'SORTITION_COST_LIMIT',
  'SORTITION_REJECTION_LIMIT', 'SORTITION_STATE_LIMIT', 'STREAM_EXHAUSTED',
] as const
/**
 * A code of {@link LIMIT_EXCEEDED_ERROR_CODES}.
 * @category Errors
 */
export type LimitExceededErrorCode = (typeof LIMIT_EXCEEDED_ERROR_CODES)[number]

/**
 * A protocol version this release does not implement ({@link UnsupportedVersionError}).
 * @category Errors
 */
export const UNSUPPORTED_VERSION_ERROR_CODES = [
  'UNSUPPORTED_VERSION',
] as const
/**
 * A code of {@link UNSUPPORTED_VERSION_ERROR_CODES}.
 * @category Errors
 */
export type UnsupportedVersionErrorCode = (typeof UNSUPPORTED_VERSION_ERROR_CODES)[number]

/**
 * An infeasible quota set ({@link InfeasibleQuotasError}, an {@link InvalidInputError}).
 * @category Errors
 */
export const INFEASIBLE_QUOTAS_ERROR_CODES = [
  'NO_VALID_PANEL', 'PANEL_LARGER_THAN_POOL', 'QUOTA_FEATURE_NOT_IN_POOL', 'QUOTA_MAXES_BELOW_PANEL',
  'QUOTA_MINS_EXCEED_PANEL', 'QUOTA_MIN_ABOVE_MAX', 'QUOTA_MIN_EXCEEDS_RESPONDENTS', 'QUOTA_MISSING_FOR_VALUE',
  'QUOTA_VALUE_NOT_IN_POOL',
] as const
/**
 * A code of {@link INFEASIBLE_QUOTAS_ERROR_CODES}.
 * @category Errors
 */
export type InfeasibleQuotasErrorCode = (typeof INFEASIBLE_QUOTAS_ERROR_CODES)[number]
