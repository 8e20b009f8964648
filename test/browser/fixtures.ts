/**
 * Proofs for the browser-verifier test and screenshots, made in memory with the real core
 * (commit + drawFromBlock) over an in-memory beacon chain, optionally with a signed IPNS record from
 * a throwaway Ed25519 key (so the beacon name is that key's `k51…` name).
 */
import { generateKeyPair } from '@libp2p/crypto/keys'
import { createIPNSRecord, marshalIPNSRecord, unmarshalIPNSRecord } from 'ipns'
import { CID } from 'multiformats/cid'
import { base64ToBytes, bytesToBase64 } from '../../src/core/bytes.js'
import { commit } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { type DrawKinds } from '../../src/core/kinds/kind.js'
import { type DrawSpec } from '../../src/core/kinds/registry.js'
import { type Proof } from '../../src/core/proof.js'
import { ipnsNameOfKey } from '../../src/core/ipns/key-format.js'
import { createTestTsa, type TestTsa } from '../../src/emulator/tsa.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'

const TARGET_TIME = buildChain(14, 'browser')[11]!.timestamp

/** A test time-stamping authority whose clock reads `secondsBeforeTarget` before the fixtures' target block. */
export const tsaAt = (secondsBeforeTarget: number): TestTsa => createTestTsa({ seed: new Uint8Array(32).fill(11), now: () => (TARGET_TIME - secondsBeforeTarget) * 1000 })
/** The fixtures' authority: 5 minutes before the target block. Its root is not trusted by default. */
export const TEST_TSA = tsaAt(300)

/** Plausible raffle entries. */
export const PARTICIPANTS = [
  'ada.lovelace@example.org', 'alan.turing@example.org', 'grace.hopper@example.org', 'katherine.johnson@example.org',
  'claude.shannon@example.org', 'hedy.lamarr@example.org', 'edsger.dijkstra@example.org', 'barbara.liskov@example.org',
  'donald.knuth@example.org', 'margaret.hamilton@example.org', 'john.vonneumann@example.org', 'frances.allen@example.org',
  'tim.bernerslee@example.org', 'radia.perlman@example.org', 'dennis.ritchie@example.org', 'shafi.goldwasser@example.org',
  'whitfield.diffie@example.org', 'annie.easley@example.org', 'leslie.lamport@example.org', 'sophie.wilson@example.org',
  'ken.thompson@example.org', 'jean.sammet@example.org', 'niklaus.wirth@example.org', 'karen.sparckjones@example.org',
  'vint.cerf@example.org', 'mary.kenneth.keller@example.org', 'tony.hoare@example.org', 'adele.goldberg@example.org',
  'ralph.merkle@example.org', 'evelyn.berezin@example.org', 'marie "<b>html</b>" test@example.org', 'linus.t@example.org',
]

/** Options for {@link makeProof}. */
export interface MakeProofOptions {
  /**
   * Carry blocks from one above the target down to the after block, and a signed IPNS record over
   * the head: `true` or `'Ed25519'` for an Ed25519 key (`k51…` name), `'RSA'` for a 2048-bit RSA key
   * (`k2k4r8…` name, like the real beacon; in browsers its signature is checked by WebCrypto).
   */
  signed?: boolean | 'Ed25519' | 'RSA'
  label?: string
  count?: number
  /** Time-stamp the commitment with this authority (default: {@link TEST_TSA} for signed proofs, none for unsigned ones); `false` for none. */
  tsa?: TestTsa | false
}

/** The proof with one bit of its IPNS record's V2 signature flipped (the record is re-encoded, otherwise unchanged). */
export function withAlteredRecordSignature(proof: Proof): Proof {
  const chain = proof.chain as { ipnsRecord: string; blocks: unknown[] }
  const record = unmarshalIPNSRecord(base64ToBytes(chain.ipnsRecord))
  const signatureV2 = record.signatureV2.slice()
  signatureV2[9]! ^= 0x04
  return { ...proof, chain: { ...chain, ipnsRecord: bytesToBase64(marshalIPNSRecord({ ...record, signatureV2 })) } } as Proof
}

