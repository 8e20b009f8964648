/**
 * The work of checking time-stamp tokens is bounded by the proof's own bytes (issue 23, item 1): a
 * token carrying many CA certificates that all sign each other used to cost about 400,000 ECDSA checks;
 * tokens are not covered by the commitment CID, so anyone could add 16 of them to a genuine proof.
 * Shown by the signature checks each token reports (`signatureChecks`, counted where they are made) and
 * by the named problems, never by timing (figures are recorded, not asserted).
 */
import { CID } from 'multiformats/cid'
import { afterAll, describe, expect, it } from 'vitest'
import { bytesToBase64 } from '../../src/core/bytes.js'
import { commit } from '../../src/core/commitment.js'
import { drawFromBlock } from '../../src/core/draw.js'
import { verify } from '../../src/core/verify.js'
import { type Proof } from '../../src/core/proof.js'
import { LIMITS } from '../../src/core/limits.js'
import { checkCommitmentTime } from '../../src/core/timestamp/check.js'
import { parseTrustAnchor } from '../../src/core/timestamp/anchor.js'
import { createTestTsa } from '../../src/emulator/tsa.js'
import { BEACON_NAME, buildChain } from '../helpers/chain.js'
import { DEADLINE, DIGEST, hostileToken, honestToken, invalidEdgesToken, nameGridToken } from '../helpers/hostile-tokens.js'
import { recordFigures } from './helpers.js'

const figures: Record<string, unknown> = {}
afterAll(() => recordFigures('timestamp-work', figures))

const honest = honestToken()
const TRUSTED = [parseTrustAnchor(honest.tsa.rootPem)]
const total = (r: { tokens: readonly { signatureChecks: number }[] }): number => r.tokens.reduce((n, t) => n + t.signatureChecks, 0)

describe('one hostile token', () => {
  it('the report\'s token: 15 CA certificates, one subject, one key, all signing each other: TIMESTAMP_DUPLICATE_CERTIFICATE, no signature checked', async () => {
    const { token } = hostileToken(15, true)
    const r = await checkCommitmentTime({ tokens: [token], digest: DIGEST, deadline: DEADLINE, anchors: TRUSTED })
    expect(r.tokens[0]).toMatchObject({ problem: 'TIMESTAMP_DUPLICATE_CERTIFICATE', signatureChecks: 0 })
    figures.sameKey15 = { bytes: token.length, problem: r.tokens[0]!.problem, signatureChecks: r.tokens[0]!.signatureChecks }
  })
  it('the same with 15 distinct keys (no duplicate): TIMESTAMP_LIMIT_EXCEEDED from the counted cost (226), no signature checked', async () => {
    const { token } = hostileToken(15, false)
    const r = await checkCommitmentTime({ tokens: [token], digest: DIGEST, deadline: DEADLINE, anchors: TRUSTED })
    expect(r.tokens[0]).toMatchObject({ problem: 'TIMESTAMP_LIMIT_EXCEEDED', signatureChecks: 0 })
    figures.distinctKeys15 = { bytes: token.length, problem: r.tokens[0]!.problem, detail: r.tokens[0]!.detail }
  })
  it('nine CA certificates with one key, distinct only by (issuer, subject) names over 3 names: every signature verifies, hundreds of simple paths, 28 checks at most', async () => {
    const { token } = nameGridToken(3)
    const r = await checkCommitmentTime({ tokens: [token], digest: DIGEST, deadline: DEADLINE, anchors: TRUSTED })
    const t = r.tokens[0]!
    expect(t.ok).toBe(false)
    expect(t.problem).toBe('TIMESTAMP_UNTRUSTED')
    expect(t.signatureChecks).toBeGreaterThan(1)
    expect(t.signatureChecks).toBeLessThanOrEqual(28)
    figures.grid3 = { bytes: token.length, problem: t.problem, signatureChecks: t.signatureChecks }
  })
})

describe('a proof of hostile tokens at its budget', () => {
  it('16 tokens each asking 16 checks that all fail (the most pure-JS work): 8 are checked (128 checks), 8 refused unchecked', async () => {
    const tokens = Array.from({ length: LIMITS.maxTimestampTokens }, (_, i) => invalidEdgesToken(15, `budget ${i}`).token)
    const r = await checkCommitmentTime({ tokens, digest: DIGEST, deadline: DEADLINE, anchors: TRUSTED })
    expect(r.status).toBe('failed')
    expect(total(r)).toBe(LIMITS.maxTimestampSignatureChecksPerProof)
    expect(r.tokens.slice(0, 8).every((t) => t.signatureChecks === 16 && t.problem === 'TIMESTAMP_BAD_SIGNATURE')).toBe(true)
    expect(r.tokens.slice(8).every((t) => t.signatureChecks === 0 && t.problem === 'TIMESTAMP_LIMIT_EXCEEDED')).toBe(true)
    figures.invalidEdgesProof = { tokens: tokens.length, signatureChecks: total(r) }
  })
})

