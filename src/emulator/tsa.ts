/**
 * An RFC 3161 time-stamping authority for tests and demos: its own root CA and TSA certificate
 * (ECDSA P-256, made at start), `POST /tsa` answering `application/timestamp-query` with
 * `application/timestamp-reply`, and route faults (`tsa`): status, latency, redirect, wrong imprint, bad
 * signature, clock skew, truncated or altered replies. Node only; the ASN.1 is built with the
 * `@peculiar/asn1-*` schema classes, signatures made with `@noble/curves` (RFC 6979, deterministic).
 *
 * @module
 */
import { p256 } from '@noble/curves/nist.js'
import { sha1 } from '@noble/hashes/legacy.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { AsnConvert, OctetString } from '@peculiar/asn1-schema'
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  BasicConstraints,
  Certificate,
  ExtendedKeyUsage,
  Extension,
  Extensions,
  KeyUsage,
  KeyUsageFlags,
  Name,
  RelativeDistinguishedName,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from '@peculiar/asn1-x509'
import { Attribute, CertificateChoices, CertificateSet, ContentInfo, DigestAlgorithmIdentifiers, EncapsulatedContent, EncapsulatedContentInfo, IssuerAndSerialNumber, SignedData, SignerIdentifier, SignerInfo, SignerInfos } from '@peculiar/asn1-cms'
import { Accuracy, MessageImprint, PKIFailureInfo, PKIFailureInfoFlags, PKIFreeText, PKIStatus, PKIStatusInfo, TimeStampReq, TimeStampResp, TSTInfo } from '@peculiar/asn1-tsp'
import * as asn1js from 'asn1js'
import type { ServerResponse } from 'node:http'
import { alterBody, FaultController, type FaultSpec } from './faults.js'
import { readBody, sendJson, untilClosed, type RouteHandler } from './http.js'

const OIDS = {
  ecPublicKey: '1.2.840.10045.2.1',
  p256: '1.2.840.10045.3.1.7',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  sha256: '2.16.840.1.101.3.4.2.1',
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  codeSigning: '1.3.6.1.5.5.7.3.3',
  extKeyUsage: '2.5.29.37',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  commonName: '2.5.4.3',
  organizationName: '2.5.4.10',
} as const

/** The policy OID the emulated authority puts in its tokens (an arc reserved for examples, RFC 7229 style). */
const EMULATOR_TSA_POLICY = '1.3.6.1.4.1.32473.1'

/**
 * How the emulated TSA certificate's extended key usage is set (variants exist to test verifiers).
 * @category Time-stamping
 */
export type TsaKeyUsageVariant = 'time-stamping' | 'none' | 'non-critical' | 'code-signing'

/**
 * Options of {@link createTestTsa}.
 * @category Time-stamping
 */
export interface TestTsaOptions {
  /** Derive the keys from this seed (deterministic certificates and tokens); random keys by default. */
  seed?: Uint8Array
  /** Validity of both certificates, unix ms (default: from 1 day before `now()` to 10 years after). */
  notBefore?: number
  notAfter?: number
  /** The TSA certificate's EKU (default `time-stamping`: critical, id-kp-timeStamping only). */
  extKeyUsage?: TsaKeyUsageVariant
  /** Names (default "orbitdraw emulator TSA root" / "orbitdraw emulator TSA"). */
  rootName?: string
  tsaName?: string
  /** Accuracy stated in tokens, seconds (default 1). */
  accuracySeconds?: number
  /** The root's P-256 secret key (default: from `seed`, else random); tests building hostile certificates under the root's name pass their own. */
  rootKey?: Uint8Array
  /** More extensions of the TSA certificate, by OID, each critical with a DER NULL value (tests of the known critical extensions). */
  tsaCriticalExtensions?: readonly string[]
  /** pathLenConstraint of the root's basicConstraints (default: none). */
  rootPathLen?: number
  /**
   * CA certificates between the root and the TSA certificate, top first: the root signs the first, each
   * signs the next, the last signs the TSA certificate. Tokens carry them after the TSA certificate.
   */
  intermediates?: readonly { readonly name: string; readonly pathLen?: number }[]
  /** The authority's clock, unix ms (default `Date.now`). */
  now?: () => number
}

/**
 * Options of one {@link TestTsa.issue}.
 * @category Time-stamping
 */
