/**
 * The proof bundle: one JSON document that lets anyone re-check a draw offline. It carries the
 * commitment (DAG-JSON form), the participants (all of them, or only the winners with Merkle
 * inclusion proofs), the beacon blocks as raw bytes (newest first, down to the target), optionally
 * the beacon's signed IPNS record, the seed and the claimed outcome.
 *
 * @module
 */
import { ParseError, UnsupportedVersionError } from './errors.js'
import { decodeJsonInput, show } from './json.js'
import { LIMITS } from './limits.js'
import { checkProofBytes, proofTooLarge } from './proof-size.js'
import { utf8Length } from './bytes.js'
import { DEFAULT_DRAW_KINDS } from './kinds/registry.js'
import { type DrawKinds } from './kinds/kind.js'
import { parseShape, requiredFields, type Infer } from './schema/kit.js'
import { PROOF_PARSE_SHAPE, proofParseShapeOf, revealedShape, timestampsShape, weightedEntryShape } from './schema/proof.js'
import { PROOF_TYPE, SUPPORTED_VERSIONS } from './version.js'

/**
 * A proof bundle (version 1), as declared in src/core/schema/proof.ts (published as
 * docs/proof.schema.json), with the outcome of its draw kind:
 *
 * - `type`: `"orbitdraw-proof"`; `version`: the protocol version.
 * - `commitment`: the commitment in its DAG-JSON form; `commitmentCid`: its CID.
 * - `participants`: the {@link ParticipantsDisclosure} (absent for `range` draws).
 * - `chain`: the beacon evidence ({@link ChainJson}).
 * - `seed`: 64 hex digits (recomputed and compared by `verify`).
 * - `outcome`: the claimed outcome ({@link OutcomeJson}, one shape per draw kind).
 * - `timestamps`: RFC 3161 time-stamp tokens over the commitment (standard base64 of each DER
 *   TimeStampToken), proving it existed before the target block. Optional here; `verify`'s policy
 *   decides whether a proof without them is acceptable. At most `LIMITS.maxTimestampTokens`.
 * @category Formats
 * @interface
 */
export type Proof = Infer<typeof PROOF_PARSE_SHAPE>

/**
 * The participants section of a proof: every entry ({@link FullDisclosure}, public draw) or only
 * the winners ({@link WinnersDisclosure}, private draw).
 * @category Formats
 */
export type ParticipantsDisclosure = NonNullable<Proof['participants']>

/**
 * Every entry is disclosed (public draw): `entries`, all of them in committed order (strings, or
 * {@link WeightedEntryJson} for `weighted` draws); for a salted (private) commitment only, `salts`:
 * every entry's leaf salt in the same order, as 64 hex digits (the organizer's secret itself is never
 * disclosed).
 * @category Formats
 * @interface
 */
export type FullDisclosure = Extract<ParticipantsDisclosure, { readonly disclosure: 'full' }>

/**
 * Only the winners are disclosed (private draw; the list itself stays secret): `revealed`, one
 * {@link RevealedEntry} per winner, in rank order.
 * @category Formats
 * @interface
 */
export type WinnersDisclosure = Extract<ParticipantsDisclosure, { readonly disclosure: 'winners' }>

/**
 * One disclosed winner with its RFC 9162 inclusion proof: its 0-based `index` in the committed list,
 * its `entry`, its leaf `salt` (64 hex digits; a winners-only proof is only allowed for a salted
 * list) and its audit `path`, leaf to root, as 64-hex-digit hashes.
 * @category Formats
 * @interface
 */
export type RevealedEntry = Infer<typeof revealedShape>

/**
 * A weighted participant as carried in a proof: its `entry` and its `weight` (an integer from 1).
 * @category Formats
 * @interface
 */
export type WeightedEntryJson = Infer<typeof weightedEntryShape>

/**
 * The beacon evidence: `blocks` newest first (`blocks[0]` is the head; each next is the previous of
 * the one before, down to the target), and `ipnsRecord`, the beacon's signed IPNS record (marshalled
 * protobuf, standard base64), if carried.
 * @category Formats
 * @interface
 */
export type ChainJson = Proof['chain']

/**
 * A beacon block carried in a proof: its `cid` and its exact `bytes` (standard base64).
 * @category Formats
 * @interface
 */
export type BlockJson = ChainJson['blocks'][number]

export type { OutcomeJson } from './kinds/registry.js'
export type { RankedJson } from './kinds/kind.js'

/**
 * Options of {@link parseProof}.
 * @category Formats
 */
export interface ParseProofOptions {
  /** The registry to read the outcome's kind from (default: the built-in kinds). */
  readonly kinds?: DrawKinds
}

/**
 * Parses a proof from untrusted JSON (text, bytes, or an already parsed value). Validates every
 * field's type and shape and rejects unknown fields; it does not check the cryptography (that is
 * `verify`'s job).
 *
 * @throws {@link UnsupportedVersionError} for an unknown version; {@link ParseError} with the path of
 *   the first bad field otherwise.
 * @category Formats
 */
