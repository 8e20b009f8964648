/**
 * `checkCommitmentTime`: do the time-stamp tokens prove that a commitment existed before a deadline?
 * Pure: no clock (certificates are judged at each token's genTime), no network, never throws.
 *
 * @module
 */
import { bytesEqual } from '../bytes.js'
import { LIMITS } from '../limits.js'
import { parseCertificate, type ParsedCertificate } from './certificate.js'
import { digest } from './hash.js'
import { HASHES, OID, refusedHashName } from './oids.js'
import type { CommitmentTimeResult, TimestampProblem, TimestampTokenResult } from './result.js'
import { signatureSchemeProblem, verifySignature, type SignatureOutcome } from './signature.js'
import { parseTimestampToken, TokenProblem, type ParsedToken } from './token.js'
import type { TimestampTrustAnchor } from './anchor.js'

/**
 * Input of {@link checkCommitmentTime}.
 * @category Verify
 */
export interface CommitmentTimeInput {
  /** DER TimeStampTokens, as carried in the proof (`timestamps`, base64-decoded). */
  readonly tokens: readonly Uint8Array[]
  /** SHA-256 of the commitment's canonical bytes (the digest inside its CID), 32 bytes. */
  readonly digest: Uint8Array
  /** The target block's timestamp, unix seconds: genTime + accuracy must be strictly before it. */
  readonly deadline: number
  /** Trusted time-stamping roots (for example {@link DEFAULT_TIMESTAMP_AUTHORITIES}). */
  readonly anchors: readonly TimestampTrustAnchor[]
  /** What the tokens stamp and what the deadline is, in the details (default: the commitment, the target block). */
  readonly names?: { readonly stamped: string; readonly deadline: string }
}

interface Anchor {
  readonly name: string
  readonly cert: ParsedCertificate
}

class Fail extends Error {
  constructor(readonly problem: TimestampProblem, readonly detail: string) {
    super(detail)
  }
}

/**
 * Checks the time-stamp tokens of a commitment: each token's CMS signature, its signer certificate
 * (critical EKU id-kp-timeStamping only, key usage, ESSCertID), the certificate chain up to one of
 * `anchors` with every certificate valid at genTime, the imprint (SHA-256, equal to `digest`), and
 * genTime + accuracy strictly before `deadline`. Passes when at least one token is fully valid.
 *
 * Never throws: every problem is reported per token by name ({@link TimestampProblem}).
 *
 * @example
 * ```ts
 * const r = await checkCommitmentTime({ tokens, digest: CID.parse(cid).multihash.digest, deadline: block.timestamp, anchors: DEFAULT_TIMESTAMP_AUTHORITIES })
 * if (r.status !== 'ok') console.log(r.detail)
 * ```
 * @category Verify
 */
export async function checkCommitmentTime(input: CommitmentTimeInput): Promise<CommitmentTimeResult> {
  const { tokens, digest: wanted, deadline, anchors } = input
  const names = input.names ?? { stamped: 'this commitment', deadline: 'the target block' }
  if (!(wanted instanceof Uint8Array) || wanted.length !== 32) return verdict('failed', 'the commitment digest must be 32 bytes (SHA-256)', [])
  if (!Number.isSafeInteger(deadline) || deadline < 0) return verdict('failed', `the deadline must be a non-negative integer of unix seconds, not ${String(deadline)}`, [])
  if (!Array.isArray(tokens) || tokens.length === 0) return verdict('failed', 'the commitment carries no time-stamp token', [])
  if (tokens.length > LIMITS.maxTimestampTokens) return verdict('failed', `${tokens.length} time-stamp tokens, over the limit maxTimestampTokens = ${LIMITS.maxTimestampTokens}`, [])
  const parsedAnchors: Anchor[] = []
  for (const [i, a] of anchors.entries()) {
    try {
      parsedAnchors.push({ name: a.name, cert: parseCertificate(a.der, `anchor[${i}]`) })
    } catch {
      return verdict('failed', `trust anchor ${i} (${a.name}) is not a readable certificate`, [])
    }
  }
  const results: TimestampTokenResult[] = []
  for (const [index, bytes] of tokens.entries()) results.push(await checkToken(index, bytes, wanted, deadline, parsedAnchors, names))
  const good = results.filter((r) => r.ok).sort((a, b) => a.time!.localeCompare(b.time!))
  const others = results.filter((r) => !r.ok).map((r) => `token ${r.index}: ${r.problem}`)
  const tail = others.length === 0 ? '' : `; ${others.length} other token(s) rejected (${others.join(', ')})`
  if (good.length > 0) {
    const first = good[0]!
    return { status: 'ok', detail: `time-stamped by ${first.authority} at ${first.time}, ${formatSeconds(first.marginSeconds!)} before ${names.deadline}${tail}`, time: first.time, tokens: results }
  }
  const unchecked = results.filter((r) => r.status === 'uncheckable')
  if (unchecked.length > 0) return verdict('uncheckable', `the time-stamp tokens could not be checked here: ${unchecked[0]!.detail}`, results)
  return verdict('failed', `no valid time-stamp token: ${results.map((r) => `token ${r.index}: ${r.detail}`).join('; ')}`, results)
}

