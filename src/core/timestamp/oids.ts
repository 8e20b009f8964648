/**
 * Object identifiers used by the time-stamp checks (RFC 5652, RFC 3161, RFC 5280, RFC 5035, RFC 4055, RFC 5758).
 *
 * @module
 */

/** OIDs by name. */
export const OID = {
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  md5: '1.2.840.113549.2.5',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha1WithRsa: '1.2.840.113549.1.1.5',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  sha384WithRsa: '1.2.840.113549.1.1.12',
  sha512WithRsa: '1.2.840.113549.1.1.13',
  rsassaPss: '1.2.840.113549.1.1.10',
  mgf1: '1.2.840.113549.1.1.8',
  ecPublicKey: '1.2.840.10045.2.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  ecdsaWithSha384: '1.2.840.10045.4.3.3',
  ecdsaWithSha512: '1.2.840.10045.4.3.4',
  p256: '1.2.840.10045.3.1.7',
  p384: '1.3.132.0.34',
  p521: '1.3.132.0.35',
  commonName: '2.5.4.3',
  organizationName: '2.5.4.10',
  extKeyUsage: '2.5.29.37',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  subjectKeyIdentifier: '2.5.29.14',
  timeStamping: '1.3.6.1.5.5.7.3.8',
} as const

/** Names of the digest algorithms accepted for imprints, message digests and certificate hashes. */
export type HashName = 'SHA-256' | 'SHA-384' | 'SHA-512'

/** Accepted digest OIDs. SHA-1 and MD5 are refused by name (see {@link refusedHashName}). */
export const HASHES: Readonly<Record<string, HashName>> = {
  [OID.sha256]: 'SHA-256',
  [OID.sha384]: 'SHA-384',
  [OID.sha512]: 'SHA-512',
}

/** A human name for a digest OID this module refuses, or the OID itself. */
export function refusedHashName(oid: string): string {
  if (oid === OID.sha1) return 'SHA-1'
  if (oid === OID.md5) return 'MD5'
  return `OID ${oid}`
}

/** The X.509 extensions this checker understands; an unknown critical extension makes a certificate unusable (RFC 5280 4.2). */
export const KNOWN_EXTENSIONS: ReadonlySet<string> = new Set([
  OID.extKeyUsage,
  OID.keyUsage,
  OID.basicConstraints,
  OID.subjectKeyIdentifier,
  '2.5.29.35', // authorityKeyIdentifier
  '2.5.29.32', // certificatePolicies (not processed: no policy is required)
  '2.5.29.17', // subjectAltName
  '2.5.29.31', // cRLDistributionPoints
  '1.3.6.1.5.5.7.1.1', // authorityInfoAccess
])
