/**
 * The commitment's shape in its DAG-JSON form (docs/spec.md, "The commitment"): what a published
 * commitment, a proof's `commitment`, a receipt's and a commitment file's carry. `parseCommitment`
 * runs it on the JSON text after the DAG-JSON decoder accepted it; the rules that relate fields or
 * decode (the target after `after.sequence`, the label's UTF-8 size, the beacon name as a CID, the
 * draw's parameters against the participant count) stay in code.
 *
 * @module
 */
import { show } from '../json.js'
import { LIMITS } from '../limits.js'
import { bytes32, hash, index, link } from './common.js'
import type { DrawKinds } from '../kinds/kind.js'
import { drawShapeOf } from './draw.js'
import * as v from 'valibot'
import { anyObject, described, expected, integer, message, strictObject, text, version, type Shape } from './kit.js'

/** An IPNS name as text: a libp2p-key CIDv1 in base36 (`k…`) or base32 (`b…`); decoded by the checks. */
export const BEACON_NAME_RE = /^(?:k[a-z0-9]+|b[a-z2-7]+)$/

const beaconMessage = expected('an IPNS name (libp2p-key CID, base36 k… or base32 b…)', 'INVALID_BEACON_NAME', 'use a name like k2k4r8lvomw737sajfnpav0dpeernugnryng50uheyk1k39lursmn09f')

/** The committed participants: Merkle root and count, and `salted` for a private list. */
const participants = () =>
  strictObject({
    root: bytes32,
    count: integer(1, LIMITS.maxParticipants),
    salted: v.optional(
      described(
        v.literal(true, message('INVALID_FIELD', (x) => `participants.salted must be true or absent, got ${show(x)}`, 'omit salted for a public list (it is never false)')),
        "Present (and true) only for a private list: every leaf is salted with a value derived from the organizer's secret (docs/spec.md, Salted leaves). Never false.",
      ),
    ),
  })

/** The drand round of a mixed (version 2) commitment. */
const drandShape = strictObject({
  chain: described(hash, "drand's chain hash of the chain (the verifier pins the chain: key, genesis, period, scheme)."),
  round: described(integer(1), "The round mixed in; its time (genesis + (round - 1) x period) falls after the target block's expected time."),
  ifMissing: described(v.literal('void', message('INVALID_FIELD', (x) => `drand.ifMissing must be "void", got ${show(x)}`, 'a missing source voids the draw')), 'Always "void": if the target block or the round never appears, the draw is void; no source is ever substituted.'),
})

/** A commitment in its DAG-JSON form (version 1 or 2), with `draw` as given. Fields in the order the parser checks them. */
function commitmentShapeWith<D extends Shape>(draw: D) {
  return described(
    strictObject({
      version: v.union([version(1), version(2)], expected('1 or 2')),
      after: strictObject({ block: link, sequence: index }),
      draw,
      participants: v.optional(described(participants(), 'Absent for range draws.')),
      beacon: described(v.pipe(text(), v.maxLength(LIMITS.maxCidChars, beaconMessage), v.regex(BEACON_NAME_RE, beaconMessage)), 'IPNS name of the beacon (libp2p-key CID, base36 k… or base32 b…).'),
      target: index,
      label: described(text(), 'Free text naming the draw, at most 1024 UTF-8 bytes.'),
      drand: v.optional(described(drandShape, 'Version 2 (a mixed draw) only: the drand chain (its chain hash) and round mixed in, and the void rule.')),
    }),
    "The commitment's DAG-JSON form. Its canonical encoding must hash to its CID (docs/spec.md, 'The commitment').",
  )
}

/**
 * The commitment shape `parseCommitment` runs: `draw` only has to be an object there, because the
 * draw kind's own `parse` (src/core/kinds) reads it, with the registry the caller passed.
 */
export const COMMITMENT_PARSE_SHAPE = commitmentShapeWith(anyObject())

/**
 * The commitment's shape with `draw` declared by the kinds of `kinds` (for the published JSON Schema).
 * @category Formats
 */
export function commitmentShapeOf(kinds: DrawKinds) {
  return commitmentShapeWith(drawShapeOf(kinds))
}


/**
 * Where another document carries a commitment (proof, receipt, commitment file): the document's
 * parser only requires an object there and leaves the commitment to `parseCommitment` (so a bad
 * commitment fails its own named check); the published schemas refer to `CommitmentShape` (schema/published.ts).
 */
export const COMMITMENT_SLOT = anyObject()