function verdict(status: CommitmentTimeResult['status'], detail: string, tokens: TimestampTokenResult[]): CommitmentTimeResult {
  return { status, detail, time: null, tokens }
}

function formatSeconds(s: number): string {
  return `${Number.isInteger(s) ? s : s.toFixed(3)} s`
}

async function checkToken(index: number, bytes: Uint8Array, wanted: Uint8Array, deadline: number, anchors: readonly Anchor[], names: { readonly stamped: string; readonly deadline: string }): Promise<TimestampTokenResult> {
  let authority: string | null = null
  let time: string | null = null
  let accuracySeconds: number | null = null
  let marginSeconds: number | null = null
  const done = (problem: TimestampProblem | null, detail: string): TimestampTokenResult => ({
    index,
    ok: problem === null,
    status: problem === null ? 'ok' : problem === 'TIMESTAMP_UNCHECKABLE' ? 'uncheckable' : 'failed',
    authority,
    time,
    accuracySeconds,
    marginSeconds,
    problem,
    detail,
  })
  try {
    if (!(bytes instanceof Uint8Array)) throw new Fail('TIMESTAMP_TOKEN_MALFORMED', 'the token is not a byte array')
    let token: ParsedToken
    try {
      token = parseTimestampToken(bytes)
    } catch (e) {
      if (e instanceof TokenProblem) throw new Fail(e.problem, e.detail)
      throw e
    }
    const { tstInfo, signer } = token
    time = new Date(tstInfo.genTime).toISOString()
    accuracySeconds = tstInfo.accuracyMicros / 1e6
    // The latest instant the token allows, in microseconds (a truncated sub-millisecond genTime rounds up).
    const latestMicros = tstInfo.genTime * 1000 + (tstInfo.subMillisecond ? 1000 : 0) + tstInfo.accuracyMicros
    marginSeconds = (deadline * 1_000_000 - latestMicros) / 1e6
    const signerCert = findSigner(token)
    if (signerCert !== undefined) authority = signerCert.name

    // 1. What is stamped, and when.
    if (tstInfo.imprintAlgorithm !== OID.sha256) throw new Fail('TIMESTAMP_ALGORITHM_REFUSED', `the imprint is hashed with ${HASHES[tstInfo.imprintAlgorithm] ?? refusedHashName(tstInfo.imprintAlgorithm)}; only SHA-256 (the commitment CID's hash) is accepted`)
    if (!bytesEqual(tstInfo.imprint, wanted)) throw new Fail('TIMESTAMP_IMPRINT_MISMATCH', `the token stamps other data, not ${names.stamped} (message imprint differs from its digest)`)
    if (latestMicros >= deadline * 1_000_000) throw new Fail('TIMESTAMP_LATE', `genTime ${time} + accuracy ${accuracySeconds} s is not before ${names.deadline} (${new Date(deadline * 1000).toISOString()}) (margin ${formatSeconds(marginSeconds)})`)
    // 2. The CMS envelope.
    const digestName = HASHES[signer.digestAlgorithm]
    if (digestName === undefined) throw new Fail('TIMESTAMP_ALGORITHM_REFUSED', `the SignerInfo digest algorithm is ${refusedHashName(signer.digestAlgorithm)}; SHA-256, SHA-384 or SHA-512 is required`)
    if (signer.contentType !== OID.tstInfo) throw new Fail('TIMESTAMP_NOT_TSTINFO', `the content-type attribute is ${signer.contentType}, not id-ct-TSTInfo`)
    const schemeProblem = signatureSchemeProblem(signer.signatureAlgorithm, digestName)
    if (schemeProblem !== undefined) throw new Fail('TIMESTAMP_ALGORITHM_REFUSED', `the token is signed with ${schemeProblem}, which is refused or not supported`)
    if (!bytesEqual(signer.messageDigest, digest(digestName, tstInfo.der))) throw new Fail('TIMESTAMP_MESSAGE_DIGEST_MISMATCH', 'the message-digest attribute does not match the TSTInfo (the time-stamp content was altered)')
    // 3. The signer certificate.
    if (signerCert === undefined) throw new Fail('TIMESTAMP_SIGNER_CERT_MISSING', 'the token does not carry its signer\'s certificate (request tokens with certReq true)')
    const certId = signer.certId
    if (certId === undefined) throw new Fail('TIMESTAMP_SIGNER_CERT_ID_MISMATCH', 'the signed attributes lack signing-certificate (ESSCertID or ESSCertIDv2)')
    if (certId.hash !== 'SHA-1' && certId.hash !== 'SHA-256' && certId.hash !== 'SHA-384' && certId.hash !== 'SHA-512') throw new Fail('TIMESTAMP_ALGORITHM_REFUSED', `the signing-certificate attribute uses ${certId.hash}`)
    if (!bytesEqual(certId.certHash, digest(certId.hash, signerCert.der))) throw new Fail('TIMESTAMP_SIGNER_CERT_ID_MISMATCH', `the signing-certificate attribute names another certificate than the signer's (${signerCert.name})`)
    const eku = signerCert.extKeyUsage
    if (eku === undefined || !eku.critical || eku.usages.length !== 1 || eku.usages[0] !== OID.timeStamping) {
      const what = eku === undefined ? 'has no extended key usage' : !eku.critical ? 'has a non-critical extended key usage' : `has extended key usage ${eku.usages.join(', ')}`
      throw new Fail('TIMESTAMP_NOT_TIMESTAMPING_CERT', `the signer certificate ${signerCert.name} ${what}; RFC 3161 requires a critical id-kp-timeStamping and nothing else`)
    }
    if (signerCert.keyUsage !== undefined && !signerCert.keyUsage.has(0) && !signerCert.keyUsage.has(1)) throw new Fail('TIMESTAMP_NOT_TIMESTAMPING_CERT', `the signer certificate ${signerCert.name} has a key usage without digitalSignature or nonRepudiation`)
    usable(signerCert, tstInfo.genTime, time)
    // 4. Cryptography: the token's signature, then the chain.
    const sig = await verifySignature(signer.signatureAlgorithm, signerCert.spki, signer.signedAttrs, signer.signature, digestName)
    judge(sig, `the token's signature does not verify with ${signerCert.name}'s key`)
    await chain(signerCert, token.certificates, anchors, tstInfo.genTime, time)
    return done(null, `time-stamped by ${authority} at ${time} (accuracy ${accuracySeconds} s), ${formatSeconds(marginSeconds)} before ${names.deadline}`)
  } catch (e) {
    if (e instanceof Fail) return done(e.problem, e.detail)
    return done('TIMESTAMP_TOKEN_MALFORMED', `the token could not be read: ${e instanceof Error ? e.message : String(e)}`)
  }
}

