/**
 * Trust anchors for time-stamping: root certificates chosen by the verifier.
 *
 * @module
 */
import { base64ToBytes, bytesToHex } from '../bytes.js'
import { ParseError } from '../errors.js'
import { LIMITS } from '../limits.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { parseCertificate, type ParsedCertificate } from './certificate.js'
import { DerError } from './der.js'

/**
 * A trusted time-stamping root: a certificate whose key ends a token's chain.
 * @category Time-stamping
 */
export interface TimestampTrustAnchor {
  /** The subject common name (or organization), for messages. */
  readonly name: string
  /** The certificate, DER. */
  readonly der: Uint8Array
  /** SHA-256 of {@link der}, lowercase hex (the usual certificate fingerprint). */
  readonly sha256: string
  /**
   * ISO 8601, set by `createTrust` from the root's authority: the root vouches only for a token whose
   * time, less its accuracy, is at or after this instant.
   */
  readonly validFrom?: string
  /** ISO 8601, from the root's authority: the root vouches only for a token whose time, plus its accuracy, is at or before this instant. */
  readonly validUntil?: string
}

const PEM = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]*?)-----END CERTIFICATE-----/g

/** The DER of every `CERTIFICATE` block of PEM text, in order (base64 checked, nothing else: see {@link parseTrustAnchors}). */
export function pemCertificates(text: string): Uint8Array[] {
  return [...text.matchAll(PEM)].map((m) => base64ToBytes(m[1]!.replace(/\s+/g, ''), '$'))
}

/**
 * Parses one trust anchor from PEM text (the first certificate in it) or DER bytes.
 *
 * @throws {@link ParseError} `TIMESTAMP_ANCHOR_INVALID` when the input holds no readable X.509 certificate.
 * @example
 * ```ts
 * const anchor = parseTrustAnchor(await readFile('my-tsa-root.pem', 'utf8'))
 * ```
 * @category Time-stamping
 */
export function parseTrustAnchor(pemOrDer: string | Uint8Array): TimestampTrustAnchor {
  const all = parseTrustAnchors(pemOrDer)
  return all[0]!
}

/**
 * Parses every certificate of a PEM bundle (or one DER certificate) as trust anchors.
 *
 * @throws {@link ParseError} `TIMESTAMP_ANCHOR_INVALID` when the input holds no readable certificate or a bad one.
 * @category Time-stamping
 */
export function parseTrustAnchors(pemOrDer: string | Uint8Array): TimestampTrustAnchor[] {
  const ders: Uint8Array[] = []
  if (typeof pemOrDer === 'string') {
    if (pemOrDer.length > LIMITS.maxTimestampTokenBytes * 64) throw invalid(`the PEM text is ${pemOrDer.length} characters, too long for a set of root certificates`)
    ders.push(...pemCertificates(pemOrDer))
    if (ders.length === 0) throw invalid('the text holds no "-----BEGIN CERTIFICATE-----" block')
  } else {
    ders.push(pemOrDer)
  }
  return ders.map((der, i) => {
    if (der.length > LIMITS.maxTimestampTokenBytes) throw invalid(`certificate ${i} is ${der.length} bytes, over maxTimestampTokenBytes = ${LIMITS.maxTimestampTokenBytes}`)
    let cert: ParsedCertificate
    try {
      cert = parseCertificate(der)
    } catch (e) {
      throw invalid(`certificate ${i} is not a readable X.509 certificate (${e instanceof DerError ? e.message : String(e)})`)
    }
    return { name: cert.name, der: cert.der.slice(), sha256: bytesToHex(sha256(cert.der)) }
  })
}

function invalid(detail: string): ParseError {
  return new ParseError('TIMESTAMP_ANCHOR_INVALID', detail, 'pass the PEM (or DER) of the time-stamping authority\'s root certificate, as published by the authority')
}
