/**
 * Parses an RFC 3161 TimeStampToken: a CMS (RFC 5652) ContentInfo holding SignedData whose
 * encapsulated content is a TSTInfo. Structure only; {@link checkToken} in `check.ts` judges it.
 *
 * @module
 */
import { LIMITS } from '../limits.js'
import { parseCertificateNode, type ParsedCertificate } from './certificate.js'
import { algorithm, boolean, decodeDer, DerError, integer, isContext, octets, oid, sequence, set, smallInteger, time, TAG, type Der } from './der.js'
import { HASHES, OID, refusedHashName, type HashName } from './oids.js'
import type { TimestampProblem } from './result.js'

/**
 * A problem found while parsing a token, with its stable name.
 * @category Time-stamping
 */
export class TokenProblem extends Error {
  constructor(readonly problem: TimestampProblem, readonly detail: string) {
    super(detail)
    this.name = 'TokenProblem'
  }
}

/**
 * The signed time-stamp content (RFC 3161 2.4.2).
 * @category Time-stamping
 */
export interface TstInfo {
  /** The TSTInfo DER (the eContent octets the signature covers). */
  readonly der: Uint8Array
  readonly policy: string
  /** Message imprint hash algorithm OID and the hashed message. */
  readonly imprintAlgorithm: string
  readonly imprint: Uint8Array
  readonly serial: bigint
  /** genTime, unix milliseconds (truncated; `subMillisecond` says if finer digits were dropped). */
  readonly genTime: number
  readonly subMillisecond: boolean
  /** accuracy in microseconds (0 when absent). */
  readonly accuracyMicros: number
  readonly nonce: bigint | undefined
}

/**
 * ESSCertID / ESSCertIDv2 (RFC 2634, RFC 5035): which certificate signed.
 * @category Time-stamping
 */
export interface SignerCertId {
  /** `SHA-1` for ESSCertID, else the ESSCertIDv2 hash (an OID string when not accepted). */
  readonly hash: HashName | 'SHA-1' | string
  readonly certHash: Uint8Array
}

/**
 * The single SignerInfo of a token.
 * @category Time-stamping
 */
export interface TokenSigner {
  readonly sid: { readonly issuer: Uint8Array; readonly serial: bigint } | { readonly subjectKeyId: Uint8Array }
  readonly digestAlgorithm: string
  /** DER of the signed attributes with the SET OF tag, as signed (RFC 5652 5.4). */
  readonly signedAttrs: Uint8Array
  /** The content-type attribute's value, when it is present once with one value (see {@link contentTypeProblem}). */
  readonly contentType: string | undefined
  /** `missing`: no content-type attribute; `doubled`: present twice, or with more than one value. */
  readonly contentTypeProblem: 'missing' | 'doubled' | undefined
  readonly messageDigest: Uint8Array
  /** The first ESSCertID of SigningCertificateV2 (preferred) or SigningCertificate. */
  readonly certId: SignerCertId | undefined
  /** The first ESSCertID of every signing-certificate attribute present: SigningCertificateV2's, then SigningCertificate's. */
  readonly certIds: readonly SignerCertId[]
  /** `missing`: neither attribute; `doubled`: one of them twice, or with more than one value. */
  readonly certIdProblem: 'missing' | 'doubled' | undefined
  readonly signatureAlgorithm: { readonly oid: string; readonly params: Der | undefined }
  readonly signature: Uint8Array
}

/**
 * A parsed token.
 * @category Time-stamping
 */
export interface ParsedToken {
  readonly tstInfo: TstInfo
  readonly certificates: readonly ParsedCertificate[]
  readonly signer: TokenSigner
}

/**
 * Parses a DER TimeStampToken; throws {@link TokenProblem}.
 * @category Time-stamping
 */
