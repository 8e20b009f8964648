/**
 * Parsing a commitment from its DAG-JSON form (untrusted): size and canonical DAG-JSON first, then
 * the declared shape, the draw by its kind, in the protocol's order, then the typed checks.
 *
 * @module
 */
import * as dagJson from '@ipld/dag-json'
import { CID } from 'multiformats/cid'
import { bytesToHex, utf8Encode } from './bytes.js'
import { DEFAULT_DRAW_KINDS } from './kinds/registry.js'
import type { DrawKinds } from './kinds/kind.js'
import type { DrawSpec } from './kinds/registry.js'
import { InvalidInputError, LimitExceededError, OrbitdrawError, ParseError, UnsupportedVersionError } from './errors.js'
import * as v from 'valibot'
import { decodeJsonInput, show, type JsonObject } from './json.js'
import { LIMITS } from './limits.js'
import { COMMITMENT_PARSE_SHAPE } from './schema/commitment.js'
import { parseShape, requiredFields, text, type Infer } from './schema/kit.js'
import { SUPPORTED_VERSIONS } from './version.js'
import { validateCommitment } from './commitment-validate.js'
import type { Commitment, ParticipantsCommitment } from './commitment-types.js'

/**
 * The order in which the protocol checks a commitment's fields where it is not the declaration
 * order: `after.sequence` after `target`, just before `label`; the beacon name after every field's shape.
 */
function checkOrder(keys: readonly (string | number)[], code: string): number {
  if (code === 'INVALID_BEACON_NAME') return 3
  if (keys[0] === 'after' && keys[1] === 'sequence') return 1
  return keys[0] === 'label' ? 2 : 0
}


/**
 * Whether a failed check of the commitment's shape comes after the draw in the protocol's order
 * (after `version`, the unknown top-level fields, `after` and its block link, and `draw` itself):
 * then a bad draw, read by its kind, is reported first.
 */
