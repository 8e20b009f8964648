/**
 * The chain step of checkCommitmentTime (src/core/timestamp/chain.ts): pathLenConstraint (RFC 5280
 * 6.1.4), self-issued certificates, duplicates, validity over genTime ± accuracy, the named signed-attribute
 * problems, and the signature-check count each token reports.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { describe, expect, it } from 'vitest'
import { bytesEqual } from '../../../src/core/bytes.js'
import { LIMITS } from '../../../src/core/limits.js'
import { checkCommitmentTime } from '../../../src/core/timestamp/check.js'
import { parseTrustAnchor } from '../../../src/core/timestamp/anchor.js'
import { signatureCost } from '../../../src/core/timestamp/chain.js'
import { parseTimestampToken } from '../../../src/core/timestamp/token.js'
import { createTestTsa, type IssueOptions, type TestTsa, type TestTsaOptions } from '../../../src/emulator/tsa.js'
import { hostileToken } from '../../helpers/hostile-tokens.js'

const digest = sha256(new TextEncoder().encode('commitment'))
const now = Date.UTC(2026, 5, 1)
const deadline = now / 1000 + 600

const authority = (o: TestTsaOptions = {}): TestTsa => createTestTsa({ seed: new Uint8Array(32).fill(5), now: () => now, ...o })

async function judge(tsa: TestTsa, issue: IssueOptions = {}) {
  const r = await checkCommitmentTime({ tokens: [tsa.issue(digest, issue)], digest, deadline, anchors: [parseTrustAnchor(tsa.rootPem)] })
  return r.tokens[0]!
}

describe('pathLenConstraint (RFC 5280 6.1.4)', () => {
  it('root -> CA (pathLen 0) -> CA -> TSA is refused: TIMESTAMP_PATH_LEN_EXCEEDED naming the CA', async () => {
    const t = await judge(authority({ intermediates: [{ name: 'CA one', pathLen: 0 }, { name: 'CA two' }] }))
    expect(t.problem).toBe('TIMESTAMP_PATH_LEN_EXCEEDED')
    expect(t.detail).toContain('CA one allows 0 intermediate CA certificate(s) below it')
  })
  it('the same chain passes with pathLen 1, and a pathLen 0 CA may sign the TSA certificate itself', async () => {
    expect((await judge(authority({ intermediates: [{ name: 'CA one', pathLen: 1 }, { name: 'CA two' }] }))).ok).toBe(true)
    expect((await judge(authority({ intermediates: [{ name: 'CA one', pathLen: 0 }] }))).ok).toBe(true)
    expect((await judge(authority({ intermediates: [{ name: 'CA one' }, { name: 'CA two', pathLen: 0 }] }))).ok).toBe(true)
  })
  it('the trust anchor\'s own pathLenConstraint is enforced too (root pathLen 0 -> CA -> TSA is refused)', async () => {
    expect((await judge(authority({ rootPathLen: 0, intermediates: [{ name: 'CA one' }] }))).problem).toBe('TIMESTAMP_PATH_LEN_EXCEEDED')
    expect((await judge(authority({ rootPathLen: 1, intermediates: [{ name: 'CA one' }] }))).ok).toBe(true)
    expect((await judge(authority({ rootPathLen: 0 }))).ok).toBe(true)
  })
  it('a self-issued intermediate (a CA re-keyed under its own name) does not count against pathLen', async () => {
    // root -> A (pathLen 0) -> A' (issuer = subject = A, another key) -> TSA
    expect((await judge(authority({ intermediates: [{ name: 'CA A', pathLen: 0 }, { name: 'CA A' }] }))).ok).toBe(true)
    // the same with a differently named second CA is over the limit
    expect((await judge(authority({ intermediates: [{ name: 'CA A', pathLen: 0 }, { name: 'CA B' }] }))).problem).toBe('TIMESTAMP_PATH_LEN_EXCEEDED')
  })
})

describe('duplicates and the work bound', () => {
  it('the same certificate carried twice: TIMESTAMP_DUPLICATE_CERTIFICATE, before any signature is checked', async () => {
    const tsa = authority()
    const t = await judge(tsa, { extraCertificates: [tsa.rootDer, tsa.rootDer] })
    expect(t).toMatchObject({ problem: 'TIMESTAMP_DUPLICATE_CERTIFICATE', signatureChecks: 0 })
  })
  it('the root carried once is fine (the anchor ends the chain as the same DER)', async () => {
    const tsa = authority()
    expect(await judge(tsa, { extraCertificates: [tsa.rootDer] })).toMatchObject({ ok: true, signatureChecks: 2 })
  })
  it('an honest token costs its signature and one per name-matching issuer: 2 checks', async () => {
    const tsa = authority()
    const token = parseTimestampToken(tsa.issue(digest))
    const anchor = parseTrustAnchor(tsa.rootPem)
    const { parseCertificate } = await import('../../../src/core/timestamp/certificate.js')
    expect(signatureCost(token.certificates.find((c) => bytesEqual(c.der, tsa.tsaCertDer))!, token.certificates, [{ name: anchor.name, cert: parseCertificate(anchor.der) }])).toBe(2)
    expect(await judge(tsa)).toMatchObject({ ok: true, signatureChecks: 2 })
  })
  it('five CAs with one name and distinct keys: every name matches, yet each (issuer, certificate) pair is checked at most once', async () => {
    const { token, tsa } = hostileToken(5, false)
    const parsed = parseTimestampToken(token)
    // The signer by its bytes: a SET OF certificates is written in DER order, not the TSA certificate first.
    const signer = parsed.certificates.find((c) => bytesEqual(c.der, tsa.tsaCertDer))!
    // 1 (token) + 5 (issuers of the TSA certificate) + 5 × 4 (issuers of each CA) = 26
    expect(signatureCost(signer, parsed.certificates, [])).toBe(26)
    const other = authority() // a trusted root under another name: no path
    const r = await checkCommitmentTime({ tokens: [token], digest: sha256(new TextEncoder().encode('an orbitdraw commitment')), deadline: Date.UTC(2026, 4, 18, 21, 1) / 1000, anchors: [parseTrustAnchor(other.rootPem)] })
    expect(r.tokens[0]!.ok).toBe(false)
    expect(r.tokens[0]!.signatureChecks).toBeGreaterThan(0)
    expect(r.tokens[0]!.signatureChecks).toBeLessThanOrEqual(26)
  })
  it('fifteen such CAs: TIMESTAMP_LIMIT_EXCEEDED with the counted cost, no signature checked', async () => {
    const { token } = hostileToken(15, false)
    const other = authority()
    const r = await checkCommitmentTime({ tokens: [token], digest: sha256(new TextEncoder().encode('an orbitdraw commitment')), deadline: Date.UTC(2026, 4, 18, 21, 1) / 1000, anchors: [parseTrustAnchor(other.rootPem)] })
    expect(r.tokens[0]).toMatchObject({ problem: 'TIMESTAMP_LIMIT_EXCEEDED', signatureChecks: 0 })
    expect(r.tokens[0]!.detail).toContain(`up to 226 signature checks, over the limit maxTimestampSignatureChecksPerToken = ${LIMITS.maxTimestampSignatureChecksPerToken}`)
  })
})

describe('validity over genTime ± accuracy (accuracy 1 s)', () => {
  it('a certificate ending exactly at genTime is refused; one ending at genTime + accuracy passes', async () => {
    expect((await judge(authority({ notBefore: now - 86_400_000, notAfter: now }))).problem).toBe('TIMESTAMP_CERT_NOT_VALID_AT_GENTIME')
    expect((await judge(authority({ notBefore: now - 86_400_000, notAfter: now + 1000 }))).ok).toBe(true)
  })
  it('a certificate starting exactly at genTime is refused; one starting at genTime − accuracy passes', async () => {
    const t = await judge(authority({ notBefore: now, notAfter: now + 86_400_000 }))
    expect(t.problem).toBe('TIMESTAMP_CERT_NOT_VALID_AT_GENTIME')
    expect(t.detail).toContain('over genTime ± accuracy (2026-05-31T23:59:59.000Z to 2026-06-01T00:00:01.000Z)')
    expect((await judge(authority({ notBefore: now - 1000, notAfter: now + 86_400_000 }))).ok).toBe(true)
  })
  it('without accuracy the window is genTime itself, bounds inclusive', async () => {
    expect((await judge(authority({ accuracySeconds: 0, notBefore: now, notAfter: now }))).ok).toBe(true)
  })
})

describe('signed attributes, each problem by name', () => {
  const cases: [NonNullable<IssueOptions['signedAttributes']>, string | null][] = [
    [{ contentType: 'missing' }, 'TIMESTAMP_CONTENT_TYPE_MISMATCH'],
    [{ contentType: 'wrong' }, 'TIMESTAMP_CONTENT_TYPE_MISMATCH'],
    [{ contentType: 'twice' }, 'TIMESTAMP_CONTENT_TYPE_MISMATCH'],
    [{ signingCertificate: 'missing' }, 'TIMESTAMP_SIGNER_CERT_ID_MISSING'],
    [{ signingCertificate: 'twice' }, 'TIMESTAMP_SIGNER_CERT_ID_DUPLICATE'],
    [{ signingCertificate: 'two-values' }, 'TIMESTAMP_SIGNER_CERT_ID_DUPLICATE'],
    [{ signingCertificate: 'v1-and-v2' }, null],
    [{ signingCertificate: 'v1-wrong-and-v2' }, 'TIMESTAMP_SIGNER_CERT_ID_MISMATCH'],
  ]
  for (const [attrs, problem] of cases) {
    it(`${JSON.stringify(attrs)}: ${problem ?? 'valid'}`, async () => {
      const t = await judge(authority(), { signedAttributes: attrs })
      expect(t.problem).toBe(problem)
    })
  }
})

describe('critical extensions', () => {
  const SPEC_KNOWN = ['2.5.29.15', '2.5.29.37', '2.5.29.19', '2.5.29.14', '2.5.29.35', '2.5.29.32', '2.5.29.17', '2.5.29.31', '1.3.6.1.5.5.7.1.1']
  it('the known set is the one docs/spec.md lists (Commitment time)', async () => {
    const { KNOWN_EXTENSIONS } = await import('../../../src/core/timestamp/oids.js')
    expect([...KNOWN_EXTENSIONS].sort()).toEqual([...SPEC_KNOWN].sort())
    const { readFileSync } = await import('node:fs')
    const spec = readFileSync(new URL('../../../docs/spec.md', import.meta.url), 'utf8')
    const from = spec.indexOf('- **Known critical extensions**')
    const item = spec.slice(from, spec.indexOf('\n- ', from + 1))
    expect(from).toBeGreaterThan(0)
    expect([...item.matchAll(/`(\d+(?:\.\d+)+)`/g)].map((m) => m[1]).sort()).toEqual([...SPEC_KNOWN].sort())
  })
  it('a critical certificatePolicies (known, not processed) is accepted; a critical nameConstraints (unknown here) makes the certificate unusable', async () => {
    expect((await judge(authority({ tsaCriticalExtensions: ['2.5.29.32'] }))).ok).toBe(true)
    const t = await judge(authority({ tsaCriticalExtensions: ['2.5.29.30'] }))
    expect(t.problem).toBe('TIMESTAMP_CERT_UNUSABLE')
    expect(t.detail).toContain('2.5.29.30')
  })
})
