/**
 * Protocol v2 through the library: a mixed draw (Orbitport block N + drand round R) verifies with the
 * either-honest wording; each attack fails its named check; a version 1 proof verifies as before and
 * says plainly that it trusts Orbitport's operator. The v2 seed is re-derived from its definition.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { generateKeyPairFromSeed } from '@libp2p/crypto/keys'
import { createIPNSRecord, marshalIPNSRecord } from 'ipns'
import { CID } from 'multiformats/cid'
import { describe, expect, it } from 'vitest'
import { bytesToBase64 } from '../../../src/core/bytes.js'
import { commit } from '../../../src/core/commitment.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES } from '../../../src/core/timestamp/defaults.js'
import { deriveSeed } from '../../../src/core/seed.js'
import { describeVerdict } from '../../../src/core/verdict.js'
import { chainHashOf, DRAND_QUICKNET, roundTime } from '../../../src/core/drand/chain.js'
import { drawFromBlock } from '../../../src/core/draw.js'
import { signRound } from '../../../src/core/drand/beacon.js'
import { verify } from '../../../src/core/verify.js'
import { createTestTsa } from '../../../src/emulator/tsa.js'
import { buildChain } from '../../helpers/chain.js'
import { ipnsNameOfKey } from '../../../src/core/ipns/key-format.js'
import { BLOCK_TSA, CHAIN, COMMIT_TSA, DRAND, DRAND_KEY, LATE_TSA, mixedProof, PEOPLE, ROUND, TARGET } from '../../helpers/mixed.js'

const failed = (r: { checks: readonly { name: string; ok: boolean }[] }): string[] => r.checks.filter((c) => !c.ok).map((c) => c.name)

describe('protocol v2: a mixed draw', () => {
  it('verifies strictly, with the either-honest wording, and its seed is the v2 seed by definition', async () => {
    const { proof, trust } = await mixedProof()
    expect(proof.version).toBe(2)
    const r = await verify(JSON.stringify(proof), trust)
    expect(failed(r)).toEqual([])
    expect(r.verdict).toBe('verified')
    expect(r.checks.map((c) => c.name)).toEqual(expect.arrayContaining(['drand-chain-trusted', 'drand-round', 'drand-signature', 'source-order']))
    expect(r.sources).toEqual(expect.objectContaining({ mixed: true, eitherHonest: true }))
    const words = describeVerdict(r)
    expect(words.headline).toMatch(/^VERIFIED, unbiased unless both Orbitport and drand are dishonest/)
    expect(words.lines.join('\n')).toMatch(/Sources: Two sources: Orbitport block 8 mixed with drand round \d+/)
    // The seed by its definition: SHA-256("orbitdraw/v2/seed" 0x00 || v1 seed || u64be(R) || SHA-256(signature)).
    const r8 = Buffer.alloc(8)
    r8.writeBigUInt64BE(BigInt(ROUND))
    const randomness = createHash('sha256').update(Buffer.from(proof.drand!.signature, 'hex')).digest()
    const s1 = deriveSeed(proof.commitmentCid, TARGET)
    const expected = createHash('sha256').update('orbitdraw/v2/seed').update(Buffer.from([0])).update(s1).update(r8).update(randomness).digest('hex')
    expect(proof.seed).toBe(expected)
    expect(proof.seed).not.toBe(Buffer.from(s1).toString('hex'))
  })

  it('a tampered drand signature fails drand-signature (and the outcome is not recomputed)', async () => {
    const good = await mixedProof()
    const sig = good.proof.drand!.signature
    const tampered = signRound(new Uint8Array(32).fill(12), ROUND) // a valid point, another key
    for (const signature of [tampered, sig.slice(0, 95) + (sig[95] === '0' ? '1' : '0')]) {
      const { proof, trust } = await mixedProof({ signature })
      const r = await verify(proof, trust)
      expect(failed(r)).toEqual(['drand-signature'])
      expect(r.verdict).toBe('failed')
      expect(r.checks.some((c) => c.name === 'outcome')).toBe(false)
      expect(describeVerdict(r).reason).toMatch(/^The drand round was not signed by its chain/)
    }
  })

  it('a round other than the committed one fails drand-round, even with its valid signature', async () => {
    const { proof, trust } = await mixedProof({ round: ROUND + 1 })
    const r = await verify(proof, trust)
    expect(failed(r)).toEqual(['drand-round'])
    expect(r.sources?.eitherHonest).toBe(false)
  })

  it('a committed round due past 2^53 s fails drand-round by name (it was an internal failure)', async () => {
    // Found by fuzzing: the commitment cannot know the chain's genesis and period, so only verify sees it.
    const { proof: base, trust } = await mixedProof()
    const round = 2 ** 52
    const { commitment, cid } = commit({ beacon: base.commitment.beacon as string, target: 8, after: { sequence: 6, block: CHAIN[6]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: 'mixed', drand: { chain: DRAND.hash, round } })
    const drand = { round, signature: signRound(DRAND_KEY, round), timestamps: [bytesToBase64(BLOCK_TSA.issue(CID.parse(TARGET.cid).multihash.digest))] }
    const proof = { ...drawFromBlock(commitment, PEOPLE, TARGET, { drand }), chain: base.chain, timestamps: [bytesToBase64(COMMIT_TSA.issue(CID.parse(cid).multihash.digest))] }
    const r = await verify(proof, trust)
    expect(failed(r)).toEqual(['drand-round'])
    expect(r.checks.find((c) => c.name === 'drand-round')?.detail).toBe(`the commitment names round ${round}, due past 2^53 s on drand chain ${DRAND.label ?? DRAND.hash}: no such round is ever published`)
  })

  it('a trusted drand chain whose public key is not a G2 point fails policy by name (it was an internal failure)', async () => {
    // The verifier's own trust material, consistent with its hash but not a curve point: checked where it is used.
    const { proof: base, trust } = await mixedProof()
    const info = { ...DRAND, publicKey: 'a'.repeat(192) }
    const bad = { ...info, hash: chainHashOf(info) }
    const { commitment, cid } = commit({ beacon: base.commitment.beacon as string, target: 8, after: { sequence: 6, block: CHAIN[6]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: 'mixed', drand: { chain: bad.hash, round: ROUND } })
    const drand = { round: ROUND, signature: signRound(DRAND_KEY, ROUND), timestamps: [bytesToBase64(BLOCK_TSA.issue(CID.parse(TARGET.cid).multihash.digest))] }
    const proof = { ...drawFromBlock(commitment, PEOPLE, TARGET, { drand }), chain: base.chain, timestamps: [bytesToBase64(COMMIT_TSA.issue(CID.parse(cid).multihash.digest))] }
    const r = await verify(proof, { trust: { ...trust.trust, drandChains: [bad] } })
    expect(r.checks.some((c) => c.name === 'internal')).toBe(false)
    expect(failed(r)).toEqual(['policy'])
    expect(r.checks.find((c) => c.name === 'policy')?.detail).toBe(`the verification options are invalid: the trusted drand chain ${bad.label ?? bad.hash}'s public key is not a valid G2 point (pin the chain's public key exactly as its /info serves it)`)
  })

  it('an untrusted drand chain fails drand-chain-trusted (the default list is quicknet only)', async () => {
    const { proof, trust } = await mixedProof()
    const r = await verify(proof, { trust: { ...trust.trust, drandChains: undefined } })
    expect(failed(r)).toEqual(['drand-chain-trusted'])
    const q = await verify(proof, { trust: { ...trust.trust, drandChains: [DRAND_QUICKNET] } })
    expect(failed(q)).toEqual(['drand-chain-trusted'])
  })

  it('a block stamped after round R, or not stamped, fails source-order and never reads as either-honest', async () => {
    for (const blockTsa of [LATE_TSA, null]) {
      const { proof, trust } = await mixedProof({ blockTsa })
      const r = await verify(proof, trust)
      expect(failed(r)).toEqual(['source-order'])
      expect(r.verdict).toBe('failed')
      expect(r.sources).toEqual(expect.objectContaining({ mixed: true, eitherHonest: false }))
      expect(r.sources!.statement).toMatch(/the Orbitport operator is trusted/)
      expect(describeVerdict(r).headline).not.toMatch(/VERIFIED/)
    }
  })

  it('never trusts a carried randomness field, and refuses drand evidence in a version 1 proof', async () => {
    const { proof, trust } = await mixedProof()
    const withRandomness = { ...proof, drand: { ...proof.drand!, randomness: 'ff'.repeat(32) } }
    expect(failed(await verify(withRandomness, trust))).toEqual(['format'])
    const v1 = { ...proof, version: 1 }
    expect(failed(await verify(v1, trust))).toEqual(['format'])
    const { drand: _drand, ...noDrand } = proof
    expect(failed(await verify(noDrand, trust))).toEqual(['format'])
  })

  it('a commitment whose drand round was swapped no longer matches its CID', async () => {
    const { proof, trust } = await mixedProof()
    const commitment = { ...proof.commitment, drand: { ...(proof.commitment.drand as object), round: ROUND + 1 } }
    const r = await verify({ ...proof, commitment }, trust)
    expect(failed(r)).toContain('commitment-cid')
  })
})

describe('protocol v1 beside v2', () => {
  it('a v1 draw is unchanged and says plainly it trusts Orbitport\'s operator', async () => {
    const key = await generateKeyPairFromSeed('Ed25519', new Uint8Array(32).fill(9))
    const beacon = ipnsNameOfKey(key.publicKey)
    const { commitment, cid, json } = commit({ beacon, target: 8, after: { sequence: 6, block: CHAIN[6]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: 'single' })
    expect(commitment.version).toBe(1)
    expect(Object.keys(json)).not.toContain('drand')
    const drawn = drawFromBlock(commitment, PEOPLE, TARGET)
    expect(drawn.version).toBe(1)
    expect(drawn.seed).toBe(Buffer.from(deriveSeed(cid, TARGET)).toString('hex'))
    const carried = CHAIN.slice(6).reverse()
    const record = await createIPNSRecord(key, CID.parse(carried[0]!.cid), 1n, 24 * 3600 * 1000)
    const proof = { ...drawn, chain: { blocks: carried.map((b) => ({ cid: b.cid, bytes: bytesToBase64(b.bytes) })), ipnsRecord: bytesToBase64(marshalIPNSRecord(record)) }, timestamps: [bytesToBase64(COMMIT_TSA.issue(CID.parse(cid).multihash.digest))] }
    const r = await verify(proof, { trust: { beacons: [beacon], timestampAuthorities: [...DEFAULT_TIMESTAMP_AUTHORITIES, COMMIT_TSA.rootPem] } })
    expect(r.verdict).toBe('verified')
    expect(r.checks.map((c) => c.name)).not.toContain('drand-round')
    expect(r.sources).toEqual(expect.objectContaining({ mixed: false, eitherHonest: false }))
    const words = describeVerdict(r)
    expect(words.headline).toMatch(/^VERIFIED: every check passed on its own evidence\.$/)
    expect(words.lines.join('\n')).toMatch(/trusts Orbitport's beacon operator/)
  })

  it('drawing a mixed commitment needs its round, the committed one; a v1 one takes none', async () => {
    const { commitment } = commit({ beacon: 'k2k4r8lvomw737sajfnpav0dpeernugnryng50uheyk1k39lursmn09f', target: 8, after: { sequence: 6, block: CHAIN[6]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 1 }, drand: { chain: DRAND.hash, round: ROUND } })
    expect(() => drawFromBlock(commitment, PEOPLE, TARGET)).toThrow(expect.objectContaining({ code: 'MISSING_DRAND_ROUND' }))
    expect(() => drawFromBlock(commitment, PEOPLE, TARGET, { drand: { round: ROUND + 1, signature: signRound(DRAND_KEY, ROUND + 1), timestamps: [] } })).toThrow(expect.objectContaining({ code: 'WRONG_DRAND_ROUND' }))
    const v1 = commit({ beacon: commitment.beacon, target: 8, after: commitment.after, participants: PEOPLE, draw: { kind: 'pick', count: 1 } }).commitment
    expect(() => drawFromBlock(v1, PEOPLE, TARGET, { drand: { round: ROUND, signature: signRound(DRAND_KEY, ROUND), timestamps: [] } })).toThrow(expect.objectContaining({ code: 'UNEXPECTED_DRAND_ROUND' }))
    expect(() => commit({ beacon: commitment.beacon, target: 8, after: commitment.after, participants: PEOPLE, draw: { kind: 'pick', count: 1 }, drand: { chain: 'xyz', round: 1 } })).toThrow(expect.objectContaining({ code: 'INVALID_DRAND_INFO', path: '$.drand.chain' }))
    expect(() => commit({ beacon: commitment.beacon, target: 8, after: commitment.after, participants: PEOPLE, draw: { kind: 'pick', count: 1 }, drand: { chain: DRAND.hash, round: 0 } })).toThrow(expect.objectContaining({ code: 'INVALID_DRAND_ROUND', path: '$.drand.round' }))
  })
})

describe('protocol v2 with drand\'s real quicknet round (default drand trust)', () => {
  it('a draw mixed with quicknet round 657413 (published signature) verifies with no drand option', async () => {
    const vectors = JSON.parse(readFileSync(new URL('../../vectors/drand.json', import.meta.url), 'utf8')) as { rounds: { chain: string; round: number; signature: string }[] }
    const q = vectors.rounds.find((r) => r.round === 657413)!
    const due = roundTime(DRAND_QUICKNET, q.round)
    const chain = buildChain(10, 'quicknet', due - 2000) // target block 8 due 1520 s before the round
    const target = chain[8]!
    const key = await generateKeyPairFromSeed('Ed25519', new Uint8Array(32).fill(9))
    const beacon = ipnsNameOfKey(key.publicKey)
    const tsa = createTestTsa({ seed: new Uint8Array(32).fill(7), now: () => (target.timestamp - 300) * 1000 })
    const blockTsa = createTestTsa({ seed: new Uint8Array(32).fill(7), now: () => (target.timestamp + 5) * 1000 })
    const { commitment, cid } = commit({ beacon, target: 8, after: { sequence: 6, block: chain[6]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: 'quicknet', drand: { chain: DRAND_QUICKNET.hash, round: q.round } })
    const drawn = drawFromBlock(commitment, PEOPLE, target, { drand: { round: q.round, signature: q.signature, timestamps: [bytesToBase64(blockTsa.issue(CID.parse(target.cid).multihash.digest))] } })
    const carried = chain.slice(6).reverse()
    const record = await createIPNSRecord(key, CID.parse(carried[0]!.cid), 1n, 24 * 3600 * 1000)
    const proof = { ...drawn, chain: { blocks: carried.map((b) => ({ cid: b.cid, bytes: bytesToBase64(b.bytes) })), ipnsRecord: bytesToBase64(marshalIPNSRecord(record)) }, timestamps: [bytesToBase64(tsa.issue(CID.parse(cid).multihash.digest))] }
    const r = await verify(JSON.stringify(proof), { now: new Date((target.timestamp + 60) * 1000), trust: { beacons: [beacon], timestampAuthorities: [...DEFAULT_TIMESTAMP_AUTHORITIES, tsa.rootPem] } })
    expect(r.checks.filter((c) => !c.ok)).toEqual([])
    expect(r.verdict).toBe('verified')
    expect(r.sources?.eitherHonest).toBe(true)
    expect(r.checks.find((c) => c.name === 'drand-chain-trusted')?.detail).toMatch(/drand quicknet/)
  })
})
