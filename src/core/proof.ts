/**
 * The proof bundle: one JSON document that lets anyone re-check a draw offline. It carries the
 * commitment (DAG-JSON form), the participants (all of them, or only the winners with Merkle
 * inclusion proofs), the beacon blocks as raw bytes (newest first, down to the target), optionally
 * the beacon's signed IPNS record, the seed and the claimed outcome.
 *
 * @module
 */
import { base64ToBytes } from './bytes.js'
import { LimitExceededError, ParseError, UnsupportedVersionError } from './errors.js'
import { decodeJsonInput, expectArray, expectInteger, expectObject, expectOnlyKeys, expectString, field, optionalField, show, type JsonObject } from './json.js'
import { LIMITS } from './limits.js'
import { DEFAULT_DRAW_KINDS, type DrawKinds, type OutcomeJson } from './kinds/index.js'
import { PROOF_TYPE, SUPPORTED_VERSIONS } from './version.js'

/**
 * A weighted participant as carried in a proof.
 * @category Formats
 */
export interface WeightedEntryJson {
  readonly entry: string
  readonly weight: number
}

/**
 * Every entry is disclosed (public draw).
 * @category Formats
 */
export interface FullDisclosure {
  readonly disclosure: 'full'
  /** All entries in committed order (weighted entries for `weighted` draws). */
  readonly entries: readonly string[] | readonly WeightedEntryJson[]
  /**
   * For a salted (private) commitment only: every entry's salt, in the same order, as 64 hex digits
   * (the organizer's secret itself is never disclosed). Absent for a public list.
   */
  readonly salts?: readonly string[]
}

/**
 * One disclosed winner with its RFC 9162 inclusion proof.
 * @category Formats
 */
export interface RevealedEntry {
  /** Its 0-based position in the committed list. */
  readonly index: number
  /** The entry. */
  readonly entry: string
  /** Its leaf salt, 64 hex digits (a winners-only proof is only allowed for a salted list). */
  readonly salt: string
  /** Audit path, leaf to root, as 64-hex-digit hashes. */
  readonly path: readonly string[]
}

/**
 * Only the winners are disclosed (private draw); the list itself stays secret.
 * @category Formats
 */
export interface WinnersDisclosure {
  readonly disclosure: 'winners'
  /** One revealed entry per winner, in rank order. */
  readonly revealed: readonly RevealedEntry[]
}

/**
 * The participants section of a proof.
 * @category Formats
 */
export type ParticipantsDisclosure = FullDisclosure | WinnersDisclosure

/**
 * A beacon block carried in a proof: its CID and its exact bytes (standard base64).
 * @category Formats
 */
export interface BlockJson {
  readonly cid: string
  readonly bytes: string
}

/**
 * The beacon evidence: an optional signed head and blocks from the head down to the target.
 * @category Formats
 */
export interface ChainJson {
  /** The beacon's signed IPNS record (marshalled protobuf, standard base64), if carried. */
  readonly ipnsRecord?: string
  /** Blocks newest first: `blocks[0]` is the head; each next is the previous of the one before. */
  readonly blocks: readonly BlockJson[]
}

export type { RankedJson, OutcomeJson } from './kinds/index.js'

/**
 * Options of {@link parseProof}.
 * @category Formats
 */
export interface ParseProofOptions {
  /** The registry to read the outcome's kind from (default: the built-in kinds). */
  readonly kinds?: DrawKinds
}

/**
 * A proof bundle (version 1).
 * @category Formats
 */
export interface Proof {
  readonly type: typeof PROOF_TYPE
  readonly version: number
  /** The commitment in its DAG-JSON form. */
  readonly commitment: JsonObject
  /** The commitment's CID. */
  readonly commitmentCid: string
  /** Absent for `range` draws. */
  readonly participants?: ParticipantsDisclosure
  readonly chain: ChainJson
  /** The seed, 64 hex digits (recomputed and compared by `verify`). */
  readonly seed: string
  readonly outcome: OutcomeJson
  /**
   * RFC 3161 time-stamp tokens over the commitment (standard base64 of each DER TimeStampToken),
   * proving it existed before the target block. Optional here; `verify`'s policy decides whether a
   * proof without them is acceptable. At most `LIMITS.maxTimestampTokens`.
   */
  readonly timestamps?: readonly string[]
}

