/**
 * Beacon blocks. A block is identified by its content address: a CID whose multihash is SHA-256 of
 * the block's bytes exactly as served. {@link parseBlock} checks the hash *first* and only then
 * parses the bytes; a gateway's own parse is never trusted.
 *
 * Wire format (Go `encoding/json`, compact): `{"previous":"/ipfs/<cid>","data":{"sequence":N,
 * "timestamp":T,"ctrng":["<64 hex>",...]}}`; the genesis block has `sequence` 0, an empty
 * `previous`, empty `ctrng` and a `metadata` object. Unknown fields are tolerated.
 *
 * @module
 */
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { create as createDigest } from 'multiformats/hashes/digest'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesEqual, hexToBytes, utf8Decode } from './bytes.js'
import { IntegrityError, InvalidInputError, ParseError } from './errors.js'
import { parseJsonText } from './json.js'
import { BlockShape } from './schema/block.js'
import { parseShape } from './schema/kit.js'
import { checkLimit, LIMITS } from './limits.js'

/**
 * Multihash code of SHA-256. A number here rather than `multiformats/hashes/sha2`'s `sha256.code`: in
 * Node that module imports `node:crypto`, which cost a strict `orbitdraw verify` about 3 ms of start-up
 * for a constant (`test/core/block.test.ts` checks the two are equal).
 */
export const SHA2_256 = 0x12

/**
 * A beacon block whose bytes were checked against its CID and then parsed strictly.
 * @category Formats
 */
export interface BeaconBlock {
  /** The block's CID (CIDv1, raw codec, sha2-256), canonical base32 string (`bafkrei…`). */
  readonly cid: string
  /** The exact bytes that hash to `cid`. */
  readonly bytes: Uint8Array
  /** CID string of the previous block, or `null` for the genesis block. */
  readonly previous: string | null
  /** Sequence number (0 for genesis, +1 per block). */
  readonly sequence: number
  /** Publisher's Unix time in seconds when the block was built. */
  readonly timestamp: number
  /** The `ctrng` values as they appear in the block (64 hex digits each). */
  readonly ctrng: readonly string[]
  /** The `ctrng` values decoded, 32 bytes each. */
  readonly values: readonly Uint8Array[]
  /** The genesis block's `metadata` object, if present. */
  readonly metadata: Readonly<Record<string, unknown>> | undefined
}

/**
 * Parses a CID string (v0 `Qm…` or v1 in any multibase) and requires a sha2-256 multihash.
 * @throws {@link ParseError} `INVALID_CID` or `UNSUPPORTED_HASH`.
 * @category Formats
 */
export function parseCid(text: string, path = '$'): CID {
  if (typeof text === 'string' && text.length > LIMITS.maxCidChars) {
    throw new ParseError('INVALID_CID', `not a valid CID: ${text.length} characters, over the limit maxCidChars = ${LIMITS.maxCidChars}`, 'pass a CID such as bafkrei…', { path })
  }
  let cid: CID
  try {
    cid = CID.parse(text)
  } catch (cause) {
    throw new ParseError('INVALID_CID', `not a valid CID: ${JSON.stringify(text.slice(0, 80))}`, 'pass a CID such as bafkrei…', { path, cause })
  }
  if (cid.multihash.code !== SHA2_256 || cid.multihash.digest.length !== 32) {
    throw new ParseError('UNSUPPORTED_HASH', `CID ${text} does not use a sha2-256 multihash`, 'beacon blocks are addressed by sha2-256; use the CID the beacon published', { path })
  }
  return cid
}

/**
 * The canonical CID of raw block bytes: CIDv1, raw codec (0x55), sha2-256, base32 (`bafkrei…`).
 * @category Formats
 */
export function blockCid(bytes: Uint8Array): string {
  return CID.createV1(raw.code, createDigest(SHA2_256, sha256(bytes))).toString()
}

/**
 * True when two CIDs address the same content (same multihash), whatever their version or base.
 * @category Formats
 */
export function sameContent(a: string | CID, b: string | CID): boolean {
  const ca = typeof a === 'string' ? parseCid(a) : a
  const cb = typeof b === 'string' ? parseCid(b) : b
  return bytesEqual(ca.multihash.bytes, cb.multihash.bytes)
}