function findSigner(token: ParsedToken): ParsedCertificate | undefined {
  const sid = token.signer.sid
  return token.certificates.find((c) => ('subjectKeyId' in sid ? c.subjectKeyId !== undefined && bytesEqual(c.subjectKeyId, sid.subjectKeyId) : c.serial === sid.serial && bytesEqual(c.issuer, sid.issuer)))
}

/** Validity at genTime (inclusive bounds) and no unknown critical extension. */
function usable(cert: ParsedCertificate, genTime: number, time: string): void {
  if (genTime < cert.notBefore || genTime > cert.notAfter) {
    throw new Fail('TIMESTAMP_CERT_NOT_VALID_AT_GENTIME', `certificate ${cert.name} is valid from ${new Date(cert.notBefore).toISOString()} to ${new Date(cert.notAfter).toISOString()}, not at genTime ${time}`)
  }
  if (cert.unknownCritical.length > 0) throw new Fail('TIMESTAMP_CERT_UNUSABLE', `certificate ${cert.name} has critical extension(s) this verifier does not understand: ${cert.unknownCritical.join(', ')}`)
}

function judge(sig: SignatureOutcome, invalid: string): void {
  if (sig.kind === 'valid') return
  if (sig.kind === 'invalid') throw new Fail('TIMESTAMP_BAD_SIGNATURE', invalid)
  if (sig.kind === 'unsupported') throw new Fail('TIMESTAMP_ALGORITHM_REFUSED', `${sig.what} is refused or not supported`)
  throw new Fail('TIMESTAMP_UNCHECKABLE', sig.what)
}

