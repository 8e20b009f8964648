/**
 * The verifier's trust policy: a proof the organizer made up must not verify under the defaults.
 * Each attack of the threat model fails by default with its named check; each relaxed rule is
 * visible in the verdict (`verified-relaxed`, `relaxed`, `relaxedBy`), never the plain `verified`.
 */
import { generateKeyPairFromSeed } from '@libp2p/crypto/keys'
import { createIPNSRecord, marshalIPNSRecord } from 'ipns'
import { CID } from 'multiformats/cid'
import { describe, expect, it } from 'vitest'
import { bytesToBase64 } from '../../src/core/bytes.js'
import { commit } from '../../src/core/commitment.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES } from '../../src/core/timestamp/defaults.js'
import { describeVerdict } from '../../src/core/verdict.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { identifyBeacon, ORBITPORT_BEACONS } from '../../src/core/trust.js'
import { verify, type VerifyOptions } from '../../src/core/verify.js'
import { type Proof } from '../../src/core/proof.js'
import { ipnsNameOfKey } from '../../src/core/ipns/key-format.js'
import { createTestTsa, type TestTsa } from '../../src/emulator/tsa.js'
import { BEACON_NAME, buildChain, OLD_BEACON_NAME } from '../helpers/chain.js'

const PEOPLE = ['Amara', 'Bruno', 'Chen', 'Dalia', 'Emil', 'Farah', 'Gustav', 'Hana']
const CHAIN = buildChain(10, 'trust')
const TARGET_TIME = CHAIN[8]!.timestamp

/** Test authorities with clocks relative to the target block's time (accuracy 1 s). */
const tsaAt = (secondsBeforeTarget: number, options: Parameters<typeof createTestTsa>[0] = {}): TestTsa =>
  createTestTsa({ seed: new Uint8Array(32).fill(7), now: () => (TARGET_TIME - secondsBeforeTarget) * 1000, ...options })
const TSA = tsaAt(300) // 5 minutes before the target block
/** The verifier trusts the test authority's root, besides the built-in ones. */
const TSA_TRUST: VerifyOptions = { trust: { timestampAuthorities: [...DEFAULT_TIMESTAMP_AUTHORITIES, TSA.rootPem] } }

/** Time-stamp tokens of a proof's commitment by `tsa` (or over `cid` when given). */
function stamp(proof: Proof, tsa: TestTsa = TSA, cid = proof.commitmentCid): string[] {
  return [bytesToBase64(tsa.issue(CID.parse(cid).multihash.digest))]
}

