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
import { signatureSchemeProblem, verifySignature } from './signature.js'
import { parseTimestampToken, TokenProblem, type ParsedToken } from './token.js'
import type { TimestampTrustAnchor } from './anchor.js'
import { Fail, findChain, judge, refuseDuplicates, signatureCost, usable, type Anchor, type SignatureCheck, type TimeWindow } from './chain.js'

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

/**
 * Checks the time-stamp tokens of a commitment: each token's CMS signature, its signer certificate
 * (critical EKU id-kp-timeStamping only, key usage, ESSCertID), the certificate chain up to one of
 * `anchors` with every certificate valid at genTime, the imprint (SHA-256, equal to `digest`), and
 * genTime + accuracy strictly before `deadline`. Passes when at least one token is fully valid.
 *
 * Never throws: every problem is reported per token by name ({@link TimestampProblem}). The work is
 * bounded by the tokens' own bytes: each token's signature checks are counted before any is made (at
 * most `LIMITS.maxTimestampSignatureChecksPerToken`), the tokens are checked cheapest first within
 * `LIMITS.maxTimestampSignatureChecksPerProof` for the call, and each reports the checks it made
 * (`signatureChecks`); over a bound: `TIMESTAMP_LIMIT_EXCEEDED`.
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
      const from = a.validFrom === undefined ? undefined : Date.parse(a.validFrom) * 1000
      const until = a.validUntil === undefined ? undefined : Date.parse(a.validUntil) * 1000
      if (Number.isNaN(from) || Number.isNaN(until)) return verdict('failed', `trust anchor ${i} (${a.name}) has an unreadable validity window`, [])
      parsedAnchors.push({ name: a.name, cert: parseCertificate(a.der, `anchor[${i}]`), ...(from === undefined ? {} : { fromMicros: from }), ...(until === undefined ? {} : { untilMicros: until }) })
    } catch {
      return verdict('failed', `trust anchor ${i} (${a.name}) is not a readable certificate`, [])
    }
  }
  // Every token's cheap steps first; then the signature checks, cheapest token first (ties in proof
  // order), each charged its whole cost against the proof's budget: a token needing at most
  // maxTimestampSignatureChecksPerProof / maxTimestampTokens checks is checked whatever else the proof carries.
  const judged = tokens.map((bytes, index) => prepareToken(index, bytes, wanted, deadline, parsedAnchors, names))
  const pending = judged.filter((j): j is Pending => 'cost' in j).sort((a, b) => a.cost - b.cost || a.index - b.index)
  // A slot per token: filled now for tokens that failed a cheap step, below for every pending one.
  const results: TimestampTokenResult[] = judged.map((j) => ('result' in j ? j.result : undefined)) as TimestampTokenResult[]
  let left = LIMITS.maxTimestampSignatureChecksPerProof
  for (const p of pending) {
    if (p.cost > left) {
      results[p.index] = p.refuse('TIMESTAMP_LIMIT_EXCEEDED', `the token would need up to ${p.cost} signature checks and the proof's cheaper tokens left ${left} of maxTimestampSignatureChecksPerProof = ${LIMITS.maxTimestampSignatureChecksPerProof}`)
      continue
    }
    left -= p.cost
    results[p.index] = await p.check()
  }
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

/** A token that passed its cheap steps: its counted signature cost, and the rest of its check. */
interface Pending {
  readonly index: number
  readonly cost: number
  /** Checks its signature and chain (at most `cost` signature checks). */
  readonly check: () => Promise<TimestampTokenResult>
  /** Its result when it is not checked. */
  readonly refuse: (problem: TimestampProblem, detail: string) => TimestampTokenResult
}

