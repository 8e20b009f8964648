/**
 * The proof bundle: one JSON document that lets anyone re-check a draw offline. It carries the
 * commitment (DAG-JSON form), the participants (all of them, or only the winners with Merkle
 * inclusion proofs), the beacon blocks as raw bytes (newest first, down to the target), optionally
 * the beacon's signed IPNS record, the seed and the claimed outcome.
 *
 * @module
 */
import { OrbitdrawError, ParseError, UnsupportedVersionError } from './errors.js'
import { decodeJsonInput, expectObject, field, show, type JsonObject } from './json.js'
import { LIMITS } from './limits.js'
import { parseShape, type Infer } from './schema/kit.js'
import { ProofShape, saltsShape, timestampsShape } from './schema/proof.js'
import { PROOF_TYPE, SUPPORTED_VERSIONS } from './version.js'

/** A weighted participant as carried in a proof. */
export type WeightedEntryJson = Extract<FullDisclosure['entries'][number], { readonly entry: string }>

/** Every entry is disclosed (public draw); for a salted list, with every entry's salt. */
export type FullDisclosure = Extract<ParticipantsDisclosure, { readonly disclosure: 'full' }>

/** One disclosed winner with its RFC 9162 inclusion proof (index, entry, leaf salt, audit path). */
export type RevealedEntry = WinnersDisclosure['revealed'][number]

/** Only the winners are disclosed (private draw); the list itself stays secret. */
export type WinnersDisclosure = Extract<ParticipantsDisclosure, { readonly disclosure: 'winners' }>

/** The participants section of a proof. */
export type ParticipantsDisclosure = NonNullable<Proof['participants']>

/** A beacon block carried in a proof: its CID and its exact bytes (standard base64). */
export type BlockJson = ChainJson['blocks'][number]

/** The beacon evidence: blocks newest first (head down to the target) and the optional signed IPNS record. */
export type ChainJson = Proof['chain']

/** A ranked winner in a proof outcome: `rank` 1 for the winner, its 0-based `index`, its `entry`. */
export type RankedJson = Extract<OutcomeJson, { readonly kind: 'pick' }>['winners'][number]

/** The claimed outcome in a proof (one shape per draw kind, src/core/schema/kinds.ts). */
export type OutcomeJson = Proof['outcome']

/**
 * A proof bundle (version 1), as declared in src/core/schema/proof.ts (published as
 * docs/proof.schema.json). `timestamps` are RFC 3161 tokens over the commitment (standard base64 of
 * each DER TimeStampToken); `verify`'s policy decides whether a proof without them is acceptable.
 */
export type Proof = Infer<typeof ProofShape>

/**
 * Parses a proof from untrusted JSON (text, bytes, or an already parsed value). Validates every
 * field's type and shape and rejects unknown fields; it does not check the cryptography (that is
 * `verify`'s job).
 *
 * @throws {@link UnsupportedVersionError} for an unknown version; {@link ParseError} with the path of
 *   the first bad field otherwise.
 */
export function parseProof(input: unknown): Proof {
  const o = expectObject(readProofJson(input), '$')
  checkProofVersion(o)
  try {
    return parseShape(ProofShape, o)
  } catch (err) {
    // The protocol checks a full disclosure's salts before its entries' items (after the entries array).
    const salts = (o.participants as { salts?: unknown } | null | undefined)?.salts
    if (err instanceof OrbitdrawError && err.path?.startsWith('$.participants.entries[') === true && salts !== undefined) parseShape(saltsShape, salts, '$.participants.salts')
    throw err
  }
}

/**
 * Parses a list of base64 time-stamp tokens (proof `timestamps`, commitment file `timestamps`):
 * at most `maxTimestampTokens`, each non-empty canonical base64 of at most `maxTimestampTokenBytes`
 * bytes (length checked before decoding). The tokens' contents are judged by `checkCommitmentTime`.
 * @throws {@link ParseError} with the path of the first bad entry.
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

/** Checks `type` and `version` only. @throws {@link ParseError} / {@link UnsupportedVersionError}. */
export function checkProofVersion(o: JsonObject): void {
  const type = field(o, 'type', '$')
  if (type !== PROOF_TYPE) {
    throw new ParseError('NOT_A_PROOF', `type is ${show(type)}, expected "${PROOF_TYPE}"`, 'pass an orbitdraw proof file', { path: '$.type' })
  }
  const version = field(o, 'version', '$')
  if (typeof version !== 'number' || !SUPPORTED_VERSIONS.includes(version)) {
    throw new UnsupportedVersionError('UNSUPPORTED_VERSION', `proof protocol version ${show(version)} is not supported`, `this release verifies version ${SUPPORTED_VERSIONS.join(', ')}; upgrade orbitdraw`, { path: '$.version' })
  }
}

/** Serializes a proof as pretty-printed JSON (2-space indent, trailing newline). */
export function serializeProof(proof: Proof): string {
  return `${JSON.stringify(proof, null, 2)}\n`
}
