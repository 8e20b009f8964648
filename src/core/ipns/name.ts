/**
 * IPNS names: CIDv1 with the libp2p-key codec over the multihash of the publisher's public key.
 *
 * Pure: no network, no clock; runs in browsers.
 *
 * @module
 */
import { base36 } from 'multiformats/bases/base36'
import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { bytesToHex } from '../bytes.js'
import { ParseError } from '../errors.js'
import { LIMITS } from '../limits.js'

/** Multicodec of a libp2p public key CID (IPNS names are CIDv1 with this codec). */
const LIBP2P_KEY = 0x72
const IDENTITY = 0x00
const SHA2_256 = 0x12

/**
 * A beacon's IPNS name, decoded.
 * @category Beacon
 */
export interface IpnsName {
  /** The name in its canonical form: CIDv1 libp2p-key in base36 (`k2k4r8…` or `k51…`). */
  readonly name: string
  /** The name's multihash bytes (identity of an inlined key, or sha2-256 of the key's protobuf). */
  readonly multihash: Uint8Array
  /** `identity` when the key is inlined in the name (Ed25519 `k51…`), `sha2-256` otherwise (RSA `k2k4r8…`). */
  readonly hash: 'identity' | 'sha2-256'
}

/**
 * Names already decoded (the text given -> its decoding), at most {@link MAX_DECODED}: a `verify` meets
 * the same names several times (the verifier's trust list, the commitment's beacon, the record's name),
 * and base36 decoding and encoding are quadratic and run cold in a fresh process (docs/performance.md,
 * Start-up). Only successes are kept; each caller gets its own copy of the multihash.
 */
const decoded = new Map<string, IpnsName>()
const MAX_DECODED = 64

/**
 * Decodes an IPNS name: a CIDv1 with the libp2p-key codec in any multibase (normally base36 `k…`),
 * a legacy base58 peer ID (`Qm…`, `12D3Koo…`), optionally prefixed by `/ipns/`.
 *
 * @example
 * ```ts
 * const n = parseIpnsName('/ipns/k51qzi5uqu5dj7skeind43o1an76ns1q5g2bupqw6o1hmcccenbkvalzo2olt0')
 * // n.hash === 'identity' (an Ed25519 key inlined in the name)
 * ```
 * @throws {@link ParseError} `INVALID_IPNS_NAME`.
 * @category Beacon
 */
export function parseIpnsName(name: string, path = '$'): IpnsName {
  const known = typeof name === 'string' ? decoded.get(name) : undefined
  if (known !== undefined) return { ...known, multihash: known.multihash.slice() }
  const parsed = decodeIpnsName(name, path)
  if (decoded.size >= MAX_DECODED) decoded.clear()
  decoded.set(name, { ...parsed, multihash: parsed.multihash.slice() })
  return parsed
}

function decodeIpnsName(name: string, path: string): IpnsName {
  const fail = (why: string, cause?: unknown): never => {
    throw new ParseError('INVALID_IPNS_NAME', `not a valid IPNS name (${why}): ${JSON.stringify(String(name).slice(0, 80))}`, 'pass the beacon name, e.g. k2k4r8… (RSA) or k51… (Ed25519)', { path, cause })
  }
  if (typeof name !== 'string' || name.length === 0 || name.length > LIMITS.maxCidChars + '/ipns/'.length) fail('empty, too long or not a string')
  const text = name.startsWith('/ipns/') ? name.slice('/ipns/'.length) : name
  let digest: Digest.Digest<number, number> | undefined
  if (text.startsWith('Qm') || text.startsWith('1')) {
    try {
      digest = Digest.decode(base58btc.baseDecode(text))
    } catch (cause) {
      fail('bad base58 peer ID', cause)
    }
  } else {
    let cid: CID | undefined
    try {
      cid = text.startsWith('k') ? CID.parse(text, base36) : CID.parse(text)
    } catch (cause) {
      fail('not a CID', cause)
    }
    if (cid!.version !== 1 || cid!.code !== LIBP2P_KEY) fail('not a CIDv1 with the libp2p-key codec')
    digest = cid!.multihash
  }
  if (digest!.code !== IDENTITY && digest!.code !== SHA2_256) fail('multihash is neither identity nor sha2-256')
  if (digest!.code === SHA2_256 && digest!.digest.length !== 32) fail('sha2-256 digest is not 32 bytes')
  return {
    name: CID.createV1(LIBP2P_KEY, digest!).toString(base36),
    multihash: digest!.bytes,
    hash: digest!.code === IDENTITY ? 'identity' : 'sha2-256',
  }
}

/** Hex of a name's multihash, handy as a map key. */
export function ipnsNameKey(name: string): string {
  return bytesToHex(parseIpnsName(name).multihash)
}