export interface IssueOptions {
  /** genTime, unix ms (default the TSA clock; truncated to whole seconds). */
  genTime?: number
  nonce?: bigint
  /** Include the TSA certificate (default true). */
  certReq?: boolean
  /** Corrupt the signature (a verifier must refuse the token). */
  badSignature?: boolean
  /** More certificates (DER) carried after the TSA certificate and the intermediates (tests of chain building). */
  extraCertificates?: readonly Uint8Array[]
  /** Signed-attribute variants a verifier must refuse by name (default: content-type and signing-certificate-v2 once each). */
  signedAttributes?: {
    readonly contentType?: 'missing' | 'wrong' | 'twice'
    readonly signingCertificate?: 'missing' | 'twice' | 'two-values' | 'v1-and-v2' | 'v1-wrong-and-v2'
  }
}

/**
 * A certificate for tests of chain building (see {@link makeTestCertificate}).
 * @category Time-stamping
 */
export interface TestCertificateSpec {
  readonly serial: number
  /** Issuer and subject common names (organization "orbitdraw emulator", as the test authority's). */
  readonly issuer: string
  readonly subject: string
  /** The subject's P-256 public key (uncompressed point). */
  readonly publicKey: Uint8Array
  /** The issuer's P-256 secret key. */
  readonly signingKey: Uint8Array
  /** Validity, unix ms. */
  readonly notBefore: number
  readonly notAfter: number
  /** A CA certificate (basicConstraints cA, keyCertSign) with this pathLenConstraint, `true` for none; else an end-entity time-stamping certificate. */
  readonly ca: boolean | { readonly pathLen: number }
}

/**
 * Makes one ECDSA P-256 certificate (signed with `signingKey`), for tests that build certificate chains
 * or hostile certificate sets.
 * @category Time-stamping
 */
export function makeTestCertificate(spec: TestCertificateSpec): Uint8Array {
  const extensions =
    spec.ca === false
      ? [ext(OIDS.keyUsage, true, new KeyUsage(KeyUsageFlags.digitalSignature)), ext(OIDS.extKeyUsage, true, new ExtendedKeyUsage([OIDS.timeStamping]))]
      : caExtensions(spec.ca === true ? undefined : spec.ca.pathLen)
  return makeCertificate({ serial: spec.serial, issuer: name(spec.issuer), subject: name(spec.subject), publicKey: spec.publicKey, signingKey: spec.signingKey, notBefore: spec.notBefore, notAfter: spec.notAfter, extensions })
}

function caExtensions(pathLen: number | undefined): Extension[] {
  return [ext(OIDS.basicConstraints, true, new BasicConstraints({ cA: true, pathLenConstraint: pathLen })), ext(OIDS.keyUsage, true, new KeyUsage(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign))]
}

/**
 * A test time-stamping authority: certificates plus a token factory (no HTTP).
 * @category Time-stamping
 */
export interface TestTsa {
  /** The root CA certificate, PEM; trust it to accept this authority's tokens. */
  readonly rootPem: string
  readonly rootDer: Uint8Array
  /** The TSA (signer) certificate, DER. */
  readonly tsaCertDer: Uint8Array
  /** Issues a DER TimeStampToken over a SHA-256 imprint. */
  issue(imprint: Uint8Array, options?: IssueOptions): Uint8Array
}

/**
 * Creates a {@link TestTsa}.
 * @category Time-stamping
 */