/** The steps of one token up to its signature cost (no signature checked), in the documented order. */
function prepareToken(index: number, bytes: Uint8Array, wanted: Uint8Array, deadline: number, allAnchors: readonly Anchor[], names: { readonly stamped: string; readonly deadline: string }): { readonly result: TimestampTokenResult } | Pending {
  let authority: string | null = null
  let time: string | null = null
  let accuracySeconds: number | null = null
  let marginSeconds: number | null = null
  let signatureChecks = 0
  const done = (problem: TimestampProblem | null, detail: string): TimestampTokenResult => ({
    index,
    ok: problem === null,
    status: problem === null ? 'ok' : problem === 'TIMESTAMP_UNCHECKABLE' ? 'uncheckable' : 'failed',
    authority,
    time,
    accuracySeconds,
    marginSeconds,
    signatureChecks,
    problem,
    detail,
  })
  const failed = (e: unknown): TimestampTokenResult => {
    if (e instanceof Fail) return done(e.problem, e.detail)
    return done('TIMESTAMP_TOKEN_MALFORMED', `the token could not be read: ${e instanceof Error ? e.message : String(e)}`)
  }
  const counted: SignatureCheck = (alg, spki, data, signature) => {
    signatureChecks++
    return verifySignature(alg, spki, data, signature)
  }
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
    // genTime in microseconds, rounded down and (a sub-millisecond genTime) up to the millisecond.
    const genLow = tstInfo.genTime * 1000
    const genHigh = genLow + (tstInfo.subMillisecond ? 1000 : 0)
    // The latest instant the token allows, and the interval every certificate must be valid over.
    const latestMicros = genHigh + tstInfo.accuracyMicros
    const window: TimeWindow = { lowMicros: genLow - tstInfo.accuracyMicros, highMicros: latestMicros }
    // An authority's roots vouch only for tokens inside its validity window (createTrust's validFrom, validUntil).
    const anchors = allAnchors.filter((a) => (a.fromMicros === undefined || window.lowMicros >= a.fromMicros) && (a.untilMicros === undefined || window.highMicros <= a.untilMicros))
    const margin = (deadline * 1_000_000 - latestMicros) / 1e6
    marginSeconds = margin
    const signerCert = findSigner(token)
    if (signerCert !== undefined) authority = signerCert.name
    refuseDuplicates(token.certificates)

    // 1. What is stamped, and when.
    if (tstInfo.imprintAlgorithm !== OID.sha256) throw new Fail('TIMESTAMP_ALGORITHM_REFUSED', `the imprint is hashed with ${HASHES[tstInfo.imprintAlgorithm] ?? refusedHashName(tstInfo.imprintAlgorithm)}; only SHA-256 (the commitment CID's hash) is accepted`)
    if (!bytesEqual(tstInfo.imprint, wanted)) throw new Fail('TIMESTAMP_IMPRINT_MISMATCH', `the token stamps other data, not ${names.stamped} (message imprint differs from its digest)`)
    if (latestMicros >= deadline * 1_000_000) throw new Fail('TIMESTAMP_LATE', `genTime ${time} + accuracy ${accuracySeconds} s is not before ${names.deadline} (${new Date(deadline * 1000).toISOString()}) (margin ${formatSeconds(marginSeconds)})`)
    // 2. The CMS envelope.
    const digestName = HASHES[signer.digestAlgorithm]
    if (digestName === undefined) throw new Fail('TIMESTAMP_ALGORITHM_REFUSED', `the SignerInfo digest algorithm is ${refusedHashName(signer.digestAlgorithm)}; SHA-256, SHA-384 or SHA-512 is required`)
    if (signer.contentTypeProblem !== undefined) throw new Fail('TIMESTAMP_CONTENT_TYPE_MISMATCH', signer.contentTypeProblem === 'missing' ? 'the signed attributes lack content-type' : 'the content-type attribute appears twice or with more than one value')
    if (signer.contentType !== OID.tstInfo) throw new Fail('TIMESTAMP_CONTENT_TYPE_MISMATCH', `the content-type attribute is ${signer.contentType}, not id-ct-TSTInfo`)
    const schemeProblem = signatureSchemeProblem(signer.signatureAlgorithm, digestName)
    if (schemeProblem !== undefined) throw new Fail('TIMESTAMP_ALGORITHM_REFUSED', `the token is signed with ${schemeProblem}, which is refused or not supported`)
    if (!bytesEqual(signer.messageDigest, digest(digestName, tstInfo.der))) throw new Fail('TIMESTAMP_MESSAGE_DIGEST_MISMATCH', 'the message-digest attribute does not match the TSTInfo (the time-stamp content was altered)')
    // 3. The signer certificate.
    if (signerCert === undefined) throw new Fail('TIMESTAMP_SIGNER_CERT_MISSING', 'the token does not carry its signer\'s certificate (request tokens with certReq true)')
    if (signer.certIdProblem === 'missing') throw new Fail('TIMESTAMP_SIGNER_CERT_ID_MISSING', 'the signed attributes lack signing-certificate (ESSCertID) and signing-certificate-v2 (ESSCertIDv2)')
    if (signer.certIdProblem === 'doubled') throw new Fail('TIMESTAMP_SIGNER_CERT_ID_DUPLICATE', 'a signing-certificate attribute appears twice or with more than one value')
    for (const certId of signer.certIds) {
      if (certId.hash !== 'SHA-1' && certId.hash !== 'SHA-256' && certId.hash !== 'SHA-384' && certId.hash !== 'SHA-512') throw new Fail('TIMESTAMP_ALGORITHM_REFUSED', `the signing-certificate attribute uses ${certId.hash}`)
      if (!bytesEqual(certId.certHash, digest(certId.hash, signerCert.der))) throw new Fail('TIMESTAMP_SIGNER_CERT_ID_MISMATCH', `the signing-certificate attribute names another certificate than the signer's (${signerCert.name})`)
    }
    const eku = signerCert.extKeyUsage
    if (eku === undefined || !eku.critical || eku.usages.length !== 1 || eku.usages[0] !== OID.timeStamping) {
      const what = eku === undefined ? 'has no extended key usage' : !eku.critical ? 'has a non-critical extended key usage' : `has extended key usage ${eku.usages.join(', ')}`
      throw new Fail('TIMESTAMP_NOT_TIMESTAMPING_CERT', `the signer certificate ${signerCert.name} ${what}; RFC 3161 requires a critical id-kp-timeStamping and nothing else`)
    }
    if (signerCert.keyUsage !== undefined && !signerCert.keyUsage.has(0) && !signerCert.keyUsage.has(1)) throw new Fail('TIMESTAMP_NOT_TIMESTAMPING_CERT', `the signer certificate ${signerCert.name} has a key usage without digitalSignature or nonRepudiation`)
    usable(signerCert, window)
    // 4. The work bound, counted from the token's bytes before any signature is checked.
    const cost = signatureCost(signerCert, token.certificates, anchors)
    if (cost > LIMITS.maxTimestampSignatureChecksPerToken) throw new Fail('TIMESTAMP_LIMIT_EXCEEDED', `the token would need up to ${cost} signature checks, over the limit maxTimestampSignatureChecksPerToken = ${LIMITS.maxTimestampSignatureChecksPerToken} (its certificates share issuer names)`)
    // 5. Cryptography: the token's signature, then the chain (run by the caller, within the proof's budget).
    const check = async (): Promise<TimestampTokenResult> => {
      try {
        signatureChecks++
        const sig = await verifySignature(signer.signatureAlgorithm, signerCert.spki, signer.signedAttrs, signer.signature, digestName)
        judge(sig, `the token's signature does not verify with ${signerCert.name}'s key`)
        await findChain(signerCert, token.certificates, anchors, window, counted)
        return done(null, `time-stamped by ${authority} at ${time} (accuracy ${accuracySeconds} s), ${formatSeconds(margin)} before ${names.deadline}`)
      } catch (e) {
        return failed(e)
      }
    }
    return { index, cost, check, refuse: done }
  } catch (e) {
    return { result: failed(e) }
  }
}

function findSigner(token: ParsedToken): ParsedCertificate | undefined {
  const sid = token.signer.sid
  return token.certificates.find((c) => ('subjectKeyId' in sid ? c.subjectKeyId !== undefined && bytesEqual(c.subjectKeyId, sid.subjectKeyId) : c.serial === sid.serial && bytesEqual(c.issuer, sid.issuer)))
}