export function parseTimestampToken(bytes: Uint8Array): ParsedToken {
  if (bytes.length > LIMITS.maxTimestampTokenBytes) throw new TokenProblem('TIMESTAMP_TOKEN_OVERSIZE', `the token is ${bytes.length} bytes, over the limit maxTimestampTokenBytes = ${LIMITS.maxTimestampTokenBytes}`)
  try {
    return parse(bytes)
  } catch (e) {
    if (e instanceof TokenProblem) throw e
    if (e instanceof DerError) throw new TokenProblem('TIMESTAMP_TOKEN_MALFORMED', `not a well-formed time-stamp token: ${e.message}`)
    throw new TokenProblem('TIMESTAMP_TOKEN_MALFORMED', `not a well-formed time-stamp token: ${e instanceof Error ? e.message : String(e)}`)
  }
}

function parse(bytes: Uint8Array): ParsedToken {
  const root = decodeDer(bytes, 'token')
  const [typeNode, contentNode, ...rest] = sequence(root, 'token', 'ContentInfo')
  if (rest.length > 0) throw new DerError('token', 'ContentInfo has extra fields')
  const type = oid(typeNode, 'token.contentType', 'contentType')
  if (type !== OID.signedData) throw new TokenProblem('TIMESTAMP_NOT_TSTINFO', `the token's content type is ${type}, not SignedData (${OID.signedData})`)
  if (!isContext(contentNode, 0) || contentNode.children.length !== 1) throw new DerError('token.content', 'expected [0] EXPLICIT SignedData')
  const sd = sequence(contentNode.children[0], 'token.signedData', 'SignedData')
  let i = 0
  integer(sd[i++], 'token.signedData.version', 'version')
  set(sd[i++], 'token.signedData.digestAlgorithms', 'digestAlgorithms')
  const [eTypeNode, eContentNode, ...eRest] = sequence(sd[i++], 'token.signedData.encapContentInfo', 'EncapsulatedContentInfo')
  if (eRest.length > 0) throw new DerError('token.signedData.encapContentInfo', 'extra fields')
  const eType = oid(eTypeNode, 'token.signedData.encapContentInfo.eContentType', 'eContentType')
  if (eType !== OID.tstInfo) throw new TokenProblem('TIMESTAMP_NOT_TSTINFO', `the signed content type is ${eType}, not id-ct-TSTInfo (${OID.tstInfo})`)
  if (!isContext(eContentNode, 0) || eContentNode.children.length !== 1) throw new TokenProblem('TIMESTAMP_TOKEN_MALFORMED', 'the token carries no TSTInfo (detached content)')
  const tstDer = octets(eContentNode.children[0], 'token.signedData.encapContentInfo.eContent', 'eContent')
  const certificates: ParsedCertificate[] = []
  if (isContext(sd[i], 0)) {
    const certNodes = sd[i++]!.children
    if (certNodes.length > LIMITS.maxTimestampCerts) throw new TokenProblem('TIMESTAMP_TOKEN_OVERSIZE', `the token carries ${certNodes.length} certificates, over the limit maxTimestampCerts = ${LIMITS.maxTimestampCerts}`)
    certNodes.forEach((n, k) => {
      // CertificateChoices: only the plain Certificate (a SEQUENCE) is used; other choices are skipped.
      if (n.cls === 'universal' && n.tag === TAG.SEQUENCE) certificates.push(parseCertificateNode(n, `token.certificates[${k}]`))
    })
  }
  if (isContext(sd[i], 1)) i++ // crls: not used (no revocation checking offline)
  const signerInfos = set(sd[i++], 'token.signedData.signerInfos', 'signerInfos')
  if (i !== sd.length) throw new DerError('token.signedData', 'SignedData has extra fields')
  if (signerInfos.length !== 1) throw new TokenProblem('TIMESTAMP_TOKEN_MALFORMED', `a time-stamp token has exactly one SignerInfo; this one has ${signerInfos.length}`)
  return { tstInfo: parseTstInfo(tstDer), certificates, signer: parseSigner(signerInfos[0]!) }
}