export function createTestTsa(options: TestTsaOptions = {}): TestTsa {
  const now = options.now ?? Date.now
  const keyOf = (label: string): Uint8Array => (options.seed === undefined ? p256.utils.randomSecretKey() : sha256(concat(options.seed, new TextEncoder().encode(label))))
  const rootKey = options.rootKey ?? keyOf('root')
  const tsaKey = keyOf('tsa')
  const notBefore = options.notBefore ?? Math.floor(now() / 1000) * 1000 - 86_400_000
  const notAfter = options.notAfter ?? notBefore + 10 * 365 * 86_400_000
  const rootName = name(options.rootName ?? 'orbitdraw emulator TSA root')
  const tsaName = name(options.tsaName ?? 'orbitdraw emulator TSA')
  const rootDer = makeCertificate({
    serial: 1,
    issuer: rootName,
    subject: rootName,
    publicKey: p256.getPublicKey(rootKey, false),
    signingKey: rootKey,
    notBefore,
    notAfter,
    extensions: caExtensions(options.rootPathLen),
  })
  // Intermediates, top first: each signed by the one above (the root for the first).
  let issuerName = rootName
  let issuerKey = rootKey
  const chainDer: Uint8Array[] = []
  for (const [i, ca] of (options.intermediates ?? []).entries()) {
    const key = keyOf(`intermediate ${i}`)
    const subject = name(ca.name)
    chainDer.unshift(makeCertificate({ serial: 100 + i, issuer: issuerName, subject, publicKey: p256.getPublicKey(key, false), signingKey: issuerKey, notBefore, notAfter, extensions: caExtensions(ca.pathLen) }))
    issuerName = subject
    issuerKey = key
  }
  const eku = options.extKeyUsage ?? 'time-stamping'
  const tsaExtensions = [ext(OIDS.keyUsage, true, new KeyUsage(KeyUsageFlags.digitalSignature))]
  if (eku !== 'none') tsaExtensions.push(ext(OIDS.extKeyUsage, eku !== 'non-critical', new ExtendedKeyUsage([eku === 'code-signing' ? OIDS.codeSigning : OIDS.timeStamping])))
  for (const id of options.tsaCriticalExtensions ?? []) tsaExtensions.push(new Extension({ extnID: id, critical: true, extnValue: new OctetString(new Uint8Array([0x05, 0x00])) }))
  const tsaSerial = 2
  const tsaCertDer = makeCertificate({ serial: tsaSerial, issuer: issuerName, subject: tsaName, publicKey: p256.getPublicKey(tsaKey, false), signingKey: issuerKey, notBefore, notAfter, extensions: tsaExtensions })
  const tsaCert = AsnConvert.parse(tsaCertDer, Certificate)
  const chainCerts = chainDer.map((der) => AsnConvert.parse(der, Certificate))
  let serial = 0n
  const accuracy = options.accuracySeconds ?? 1
  return {
    rootPem: toPem(rootDer),
    rootDer,
    tsaCertDer,
    issue(imprint, o = {}) {
      const genTime = Math.floor((o.genTime ?? now()) / 1000) * 1000
      serial++
      const tst = new TSTInfo({
        policy: EMULATOR_TSA_POLICY,
        messageImprint: new MessageImprint({ hashAlgorithm: new AlgorithmIdentifier({ algorithm: OIDS.sha256 }), hashedMessage: new OctetString(imprint) }),
        serialNumber: intBytes(serial),
        genTime: new Date(genTime),
        accuracy: accuracy > 0 ? new Accuracy({ seconds: accuracy }) : undefined,
        nonce: o.nonce === undefined ? undefined : intBytes(o.nonce),
      })
      const tstDer = new Uint8Array(AsnConvert.serialize(tst))
      const certHash = sha256(tsaCertDer)
      // SigningCertificate(V2) ::= SEQUENCE { certs SEQUENCE OF ESSCertID(v2) { certHash (SHA-256 by default; SHA-1 in v1) } }
      const essCertId = (hash: Uint8Array): ArrayBuffer => new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: hash })] })] })] }).toBER()
      const signingCertificateV2 = essCertId(certHash)
      const contentType = new asn1js.ObjectIdentifier({ value: o.signedAttributes?.contentType === 'wrong' ? OIDS.signedData : OIDS.tstInfo }).toBER()
      const attrs = [new Attribute({ attrType: OIDS.messageDigest, attrValues: [new asn1js.OctetString({ valueHex: sha256(tstDer) }).toBER()] })]
      const ct = o.signedAttributes?.contentType
      if (ct !== 'missing') attrs.unshift(new Attribute({ attrType: OIDS.contentType, attrValues: [contentType] }))
      if (ct === 'twice') attrs.push(new Attribute({ attrType: OIDS.contentType, attrValues: [contentType] }))
      const sc = o.signedAttributes?.signingCertificate
      if (sc === 'v1-and-v2' || sc === 'v1-wrong-and-v2') attrs.push(new Attribute({ attrType: OIDS.signingCertificate, attrValues: [essCertId(sc === 'v1-and-v2' ? sha1(tsaCertDer) : new Uint8Array(20))] }))
      if (sc !== 'missing') attrs.push(new Attribute({ attrType: OIDS.signingCertificateV2, attrValues: sc === 'two-values' ? [signingCertificateV2, signingCertificateV2] : [signingCertificateV2] }))
      if (sc === 'twice') attrs.push(new Attribute({ attrType: OIDS.signingCertificateV2, attrValues: [signingCertificateV2] }))
      // The signature covers the DER SET OF the attributes (RFC 5652 5.4).
      const attrsDer = new asn1js.Set({ value: attrs.map((a) => asn1js.fromBER(AsnConvert.serialize(a)).result) }).toBER()
      const signature = p256.sign(new Uint8Array(attrsDer), tsaKey, { format: 'der' })
      if (o.badSignature === true) signature[signature.length - 1]! ^= 0x01
      const signer = new SignerInfo({
        version: 1,
        sid: new SignerIdentifier({ issuerAndSerialNumber: new IssuerAndSerialNumber({ issuer: tsaCert.tbsCertificate.issuer, serialNumber: intBytes(BigInt(tsaSerial)) }) }),
        digestAlgorithm: new AlgorithmIdentifier({ algorithm: OIDS.sha256 }),
        signedAttrs: attrs,
        signatureAlgorithm: new AlgorithmIdentifier({ algorithm: OIDS.ecdsaWithSha256 }),
        signature: new OctetString(signature),
      })
      const signedData = new SignedData({
        version: 3,
        digestAlgorithms: new DigestAlgorithmIdentifiers([new AlgorithmIdentifier({ algorithm: OIDS.sha256 })]),
        encapContentInfo: new EncapsulatedContentInfo({ eContentType: OIDS.tstInfo, eContent: new EncapsulatedContent({ single: new OctetString(tstDer) }) }),
        certificates: o.certReq === false ? undefined : new CertificateSet([tsaCert, ...chainCerts, ...(o.extraCertificates ?? []).map((der) => AsnConvert.parse(der, Certificate))].map((certificate) => new CertificateChoices({ certificate }))),
        signerInfos: new SignerInfos([signer]),
      })
      return new Uint8Array(AsnConvert.serialize(new ContentInfo({ contentType: OIDS.signedData, content: AsnConvert.serialize(signedData) })))
    },
  }
}

