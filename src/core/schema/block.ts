/**
 * A beacon block's JSON content, as the publisher writes it (Go `encoding/json`; docs/spec.md,
 * "Beacon blocks"). `parseBlock` checks the bytes against the CID *first*, then reads them strictly
 * (UTF-8, no duplicate keys, bounded depth), then runs this shape; the `previous` link is then
 * decoded as a CID and matched with the sequence (only genesis has none). Unknown fields are
 * tolerated: the publisher may add some.
 *
 * @module
 */
import { LIMITS } from '../limits.js'
import { index } from './common.js'
import * as v from 'valibot'
import { anyObject, described, list, looseObject, message, pattern } from './kit.js'

/** A `ctrng` value: 64 hex digits (either case, as the publisher writes them). */
export const CTRNG_RE = /^[0-9a-fA-F]{64}$/

const legacy = message(
  'LEGACY_BLOCK_FORMAT',
  () => 'the block\'s "data" is a string (the old publisher format: Go []byte, base64), not an object',
  'blocks in this format carry no readable sequence or ctrng values; commit to a block published in the current format',
)

/**
 * A beacon block's content. Fields in the order the parser checks them.
 * @category Formats
 */
export const BlockShape = described(
  looseObject({
    data: looseObject(
      {
        sequence: described(index, 'Sequence number: 0 for genesis, +1 per block.'),
        timestamp: described(index, "Publisher's Unix time in seconds when the block was built."),
        // Go writes a nil slice as null: read as no values.
        ctrng: v.optional(v.nullable(list(pattern(CTRNG_RE, 'a 64-digit hexadecimal string'), LIMITS.maxCtrngValues))),
      },
      (input) => (typeof input === 'string' ? legacy({ input } as v.BaseIssue<unknown>) : undefined),
    ),
    previous: v.optional(described(pattern(/^(?:|\/ipfs\/[^/]+)$/, 'a string "/ipfs/<cid>"'), 'The previous block as "/ipfs/<cid>"; empty or absent only for genesis.')),
    metadata: v.optional(described(anyObject(), "The genesis block's metadata.")),
  }),
  'The JSON content of an Orbitport beacon block. Its bytes, exactly as served, must hash to its CID (raw codec, sha2-256).',
)
