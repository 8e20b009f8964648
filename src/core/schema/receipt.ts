/**
 * A participant's receipt (docs/receipts.md). `parseReceipt` runs this shape after the byte-level
 * rules and the `type` and `version` checks.
 *
 * @module
 */
import { LIMITS } from '../limits.js'
import { cidText, hash } from './common.js'
import { COMMITMENT_SLOT } from './commitment.js'
import * as v from 'valibot'
import { RECEIPT_TYPE } from '../version.js'
import { described, integer, list, strictObject, text, version } from './kit.js'

// Declared beside PROOF_TYPE (../version.ts), light to import: `orbitdraw verify` tells a receipt from a
// proof by it without building this shape (docs/performance.md, Start-up).
export { RECEIPT_TYPE }

/**
 * A participant's receipt (version 1). Fields in the order the parser checks them.
 * @category Formats
 */
export const ReceiptShape = strictObject({
  type: v.literal(RECEIPT_TYPE),
  version: version(1),
  commitmentCid: described(cidText, 'CID of the commitment. Compare it with the CID the organizer published.'),
  commitment: COMMITMENT_SLOT,
  index: described(integer(0, LIMITS.maxParticipants - 1), "The participant's 0-based position in the committed list."),
  entry: described(text(), "The participant's entry, exactly as committed."),
  weight: v.optional(described(integer(1), "The entry's weight, for a weighted draw only.")),
  salt: described(hash, "The entry's leaf salt."),
  path: described(list(hash, 64), 'RFC 9162 audit path from the leaf to the committed root, leaf level first.'),
})
