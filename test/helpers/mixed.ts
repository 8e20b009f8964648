/**
 * A mixed (protocol v2) proof built in memory: an Orbitport-format chain signed by a test IPNS key, a
 * test drand chain (its own BLS key, quicknet scheme, 3 s period), and test time-stamping authorities
 * dated relative to the target block. Options break one piece of evidence at a time.
 */
import { generateKeyPairFromSeed } from '@libp2p/crypto/keys'
import { createIPNSRecord, marshalIPNSRecord } from 'ipns'
import { CID } from 'multiformats/cid'
import { bytesToBase64 } from '../../src/core/bytes.js'
import { chainHashOf, checkChainInfo, roundTime, type DrandChainInfo } from '../../src/core/drand/chain.js'
import { commit } from '../../src/core/commitment.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES } from '../../src/core/timestamp/defaults.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { publicKeyOf, signRound } from '../../src/core/drand/beacon.js'
import { type Proof } from '../../src/core/proof.js'
import { type VerifyOptions } from '../../src/core/verify.js'
import { ipnsNameOfKey } from '../../src/core/ipns/key-format.js'
import { createTestTsa, type TestTsa } from '../../src/emulator/tsa.js'
import { buildChain } from './chain.js'

export const PEOPLE = ['Amara', 'Bruno', 'Chen', 'Dalia', 'Emil', 'Farah', 'Gustav', 'Hana']
export const CHAIN = buildChain(10, 'mixed')
export const TARGET = CHAIN[8]!
export const DRAND_KEY = new Uint8Array(32).fill(11)
const GENESIS = TARGET.timestamp - 3000
const groupHash = '00'.repeat(32)
export const DRAND: DrandChainInfo = checkChainInfo({
  hash: chainHashOf({ publicKey: publicKeyOf(DRAND_KEY), genesis: GENESIS, period: 3, groupHash, beaconId: 'test' }),
  publicKey: publicKeyOf(DRAND_KEY),
  genesis: GENESIS,
  period: 3,
  scheme: 'bls-unchained-g1-rfc9380',
  groupHash,
  beaconId: 'test',
  label: 'test drand',
})
/** The committed round: due 30 s after the target block. */
export const ROUND = (TARGET.timestamp + 30 - GENESIS) / 3 + 1
const tsaAt = (unix: number): TestTsa => createTestTsa({ seed: new Uint8Array(32).fill(7), now: () => unix * 1000 })
export const COMMIT_TSA = tsaAt(TARGET.timestamp - 300)
export const BLOCK_TSA = tsaAt(TARGET.timestamp + 5)
export const LATE_TSA = tsaAt(roundTime(DRAND, ROUND) + 1)