/**
 * Finds a path from `leaf` to a trust anchor through the token's certificates, checking each
 * signature, each issuer's CA status and validity at genTime. Depth-first, bounded by
 * `maxTimestampChainDepth`; throws the most telling failure when no path exists.
 */
async function chain(leaf: ParsedCertificate, pool: readonly ParsedCertificate[], anchors: readonly Anchor[], genTime: number, time: string): Promise<void> {
  let best: Fail | undefined
  const note = (f: Fail): void => {
    // Prefer an uncheckable host over any failure, then a concrete failure over "no path".
    const rank = (p: TimestampProblem): number => (p === 'TIMESTAMP_UNCHECKABLE' ? 3 : p === 'TIMESTAMP_UNTRUSTED' ? 1 : 2)
    if (best === undefined || rank(f.problem) > rank(best.problem)) best = f
  }
  const walk = async (cert: ParsedCertificate, depth: number, path: readonly ParsedCertificate[]): Promise<boolean> => {
    if (anchors.some((a) => bytesEqual(a.cert.der, cert.der))) return true
    for (const anchor of anchors) {
      if (!bytesEqual(anchor.cert.subject, cert.issuer)) continue
      try {
        usable(anchor.cert, genTime, time)
        judge(await verifySignature(cert.signatureAlgorithm, anchor.cert.spki, cert.tbs, cert.signature), '')
        return true
      } catch (e) {
        if (!(e instanceof Fail)) throw e
        // Same name, other key: an impostor root, not the trusted one.
        note(e.problem === 'TIMESTAMP_BAD_SIGNATURE' ? new Fail('TIMESTAMP_UNTRUSTED', `certificate ${cert.name} names the trusted root ${anchor.name} as issuer but is not signed by its key`) : e)
      }
    }
    if (depth >= LIMITS.maxTimestampChainDepth) {
      note(new Fail('TIMESTAMP_UNTRUSTED', `the certificate chain is longer than maxTimestampChainDepth = ${LIMITS.maxTimestampChainDepth}`))
      return false
    }
    for (const issuer of pool) {
      if (!bytesEqual(issuer.subject, cert.issuer) || path.includes(issuer)) continue
      try {
        usable(issuer, genTime, time)
        if (!issuer.isCA || (issuer.keyUsage !== undefined && !issuer.keyUsage.has(5))) throw new Fail('TIMESTAMP_CERT_UNUSABLE', `certificate ${issuer.name} is not a CA certificate allowed to sign certificates`)
        judge(await verifySignature(cert.signatureAlgorithm, issuer.spki, cert.tbs, cert.signature), `certificate ${cert.name} is not signed by ${issuer.name}`)
      } catch (e) {
        if (e instanceof Fail) {
          note(e)
          continue
        }
        throw e
      }
      if (await walk(issuer, depth + 1, [...path, issuer])) return true
    }
    return false
  }
  if (await walk(leaf, 1, [leaf])) return
  if (best !== undefined) throw best
  const top = topOf(leaf, pool)
  throw new Fail('TIMESTAMP_UNTRUSTED', `the signer's chain ends at ${top}, which is not a trusted time-stamping root (add its root with trust.timestampAuthorities / --trust-tsa)`)
}

function topOf(leaf: ParsedCertificate, pool: readonly ParsedCertificate[]): string {
  let cert = leaf
  for (let i = 0; i < LIMITS.maxTimestampChainDepth; i++) {
    const up = pool.find((c) => c !== cert && bytesEqual(c.subject, cert.issuer))
    if (up === undefined) return bytesEqual(cert.subject, cert.issuer) ? `"${cert.name}"` : `"${cert.issuerName}" (issuer of "${cert.name}", not carried in the token)`
    cert = up
  }
  return `"${cert.name}"`
}