export function parseProof(input: unknown, options: ParseProofOptions = {}): Proof {
  const o = readProofJson(input)
  checkProofVersion(o)
  const proof = parseShape(proofParseShapeOf(options.kinds ?? DEFAULT_DRAW_KINDS), o)
  // A mixed draw (version 2) carries its drand evidence; a version 1 proof cannot.
  if (proof.version === 2 && proof.drand === undefined) throw new ParseError('MISSING_FIELD', 'a version 2 proof must carry its drand round', 'add the "drand" section (orbitdraw draw writes it for a mixed draw)', { path: '$.drand' })
  if (proof.version !== 2 && proof.drand !== undefined) throw new ParseError('UNKNOWN_FIELD', `a version ${proof.version} proof cannot carry a drand round`, 'a mixed draw is protocol version 2', { path: '$.drand' })
  return proof
}

/**
 * Parses a list of base64 time-stamp tokens (proof `timestamps`, commitment file `timestamps`):
 * at most `maxTimestampTokens`, each non-empty canonical base64 of at most `maxTimestampTokenBytes`
 * bytes (length checked before decoding). The tokens' contents are judged by `checkCommitmentTime`.
 * @throws {@link ParseError} with the path of the first bad entry.
 * @category Formats
 */
export function parseTimestamps(v: unknown, path: string): string[] {
  return [...parseShape(timestampsShape, v, path)]
}

/**
 * Turns a proof given as UTF-8 bytes or JSON text into its parsed JSON value (anything else is
 * returned as is: an already parsed value). Bytes and text both go through the core's one entry point,
 * {@link decodeJsonInput}: the size limit `LIMITS.maxProofBytes` counts UTF-8 **bytes** (a string is
 * measured as its UTF-8 encoding) and is checked before decoding; bytes must be strict UTF-8; a
 * leading byte order mark is refused; nesting is bounded; duplicate keys and numbers written with a
 * fraction or exponent are refused.
 * @throws {@link ParseError} `PROOF_TOO_LARGE`, `INVALID_UTF8`, `UNEXPECTED_BOM`, `INVALID_JSON`,
 *   `DUPLICATE_KEY`, `NON_CANONICAL_NUMBER`; {@link LimitExceededError} `JSON_TOO_DEEP`.
 */
export function readProofJson(input: unknown): unknown {
  if (!(input instanceof Uint8Array) && typeof input !== 'string') return input
  return decodeJsonInput(input, {
    what: 'proof',
    maxBytes: LIMITS.maxProofBytes,
    integersOnly: true,
    tooLarge: (size) => new ParseError('PROOF_TOO_LARGE', `proof is ${size} bytes, over the limit maxProofBytes = ${LIMITS.maxProofBytes}`, 'proofs this large are not accepted', { path: '$' }),
  })
}

/** A proof's head: an object with a `type`; then with a `version`. */
const TYPE_HEAD = requiredFields('type')
const VERSION_HEAD = requiredFields('version')

/** Checks that `o` is an object, and its `type` and `version` only. @throws {@link ParseError} / {@link UnsupportedVersionError}. */
export function checkProofVersion(o: unknown): void {
  const type = parseShape(TYPE_HEAD, o).type
  if (type !== PROOF_TYPE) {
    throw new ParseError('NOT_A_PROOF', `type is ${show(type)}, expected "${PROOF_TYPE}"`, 'pass an orbitdraw proof file', { path: '$.type' })
  }
  const version = parseShape(VERSION_HEAD, o).version
  if (typeof version !== 'number' || !SUPPORTED_VERSIONS.includes(version)) {
    throw new UnsupportedVersionError('UNSUPPORTED_VERSION', `proof protocol version ${show(version)} is not supported`, `this release verifies version ${SUPPORTED_VERSIONS.join(', ')}; upgrade orbitdraw`, { path: '$.version' })
  }
}

/**
 * Serializes a proof as pretty-printed JSON (2-space indent, trailing newline).
 * @throws {@link LimitExceededError} `LIMIT_EXCEEDED` when the text would be over `LIMITS.maxProofBytes`
 * UTF-8 bytes, which every verifier refuses (`parseProof`, `orbitdraw verify`, the verifier page): a
 * full disclosure of about 10,000,000 entries; draw a winners-only proof instead.
 * @category Formats
 */
export function serializeProof(proof: Proof): string {
  let text: string
  try {
    text = `${JSON.stringify(proof, null, 2)}\n`
  } catch (err) {
    // Longer than a JavaScript string can be (about 2^29 characters in V8): far over the limit too.
    if (err instanceof RangeError && /string length/i.test(err.message)) throw proofTooLarge('longer than a JavaScript string can hold')
    throw err
  }
  if (text.length * 3 > LIMITS.maxProofBytes) checkProofBytes(utf8Length(text))
  return text
}
