/**
 * An RFC 3161 time-stamping authority for tests and demos: its own root CA and TSA certificate
 * (ECDSA P-256, made at start), `POST /tsa` answering `application/timestamp-query` with
 * `application/timestamp-reply`, and route faults (`tsa`): status, latency, redirect, wrong imprint, bad
 * signature, clock skew, truncated or altered replies. Node only; the DER is written with the core's
 * small writer (`core/timestamp/der-writer.ts`) and requests read with its reader (`core/timestamp/der.ts`),
 * signatures made with `@noble/curves` (RFC 6979, deterministic).
 *
 * @module
 */
import { p256 } from '@noble/curves/nist.js'
import { sha1 } from '@noble/hashes/legacy.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { boolean, decodeDer, DerError, integer, isContext, octets, oid, sequence, TAG, type Der } from '../core/timestamp/der.js'
import {
  derBitString,
  derBoolean,
  derCertificateTime,
  derExplicit,
  derGeneralizedTime,
  derImplicit,
  derInteger,
  derNamedBits,
  derNull,
  derOctetString,
  derOid,
  derSequence,
  derSetOf,
  derUtf8String,
} from '../core/timestamp/der-writer.js'
import { OID } from '../core/timestamp/oids.js'
import type { ServerResponse } from 'node:http'
import { alterBody, FaultController, type FaultSpec } from './faults.js'
import { readBody, sendJson, untilClosed, type RouteHandler } from './http.js'

/** The core's OIDs (those its checks read), and id-kp-codeSigning: a wrong EKU the emulated TSA certificate can carry, to test verifiers. */
const OIDS = { ...OID, codeSigning: '1.3.6.1.5.5.7.3.3' } as const

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
  /** The authority's clock, unix ms (default `Date.now`). */
  now?: () => number
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
      ? [ext(OIDS.keyUsage, true, derNamedBits([0])), ext(OIDS.extKeyUsage, true, derSequence(derOid(OIDS.timeStamping)))]
      : caExtensions(spec.ca === true ? undefined : spec.ca.pathLen)
  return makeCertificate({ serial: spec.serial, issuer: name(spec.issuer), subject: name(spec.subject), publicKey: spec.publicKey, signingKey: spec.signingKey, notBefore: spec.notBefore, notAfter: spec.notAfter, extensions })
}