/** A valid proof (public pick). */
export async function makeProof(options: MakeProofOptions = {}): Promise<Proof> {
  const chain = buildChain(14, 'browser')
  const key = options.signed === 'RSA' ? await generateKeyPair('RSA', 2048) : options.signed === true || options.signed === 'Ed25519' ? await generateKeyPair('Ed25519') : undefined
  const beacon = key === undefined ? BEACON_NAME : ipnsNameOfKey(key.publicKey)
  const { commitment } = commit({
    beacon,
    target: 11,
    after: { sequence: 8, block: chain[8]!.cid },
    participants: PARTICIPANTS,
    draw: { kind: 'pick', count: options.count ?? 3 },
    label: options.label ?? 'Spring raffle 2026 — three bikes',
  })
  const drawn = drawFromBlock(commitment, PARTICIPANTS, chain[11]!)
  const tsa = options.tsa ?? (key === undefined ? false : TEST_TSA)
  const proof = tsa === false ? drawn : { ...drawn, timestamps: [bytesToBase64(tsa.issue(CID.parse(drawn.commitmentCid).multihash.digest))] }
  if (key === undefined) return proof
  const carried = chain.slice(8, 13).reverse() // 12 (head) … 8 (after), newest first
  const record = await createIPNSRecord(key, CID.parse(carried[0]!.cid), 42n, 24 * 3600 * 1000, { v1Compatible: true })
  return { ...proof, chain: { ipnsRecord: bytesToBase64(marshalIPNSRecord(record)), blocks: carried.map((b) => ({ cid: b.cid, bytes: bytesToBase64(b.bytes) })) } }
}

/**
 * A valid unsigned, untime-stamped proof of any draw (a test-only kind's, with its registry), over
 * the same chain as {@link makeProof}: the page passes it with `allow-unsigned=1&allow-untimestamped=1`.
 */
export function makeDrawProof(draw: DrawSpec, participants: readonly string[], kinds: DrawKinds, label = 'Draw of another kind'): Proof {
  const chain = buildChain(14, 'browser')
  const { commitment } = commit({ beacon: BEACON_NAME, target: 11, after: { sequence: 8, block: chain[8]!.cid }, participants, draw, label, kinds })
  return drawFromBlock(commitment, participants, chain[11]!, { kinds })
}

/** A copy of the proof whose first winner is replaced by another participant. */
export function tamperOutcome(proof: Proof): Proof {
  const p = structuredClone(proof) as unknown as { outcome: { winners: { entry: string; index: number }[] } }
  const w = p.outcome.winners[0]!
  const other = PARTICIPANTS.findIndex((e) => !p.outcome.winners.some((x) => x.entry === e))
  w.entry = PARTICIPANTS[other]!
  w.index = other
  return p as unknown as Proof
}

/** A copy of the proof with one byte of the target block changed (a ctrng hex digit). */
export function tamperBlock(proof: Proof, target = 11): Proof {
  const p = structuredClone(proof) as unknown as { chain: { blocks: { cid: string; bytes: string }[] } }
  const i = p.chain.blocks.findIndex((b) => new TextDecoder().decode(base64ToBytes(b.bytes)).includes(`"sequence":${target},`))
  const bytes = base64ToBytes(p.chain.blocks[i]!.bytes)
  const at = new TextDecoder().decode(bytes).indexOf('"ctrng":["') + '"ctrng":["'.length
  bytes[at] = bytes[at] === 0x30 ? 0x31 : 0x30 // '0' <-> '1': still valid JSON and hex
  p.chain.blocks[i]!.bytes = bytesToBase64(bytes)
  return p as unknown as Proof
}

/**
 * A public shuffle over enough generated entries that its proof's JSON is at least `minBytes` long
 * (the ranking repeats every entry, so about 130 bytes per entry). Unsigned, naming the real
 * Orbitport beacon: the page needs `allow-unsigned=1` to pass it, but does all the work either way.
 */
export function makeBigProof(minBytes: number): { proof: Proof; bytes: Uint8Array } {
  const chain = buildChain(14, 'big')
  const n = Math.ceil(minBytes / 115)
  const entries = Array.from({ length: n }, (_, i) => `participant-${String(i).padStart(8, '0')}@raffle.example.org`)
  const { commitment } = commit({ beacon: BEACON_NAME, target: 11, after: { sequence: 8, block: chain[8]!.cid }, participants: entries, draw: { kind: 'shuffle' }, label: `Big shuffle of ${n} entries` })
  const proof = drawFromBlock(commitment, entries, chain[11]!)
  const bytes = new TextEncoder().encode(JSON.stringify(proof))
  if (bytes.length < minBytes) throw new Error(`big proof is only ${bytes.length} bytes`)
  return { proof, bytes }
}

/** The proof's JSON bytes with the first occurrence of `needle` (ASCII) changed: its first byte becomes `byte`. */
export function withByte(proof: unknown, needle: string, byte: number): Uint8Array {
  const bytes = new TextEncoder().encode(JSON.stringify(proof, null, 2))
  const at = Buffer.from(bytes).indexOf(needle)
  if (at < 0) throw new Error(`${needle} not found`)
  bytes[at] = byte
  return bytes
}