/** A proof over the chain above, for `beacon`, signed by `key` when given (head = block 9, target 8, after 6), time-stamped by TSA unless `tokens` says otherwise. */
async function proofFor(beacon: string, key?: Parameters<typeof createIPNSRecord>[0], tokens?: (p: Proof) => string[]): Promise<Proof> {
  const { commitment } = commit({ beacon, target: 8, after: { sequence: 6, block: CHAIN[6]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: 'trust test' })
  const drawn = drawFromBlock(commitment, PEOPLE, CHAIN[8]!)
  const carried = CHAIN.slice(6).reverse()
  const chain = { blocks: carried.map((b) => ({ cid: b.cid, bytes: bytesToBase64(b.bytes) })) }
  const timestamps = (tokens ?? stamp)(drawn)
  const stamped = timestamps.length === 0 ? drawn : { ...drawn, timestamps }
  if (key === undefined) return { ...stamped, chain }
  const record = await createIPNSRecord(key, CID.parse(carried[0]!.cid), 1n, 24 * 3600 * 1000)
  return { ...stamped, chain: { ...chain, ipnsRecord: bytesToBase64(marshalIPNSRecord(record)) } }
}
const ownKey = async (n: number): Promise<Parameters<typeof createIPNSRecord>[0] & { publicKey: Parameters<typeof ipnsNameOfKey>[0] }> => generateKeyPairFromSeed('Ed25519', new Uint8Array(32).fill(n))

const failed = (r: { checks: readonly { name: string; ok: boolean }[] }): string[] => r.checks.filter((c) => !c.ok).map((c) => c.name)

describe('ORBITPORT_BEACONS', () => {
  it('holds the current and the former Orbitport names, with labels', () => {
    expect(ORBITPORT_BEACONS.map((b) => b.name)).toEqual([BEACON_NAME, OLD_BEACON_NAME])
    expect(identifyBeacon(BEACON_NAME).text).toBe('Orbitport randomness beacon (k2k4r8lvom…)')
    expect(identifyBeacon('k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8').text).toBe('untrusted beacon k51qzi5uqu…')
  })
})

describe('own beacon', () => {
  it('a proof signed by the organizer’s own beacon fails beacon-trusted by default, and the detail says how to trust it knowingly', async () => {
    const key = await ownKey(3)
    const own = ipnsNameOfKey(key.publicKey)
    const proof = await proofFor(own, key)
    const r = await verify(proof, TSA_TRUST)
    expect(r.ok).toBe(false)
    expect(r.verdict).toBe('failed')
    expect(failed(r)).toEqual(['beacon-trusted'])
    expect(r.authenticated).toBe(true) // the record is genuine: it is the beacon that is not trusted
    const c = r.checks.find((x) => x.name === 'beacon-trusted')!
    expect(c.detail).toContain(`untrusted beacon ${own.slice(0, 10)}…`)
    expect(c.detail).toContain(`--trust-beacon ${own}`)
    expect(r.beacon).toMatchObject({ name: own, trusted: false })
    // trusted knowingly by the verifier: the strict verdict, naming the beacon by the verifier's label
    const trusted = await verify(proof, { trust: { ...TSA_TRUST.trust, beacons: [{ name: own, label: 'my test beacon' }] } })
    expect(trusted.verdict).toBe('verified')
    expect(trusted.beacon).toMatchObject({ trusted: true, source: 'caller', text: `my test beacon (${own.slice(0, 10)}…)` })
    expect(describeVerdict(trusted).lines).toContain(`Beacon: my test beacon (${own.slice(0, 10)}…), trusted by your settings.`)
  })

  it('a trust list replaces the default: Orbitport is then untrusted unless listed', async () => {
    const r = await verify(await proofFor(BEACON_NAME), { allowUnsigned: true, trust: { ...TSA_TRUST.trust, beacons: ['k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8'] } })
    expect(failed(r)).toEqual(['beacon-trusted'])
  })

  it('an invalid trust option is a failed policy check, not a throw', async () => {
    const r = await verify(await proofFor(BEACON_NAME), { trust: { beacons: ['not a name'] } })
    expect(r.ok).toBe(false)
    expect(r.checks.map((c) => c.name)).toEqual(['policy'])
    expect(r.checks[0]!.detail).toMatch(/trust\.beacons\[0\] is not an IPNS name/)
  })
})

describe('unsigned blocks', () => {
  it('a forged target block naming the real Orbitport beacon, with no record, fails beacon-authenticity by default', async () => {
    const r = await verify(await proofFor(BEACON_NAME), TSA_TRUST)
    expect(r.verdict).toBe('failed')
    expect(failed(r)).toEqual(['beacon-authenticity'])
    expect(r.checks.find((c) => c.name === 'beacon-authenticity')!.detail).toMatch(/no signed IPNS record.*allowUnsigned \/ --allow-unsigned/)
  })

  it('allowUnsigned accepts it knowingly: ok, but verified-relaxed, with the relaxed rule named and what to check', async () => {
    const r = await verify(await proofFor(BEACON_NAME), { ...TSA_TRUST, allowUnsigned: true })
    expect(r.ok).toBe(true)
    expect(r.verdict).toBe('verified-relaxed')
    expect(r.authenticated).toBe(false)
    expect(r.checks.find((c) => c.name === 'beacon-authenticity')).toMatchObject({ ok: true, relaxedBy: 'allowUnsigned' })
    expect(r.relaxed).toHaveLength(1)
    expect(r.relaxed[0]).toMatch(/unsigned blocks allowed.*check it by other means/)
    const v = describeVerdict(r)
    expect(v.headline).toMatch(/^NOT FULLY VERIFIED/)
    expect(v.lines.some((l) => l.startsWith('Relaxed: unsigned blocks allowed'))).toBe(true)
  })

  it('allowUnsigned does not excuse a record that is carried and wrong', async () => {
    const key = await ownKey(4)
    const other = await ownKey(5)
    const proof = await proofFor(ipnsNameOfKey(key.publicKey), other) // signed by the wrong key
    const r = await verify(proof, { allowUnsigned: true, trust: { ...TSA_TRUST.trust, beacons: [ipnsNameOfKey(key.publicKey)] } })
    expect(r.ok).toBe(false)
    expect(failed(r)).toContain('ipns-record-signature')
    expect(failed(r)).toContain('beacon-authenticity')
  })
})

describe('pinned commitment', () => {
  it('pinning the announced CID: a match is stated, a proof of another commitment fails commitment-pinned', async () => {
    const proof = await proofFor(BEACON_NAME)
    const r = await verify(proof, { ...TSA_TRUST, allowUnsigned: true, commitment: proof.commitmentCid })
    expect(r.pinned).toBe(true)
    expect(r.checks.find((c) => c.name === 'commitment-pinned')).toMatchObject({ ok: true })
    expect(describeVerdict(r).lines[0]).toBe(`Commitment ${proof.commitmentCid}: the one you pinned.`)
    const other = commit({ beacon: BEACON_NAME, target: 8, after: { sequence: 6, block: CHAIN[6]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: 'the announced one' })
    const wrong = await verify(proof, { ...TSA_TRUST, allowUnsigned: true, commitment: other.cid })
    expect(failed(wrong)).toEqual(['commitment-pinned'])
    expect(wrong.pinned).toBe(false)
  })

  it('without a pin, the verdict asks the reader to compare the CID', async () => {
    const proof = await proofFor(BEACON_NAME)
    const r = await verify(proof, { ...TSA_TRUST, allowUnsigned: true })
    expect(r.pinned).toBe(false)
    expect(r.checks.some((c) => c.name === 'commitment-pinned')).toBe(false)
    expect(describeVerdict(r).lines[0]).toMatch(/compare it with the organizer's announcement/)
    expect(r.notes.join(' ')).toContain(`compare the commitment CID ${proof.commitmentCid}`)
  })
})

describe('check names are unique in a result', () => {
  it('a private pick whose revealed list is not the winners in rank order: outcome and revealed-winners, each named once', async () => {
    const secret = new Uint8Array(32).fill(1)
    const { commitment } = commit({ beacon: BEACON_NAME, target: 8, after: { sequence: 6, block: CHAIN[6]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, private: { secret } })
    const drawn = drawFromBlock(commitment, PEOPLE, CHAIN[8]!, { disclosure: 'winners', secret })
    const revealed = drawn.participants?.disclosure === 'winners' ? [...drawn.participants.revealed].reverse() : [] // the winners, but not in rank order
    const r = await verify({ ...drawn, participants: { disclosure: 'winners', revealed }, chain: { blocks: [{ cid: CHAIN[8]!.cid, bytes: bytesToBase64(CHAIN[8]!.bytes) }] } }, { allowUnsigned: true, allowUntimestamped: true })
    const names = r.checks.map((c) => c.name)
    expect(new Set(names).size).toBe(names.length)
    expect(r.ok).toBe(false)
  })
})

describe('work is bounded by the proof, not by its claims', () => {
  it('a 1 KB shuffle proof claiming 50,000,000 participants while carrying one entry fails fast without allocating for the claim', async () => {
    const proof = JSON.parse(JSON.stringify(await proofFor(BEACON_NAME))) as { commitment: { participants: { count: number }; draw: unknown }; participants: unknown; outcome: unknown }
    proof.commitment.participants.count = 50_000_000
    proof.commitment.draw = { kind: 'shuffle' }
    proof.participants = { disclosure: 'full', entries: ['Amara'] }
    proof.outcome = { kind: 'shuffle', ranking: [{ rank: 1, index: 0, entry: 'Amara' }] }
    const used = (): number => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers
    const before = used()
    const r = await verify(proof, { allowUnsigned: true, allowUntimestamped: true })
    const grown = used() - before
    expect(r.ok).toBe(false)
    expect(grown).toBeLessThan(64 * 1024 * 1024) // a 50,000,000-index shuffle would need 200 MB or more
  })
})

describe('commitment time (RFC 3161 time-stamps)', () => {
  const signed = async (tokens: (p: Proof) => string[]): Promise<{ proof: Proof; policy: VerifyOptions }> => {
    const key = await ownKey(6)
    const beacon = ipnsNameOfKey(key.publicKey)
    return { proof: await proofFor(beacon, key, tokens), policy: { trust: { ...TSA_TRUST.trust, beacons: [{ name: beacon, label: 'test beacon' }] } } }
  }
  const timeCheck = (r: { checks: readonly { name: string; ok: boolean; detail: string; relaxedBy?: string }[] }) => r.checks.find((c) => c.name === 'commitment-time')!

  it('a commitment time-stamped 5 minutes before the target block by a trusted authority: verified, with the authority, time and margin first', async () => {
    const { proof, policy } = await signed(stamp)
    const r = await verify(proof, policy)
    expect(failed(r)).toEqual([])
    expect(r.verdict).toBe('verified')
    // margin = block time − (genTime + 1 s accuracy)
    expect(timeCheck(r).detail).toMatch(/^time-stamped by orbitdraw emulator TSA at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, 4 min 59 s before block 8$/)
    expect(r.commitmentTime?.status).toBe('ok')
    expect(describeVerdict(r).lines).toContain(`Commitment time: ${timeCheck(r).detail}.`)
  })

  it('no token fails commitment-time by default; allowUntimestamped accepts it knowingly and says what to check', async () => {
    const { proof, policy } = await signed(() => [])
    const r = await verify(proof, policy)
    expect(failed(r)).toEqual(['commitment-time'])
    expect(timeCheck(r).detail).toMatch(/carries no time-stamp token.*allowUntimestamped \/ --allow-untimestamped/)
    const relaxed = await verify(proof, { ...policy, allowUntimestamped: true })
    expect(relaxed.verdict).toBe('verified-relaxed')
    expect(timeCheck(relaxed).relaxedBy).toBe('allowUntimestamped')
    expect(relaxed.relaxed[0]).toMatch(/check that the organizer published the commitment CID before then \(block 8\)/)
  })

  it('a late commitment (time-stamped after the target block existed) fails commitment-time', async () => {
    const { proof, policy } = await signed((p) => stamp(p, tsaAt(-60)))
    const r = await verify(proof, policy)
    expect(failed(r)).toEqual(['commitment-time'])
    expect(r.commitmentTime?.tokens[0]?.problem).toBe('TIMESTAMP_LATE')
  })

  it('genTime + accuracy must be strictly before the block: a token 1 s before it with 1 s accuracy fails', async () => {
    const { proof, policy } = await signed((p) => stamp(p, tsaAt(1)))
    expect(failed(await verify(proof, policy))).toEqual(['commitment-time'])
  })

  it('a token over another commitment fails commitment-time (imprint)', async () => {
    const other = commit({ beacon: BEACON_NAME, target: 8, after: { sequence: 6, block: CHAIN[6]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: 'another draw' })
    const { proof, policy } = await signed((p) => stamp(p, TSA, other.cid))
    const r = await verify(proof, policy)
    expect(failed(r)).toEqual(['commitment-time'])
    expect(r.commitmentTime?.tokens[0]?.problem).toBe('TIMESTAMP_IMPRINT_MISMATCH')
  })

  it('a token from an untrusted root fails by default, and the detail says how to trust the authority knowingly', async () => {
    const { proof, policy } = await signed(stamp)
    const r = await verify(proof, { trust: { beacons: policy.trust!.beacons! } }) // built-in time-stamping roots only
    expect(failed(r)).toEqual(['commitment-time'])
    expect(r.commitmentTime?.tokens[0]?.problem).toBe('TIMESTAMP_UNTRUSTED')
    expect(timeCheck(r).detail).toMatch(/trust\.timestampAuthorities \/ --trust-tsa FILE/)
  })

  it('a certificate without the time-stamping key usage, or expired at genTime, fails commitment-time', async () => {
    const codeSigning = tsaAt(300, { extKeyUsage: 'code-signing' })
    const expired = tsaAt(300, { notBefore: (TARGET_TIME - 10 * 86_400) * 1000, notAfter: (TARGET_TIME - 86_400) * 1000 })
    for (const [tsa, problem] of [[codeSigning, 'TIMESTAMP_NOT_TIMESTAMPING_CERT'], [expired, 'TIMESTAMP_CERT_NOT_VALID_AT_GENTIME']] as const) {
      const { proof, policy } = await signed((p) => stamp(p, tsa))
      const r = await verify(proof, { ...policy, trust: { ...policy.trust, timestampAuthorities: [tsa.rootPem] } })
      expect(failed(r)).toEqual(['commitment-time'])
      expect(r.commitmentTime?.tokens[0]?.problem).toBe(problem)
    }
  })

  it('one valid token is enough; the detail says what happened to the others', async () => {
    const { proof, policy } = await signed((p) => [...stamp(p, tsaAt(-60)), ...stamp(p)])
    const r = await verify(proof, policy)
    expect(failed(r)).toEqual([])
    expect(timeCheck(r).detail).toMatch(/other token\(s\): #1 /)
  })

  it('a bad token under allowUntimestamped is a relaxed pass, never the plain verdict', async () => {
    const { proof, policy } = await signed((p) => stamp(p, tsaAt(-60)))
    const r = await verify(proof, { ...policy, allowUntimestamped: true })
    expect(r.verdict).toBe('verified-relaxed')
    expect(timeCheck(r).relaxedBy).toBe('allowUntimestamped')
  })
})