function parseTstInfo(der: Uint8Array): TstInfo {
  const w = 'token.tstInfo'
  const f = sequence(decodeDer(der, w), w, 'TSTInfo')
  let i = 0
  const version = integer(f[i++], `${w}.version`, 'version')
  if (version !== 1n) throw new DerError(`${w}.version`, `TSTInfo version ${version} (only 1 exists)`)
  const policy = oid(f[i++], `${w}.policy`, 'policy')
  const [algNode, hashedNode, ...mRest] = sequence(f[i++], `${w}.messageImprint`, 'MessageImprint')
  if (mRest.length > 0) throw new DerError(`${w}.messageImprint`, 'extra fields')
  const imprintAlgorithm = algorithm(algNode, `${w}.messageImprint.hashAlgorithm`, 'hashAlgorithm').oid
  const imprint = octets(hashedNode, `${w}.messageImprint.hashedMessage`, 'hashedMessage')
  const serial = integer(f[i++], `${w}.serialNumber`, 'serialNumber')
  const gen = time(f[i++], `${w}.genTime`, 'genTime', true)
  let accuracyMicros = 0
  if (f[i]?.cls === 'universal' && f[i]?.tag === TAG.SEQUENCE) {
    let seconds = 0
    let millis = 0
    let micros = 0
    for (const a of f[i++]!.children) {
      if (a.cls === 'universal' && a.tag === TAG.INTEGER) seconds = smallInteger(a, `${w}.accuracy.seconds`, 'accuracy seconds', 1_000_000_000)
      else if (isContext(a, 0)) millis = smallInteger(a, `${w}.accuracy.millis`, 'accuracy millis', 999, true)
      else if (isContext(a, 1)) micros = smallInteger(a, `${w}.accuracy.micros`, 'accuracy micros', 999, true)
      else throw new DerError(a.where, 'unexpected field in Accuracy')
    }
    accuracyMicros = seconds * 1_000_000 + millis * 1000 + micros
  }
  if (f[i]?.cls === 'universal' && f[i]?.tag === TAG.BOOLEAN) boolean(f[i++], `${w}.ordering`, 'ordering')
  let nonce: bigint | undefined
  if (f[i]?.cls === 'universal' && f[i]?.tag === TAG.INTEGER) nonce = integer(f[i++], `${w}.nonce`, 'nonce')
  if (isContext(f[i], 0)) i++ // tsa GeneralName: informative only
  if (isContext(f[i], 1)) i++ // extensions
  if (i !== f.length) throw new DerError(w, 'TSTInfo has unexpected fields')
  return { der, policy, imprintAlgorithm, imprint, serial, genTime: gen.ms, subMillisecond: gen.subMillisecond, accuracyMicros, nonce }
}