/**
 * Options of {@link createTsaService}.
 * @category Time-stamping
 */
export interface TsaServiceOptions extends TestTsaOptions {
  /** Fault registry (route `tsa`); the emulator passes the beacon's so `emu.faults` covers every route. */
  faults?: FaultController
}

/**
 * The emulated authority as an HTTP service.
 * @category Time-stamping
 */
export interface TsaService extends TestTsa {
  /** Handles `POST /tsa`. */
  readonly handler: RouteHandler
  readonly faults: FaultController
  /** Requests answered so far (any status). */
  readonly requests: number
}

/**
 * Creates the emulated authority's route handler (`POST /tsa`).
 * @category Time-stamping
 */
export function createTsaService(options: TsaServiceOptions = {}): TsaService {
  const faults = options.faults ?? new FaultController()
  const now = options.now ?? Date.now
  let requests = 0
  let skewSeconds = 0
  const tsa = createTestTsa({ ...options, now: () => now() + skewSeconds * 1000 })
  const handler: RouteHandler = async (req, res, url) => {
    if (url.pathname !== '/tsa') return false
    if (req.method !== 'POST') {
      sendJson(res, 405, { message: 'use POST with an application/timestamp-query body' }, { allow: 'POST' })
      return true
    }
    requests++
    const { latencyMs, fault } = faults.take('tsa')
    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs))
    if (fault?.kind === 'hang') {
      await untilClosed(res)
      return true
    }
    if (fault?.kind === 'status') {
      sendJson(res, fault.status ?? 503, { message: fault.message ?? 'injected time-stamping error' })
      return true
    }
    if (fault?.kind === 'rate-limit') {
      const s = fault.retryAfterSeconds ?? 1
      sendJson(res, 429, { message: `too many requests; retry after ${s} s` }, { 'retry-after': String(s) })
      return true
    }
    const body = await readBody(req)
    if (fault?.kind === 'redirect') {
      res.writeHead(fault.status ?? 302, { location: `${fault.to.replace(/\/+$/, '')}${url.pathname}${url.search}`, 'content-length': '0' })
      res.end()
      return true
    }
    let request: TimeStampReq
    try {
      request = AsnConvert.parse(body, TimeStampReq)
    } catch {
      reply(res, rejection(PKIFailureInfoFlags.badDataFormat, 'the body is not a DER TimeStampReq'), fault)
      return true
    }
    if (request.messageImprint.hashAlgorithm.algorithm !== OIDS.sha256 || request.messageImprint.hashedMessage.byteLength !== 32) {
      reply(res, rejection(PKIFailureInfoFlags.badAlg, 'only SHA-256 imprints are accepted'), fault)
      return true
    }
    const imprint = new Uint8Array(request.messageImprint.hashedMessage.buffer).slice()
    if (fault?.kind === 'wrong-imprint') imprint[0]! ^= 0xff
    skewSeconds = fault?.kind === 'clock-skew' ? fault.seconds : 0
    const nonce = request.nonce === undefined ? undefined : bytesToBigInt(new Uint8Array(request.nonce))
    const token = tsa.issue(imprint, { nonce, certReq: request.certReq, badSignature: fault?.kind === 'bad-signature' })
    skewSeconds = 0
    const resp = new TimeStampResp({ status: new PKIStatusInfo({ status: PKIStatus.granted }), timeStampToken: AsnConvert.parse(token, ContentInfo) })
    reply(res, new Uint8Array(AsnConvert.serialize(resp)), fault)
    return true
  }
  return {
    ...tsa,
    handler,
    faults,
    get requests() {
      return requests
    },
  }
}