/** BasicConstraints { cA TRUE, pathLenConstraint }; KeyUsage keyCertSign (5), cRLSign (6). */
function caExtensions(pathLen: number | undefined): Uint8Array[] {
  return [ext(OIDS.basicConstraints, true, derSequence(derBoolean(true), ...(pathLen === undefined ? [] : [derInteger(pathLen)]))), ext(OIDS.keyUsage, true, derNamedBits([5, 6]))]
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
  // KeyUsage digitalSignature (0).
  const tsaExtensions = [ext(OIDS.keyUsage, true, derNamedBits([0]))]
  if (eku !== 'none') tsaExtensions.push(ext(OIDS.extKeyUsage, eku !== 'non-critical', derSequence(derOid(eku === 'code-signing' ? OIDS.codeSigning : OIDS.timeStamping))))
  for (const id of options.tsaCriticalExtensions ?? []) tsaExtensions.push(ext(id, true, derNull()))
  const tsaSerial = 2
  const tsaCertDer = makeCertificate({ serial: tsaSerial, issuer: issuerName, subject: tsaName, publicKey: p256.getPublicKey(tsaKey, false), signingKey: issuerKey, notBefore, notAfter, extensions: tsaExtensions })
  let serial = 0n
  const accuracy = options.accuracySeconds ?? 1
  const sha256Algorithm = derSequence(derOid(OIDS.sha256))
  return {
    rootPem: toPem(rootDer),
    rootDer,
    tsaCertDer,
    issue(imprint, o = {}) {
      const genTime = Math.floor((o.genTime ?? now()) / 1000) * 1000
      serial++
      // TSTInfo (RFC 3161 2.4.2): version 1, policy, messageImprint, serialNumber, genTime, accuracy { seconds }, nonce.
      const tstDer = derSequence(
        derInteger(1),
        derOid(EMULATOR_TSA_POLICY),
        derSequence(sha256Algorithm, derOctetString(imprint)),
        derInteger(serial),
        derGeneralizedTime(genTime),
        ...(accuracy > 0 ? [derSequence(derInteger(accuracy))] : []),
        ...(o.nonce === undefined ? [] : [derInteger(o.nonce)]),
      )
      // SigningCertificate(V2) ::= SEQUENCE { certs SEQUENCE OF ESSCertID(v2) { certHash (SHA-256 by default; SHA-1 in v1) } }
      const essCertId = (hash: Uint8Array): Uint8Array => derSequence(derSequence(derSequence(derOctetString(hash))))
      const signingCertificateV2 = essCertId(sha256(tsaCertDer))
      const attribute = (type: string, ...values: Uint8Array[]): Uint8Array => derSequence(derOid(type), derSetOf(...values))
      const contentType = derOid(o.signedAttributes?.contentType === 'wrong' ? OIDS.signedData : OIDS.tstInfo)
      const attrs = [attribute(OIDS.messageDigest, derOctetString(sha256(tstDer)))]
      const ct = o.signedAttributes?.contentType
      if (ct !== 'missing') attrs.push(attribute(OIDS.contentType, contentType))
      if (ct === 'twice') attrs.push(attribute(OIDS.contentType, contentType))
      const sc = o.signedAttributes?.signingCertificate
      if (sc === 'v1-and-v2' || sc === 'v1-wrong-and-v2') attrs.push(attribute(OIDS.signingCertificate, essCertId(sc === 'v1-and-v2' ? sha1(tsaCertDer) : new Uint8Array(20))))
      if (sc !== 'missing') attrs.push(sc === 'two-values' ? attribute(OIDS.signingCertificateV2, signingCertificateV2, signingCertificateV2) : attribute(OIDS.signingCertificateV2, signingCertificateV2))
      if (sc === 'twice') attrs.push(attribute(OIDS.signingCertificateV2, signingCertificateV2))
      // The signature covers the DER SET OF the attributes (RFC 5652 5.4); the SignerInfo carries them as [0] IMPLICIT.
      const attrsDer = derSetOf(...attrs)
      const signature = p256.sign(attrsDer, tsaKey, { format: 'der' })
      if (o.badSignature === true) signature[signature.length - 1]! ^= 0x01
      // SignerInfo version 1: sid IssuerAndSerialNumber, digestAlgorithm, signedAttrs, signatureAlgorithm, signature.
      const signer = derSequence(derInteger(1), derSequence(issuerName, derInteger(tsaSerial)), sha256Algorithm, derImplicit(0, attrsDer), derSequence(derOid(OIDS.ecdsaWithSha256)), derOctetString(signature))
      // SignedData version 3: digestAlgorithms, encapContentInfo { eContentType, [0] EXPLICIT eContent }, [0] IMPLICIT certificates, signerInfos.
      const signedData = derSequence(
        derInteger(3),
        derSetOf(sha256Algorithm),
        derSequence(derOid(OIDS.tstInfo), derExplicit(0, derOctetString(tstDer))),
        ...(o.certReq === false ? [] : [derImplicit(0, derSetOf(tsaCertDer, ...chainDer, ...(o.extraCertificates ?? [])))]),
        derSetOf(signer),
      )
      return derSequence(derOid(OIDS.signedData), derExplicit(0, signedData))
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
    let request: ParsedRequest
    try {
      request = parseRequest(body)
    } catch {
      reply(res, rejection(FAILURE_BIT.badDataFormat, 'the body is not a DER TimeStampReq'), fault)
      return true
    }
    if (request.hashAlgorithm !== OIDS.sha256 || request.hashedMessage.length !== 32) {
      reply(res, rejection(FAILURE_BIT.badAlg, 'only SHA-256 imprints are accepted'), fault)
      return true
    }
    const imprint = request.hashedMessage.slice()
    if (fault?.kind === 'wrong-imprint') imprint[0]! ^= 0xff
    skewSeconds = fault?.kind === 'clock-skew' ? fault.seconds : 0
    const token = tsa.issue(imprint, { nonce: request.nonce, certReq: request.certReq, badSignature: fault?.kind === 'bad-signature' })
    skewSeconds = 0
    // TimeStampResp { status PKIStatusInfo { granted (0) }, timeStampToken }.
    reply(res, derSequence(derSequence(derInteger(0)), token), fault)
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

/** PKIFailureInfo bits (RFC 3161 2.4.2) the authority answers with. */
const FAILURE_BIT = { badAlg: 0, badDataFormat: 5 } as const

/** A TimeStampResp refusing the request: PKIStatusInfo { rejection (2), statusString { text }, failInfo }. */
function rejection(failBit: number, text: string): Uint8Array {
  return derSequence(derSequence(derInteger(2), derSequence(derUtf8String(text)), derNamedBits([failBit])))
}

/** What the authority reads of a TimeStampReq. */
interface ParsedRequest {
  readonly hashAlgorithm: string
  readonly hashedMessage: Uint8Array
  readonly nonce: bigint | undefined
  readonly certReq: boolean
}

/**
 * Reads a TimeStampReq (RFC 3161 2.4.1): version 1, messageImprint, then in order the optional
 * reqPolicy, nonce, certReq (default FALSE) and [0] extensions. Throws {@link DerError} on anything else.
 */
function parseRequest(body: Uint8Array): ParsedRequest {
  const root: Der = decodeDer(body, 'request', 1000)
  const [version, imprintNode, ...rest] = sequence(root, 'request', 'TimeStampReq')
  if (integer(version, 'request.version', 'version') !== 1n) throw new DerError('request.version', 'version is not 1')
  const [algorithmNode, hashed, ...extra] = sequence(imprintNode, 'request.messageImprint', 'messageImprint')
  if (extra.length > 0) throw new DerError('request.messageImprint', 'extra fields')
  const [algorithmOid] = sequence(algorithmNode, 'request.messageImprint.hashAlgorithm', 'hashAlgorithm')
  const out = { hashAlgorithm: oid(algorithmOid, 'request.messageImprint.hashAlgorithm', 'hashAlgorithm'), hashedMessage: octets(hashed, 'request.messageImprint', 'hashedMessage'), nonce: undefined as bigint | undefined, certReq: false }
  let i = 0
  const universal = (n: Der | undefined, tag: number): boolean => n !== undefined && n.cls === 'universal' && n.tag === tag
  if (universal(rest[i], TAG.OID)) oid(rest[i++], 'request.reqPolicy', 'reqPolicy')
  if (universal(rest[i], TAG.INTEGER)) out.nonce = integer(rest[i++], 'request.nonce', 'nonce')
  if (universal(rest[i], TAG.BOOLEAN)) out.certReq = boolean(rest[i++], 'request.certReq', 'certReq')
  if (isContext(rest[i], 0)) i++
  if (i !== rest.length) throw new DerError('request', 'unexpected fields')
  return out
}

interface CertSpec {
  serial: number
  /** DER Names. */
  issuer: Uint8Array
  subject: Uint8Array
  publicKey: Uint8Array
  signingKey: Uint8Array
  notBefore: number
  notAfter: number
  /** DER Extensions. */
  extensions: Uint8Array[]
}

/** An X.509 v3 certificate (RFC 5280 4.1) over an uncompressed P-256 key, signed ECDSA with SHA-256. */
function makeCertificate(spec: CertSpec): Uint8Array {
  const sigAlg = derSequence(derOid(OIDS.ecdsaWithSha256))
  const tbs = derSequence(
    derExplicit(0, derInteger(2)), // v3
    derInteger(spec.serial),
    sigAlg,
    spec.issuer,
    derSequence(derCertificateTime(spec.notBefore), derCertificateTime(spec.notAfter)),
    spec.subject,
    derSequence(derSequence(derOid(OIDS.ecPublicKey), derOid(OIDS.p256)), derBitString(spec.publicKey)),
    derExplicit(3, derSequence(...spec.extensions)),
  )
  const signature = p256.sign(tbs, spec.signingKey, { format: 'der' })
  return derSequence(tbs, sigAlg, derBitString(signature))
}

/** Extension { extnID, critical (DEFAULT FALSE: written only when TRUE), extnValue }. */
function ext(id: string, critical: boolean, value: Uint8Array): Uint8Array {
  return derSequence(derOid(id), ...(critical ? [derBoolean(true)] : []), derOctetString(value))
}

/** Name: O=orbitdraw emulator, CN=`cn`, one attribute per RDN, UTF8String. */
function name(cn: string): Uint8Array {
  const rdn = (type: string, v: string): Uint8Array => derSetOf(derSequence(derOid(type), derUtf8String(v)))
  return derSequence(rdn(OIDS.organizationName, 'orbitdraw emulator'), rdn(OIDS.commonName, cn))
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
