/**
 * Builds small beacon chains in memory in the exact real format (Go-compact JSON, genesis with
 * metadata, CIDv1 raw sha2-256), from a deterministic value source so tests are reproducible.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { blockCid, bytesToHex, encodeBlock, parseBlock, type BeaconBlock } from '../../src/core/index.js'

/** A real RSA beacon name (the current Orbitport one) for commitments in tests. */
export const BEACON_NAME = 'k2k4r8lvomw737sajfnpav0dpeernugnryng50uheyk1k39lursmn09f'

/** Deterministic 32-byte hex values: SHA-256 of `label:i`. */
export function fakeCtrng(label: string, i: number): string {
  return bytesToHex(sha256(new TextEncoder().encode(`${label}:${i}`)))
}

/** Builds `length` blocks (genesis first) with 3 ctrng values each, 60 s apart. */
export function buildChain(length: number, label = 'chain', start = 1_760_000_000): BeaconBlock[] {
  const blocks: BeaconBlock[] = []
  let previous: string | null = null
  for (let seq = 0; seq < length; seq++) {
    const genesis = seq === 0
    const bytes = encodeBlock({
      previous,
      sequence: seq,
      timestamp: start + 60 * seq,
      ctrng: genesis ? [] : [0, 1, 2].map((k) => fakeCtrng(label, seq * 3 + k)),
      ...(genesis ? { metadata: { name: 'orbitport-beacon', public_key: '', version: '1.0', encoding: 'json', batch_size: 3, message: 'genesis', interval: 60 } } : {}),
    })
    const cid = blockCid(bytes)
    blocks.push(parseBlock(bytes, cid))
    previous = cid
  }
  return blocks
}
