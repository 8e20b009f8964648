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
export const SUPPORTED_VERSIONS: readonly number[] = [PROTOCOL_VERSION]

/**
 * The `type` field of every proof bundle.
 * @category Formats
 */
export const PROOF_TYPE = 'orbitdraw-proof'
