/**
 * The proof bundle: one JSON document that lets anyone re-check a draw offline. It carries the
 * commitment (DAG-JSON form), the participants (all of them, or only the winners with Merkle
 * inclusion proofs), the beacon blocks as raw bytes (newest first, down to the target), optionally
 * the beacon's signed IPNS record, the seed and the claimed outcome.
 *
 * @module
 */
import { base64ToBytes } from './bytes.js'
import { ParseError, UnsupportedVersionError } from './errors.js'
import { expectArray, expectInteger, expectObject, expectOnlyKeys, expectString, field, optionalField, parseJsonText, show, type JsonObject } from './json.js'
import { LIMITS } from './limits.js'
import { PROOF_TYPE, SUPPORTED_VERSIONS } from './version.js'

/** A weighted participant as carried in a proof. */
export interface WeightedEntryJson {
  readonly entry: string
  readonly weight: number
}

/** Every entry is disclosed (public draw). */
export interface FullDisclosure {
  readonly disclosure: 'full'
  /** All entries in committed order (weighted entries for `weighted` draws). */
  readonly entries: readonly string[] | readonly WeightedEntryJson[]
}

/** One disclosed winner with its RFC 9162 inclusion proof. */
export interface RevealedEntry {
  /** Its 0-based position in the committed list. */
  readonly index: number
  /** The entry. */
  readonly entry: string
  /** Audit path, leaf to root, as 64-hex-digit hashes. */
  readonly path: readonly string[]
}

/** Only the winners are disclosed (private draw); the list itself stays secret. */
export interface WinnersDisclosure {
  readonly disclosure: 'winners'
  /** One revealed entry per winner, in rank order. */
  readonly revealed: readonly RevealedEntry[]
}

/** The participants section of a proof. */
export type ParticipantsDisclosure = FullDisclosure | WinnersDisclosure

/** A beacon block carried in a proof: its CID and its exact bytes (standard base64). */
export interface BlockJson {
  readonly cid: string
  readonly bytes: string
}

/** The beacon evidence: an optional signed head and blocks from the head down to the target. */
export interface ChainJson {
  /** The beacon's signed IPNS record (marshalled protobuf, standard base64), if carried. */
  readonly ipnsRecord?: string
  /** Blocks newest first: `blocks[0]` is the head; each next is the previous of the one before. */
  readonly blocks: readonly BlockJson[]
}

/** A ranked winner in a proof outcome. */
export interface RankedJson {
  /** 1 for the winner, 2 for the first alternate, … */
  readonly rank: number
  /** 0-based position in the committed list. */
  readonly index: number
  /** The entry. */
  readonly entry: string
}

/** The claimed outcome in a proof. */
export type OutcomeJson =
  | { readonly kind: 'shuffle'; readonly ranking: readonly RankedJson[] }
  | { readonly kind: 'pick'; readonly winners: readonly RankedJson[] }
  | { readonly kind: 'weighted'; readonly winners: readonly RankedJson[] }
  | { readonly kind: 'range'; readonly values: readonly string[] }

/** A proof bundle (version 1). */
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
}

const HEX32 = /^[0-9a-f]{64}$/
const CID_TEXT = new RegExp(`^[a-zA-Z0-9]{1,${LIMITS.maxCidChars}}$`)

/** A CID as text: alphanumeric, at most LIMITS.maxCidChars characters (decoded later, by the checks). */
function cidString(v: unknown, path: string): string {
  return expectString(v, path, CID_TEXT, `a CID string of at most ${LIMITS.maxCidChars} characters`)
}
const DECIMAL_RE = /^(?:0|-?[1-9][0-9]*)$/

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
  expectOnlyKeys(o, ['type', 'version', 'commitment', 'commitmentCid', 'participants', 'chain', 'seed', 'outcome'], '$')
  const commitment = expectObject(field(o, 'commitment', '$'), '$.commitment')
  const commitmentCid = cidString(field(o, 'commitmentCid', '$'), '$.commitmentCid')
  const participantsRaw = optionalField(o, 'participants')
  const participants = participantsRaw === undefined ? undefined : parseDisclosure(participantsRaw)
  const chain = parseChain(field(o, 'chain', '$'))
  const seed = expectString(field(o, 'seed', '$'), '$.seed', HEX32, '64 lowercase hex digits')
  const outcome = parseOutcome(field(o, 'outcome', '$'))
  return {
    type: PROOF_TYPE,
    version: o.version as number,
    commitment,
    commitmentCid,
    ...(participants === undefined ? {} : { participants }),
    chain,
    seed,
    outcome,
  }
}

