/**
 * A commitment's canonical encoding: its IPLD form (the draw by its kind's `encode`), canonical
 * DAG-JSON bytes and CIDv1 (dag-json, sha2-256).
 *
 * @module
 */
import * as dagJson from '@ipld/dag-json'
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'
import { sha256 } from '@noble/hashes/sha2.js'
import { parseCid, SHA2_256 } from './block.js'
import { hexToBytes } from './bytes.js'
import { DEFAULT_DRAW_KINDS } from './kinds/registry.js'
import type { DrawKinds, DrawSpecBase } from './kinds/kind.js'
import { InvalidInputError } from './errors.js'
import { show } from './json.js'
import { plainDagJson } from './dag-json-encode.js'
import type { Commitment } from './commitment-types.js'

/** The IPLD data-model form of a commitment (links as CIDs, the root as bytes, bigints as strings). */
function toIpld(c: Commitment, kinds: DrawKinds): Record<string, unknown> {
  const out: Record<string, unknown> = {
    version: c.version,
    beacon: c.beacon,
    target: c.target,
    after: { sequence: c.after.sequence, block: parseCid(c.after.block, '$.after.block') },
    draw: drawToIpld(c.draw, kinds),
    label: c.label,
  }
  if (c.drand !== undefined) out.drand = { chain: c.drand.chain, round: c.drand.round, ifMissing: c.drand.ifMissing }
  if (c.participants !== undefined) {
    out.participants = { count: c.participants.count, root: hexToBytes(c.participants.root), ...(c.participants.salted === true ? { salted: true } : {}) }
  }
  return out
}

/** The draw's IPLD form, from its kind. @throws {@link InvalidInputError} `INVALID_DRAW` for an unknown kind. */
function drawToIpld(d: DrawSpecBase, kinds: DrawKinds): { readonly [key: string]: unknown } {
  const kind = kinds.get(d.kind)
  if (kind === undefined) throw new InvalidInputError('INVALID_DRAW', `unknown draw kind ${show(d.kind)}`, `use one of ${kinds.names.join(', ')}`, { path: '$.draw.kind' })
  return kind.encode(d)
}

/**
 * Canonical DAG-JSON bytes of a commitment (keys sorted bytewise, no whitespace).
 * @category Formats
 */
export function encodeCommitment(c: Commitment, kinds: DrawKinds = DEFAULT_DRAW_KINDS): Uint8Array {
  const ipld = toIpld(c, kinds)
  // `@ipld/dag-json`'s bytes, written directly (its first run in a fresh process costs 18–80 ms);
  // a value outside that writer's plain subset is encoded by `@ipld/dag-json` itself.
  return plainDagJson(ipld) ?? dagJson.encode(ipld)
}

/** The CIDv1 (dag-json 0x0129, sha2-256) of canonical commitment bytes. */
export function commitmentCidOfBytes(bytes: Uint8Array): string {
  return CID.createV1(dagJson.code, createDigest(SHA2_256, sha256(bytes))).toString()
}

/**
 * The CID of a commitment.
 * @category Formats
 */
export function commitmentCid(c: Commitment, kinds: DrawKinds = DEFAULT_DRAW_KINDS): string {
  return commitmentCidOfBytes(encodeCommitment(c, kinds))
}