/** The mixed proof and the verify options that trust its beacon, authority and drand chain. */
export async function mixedProof(options: { round?: number; signature?: string; blockTsa?: TestTsa | null; chain?: string } = {}): Promise<{ proof: Proof; trust: VerifyOptions }> {
  const key = await generateKeyPairFromSeed('Ed25519', new Uint8Array(32).fill(9))
  const beacon = ipnsNameOfKey(key.publicKey)
  const { commitment, cid } = commit({ beacon, target: 8, after: { sequence: 6, block: CHAIN[6]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: 'mixed', drand: { chain: options.chain ?? DRAND.hash, round: ROUND } })
  const round = options.round ?? ROUND
  const blockTsa = options.blockTsa === undefined ? BLOCK_TSA : options.blockTsa
  const blockTokens = blockTsa === null ? [] : [bytesToBase64(blockTsa.issue(CID.parse(TARGET.cid).multihash.digest))]
  const drawn = drawFromBlock(commitment, PEOPLE, TARGET, { drand: { round: ROUND, signature: signRound(DRAND_KEY, ROUND), timestamps: blockTokens } })
  const carried = CHAIN.slice(6).reverse()
  const record = await createIPNSRecord(key, CID.parse(carried[0]!.cid), 1n, 24 * 3600 * 1000)
  const proof: Proof = {
    ...drawn,
    drand: { round, signature: options.signature ?? signRound(DRAND_KEY, round), timestamps: blockTokens },
    chain: { blocks: carried.map((b) => ({ cid: b.cid, bytes: bytesToBase64(b.bytes) })), ipnsRecord: bytesToBase64(marshalIPNSRecord(record)) },
    timestamps: [bytesToBase64(COMMIT_TSA.issue(CID.parse(cid).multihash.digest))],
  }
  const trust: VerifyOptions = { trust: { beacons: [beacon], timestampAuthorities: [...DEFAULT_TIMESTAMP_AUTHORITIES, COMMIT_TSA.rootPem], drandChains: [DRAND] } }
  return { proof, trust }
}


/** The same draw as a version 1 (single-source) proof, with the same beacon key, chain and authority. */
export async function singleProof(): Promise<{ proof: Proof; trust: VerifyOptions }> {
  const key = await generateKeyPairFromSeed('Ed25519', new Uint8Array(32).fill(9))
  const beacon = ipnsNameOfKey(key.publicKey)
  const { commitment, cid } = commit({ beacon, target: 8, after: { sequence: 6, block: CHAIN[6]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: 'single' })
  const drawn = drawFromBlock(commitment, PEOPLE, TARGET)
  const carried = CHAIN.slice(6).reverse()
  const record = await createIPNSRecord(key, CID.parse(carried[0]!.cid), 1n, 24 * 3600 * 1000)
  const proof: Proof = {
    ...drawn,
    chain: { blocks: carried.map((b) => ({ cid: b.cid, bytes: bytesToBase64(b.bytes) })), ipnsRecord: bytesToBase64(marshalIPNSRecord(record)) },
    timestamps: [bytesToBase64(COMMIT_TSA.issue(CID.parse(cid).multihash.digest))],
  }
  return { proof, trust: { trust: { beacons: [beacon], timestampAuthorities: [...DEFAULT_TIMESTAMP_AUTHORITIES, COMMIT_TSA.rootPem] } } }
}

/** A draw mixed with drand's real quicknet round 657413 (its published signature; test/vectors/drand.json), on a chain dated before that round. */
export async function quicknetProof(): Promise<{ proof: Proof; beacon: string; tsaRootPem: string }> {
  const round = 657413
  const signature = 'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b'
  const chain = buildChain(10, 'quicknet', roundTime({ genesis: 1692803367, period: 3 }, round) - 2000)
  const target = chain[8]!
  const key = await generateKeyPairFromSeed('Ed25519', new Uint8Array(32).fill(9))
  const beacon = ipnsNameOfKey(key.publicKey)
  const tsa = createTestTsa({ seed: new Uint8Array(32).fill(7), now: () => (target.timestamp - 300) * 1000 })
  const blockTsa = createTestTsa({ seed: new Uint8Array(32).fill(7), now: () => (target.timestamp + 5) * 1000 })
  const { commitment, cid } = commit({ beacon, target: 8, after: { sequence: 6, block: chain[6]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: 'quicknet', drand: { chain: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971', round } })
  const drawn = drawFromBlock(commitment, PEOPLE, target, { drand: { round, signature, timestamps: [bytesToBase64(blockTsa.issue(CID.parse(target.cid).multihash.digest))] } })
  const carried = chain.slice(6).reverse()
  const record = await createIPNSRecord(key, CID.parse(carried[0]!.cid), 1n, 24 * 3600 * 1000)
  const proof: Proof = { ...drawn, chain: { blocks: carried.map((b) => ({ cid: b.cid, bytes: bytesToBase64(b.bytes) })), ipnsRecord: bytesToBase64(marshalIPNSRecord(record)) }, timestamps: [bytesToBase64(tsa.issue(CID.parse(cid).multihash.digest))] }
  return { proof, beacon, tsaRootPem: tsa.rootPem }
}