/**
 * Turns a proof given as JSON text or UTF-8 bytes into its parsed JSON value (anything else is
 * returned as is). The size limit is checked before decoding; bytes must be valid UTF-8.
 * @throws {@link ParseError} `PROOF_TOO_LARGE`, `INVALID_UTF8`, `INVALID_JSON`.
 */
export function readProofJson(input: unknown): unknown {
  if (input instanceof Uint8Array) {
    if (input.length > LIMITS.maxProofBytes) throw new ParseError('PROOF_TOO_LARGE', `proof is ${input.length} bytes, over the limit maxProofBytes = ${LIMITS.maxProofBytes}`, 'proofs this large are not accepted', { path: '$' })
    let text: string
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input)
    } catch (cause) {
      throw new ParseError('INVALID_UTF8', 'proof bytes are not valid UTF-8', 'supply the proof file exactly as written', { path: '$', cause })
    }
    return parseJsonText(text, 'proof')
  }
  if (typeof input === 'string') {
    if (input.length > LIMITS.maxProofBytes) throw new ParseError('PROOF_TOO_LARGE', `proof is ${input.length} characters, over the limit maxProofBytes = ${LIMITS.maxProofBytes}`, 'proofs this large are not accepted', { path: '$' })
    return parseJsonText(input, 'proof')
  }
  return input
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
    expectOnlyKeys(o, ['disclosure', 'entries'], '$.participants')
    const arr = expectArray(field(o, 'entries', '$.participants'), '$.participants.entries', LIMITS.maxParticipants)
    if (arr.length > 0 && typeof arr[0] === 'object') {
      return {
        disclosure: 'full',
        entries: arr.map((e, i) => {
          const p = `$.participants.entries[${i}]`
          const eo = expectObject(e, p)
          expectOnlyKeys(eo, ['entry', 'weight'], p)
          return { entry: expectString(field(eo, 'entry', p), `${p}.entry`), weight: expectInteger(field(eo, 'weight', p), `${p}.weight`, 1) }
        }),
      }
    }
    return { disclosure: 'full', entries: arr.map((e, i) => expectString(e, `$.participants.entries[${i}]`)) }
  }
  if (mode === 'winners') {
    expectOnlyKeys(o, ['disclosure', 'revealed'], '$.participants')
    const arr = expectArray(field(o, 'revealed', '$.participants'), '$.participants.revealed', LIMITS.maxDrawCount)
    return {
      disclosure: 'winners',
      revealed: arr.map((r, i) => {
        const p = `$.participants.revealed[${i}]`
        const ro = expectObject(r, p)
        expectOnlyKeys(ro, ['index', 'entry', 'path'], p)
        return {
          index: expectInteger(field(ro, 'index', p), `${p}.index`),
          entry: expectString(field(ro, 'entry', p), `${p}.entry`),
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

function parseRanked(v: unknown, path: string): RankedJson[] {
  return expectArray(v, path, LIMITS.maxParticipants).map((r, i) => {
    const p = `${path}[${i}]`
    const ro = expectObject(r, p)
    expectOnlyKeys(ro, ['rank', 'index', 'entry'], p)
    return { rank: expectInteger(field(ro, 'rank', p), `${p}.rank`, 1), index: expectInteger(field(ro, 'index', p), `${p}.index`), entry: expectString(field(ro, 'entry', p), `${p}.entry`) }
  })
}

function parseOutcome(v: unknown): OutcomeJson {
  const o = expectObject(v, '$.outcome')
  const kind = field(o, 'kind', '$.outcome')
  switch (kind) {
    case 'shuffle':
      expectOnlyKeys(o, ['kind', 'ranking'], '$.outcome')
      return { kind, ranking: parseRanked(field(o, 'ranking', '$.outcome'), '$.outcome.ranking') }
    case 'pick':
    case 'weighted':
      expectOnlyKeys(o, ['kind', 'winners'], '$.outcome')
      return { kind, winners: parseRanked(field(o, 'winners', '$.outcome'), '$.outcome.winners') }
    case 'range':
      expectOnlyKeys(o, ['kind', 'values'], '$.outcome')
      return { kind, values: expectArray(field(o, 'values', '$.outcome'), '$.outcome.values', LIMITS.maxDrawCount).map((x, i) => expectString(x, `$.outcome.values[${i}]`, DECIMAL_RE, 'a canonical decimal integer string')) }
    default:
      throw new ParseError('INVALID_FIELD', `unknown outcome kind ${show(kind)}`, 'use shuffle, pick, weighted or range', { path: '$.outcome.kind' })
  }
}

/** Serializes a proof as pretty-printed JSON (2-space indent, trailing newline). */
export function serializeProof(proof: Proof): string {
  return `${JSON.stringify(proof, null, 2)}\n`
}
