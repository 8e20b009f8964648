/**
 * The emulator's time-stamping authority as it was built on the `@peculiar/asn1-*` schema classes and
 * `asn1js` (now devDependencies), kept as the reference its DER writer is compared with byte for byte
 * (`tsa-der.test.ts`): the same keys, names, extensions, times and signatures (RFC 6979, deterministic),
 * so with a seed and a fixed clock both must give the same certificates and tokens.
 *
 * Deliberately independent of `src/emulator/tsa.ts`: its OIDs, names, key derivation and defaults are
 * written again here, not imported, so that a change in the emulator cannot also change the reference it
 * is compared with (the `duplicates` tool's pairs of this file with `tsa.ts` are expected).
 */
import { p256 } from '@noble/curves/nist.js'
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
import { Accuracy, MessageImprint, PKIFailureInfo, PKIFailureInfoFlags, PKIFreeText, PKIStatus, PKIStatusInfo, TimeStampResp, TSTInfo } from '@peculiar/asn1-tsp'
import * as asn1js from 'asn1js'
import type { IssueOptions, TestTsaOptions } from '../../src/emulator/tsa.js'

const OIDS = {
  ecPublicKey: '1.2.840.10045.2.1',
  p256: '1.2.840.10045.3.1.7',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  sha256: '2.16.840.1.101.3.4.2.1',
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
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

export function referenceTestTsa(options: TestTsaOptions = {}): { rootDer: Uint8Array; tsaCertDer: Uint8Array; issue(imprint: Uint8Array, o?: IssueOptions): Uint8Array } {
  const now = options.now ?? Date.now
  const keyOf = (label: string): Uint8Array => (options.seed === undefined ? p256.utils.randomSecretKey() : sha256(concat(options.seed, new TextEncoder().encode(label))))
  const rootKey = keyOf('root')
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
    extensions: [ext(OIDS.basicConstraints, true, new BasicConstraints({ cA: true })), ext(OIDS.keyUsage, true, new KeyUsage(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign))],
  })
  const eku = options.extKeyUsage ?? 'time-stamping'
  const tsaExtensions = [ext(OIDS.keyUsage, true, new KeyUsage(KeyUsageFlags.digitalSignature))]
  if (eku !== 'none') tsaExtensions.push(ext(OIDS.extKeyUsage, eku !== 'non-critical', new ExtendedKeyUsage([eku === 'code-signing' ? OIDS.codeSigning : OIDS.timeStamping])))
  const tsaSerial = 2
  const tsaCertDer = makeCertificate({ serial: tsaSerial, issuer: rootName, subject: tsaName, publicKey: p256.getPublicKey(tsaKey, false), signingKey: rootKey, notBefore, notAfter, extensions: tsaExtensions })
  const tsaCert = AsnConvert.parse(tsaCertDer, Certificate)
  let serial = 0n
  const accuracy = options.accuracySeconds ?? 1
  return {
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
      // SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 { certHash (SHA-256 by default) } }
      const signingCertificateV2 = new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: certHash })] })] })] }).toBER()
      const attrs = [
        new Attribute({ attrType: OIDS.contentType, attrValues: [new asn1js.ObjectIdentifier({ value: OIDS.tstInfo }).toBER()] }),
        new Attribute({ attrType: OIDS.messageDigest, attrValues: [new asn1js.OctetString({ valueHex: sha256(tstDer) }).toBER()] }),
        new Attribute({ attrType: OIDS.signingCertificateV2, attrValues: [signingCertificateV2] }),
      ]
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
        certificates: o.certReq === false ? undefined : new CertificateSet([new CertificateChoices({ certificate: tsaCert })]),
        signerInfos: new SignerInfos([signer]),
      })
      return new Uint8Array(AsnConvert.serialize(new ContentInfo({ contentType: OIDS.signedData, content: AsnConvert.serialize(signedData) })))
    },
  }
}

export function referenceRejection(failInfo: PKIFailureInfoFlags, text: string): Uint8Array {
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

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

