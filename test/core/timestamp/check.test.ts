/**
 * checkCommitmentTime: real tokens from public authorities (2018), emulator tokens and vectors, and
 * every failure by name.
 */
import { readFileSync } from 'node:fs'
import { sha256 } from '@noble/hashes/sha2.js'
import { AsnConvert } from '@peculiar/asn1-schema'
import { TimeStampResp } from '@peculiar/asn1-tsp'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { base64ToBytes, hexToBytes } from '../../../src/core/bytes.js'
import { LIMITS } from '../../../src/core/limits.js'
import { checkCommitmentTime } from '../../../src/core/timestamp/check.js'
import { DEFAULT_TIMESTAMP_AUTHORITIES } from '../../../src/core/timestamp/defaults.js'
import { DIGICERT_ASSURED_ID_ROOT_CA_PEM, DIGICERT_TRUSTED_ROOT_G4_PEM, USERTRUST_RSA_CERTIFICATION_AUTHORITY_PEM } from '../../../src/core/timestamp/roots.js'
import { parseTimestampToken } from '../../../src/core/timestamp/token.js'
import { parseTrustAnchor, type TimestampTrustAnchor } from '../../../src/core/timestamp/anchor.js'
import { createTestTsa } from '../../../src/emulator/tsa.js'

interface PublicCase {
  name: string
  response: string
  digest: string
  deadline: number
  roots: string[]
  expected: { status: string; problem: string | null; authority: string | null; time: string | null; accuracySeconds: number | null; marginSeconds: number | null }
}
const pub = JSON.parse(readFileSync(new URL('../../vectors/timestamps-public.json', import.meta.url), 'utf8')) as { sha256: string; responses: Record<string, string>; globalSignRootPem: string; roots: Record<string, string>; cases: PublicCase[] }
const vec = JSON.parse(readFileSync(new URL('../../vectors/timestamps.json', import.meta.url), 'utf8')) as {
  rootPem: string
  vectors: { name: string; token: string; rootPem?: string; digest: string; deadline: number; expected: { status: string; problem: string | null; marginSeconds: number } }[]
}

/** The token inside a TimeStampResp. */
function tokenOf(name: string): Uint8Array {
  const resp = AsnConvert.parse(base64ToBytes(pub.responses[name]!), TimeStampResp)
  return new Uint8Array(AsnConvert.serialize(resp.timeStampToken!))
}

const hello = hexToBytes(pub.sha256)
/** The built-in roots plus the older DigiCert root the 2018 token chains to (shipped, not trusted by default). */
const WITH_2018 = [...DEFAULT_TIMESTAMP_AUTHORITIES, parseTrustAnchor(DIGICERT_ASSURED_ID_ROOT_CA_PEM)]
const DEADLINE_2020 = Date.UTC(2020, 0, 1) / 1000
const GEN_DIGICERT = Date.UTC(2018, 4, 9, 18, 48, 18) / 1000

async function one(token: Uint8Array, digest: Uint8Array, deadline: number, anchors: readonly TimestampTrustAnchor[]) {
  const r = await checkCommitmentTime({ tokens: [token], digest, deadline, anchors })
  return { r, t: r.tokens[0]! }
}

