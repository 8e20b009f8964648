/**
 * The commitment file `orbitdraw commit` writes: the commitment, its CID and its time-stamp tokens.
 * `parseCommitmentFile` runs this shape after the byte-level rules and the `type` and `version` checks.
 *
 * @module
 */
import { COMMITMENT_SLOT } from './commitment.js'
import * as v from 'valibot'
import { COMMITMENT_FILE_TYPE } from '../version.js'
import { described, strictObject, text, version } from './kit.js'
import { timestampsShape } from './proof.js'

// Declared beside PROOF_TYPE (../version.ts), light to import: `orbitdraw verify` tells a commitment file
// from a proof by it without building this shape (docs/performance.md, Start-up).
export { COMMITMENT_FILE_TYPE }

/**
 * A commitment file (version 1). Fields in the order the parser checks them.
 * @category Formats
 */
export const CommitmentFileShape = strictObject({
  type: v.literal(COMMITMENT_FILE_TYPE),
  version: version(1),
  cid: described(text(), "The commitment's CID (checked against the commitment when read)."),
  commitment: COMMITMENT_SLOT,
  timestamps: v.optional(timestampsShape),
})