function afterDraw(err: OrbitdrawError): boolean {
  const path = err.path ?? '$'
  if (err.code === 'UNKNOWN_FIELD' && path.lastIndexOf('.') === 1) return false
  return ['$.participants', '$.beacon', '$.target', '$.after.sequence', '$.label'].some((p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[`))
}

/** What the protocol reads first: an object with a `version` (its value is judged on its own). */
const HEAD = requiredFields('version')

/** What picks the draw's parser: `draw` an object with a string `kind` (the kind's parser reads the rest). */
const DRAW_HEAD = requiredFields('draw')
const KIND_HEAD = v.pipe(requiredFields('kind'), v.looseObject({ kind: text() }))

/** Reads the commitment's `draw` (decoded DAG-JSON data model) with its kind's own parser. */
function readDraw(o: JsonObject, kinds: DrawKinds): DrawSpec {
  parseShape(DRAW_HEAD, o, '$')
  const drawObj = o.draw as JsonObject
  const name = parseShape(KIND_HEAD, drawObj, '$.draw').kind
  const kind = kinds.get(name)
  if (kind === undefined) throw new ParseError('INVALID_FIELD', `unknown draw kind ${JSON.stringify(name)}`, `use one of ${kinds.names.join(', ')}`, { path: '$.draw.kind' })
  return kind.parse(drawObj, '$.draw') as DrawSpec
}

function tooLarge(size: number): LimitExceededError {
  return new LimitExceededError('LIMIT_EXCEEDED', `the commitment is ${size} bytes, over the limit maxCommitmentBytes = ${LIMITS.maxCommitmentBytes}`, 'supply the commitment exactly as commit() produced it', { path: '$' })
}

/** Rejects any DAG-JSON link `{"/": "<cid>"}` whose text is longer than LIMITS.maxCidChars (iterative walk). */
function checkLinkLengths(root: unknown, rootPath: string): void {
  const stack: [unknown, string][] = [[root, rootPath]]
  while (stack.length > 0) {
    const [v, path] = stack.pop()!
    if (v === null || typeof v !== 'object') continue
    if (Array.isArray(v)) {
      // Only objects can hold a link: a number's path is not built (a `panel` commitment has about 9,000).
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i]
        if (x !== null && typeof x === 'object') stack.push([x, `${path}[${i}]`])
      }
      continue
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (k === '/' && typeof x === 'string' && x.length > LIMITS.maxCidChars) {
        throw new ParseError('INVALID_CID', `a link is ${x.length} characters, over the limit maxCidChars = ${LIMITS.maxCidChars}`, 'use the CID exactly as commit() wrote it', { path })
      }
      stack.push([x, `${path}.${k}`])
    }
  }
}

/**
 * Parses a commitment from its DAG-JSON form (as found in a proof or a published file): strict,
 * unknown fields rejected, every field checked.
 *
 * @param json - the DAG-JSON form, either as parsed JSON or as text/bytes.
 * @param options - `kinds`: the registry to read the draw kind from (default: the built-in kinds).
 * @throws {@link ParseError} with the path of the first bad field; {@link UnsupportedVersionError}.
 * @category Formats
 */
export function parseCommitment(json: unknown, options: { readonly kinds?: DrawKinds } = {}): Commitment {
  const kinds = options.kinds ?? DEFAULT_DRAW_KINDS
  let value: unknown
  let text: string
  try {
    // Bytes and text go through the core's one entry point (size in UTF-8 bytes before decoding, strict
    // UTF-8, no BOM, bounded depth, no duplicate keys, integers only); a parsed value is re-serialized.
    const parsed = json instanceof Uint8Array || typeof json === 'string' ? decodeJsonInput(json, { what: 'commitment', maxBytes: LIMITS.maxCommitmentBytes, integersOnly: true, tooLarge }) : json
    const serialized = JSON.stringify(parsed)
    if (serialized === undefined) throw new Error('not JSON')
    text = serialized
    // The limit is in UTF-8 bytes of the compact form, whatever the input was (docs/spec.md, The proof bundle).
    const encoded = utf8Encode(text)
    if (encoded.length > LIMITS.maxCommitmentBytes) throw tooLarge(encoded.length)
    // DAG-JSON decodes links as it reads them; CID text is checked first (base58/base36 decoding is quadratic).
    checkLinkLengths(JSON.parse(text), '$')
    value = dagJson.decode(encoded)
  } catch (cause) {
    if (cause instanceof ParseError || cause instanceof LimitExceededError) throw cause
    throw new ParseError('INVALID_COMMITMENT', `commitment is not valid DAG-JSON: ${(cause as Error).message}`, 'supply the commitment JSON exactly as commit() produced it', { path: '$', cause })
  }
  parseShape(HEAD, value, '$')
  const o = value as JsonObject
  const version = o.version
  if (typeof version !== 'number' || !SUPPORTED_VERSIONS.includes(version)) {
    throw new UnsupportedVersionError('UNSUPPORTED_VERSION', `commitment protocol version ${show(version)} is not supported`, `this release implements version ${SUPPORTED_VERSIONS.join(', ')}; upgrade orbitdraw to verify it`, { path: '$.version' })
  }
  // The declared shape (src/core/schema/commitment.ts) on the JSON form, which the DAG-JSON decoder
  // accepted: links and bytes in their one canonical spelling, no unknown field, every field's type.
  // `draw` is only required to be an object there: its kind's own parser reads it (the registry the
  // caller passed), in its place in the protocol's order.
  let shaped: Infer<typeof COMMITMENT_PARSE_SHAPE>
  try {
    shaped = parseShape(COMMITMENT_PARSE_SHAPE, JSON.parse(text), '$', checkOrder)
  } catch (err) {
    if (err instanceof OrbitdrawError && afterDraw(err)) readDraw(o, kinds)
    throw err
  }
  // The decoded form gives the link as a CID and the root as bytes (the shape guarantees both).
  const decoded = o as { after: { block: unknown }; participants?: { root: Uint8Array } }
  const afterBlock = CID.asCID(decoded.after.block)
  if (afterBlock === null) throw new ParseError('INVALID_FIELD', 'after.block must be a CID link {"/": "<cid>"}', 'use the DAG-JSON link form', { path: '$.after.block' })
  const draw = readDraw(o, kinds)
  let participants: ParticipantsCommitment | undefined
  if (shaped.participants !== undefined && decoded.participants !== undefined) {
    const { count, salted } = shaped.participants
    const root = bytesToHex(decoded.participants.root)
    participants = salted === true ? { count, root, salted } : { count, root }
  }
  const commitment: Commitment = {
    version,
    beacon: shaped.beacon,
    target: shaped.target,
    after: { sequence: shaped.after.sequence, block: afterBlock.toString() },
    ...(participants === undefined ? {} : { participants }),
    draw,
    label: shaped.label,
    ...(shaped.drand === undefined ? {} : { drand: { chain: shaped.drand.chain, round: shaped.drand.round, ifMissing: shaped.drand.ifMissing } }),
  }
  try {
    validateCommitment(commitment, kinds)
  } catch (err) {
    if (err instanceof InvalidInputError) throw new ParseError(err.code, err.detail, err.hint, { path: err.path ?? '$', cause: err })
    throw err
  }
  return commitment
}