describe('real tokens from public authorities (May 2018, data "hello\\n")', () => {
  // Every case, its roots, deadline and expected verdict come from the vector file (usable alone by a re-implementation).
  for (const c of pub.cases) {
    it(`${c.name}: ${c.expected.problem ?? 'valid'}`, async () => {
      const { r, t } = await one(tokenOf(c.response), hexToBytes(c.digest), c.deadline, c.roots.map((name) => parseTrustAnchor(pub.roots[name]!)))
      expect({ status: r.status, problem: t.problem, authority: t.authority, time: t.time, accuracySeconds: t.accuracySeconds, marginSeconds: t.marginSeconds }).toEqual(c.expected)
    })
  }
  it('the vector file names its cases\' roots by the built-in PEMs (the same bytes as the code\'s)', () => {
    expect(pub.roots['DigiCert Trusted Root G4']).toBe(DIGICERT_TRUSTED_ROOT_G4_PEM)
    expect(pub.roots['DigiCert Assured ID Root CA']).toBe(DIGICERT_ASSURED_ID_ROOT_CA_PEM)
    expect(pub.roots['USERTrust RSA Certification Authority']).toBe(USERTRUST_RSA_CERTIFICATION_AUTHORITY_PEM)
  })
  it('DigiCert: the valid case says who stamped it and when; untrusted names its root; GlobalSign names SHA-1', async () => {
    const ok = await one(tokenOf('Digicert'), hello, DEADLINE_2020, WITH_2018)
    expect(ok.r.time).toBe('2018-05-09T18:48:18.000Z')
    expect(ok.r.detail).toMatch(/^time-stamped by DigiCert SHA2 Timestamp Responder at 2018-05-09T18:48:18.000Z/)
    expect(ok.t.marginSeconds).toBe(DEADLINE_2020 - GEN_DIGICERT)
    expect((await one(tokenOf('Digicert'), hello, DEADLINE_2020, [parseTrustAnchor(pub.globalSignRootPem)])).t.detail).toContain('DigiCert Assured ID Root CA')
    expect((await one(tokenOf('GlobalSign'), hello, DEADLINE_2020, [...WITH_2018, parseTrustAnchor(pub.globalSignRootPem)])).t.detail).toContain('SHA-1')
  })
  it('a TSTInfo byte changed after signing: TIMESTAMP_MESSAGE_DIGEST_MISMATCH', async () => {
    const token = tokenOf('Digicert')
    expect(parseTimestampToken(token).tstInfo.genTime).toBe(GEN_DIGICERT * 1000)
    // Move genTime one second later ("...184818Z" -> "...184819Z") inside the signed TSTInfo.
    const at = indexOf(token, new TextEncoder().encode('20180509184818Z')) + 13
    const bad = token.slice()
    bad[at] = 0x39
    const { t } = await one(bad, hello, DEADLINE_2020, WITH_2018)
    expect(t.ok).toBe(false)
    expect(t.problem).toBe('TIMESTAMP_MESSAGE_DIGEST_MISMATCH')
  })
  it('the RSA token checks on a host without Web Crypto (pure-JS RSA), with the same answer as with it; the ECDSA emulator token still checks', async () => {
    const withCrypto = await one(tokenOf('Digicert'), hello, DEADLINE_2020, WITH_2018)
    vi.stubGlobal('crypto', {})
    const rsa = await one(tokenOf('Digicert'), hello, DEADLINE_2020, WITH_2018)
    expect(rsa.r.status).toBe('ok')
    expect(rsa.r).toEqual(withCrypto.r)
    // a bad token is failed, never uncheckable
    expect((await one(tokenOf('Digicert'), sha256(new Uint8Array(1)), DEADLINE_2020, WITH_2018)).r.status).toBe('failed')
    const v = vec.vectors[0]!
    expect((await one(base64ToBytes(v.token), hexToBytes(v.digest), v.deadline, [parseTrustAnchor(vec.rootPem)])).r.status).toBe('ok')
  })
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('vectors (test/vectors/timestamps.json)', () => {
  for (const v of vec.vectors) {
    it(v.name, async () => {
      const { r, t } = await one(base64ToBytes(v.token), hexToBytes(v.digest), v.deadline, [parseTrustAnchor(v.rootPem ?? vec.rootPem)])
      expect(r.status).toBe(v.expected.status)
      expect(t.problem).toBe(v.expected.problem)
      expect(t.marginSeconds).toBe(v.expected.marginSeconds)
    })
  }
  it('the valid vector is untrusted under the built-in roots', async () => {
    const v = vec.vectors[0]!
    expect((await one(base64ToBytes(v.token), hexToBytes(v.digest), v.deadline, DEFAULT_TIMESTAMP_AUTHORITIES)).t.problem).toBe('TIMESTAMP_UNTRUSTED')
  })
})

describe('emulator tokens: each failure by name', () => {
  const digest = sha256(new TextEncoder().encode('commitment'))
  const now = Date.UTC(2026, 5, 1)
  const deadline = now / 1000 + 600
  it('a valid token passes; its time, accuracy and margin are reported', async () => {
    const tsa = createTestTsa({ now: () => now })
    const { t } = await one(tsa.issue(digest), digest, deadline, [parseTrustAnchor(tsa.rootPem)])
    expect(t).toMatchObject({ ok: true, status: 'ok', authority: 'orbitdraw emulator TSA', time: '2026-06-01T00:00:00.000Z', accuracySeconds: 1, marginSeconds: 599 })
  })
  it('untrusted root (another authority with the same names): TIMESTAMP_UNTRUSTED', async () => {
    const a = createTestTsa({ now: () => now })
    const b = createTestTsa({ now: () => now })
    expect((await one(b.issue(digest), digest, deadline, [parseTrustAnchor(a.rootPem)])).t.problem).toBe('TIMESTAMP_UNTRUSTED')
  })
  it('untrusted root (other names): TIMESTAMP_UNTRUSTED naming the top of the chain', async () => {
    const a = createTestTsa({ now: () => now })
    const b = createTestTsa({ now: () => now, rootName: 'Some Other Root' })
    const { t } = await one(b.issue(digest), digest, deadline, [parseTrustAnchor(a.rootPem)])
    expect(t.problem).toBe('TIMESTAMP_UNTRUSTED')
    expect(t.detail).toContain('orbitdraw emulator TSA')
  })
  it('TSA certificate expired at genTime: TIMESTAMP_CERT_NOT_VALID_AT_GENTIME (judged at genTime, not now)', async () => {
    const tsa = createTestTsa({ now: () => now, notBefore: Date.UTC(2020, 0, 1), notAfter: Date.UTC(2021, 0, 1) })
    expect((await one(tsa.issue(digest), digest, deadline, [parseTrustAnchor(tsa.rootPem)])).t.problem).toBe('TIMESTAMP_CERT_NOT_VALID_AT_GENTIME')
    // The same certificates, a token dated while they were valid: fine, years later.
    expect((await one(tsa.issue(digest, { genTime: Date.UTC(2020, 6, 1) }), digest, deadline, [parseTrustAnchor(tsa.rootPem)])).t.ok).toBe(true)
  })
  it('certificate not yet valid at genTime', async () => {
    const tsa = createTestTsa({ now: () => now, notBefore: now + 86_400_000, notAfter: now + 2 * 86_400_000 })
    expect((await one(tsa.issue(digest), digest, deadline, [parseTrustAnchor(tsa.rootPem)])).t.problem).toBe('TIMESTAMP_CERT_NOT_VALID_AT_GENTIME')
  })
  for (const eku of ['none', 'non-critical', 'code-signing'] as const) {
    it(`signer certificate EKU ${eku}: TIMESTAMP_NOT_TIMESTAMPING_CERT`, async () => {
      const tsa = createTestTsa({ now: () => now, extKeyUsage: eku })
      expect((await one(tsa.issue(digest), digest, deadline, [parseTrustAnchor(tsa.rootPem)])).t.problem).toBe('TIMESTAMP_NOT_TIMESTAMPING_CERT')
    })
  }
  it('bad signature: TIMESTAMP_BAD_SIGNATURE', async () => {
    const tsa = createTestTsa({ now: () => now })
    expect((await one(tsa.issue(digest, { badSignature: true }), digest, deadline, [parseTrustAnchor(tsa.rootPem)])).t.problem).toBe('TIMESTAMP_BAD_SIGNATURE')
  })
  it('late: genTime + accuracy at or after the deadline: TIMESTAMP_LATE with a non-positive margin', async () => {
    const tsa = createTestTsa({ now: () => now })
    const { t } = await one(tsa.issue(digest, { genTime: now + 599_000 }), digest, deadline, [parseTrustAnchor(tsa.rootPem)])
    expect(t).toMatchObject({ problem: 'TIMESTAMP_LATE', marginSeconds: 0 })
    expect((await one(tsa.issue(digest, { genTime: now + 598_000 }), digest, deadline, [parseTrustAnchor(tsa.rootPem)])).t).toMatchObject({ ok: true, marginSeconds: 1 })
  })
  it('garbage bytes and an empty token: TIMESTAMP_TOKEN_MALFORMED', async () => {
    const tsa = createTestTsa({ now: () => now })
    for (const bad of [new Uint8Array([0x30, 0x03, 0x02, 0x01]), new Uint8Array(0), new TextEncoder().encode('not a token'), tsa.issue(digest).slice(0, 300)]) {
      expect((await one(bad, digest, deadline, [parseTrustAnchor(tsa.rootPem)])).t.problem).toBe('TIMESTAMP_TOKEN_MALFORMED')
    }
    // trailing bytes after the DER value
    const padded = new Uint8Array([...tsa.issue(digest), 0])
    expect((await one(padded, digest, deadline, [parseTrustAnchor(tsa.rootPem)])).t.problem).toBe('TIMESTAMP_TOKEN_MALFORMED')
  })
  it('oversize: TIMESTAMP_TOKEN_OVERSIZE before any parsing', async () => {
    const big = new Uint8Array(LIMITS.maxTimestampTokenBytes + 1)
    expect((await one(big, digest, deadline, [])).t.problem).toBe('TIMESTAMP_TOKEN_OVERSIZE')
  })
  it('passes when one token of several is valid and says what happened to the others', async () => {
    const tsa = createTestTsa({ now: () => now })
    const r = await checkCommitmentTime({ tokens: [new Uint8Array([1, 2, 3]), tsa.issue(digest), tsa.issue(digest, { badSignature: true })], digest, deadline, anchors: [parseTrustAnchor(tsa.rootPem)] })
    expect(r.status).toBe('ok')
    expect(r.tokens.map((t) => t.problem)).toEqual(['TIMESTAMP_TOKEN_MALFORMED', null, 'TIMESTAMP_BAD_SIGNATURE'])
    expect(r.detail).toContain('2 other token(s) rejected (token 0: TIMESTAMP_TOKEN_MALFORMED, token 2: TIMESTAMP_BAD_SIGNATURE)')
  })
  it('bad inputs are reported, never thrown', async () => {
    const tsa = createTestTsa({ now: () => now })
    const token = tsa.issue(digest)
    const anchors = [parseTrustAnchor(tsa.rootPem)]
    expect((await checkCommitmentTime({ tokens: [], digest, deadline, anchors })).status).toBe('failed')
    expect((await checkCommitmentTime({ tokens: [token], digest: digest.slice(0, 20), deadline, anchors })).detail).toMatch(/32 bytes/)
    expect((await checkCommitmentTime({ tokens: [token], digest, deadline: 1.5, anchors })).status).toBe('failed')
    expect((await checkCommitmentTime({ tokens: Array.from({ length: LIMITS.maxTimestampTokens + 1 }, () => token), digest, deadline, anchors })).detail).toMatch(/maxTimestampTokens/)
    expect((await checkCommitmentTime({ tokens: [token], digest, deadline, anchors: [{ name: 'junk', der: new Uint8Array([1]), sha256: '' }] })).detail).toMatch(/trust anchor 0/)
  })
})

function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}