describe('a genuine proof with hostile tokens added', () => {
  const PEOPLE = ['Amara', 'Bruno', 'Chen', 'Dalia', 'Emil']
  const CHAIN = buildChain(10, 'timestamp-work')
  const targetTime = CHAIN[8]!.timestamp
  const tsa = createTestTsa({ seed: new Uint8Array(32).fill(9), now: () => (targetTime - 300) * 1000 })
  const { commitment } = commit({ beacon: BEACON_NAME, target: 8, after: { sequence: 6, block: CHAIN[6]!.cid }, participants: PEOPLE, draw: { kind: 'pick', count: 2 }, label: 'hostile tokens' })
  const drawn = drawFromBlock(commitment, PEOPLE, CHAIN[8]!)
  const digest = CID.parse(drawn.commitmentCid).multihash.digest
  const at = { digest, genTime: (targetTime - 300) * 1000 }
  const genuine = bytesToBase64(tsa.issue(digest))
  const proofWith = (timestamps: string[]): Proof => ({ ...drawn, timestamps, chain: { blocks: CHAIN.slice(6).reverse().map((b) => ({ cid: b.cid, bytes: bytesToBase64(b.bytes) })) } })
  const policy = { allowUnsigned: true, trust: { timestampAuthorities: [tsa.rootPem] } }
  // 15 tokens over the right commitment, in time, each needing 28 checks (the most a 3-name grid needs), all before the genuine one
  const hostile = Array.from({ length: LIMITS.maxTimestampTokens - 1 }, (_, i) => bytesToBase64(nameGridToken(3, `proof ${i}`, at).token))

  it('the genuine token still passes (cheapest first), the proof\'s checks stay within maxTimestampSignatureChecksPerProof, the rest are LIMIT_EXCEEDED by name', async () => {
    const t0 = performance.now()
    const r = await verify(proofWith([...hostile, genuine]), policy)
    const ms = performance.now() - t0
    expect(r.checks.find((c) => c.name === 'commitment-time')).toMatchObject({ ok: true })
    const ct = r.commitmentTime!
    expect(ct.tokens[LIMITS.maxTimestampTokens - 1]).toMatchObject({ ok: true, signatureChecks: 2 })
    expect(total(ct)).toBeLessThanOrEqual(LIMITS.maxTimestampSignatureChecksPerProof)
    const problems = ct.tokens.slice(0, -1).map((t) => t.problem)
    // budget 128: the genuine token (cost 2), then four hostile tokens of cost 28 (112); the other eleven are refused unchecked
    expect(problems.filter((p) => p === 'TIMESTAMP_LIMIT_EXCEEDED')).toHaveLength(11)
    expect(problems.filter((p) => p === 'TIMESTAMP_UNTRUSTED')).toHaveLength(4)
    expect(ct.tokens.filter((t) => t.problem === 'TIMESTAMP_LIMIT_EXCEEDED').every((t) => t.signatureChecks === 0)).toBe(true)
    figures.proofWith15Hostile = { signatureChecks: total(ct), limit: LIMITS.maxTimestampSignatureChecksPerProof, ms: Math.round(ms) }
  })
  it('without the genuine token the verdict names the failure; the work is still within the proof\'s budget', async () => {
    const r = await verify(proofWith([...hostile, hostile[0]!]), policy)
    expect(r.checks.find((c) => c.name === 'commitment-time')).toMatchObject({ ok: false })
    expect(total(r.commitmentTime!)).toBeLessThanOrEqual(LIMITS.maxTimestampSignatureChecksPerProof)
  })
  it('the report\'s attack on a genuine proof: 15 duplicate-certificate tokens cost no signature check at all', async () => {
    const dup = Array.from({ length: LIMITS.maxTimestampTokens - 1 }, (_, i) => bytesToBase64(hostileToken(15, true, `dup ${i}`, at).token))
    const r = await verify(proofWith([...dup, genuine]), policy)
    expect(r.checks.find((c) => c.name === 'commitment-time')).toMatchObject({ ok: true })
    expect(r.commitmentTime!.tokens.slice(0, -1).every((t) => t.problem === 'TIMESTAMP_DUPLICATE_CERTIFICATE' && t.signatureChecks === 0)).toBe(true)
    expect(total(r.commitmentTime!)).toBe(2)
  })
})