function parseSigner(node: Der): TokenSigner {
  const w = 'token.signerInfo'
  const f = sequence(node, w, 'SignerInfo')
  let i = 0
  integer(f[i++], `${w}.version`, 'version')
  const sidNode = f[i++]
  let sid: TokenSigner['sid']
  if (isContext(sidNode, 0)) {
    if (sidNode.constructed) throw new DerError(sidNode.where, 'subjectKeyIdentifier must be primitive')
    sid = { subjectKeyId: sidNode.content }
  } else {
    const [issuer, serial] = sequence(sidNode, `${w}.sid`, 'IssuerAndSerialNumber')
    sequence(issuer, `${w}.sid.issuer`, 'issuer')
    sid = { issuer: issuer!.raw, serial: integer(serial, `${w}.sid.serialNumber`, 'serialNumber') }
  }
  const digestAlgorithm = algorithm(f[i++], `${w}.digestAlgorithm`, 'digestAlgorithm').oid
  const attrsNode = f[i]
  if (!isContext(attrsNode, 0) || !attrsNode.constructed) throw new TokenProblem('TIMESTAMP_TOKEN_MALFORMED', 'the SignerInfo has no signed attributes (a time-stamp token must carry them)')
  i++
  const signedAttrs = attrsNode.raw.slice()
  signedAttrs[0] = 0x31 // signed as an explicit SET OF (RFC 5652 5.4)
  const seen = new Set<string>()
  let contentType: string | undefined
  let contentTypeProblem: TokenSigner['contentTypeProblem'] = 'missing'
  let certIdProblem: TokenSigner['certIdProblem'] = 'missing'
  let messageDigest: Uint8Array | undefined
  let v1: SignerCertId | undefined
  let v2: SignerCertId | undefined
  for (const [k, attr] of attrsNode.children.entries()) {
    const aw = `${w}.signedAttrs[${k}]`
    const [typeNode, valuesNode] = sequence(attr, aw, 'Attribute')
    const type = oid(typeNode, aw, 'attrType')
    const values = set(valuesNode, aw, 'attrValues')
    // content-type and the signing-certificate attributes twice (or with two values) have their own
    // problems, judged at their step (docs/timestamps.md); any other attribute twice is malformed.
    const isSigningCert = type === OID.signingCertificate || type === OID.signingCertificateV2
    if (type === OID.contentType || isSigningCert) {
      const doubled = seen.has(type) || values.length > 1
      if (type === OID.contentType) contentTypeProblem = doubled ? 'doubled' : undefined
      else if (doubled || certIdProblem !== 'doubled') certIdProblem = doubled ? 'doubled' : undefined
      seen.add(type)
      if (doubled) continue
    } else if (seen.has(type)) throw new DerError(aw, `attribute ${type} appears twice`)
    seen.add(type)
    const single = (): Der => {
      if (values.length !== 1) throw new DerError(aw, `attribute ${type} must have exactly one value`)
      return values[0]!
    }
    if (type === OID.contentType) contentType = oid(single(), aw, 'content-type')
    else if (type === OID.messageDigest) messageDigest = octets(single(), aw, 'message-digest')
    else if (type === OID.signingCertificate) v1 = firstCertId(single(), aw, false)
    else if (type === OID.signingCertificateV2) v2 = firstCertId(single(), aw, true)
  }
  if (contentTypeProblem !== undefined) contentType = undefined
  if (messageDigest === undefined) throw new TokenProblem('TIMESTAMP_TOKEN_MALFORMED', 'the signed attributes lack message-digest')
  const signatureAlgorithm = algorithm(f[i++], `${w}.signatureAlgorithm`, 'signatureAlgorithm')
  const signature = octets(f[i++], `${w}.signature`, 'signature')
  if (isContext(f[i], 1)) i++ // unsignedAttrs
  if (i !== f.length) throw new DerError(w, 'SignerInfo has extra fields')
  const certIds = [v2, v1].filter((c): c is SignerCertId => c !== undefined)
  return { sid, digestAlgorithm, signedAttrs, contentType, contentTypeProblem, messageDigest, certId: certIdProblem === undefined ? certIds[0] : undefined, certIds: certIdProblem === undefined ? certIds : [], certIdProblem, signatureAlgorithm, signature }
}

function firstCertId(value: Der, w: string, v2: boolean): SignerCertId {
  const [certs] = sequence(value, w, v2 ? 'SigningCertificateV2' : 'SigningCertificate')
  const [first] = sequence(certs, w, 'certs')
  const id = sequence(first, w, v2 ? 'ESSCertIDv2' : 'ESSCertID')
  if (!v2) return { hash: 'SHA-1', certHash: octets(id[0], w, 'certHash') }
  let hashOid: string = OID.sha256
  let j = 0
  if (id[0]?.cls === 'universal' && id[0]?.tag === TAG.SEQUENCE) hashOid = algorithm(id[j++], w, 'hashAlgorithm').oid
  return { hash: HASHES[hashOid] ?? refusedHashName(hashOid), certHash: octets(id[j], w, 'certHash') }
}
