/**
 * The proof bundle's shape (docs/spec.md, "The proof bundle"), published by `npm run schema` as
 * docs/proof.schema.json. `parseProof` applies the same checks by hand, one loop per large array
 * (docs/architecture.md, "Wire formats"); test/core/schema.test.ts keeps the two in agreement.
 *
 * @module
 */
import { LIMITS } from '../limits.js'
import { PROOF_TYPE } from '../version.js'
import { base64, cidText, hash, index, token } from './common.js'
import { COMMITMENT_SLOT } from './commitment.js'
import { DEFAULT_DRAW_KINDS } from '../kinds/index.js'
import type { DrawKinds } from '../kinds/kind.js'
import { outcomeShapeOf } from './draw.js'
import * as v from 'valibot'
import { described, integer, list, arrayUnion, message, option, strictObject, text, variant, version } from './kit.js'
import { show } from '../json.js'

/** A weighted participant as carried in a proof. */
export const weightedEntryShape = strictObject({ entry: text(), weight: integer(1) })

/** A salted list's leaf salts, in committed order. */
export const saltsShape = list(hash, LIMITS.maxParticipants)

/** Every entry is disclosed (public draw), with every salt for a salted list. */
const fullDisclosure = option({
  disclosure: v.literal('full'),
  entries: described(
    // The first entry decides: objects mean a weighted list, anything else a list of strings.
    arrayUnion(list(text(), LIMITS.maxParticipants), list(weightedEntryShape, LIMITS.maxParticipants), (a) => a.length > 0 && typeof a[0] === 'object'),
    'Every entry in committed order: strings, or {entry, weight} objects for weighted draws.',
  ),
  salts: v.optional(described(saltsShape, "Only for a salted commitment: every entry's leaf salt, in committed order (the organizer's secret is never carried).")),
})

/** One disclosed winner with its leaf salt and RFC 9162 audit path. */
export const revealedShape = strictObject({ index: index, entry: text(), salt: hash, path: list(hash, 64) })

/** Only the winners are disclosed (private draw of a salted list). */
const winnersDisclosure = option({
  disclosure: v.literal('winners'),
  revealed: described(
    list(revealedShape, LIMITS.maxDrawCount),
    'One per winner, in rank order, each with its leaf salt and its RFC 9162 audit path (leaf to root). Allowed only for a salted commitment (participants.salted).',
  ),
})

/** The participants section of a proof. */
export const disclosureShape =
  variant('disclosure', [fullDisclosure, winnersDisclosure], (mode) => `disclosure must be "full" or "winners", got ${show(mode)}`, 'use "full" for public draws and "winners" for private ones')

/** A beacon block carried in a proof: its CID and its exact bytes. */
export const blockEntryShape = strictObject({ bytes: described(base64, "The block's exact bytes, standard padded base64."), cid: cidText })

/** The beacon evidence: blocks from the head down to the target, and the signed head record. */
export const chainShape =
  strictObject({
    blocks: described(
      v.pipe(list(blockEntryShape, LIMITS.maxChainBlocks), v.minLength(1, message('INVALID_FIELD', () => 'chain.blocks is empty', 'a proof must carry at least the target block'))),
      'Newest first: blocks[0] is the head, each next block is the previous of the one before, down to at least the target.',
    ),
    ipnsRecord: v.optional(described(base64, "The beacon's signed IPNS record (protobuf), standard padded base64.")),
  })

/** RFC 3161 time-stamp tokens over the commitment. */
export const timestampsShape =
  described(
    list(token, LIMITS.maxTimestampTokens),
    'RFC 3161 time-stamp tokens over the commitment (DER TimeStampToken, standard padded base64), proving it existed before the target block. See docs/timestamps.md.',
  )

/**
 * The proof bundle (version 1) with `outcome` declared by the kinds of `kinds`. Fields in the order
 * the parser checks them. `parseProof` applies the same checks by hand (the large arrays in one
 * loop each, docs/architecture.md) and reads `outcome` with the kind's own `parseOutcome`.
 * @category Formats
 */
export function proofShapeOf(kinds: DrawKinds) {
  return strictObject({
    type: v.literal(PROOF_TYPE),
    version: version(1),
    commitment: COMMITMENT_SLOT,
    commitmentCid: cidText,
    participants: v.optional(described(disclosureShape, 'Absent for range draws.')),
    chain: chainShape,
    seed: described(hash, 'The seed, recomputed and compared by verify.'),
    outcome: outcomeShapeOf(kinds),
    timestamps: v.optional(timestampsShape),
  })
}

/**
 * The proof bundle (version 1) with the built-in kinds' outcomes; published as docs/proof.schema.json.
 * @category Formats
 */
export const ProofShape = proofShapeOf(DEFAULT_DRAW_KINDS)