function reply(res: ServerResponse, body: Uint8Array, fault: FaultSpec | undefined): void {
  const out = alterBody(body, fault)
  res.writeHead(200, { 'content-type': 'application/timestamp-reply', 'content-length': String(out.length) })
  res.end(out)
}

function rejection(failInfo: PKIFailureInfoFlags, text: string): Uint8Array {
  return new Uint8Array(AsnConvert.serialize(new TimeStampResp({ status: new PKIStatusInfo({ status: PKIStatus.rejection, statusString: new PKIFreeText([text]), failInfo: new PKIFailureInfo(failInfo) }) })))
}

interface CertSpec {
  serial: number
  issuer: Name
  subject: Name
  publicKey: Uint8Array
  signingKey: Uint8Array
  notBefore: number
  notAfter: number
  extensions: Extension[]
}

function makeCertificate(spec: CertSpec): Uint8Array {
  const sigAlg = new AlgorithmIdentifier({ algorithm: OIDS.ecdsaWithSha256 })
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: intBytes(BigInt(spec.serial)),
    signature: sigAlg,
    issuer: spec.issuer,
    validity: new Validity({ notBefore: new Date(spec.notBefore), notAfter: new Date(spec.notAfter) }),
    subject: spec.subject,
    subjectPublicKeyInfo: new SubjectPublicKeyInfo({
      algorithm: new AlgorithmIdentifier({ algorithm: OIDS.ecPublicKey, parameters: new asn1js.ObjectIdentifier({ value: OIDS.p256 }).toBER() }),
      subjectPublicKey: spec.publicKey.slice().buffer,
    }),
    extensions: new Extensions(spec.extensions),
  })
  const tbsDer = new Uint8Array(AsnConvert.serialize(tbs))
  const signature = p256.sign(tbsDer, spec.signingKey, { format: 'der' })
  return new Uint8Array(AsnConvert.serialize(new Certificate({ tbsCertificate: tbs, signatureAlgorithm: sigAlg, signatureValue: signature.slice().buffer })))
}

function ext(id: string, critical: boolean, value: object): Extension {
  return new Extension({ extnID: id, critical, extnValue: new OctetString(AsnConvert.serialize(value)) })
}

function name(cn: string): Name {
  const rdn = (type: string, v: string): RelativeDistinguishedName => new RelativeDistinguishedName([new AttributeTypeAndValue({ type, value: new AttributeValue({ utf8String: v }) })])
  return new Name([rdn(OIDS.organizationName, 'orbitdraw emulator'), rdn(OIDS.commonName, cn)])
}

function intBytes(v: bigint): ArrayBuffer {
  let hex = v.toString(16)
  if (hex.length % 2 === 1) hex = `0${hex}`
  if (parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`
  return Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16))).buffer
}

function bytesToBigInt(b: Uint8Array): bigint {
  let v = 0n
  for (const x of b) v = (v << 8n) | BigInt(x)
  return v
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** PEM of a DER certificate. */
export function toPem(der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64')
  return `-----BEGIN CERTIFICATE-----\n${b64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`
}