/**
 * Checks that `bytes` hash to `cid`, then parses them as a beacon block.
 *
 * @param bytes - the block exactly as received (never re-serialized).
 * @param cid - the CID the bytes are supposed to have (v0 or v1; only the sha2-256 digest is compared).
 * @throws {@link IntegrityError} `BLOCK_CID_MISMATCH` when the bytes do not hash to the CID;
 *   {@link ParseError} for malformed content; {@link LimitExceededError} for oversized blocks.
 * @category Formats
 */
export function parseBlock(bytes: Uint8Array, cid: string | CID): BeaconBlock {
  if (!(bytes instanceof Uint8Array)) {
    throw new InvalidInputError('INVALID_BLOCK_BYTES', 'block bytes must be a Uint8Array', 'pass the raw bytes of the block as received')
  }
  checkLimit('maxBlockBytes', bytes.length, 'block size in bytes')
  const expected = typeof cid === 'string' ? parseCid(cid) : cid
  if (expected.multihash.code !== SHA2_256) {
    throw new ParseError('UNSUPPORTED_HASH', `CID ${expected.toString()} does not use a sha2-256 multihash`, 'beacon blocks are addressed by sha2-256')
  }
  const digest = sha256(bytes)
  if (!bytesEqual(digest, expected.multihash.digest)) {
    throw new IntegrityError('BLOCK_CID_MISMATCH', `block bytes do not hash to ${expected.toString()}`, 'the source served altered or wrong bytes; fetch the block from another gateway')
  }
  return parseVerifiedBytes(bytes, CID.createV1(raw.code, createDigest(SHA2_256, digest)).toString())
}

function parseVerifiedBytes(bytes: Uint8Array, cid: string): BeaconBlock {
  const content = parseShape(BlockShape, parseJsonText(utf8Decode(bytes, '$'), 'beacon block'))
  const { sequence, timestamp } = content.data
  const ctrng = content.data.ctrng ?? []
  const previousRaw = content.previous
  let previous: string | null = null
  if (previousRaw !== undefined && previousRaw !== '') {
    previous = parseCid(previousRaw.slice('/ipfs/'.length), '$.previous').toString()
  }
  if (previous === null && sequence !== 0) {
    throw new ParseError('MISSING_PREVIOUS', `block ${sequence} has no previous link`, 'only the genesis block (sequence 0) may have an empty "previous"', { path: '$.previous' })
  }
  if (previous !== null && sequence === 0) {
    throw new ParseError('UNEXPECTED_PREVIOUS', 'genesis block (sequence 0) has a previous link', 'a block with a previous link must have sequence >= 1', { path: '$.previous' })
  }
  const metadata = content.metadata
  return Object.freeze({
    cid,
    bytes,
    previous,
    sequence,
    timestamp,
    ctrng: Object.freeze(ctrng),
    values: Object.freeze(ctrng.map((h, i) => hexToBytes(h, `$.data.ctrng[${i}]`))),
    metadata,
  })
}

/**
 * Encodes a block the way the real publisher does (Go `encoding/json`, compact, keys in the order
 * `previous`, `data` {`sequence`, `timestamp`, `ctrng`}, then `metadata` for genesis). Used by the
 * emulator and by tests to make real-format blocks; verification never re-encodes.
 * @category Formats
 */
export function encodeBlock(block: {
  previous: string | null
  sequence: number
  timestamp: number
  ctrng: readonly string[]
  metadata?: Record<string, unknown>
}): Uint8Array {
  const prev = block.previous === null ? '' : `/ipfs/${block.previous}`
  let text = `{"previous":${goJsonString(prev)},"data":{"sequence":${block.sequence},"timestamp":${block.timestamp},"ctrng":[${block.ctrng.map(goJsonString).join(',')}]}`
  if (block.metadata !== undefined) text += `,"metadata":${goJson(block.metadata)}`
  text += '}'
  return new TextEncoder().encode(text)
}

/** Go's encoding/json string escaping: like JSON.stringify but also escapes <, >, & and U+2028/9. */
function goJsonString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function goJson(v: unknown): string {
  if (typeof v === 'string') return goJsonString(v)
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${goJsonString(k)}:${goJson(x)}`).join(',')}}`
  }
  return JSON.stringify(v)
}