const HEX32 = /^[0-9a-f]{64}$/
const CID_TEXT = new RegExp(`^[a-zA-Z0-9]{1,${LIMITS.maxCidChars}}$`)

/** A CID as text: alphanumeric, at most LIMITS.maxCidChars characters (decoded later, by the checks). */
function cidString(v: unknown, path: string): string {
  return expectString(v, path, CID_TEXT, `a CID string of at most ${LIMITS.maxCidChars} characters`)
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
  const o = expectObject(readProofJson(input), '$')
  checkProofVersion(o)
  expectOnlyKeys(o, ['type', 'version', 'commitment', 'commitmentCid', 'participants', 'chain', 'seed', 'outcome', 'timestamps'], '$')
  const commitment = expectObject(field(o, 'commitment', '$'), '$.commitment')
  const commitmentCid = cidString(field(o, 'commitmentCid', '$'), '$.commitmentCid')
  const participantsRaw = optionalField(o, 'participants')
  const participants = participantsRaw === undefined ? undefined : parseDisclosure(participantsRaw)
  const chain = parseChain(field(o, 'chain', '$'))
  const seed = expectString(field(o, 'seed', '$'), '$.seed', HEX32, '64 lowercase hex digits')
  const outcome = parseOutcome(field(o, 'outcome', '$'), options.kinds ?? DEFAULT_DRAW_KINDS)
  const timestampsRaw = optionalField(o, 'timestamps')
  const timestamps = timestampsRaw === undefined ? undefined : parseTimestamps(timestampsRaw, '$.timestamps')
  return {
    type: PROOF_TYPE,
    version: o.version as number,
    commitment,
    commitmentCid,
    ...(participants === undefined ? {} : { participants }),
    chain,
    seed,
    outcome,
    ...(timestamps === undefined ? {} : { timestamps }),
  }
}

/**
 * Parses a list of base64 time-stamp tokens (proof `timestamps`, commitment file `timestamps`):
 * at most `maxTimestampTokens`, each non-empty canonical base64 of at most `maxTimestampTokenBytes`
 * bytes (length checked before decoding). The tokens' contents are judged by `checkCommitmentTime`.
 * @throws {@link ParseError} with the path of the first bad entry.
 * @category Formats
 */
