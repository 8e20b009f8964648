/**
 * The commitment file `orbitdraw commit` writes: the commitment with its CID and its time-stamp
 * tokens, so `draw` can carry the tokens into the proof. A bare commitment (its DAG-JSON alone) is
 * still read, with no tokens.
 *
 * @module
 */
import { MismatchError, OrbitdrawError, ParseError, UnsupportedVersionError } from './errors.js'
import { commitmentCid, parseCommitment, type Commitment } from './commitment.js'
import { decodeJsonInput, show, type JsonObject } from './json.js'
import { anyObject, parseShape, requiredFields, type Infer } from './schema/kit.js'
import { COMMITMENT_FILE_TYPE, CommitmentFileShape } from './schema/commitment-file.js'
import { LIMITS } from './limits.js'
import { SUPPORTED_VERSIONS, PROTOCOL_VERSION } from './version.js'

export { COMMITMENT_FILE_TYPE }

/**
 * A commitment file as written (JSON), as declared in src/core/schema/commitment-file.ts (published
 * as docs/commitment-file.schema.json): the commitment's `cid` (checked against `commitment` when
 * read), the commitment in its DAG-JSON form exactly as `commit()` returned it, and standard base64
 * DER RFC 3161 `timestamps` over it (empty when committed without one; written always).
 * @category Formats
 */
export type CommitmentFileJson = Infer<typeof CommitmentFileShape> & { readonly timestamps: readonly string[] }

/**
 * A commitment file as read.
 * @category Formats
 */
export interface CommitmentFile {
  readonly commitment: Commitment
  readonly cid: string
  /** The commitment's DAG-JSON form (as in a proof). */
  readonly json: JsonObject
  readonly timestamps: readonly string[]
}

/**
 * Builds the commitment file for `commit()`'s result and the kept tokens (base64).
 * @category Formats
 */
export function commitmentFile(result: { readonly cid: string; readonly json: JsonObject }, timestamps: readonly string[]): CommitmentFileJson {
  return { type: COMMITMENT_FILE_TYPE, version: PROTOCOL_VERSION, cid: result.cid, commitment: result.json, timestamps: [...timestamps] }
}

const MAX_FILE_BYTES = LIMITS.maxCommitmentBytes + LIMITS.maxTimestampTokens * Math.ceil(LIMITS.maxTimestampTokenBytes / 3) * 4 + 4096

/** A commitment file's head: an object (a bare commitment without `type`), with a `version` when it has a `type`. */
const OBJECT = anyObject()
const VERSION_HEAD = requiredFields('version')

/**
 * Reads a commitment file (text), or a bare commitment (its DAG-JSON). The file's CID must be the
 * commitment's.
 *
 * @throws {@link ParseError} with the path of the first bad field; {@link MismatchError}
 *   `COMMITMENT_CID_MISMATCH`; {@link UnsupportedVersionError}.
 * @category Formats
 */
export function parseCommitmentFile(input: Uint8Array | string): CommitmentFile {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) throw new ParseError('INVALID_COMMITMENT', 'a commitment file is JSON bytes or text', 'pass the file\'s bytes', { path: '$' })
  // The core's one byte-level reader: size in bytes before decoding, strict UTF-8, no BOM, bounded depth, no duplicate keys.
  const value = decodeJsonInput(input, {
    what: 'commitment',
    maxBytes: MAX_FILE_BYTES,
    integersOnly: true,
    tooLarge: (size) => new ParseError('INVALID_COMMITMENT', `the commitment file is ${size} bytes, over ${MAX_FILE_BYTES}`, 'pass the file written by orbitdraw commit', { path: '$' }),
  })
  const o = parseShape(OBJECT, value)
  if (!Object.hasOwn(o, 'type') || o.type === undefined) {
    const commitment = parseCommitment(o)
    return { commitment, cid: commitmentCid(commitment), json: o, timestamps: [] }
  }
  if (o.type !== COMMITMENT_FILE_TYPE) throw new ParseError('INVALID_COMMITMENT', `type is ${show(o.type)}, expected "${COMMITMENT_FILE_TYPE}"`, 'pass the commitment file written by orbitdraw commit', { path: '$.type' })
  const version = parseShape(VERSION_HEAD, o).version
  if (typeof version !== 'number' || !SUPPORTED_VERSIONS.includes(version)) throw new UnsupportedVersionError('UNSUPPORTED_VERSION', `commitment file version ${show(version)} is not supported`, `this release reads version ${SUPPORTED_VERSIONS.join(', ')}; upgrade orbitdraw`, { path: '$.version' })
  // The commitment (and its CID) is judged before the tokens: a bad token is reported only for a good commitment.
  let file: Infer<typeof CommitmentFileShape> | undefined
  let tokensError: OrbitdrawError | undefined
  try {
    file = parseShape(CommitmentFileShape, o)
  } catch (e) {
    if (!(e instanceof OrbitdrawError && e.path?.startsWith('$.timestamps') === true)) throw e
    tokensError = e
  }
  const cid = file?.cid ?? (o.cid as string)
  const json = file?.commitment ?? (o.commitment as JsonObject)
  let commitment: Commitment
  try {
    commitment = parseCommitment(json)
  } catch (e) {
    if (e instanceof ParseError && e.path !== undefined) throw new ParseError(e.code, e.detail, e.hint, { path: e.path.replace(/^\$/, '$.commitment'), cause: e })
    throw e
  }
  const actual = commitmentCid(commitment)
  if (actual !== cid) throw new MismatchError('COMMITMENT_CID_MISMATCH', `the file says CID ${cid}, but its commitment hashes to ${actual}`, 'the file was edited; use the commitment file as written by orbitdraw commit', { path: '$.cid' })
  if (tokensError !== undefined) throw tokensError
  return { commitment, cid, json, timestamps: file?.timestamps ?? [] }
}
