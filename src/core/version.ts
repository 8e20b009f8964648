/**
 * Protocol versions. Every commitment and proof carries one; `verify` refuses versions it does not
 * know instead of guessing.
 *
 * @module
 */

/** The protocol version this release writes and verifies. */
export const PROTOCOL_VERSION = 1

/** Protocol versions this release can verify. */
export const SUPPORTED_VERSIONS: readonly number[] = [PROTOCOL_VERSION]

/** The `type` field of every proof bundle. */
export const PROOF_TYPE = 'orbitdraw-proof'