export function parseTimestamps(v: unknown, path: string): string[] {
  const maxChars = Math.ceil(LIMITS.maxTimestampTokenBytes / 3) * 4
  return expectArray(v, path, LIMITS.maxTimestampTokens).map((t, i) => {
    const p = `${path}[${i}]`
    const text = expectString(t, p)
    if (text.length === 0) throw new ParseError('INVALID_FIELD', 'empty time-stamp token', 'remove the empty entry', { path: p })
    if (text.length > maxChars) throw new LimitExceededError('LIMIT_EXCEEDED', `time-stamp token is ${text.length} base64 characters, over the limit maxTimestampTokenBytes = ${LIMITS.maxTimestampTokenBytes} bytes`, 'real tokens are a few KiB; drop this one', { path: p })
    base64ToBytes(text, p)
    return text
  })
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

function parseDisclosure(v: unknown): ParticipantsDisclosure {
  const o = expectObject(v, '$.participants')
  const mode = field(o, 'disclosure', '$.participants')
  if (mode === 'full') {
    expectOnlyKeys(o, ['disclosure', 'entries', 'salts'], '$.participants')
    const arr = expectArray(field(o, 'entries', '$.participants'), '$.participants.entries', LIMITS.maxParticipants)
    const saltsRaw = optionalField(o, 'salts')
    const salts =
      saltsRaw === undefined ? {} : { salts: expectArray(saltsRaw, '$.participants.salts', LIMITS.maxParticipants).map((h, i) => expectString(h, `$.participants.salts[${i}]`, HEX32, '64 lowercase hex digits')) }
    if (arr.length > 0 && typeof arr[0] === 'object') {
      return {
        disclosure: 'full',
        entries: arr.map((e, i) => {
          const p = `$.participants.entries[${i}]`
          const eo = expectObject(e, p)
          expectOnlyKeys(eo, ['entry', 'weight'], p)
          return { entry: expectString(field(eo, 'entry', p), `${p}.entry`), weight: expectInteger(field(eo, 'weight', p), `${p}.weight`, 1) }
        }),
        ...salts,
      }
    }
    return { disclosure: 'full', entries: arr.map((e, i) => expectString(e, `$.participants.entries[${i}]`)), ...salts }
  }
  if (mode === 'winners') {
    expectOnlyKeys(o, ['disclosure', 'revealed'], '$.participants')
    const arr = expectArray(field(o, 'revealed', '$.participants'), '$.participants.revealed', LIMITS.maxDrawCount)
    return {
      disclosure: 'winners',
      revealed: arr.map((r, i) => {
        const p = `$.participants.revealed[${i}]`
        const ro = expectObject(r, p)
        expectOnlyKeys(ro, ['index', 'entry', 'salt', 'path'], p)
        return {
          index: expectInteger(field(ro, 'index', p), `${p}.index`),
          entry: expectString(field(ro, 'entry', p), `${p}.entry`),
          salt: expectString(field(ro, 'salt', p), `${p}.salt`, HEX32, '64 lowercase hex digits'),
          path: expectArray(field(ro, 'path', p), `${p}.path`, 64).map((h, j) => expectString(h, `${p}.path[${j}]`, HEX32, '64 lowercase hex digits')),
        }
      }),
    }
  }
  throw new ParseError('INVALID_FIELD', `disclosure must be "full" or "winners", got ${show(mode)}`, 'use "full" for public draws and "winners" for private ones', { path: '$.participants.disclosure' })
}

function parseChain(v: unknown): ChainJson {
  const o = expectObject(v, '$.chain')
  expectOnlyKeys(o, ['ipnsRecord', 'blocks'], '$.chain')
  const rec = optionalField(o, 'ipnsRecord')
  const blocks = expectArray(field(o, 'blocks', '$.chain'), '$.chain.blocks', LIMITS.maxChainBlocks).map((b, i) => {
    const p = `$.chain.blocks[${i}]`
    const bo = expectObject(b, p)
    expectOnlyKeys(bo, ['cid', 'bytes'], p)
    const bytes = expectString(field(bo, 'bytes', p), `${p}.bytes`)
    base64ToBytes(bytes, `${p}.bytes`)
    return { cid: cidString(field(bo, 'cid', p), `${p}.cid`), bytes }
  })
  if (blocks.length === 0) throw new ParseError('INVALID_FIELD', 'chain.blocks is empty', 'a proof must carry at least the target block', { path: '$.chain.blocks' })
  if (rec === undefined) return { blocks }
  const ipnsRecord = expectString(rec, '$.chain.ipnsRecord')
  base64ToBytes(ipnsRecord, '$.chain.ipnsRecord')
  return { ipnsRecord, blocks }
}

function parseOutcome(v: unknown, kinds: DrawKinds): OutcomeJson {
  const o = expectObject(v, '$.outcome')
  const name = field(o, 'kind', '$.outcome')
  const kind = kinds.get(name)
  if (kind === undefined) throw new ParseError('INVALID_FIELD', `unknown outcome kind ${show(name)}`, `use ${kinds.names.slice(0, -1).join(', ')}${kinds.names.length > 1 ? ' or ' : ''}${kinds.names.at(-1) ?? ''}`, { path: '$.outcome.kind' })
  return kind.parseOutcome(o, '$.outcome') as OutcomeJson
}

/**
 * Serializes a proof as pretty-printed JSON (2-space indent, trailing newline).
 * @category Formats
 */
export function serializeProof(proof: Proof): string {
  return `${JSON.stringify(proof, null, 2)}\n`
}
