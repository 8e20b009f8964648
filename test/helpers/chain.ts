/**
 * Builds small beacon chains in memory in the exact real format (Go-compact JSON, genesis with
 * metadata, CIDv1 raw sha2-256), from a deterministic value source so tests are reproducible.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { blockCid, encodeBlock, parseBlock, type BeaconBlock } from '../../src/core/block.js'
import { bytesToHex } from '../../src/core/bytes.js'

/** A real RSA beacon name (the current Orbitport one) for commitments in tests. */
export const BEACON_NAME = 'k2k4r8lvomw737sajfnpav0dpeernugnryng50uheyk1k39lursmn09f'

/** The older real Orbitport beacon name (a second valid name for tests that change the beacon). */
export const OLD_BEACON_NAME = 'k2k4r8pigrw8i34z63om8f015tt5igdq0c46xupq8spp1bogt35k5vhe'

/** The genesis `metadata` object of the chains built here (shaped like the real publisher's). */
export const GENESIS_METADATA = { name: 'orbitport-beacon', public_key: '', version: '1.0', encoding: 'json', batch_size: 3, message: 'genesis', interval: 60 } as const

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
      ...(genesis ? { metadata: { ...GENESIS_METADATA } } : {}),
    })
    const cid = blockCid(bytes)
    blocks.push(parseBlock(bytes, cid))
    previous = cid
  }
  return blocks
}

/** Fields of one block for {@link makeBlock}. */
export interface BlockFields {
  previous: string | null
  sequence: number
  timestamp?: number
  ctrng: readonly string[]
  metadata?: Record<string, unknown>
}

/** Encodes one real-format block (Go-compact JSON) and parses it back with its `bafkrei` CID. */
export function makeBlock(fields: BlockFields): BeaconBlock {
  const bytes = encodeBlock({ timestamp: 1_760_000_000 + 60 * fields.sequence, ...fields })
  return parseBlock(bytes, blockCid(bytes))
}

/** Raw bytes of a JSON text with their `bafkrei` CID, for blocks written by hand (malformed ones too). */
export function rawBlock(text: string | Uint8Array): { bytes: Uint8Array; cid: string } {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text
  return { bytes, cid: blockCid(bytes) }
}

/** A copy of `bytes` with the byte at `index` XORed with `mask` (default 0x01). */
export function flipByte(bytes: Uint8Array, index: number, mask = 0x01): Uint8Array {
  const out = bytes.slice()
  out[index] = out[index]! ^ mask
  return out
}
