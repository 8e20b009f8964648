/**
 * Protocol versions. Every commitment and proof carries one; `verify` refuses versions it does not
 * know instead of guessing.
 *
 * @module
 */

/**
 * The protocol version this release writes and verifies.
 * @category Formats
 */
export const PROTOCOL_VERSION = 1

/**
 * Protocol versions this release can verify.
 * @category Formats
 */
export const SUPPORTED_VERSIONS: readonly number[] = [PROTOCOL_VERSION, 2]

/**
 * The protocol version of a mixed draw (an Orbitport block and a drand round); a draw without drand
 * keeps {@link PROTOCOL_VERSION}, byte for byte.
 */
export const MIXED_PROTOCOL_VERSION = 2

/**
 * The `type` field of every proof bundle.
 * @category Formats
 */
export const PROOF_TYPE = 'orbitdraw-proof'

/**
 * The `type` of a commitment file.
 * @category Formats
 */
export const COMMITMENT_FILE_TYPE = 'orbitdraw-commitment'

/**
 * The `type` of a receipt.
 * @category Formats
 */
export const RECEIPT_TYPE = 'orbitdraw-receipt'
