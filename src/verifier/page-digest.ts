/**
 * The verifier page's identity: the SHA-256 of its file's bytes (what `sha256sum` prints) and its
 * content address, CIDv1 raw sha2-256 (what `ipfs add --cid-version 1 --raw-leaves
 * --chunker=size-1048576` prints for the one-block file). The build publishes both
 * (`dist/verifier/page-hash.json`, docs/verifier.md), `orbitdraw verifier-page` and `--version` print
 * them, and the page computes them for the file its server sends (in its worker). Pure.
 *
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { blockCid } from '../core/block.js'
import { bytesToHex } from '../core/bytes.js'

/** The page file's size, SHA-256 (hex) and CIDv1 (raw, sha2-256, base32). */
export interface PageDigest {
  readonly bytes: number
  readonly sha256: string
  readonly cid: string
}

/** The page's largest size: its content address is one raw block (IPFS blocks are at most 1 MiB). */
export const MAX_PAGE_BYTES = 1024 * 1024

/** Digests of the page file's bytes. */
export function pageDigest(page: Uint8Array): PageDigest {
  return { bytes: page.length, sha256: bytesToHex(sha256(page)), cid: blockCid(page) }
}
