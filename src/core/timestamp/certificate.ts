/**
 * The parts of an X.509 certificate (RFC 5280) the time-stamp checks need.
 *
 * @module
 */
import { bytesEqual } from '../bytes.js'
import { algorithm, bitString, boolean, decodeDer, DerError, integer, isContext, octets, oid, sequence, set, time, TAG, type Der } from './der.js'
import { KNOWN_EXTENSIONS, OID } from './oids.js'

/**
 * One X.509 certificate, parsed for chain building.
 * @category Time-stamping
 */
export interface ParsedCertificate {
  /** The whole certificate, DER. */
  readonly der: Uint8Array
  /** The signed part (`tbsCertificate`), DER, exactly as in {@link der}. */
  readonly tbs: Uint8Array
  readonly serial: bigint
  /** Issuer and subject `Name`, DER (compared byte for byte). */
  readonly issuer: Uint8Array
  readonly subject: Uint8Array
  /** The subject's common name (or organization, or a placeholder) for messages. */
  readonly name: string
  /** The same for the issuer. */
  readonly issuerName: string
  /** Validity, unix milliseconds, inclusive (RFC 5280 4.1.2.5). */
  readonly notBefore: number
  readonly notAfter: number
  /** `subjectPublicKeyInfo`, DER. */
  readonly spki: Uint8Array
  readonly signatureAlgorithm: { readonly oid: string; readonly params: Der | undefined }
  readonly signature: Uint8Array
  /** Extended key usage OIDs and whether that extension is critical; `undefined` when absent. */
  readonly extKeyUsage: { readonly usages: readonly string[]; readonly critical: boolean } | undefined
  /** Key usage bits (bit 0 = digitalSignature, 1 = nonRepudiation, 5 = keyCertSign); `undefined` when absent. */
  readonly keyUsage: ReadonlySet<number> | undefined
  /** `cA` of basicConstraints (false when absent). */
  readonly isCA: boolean
  /**
   * `pathLenConstraint` of basicConstraints (RFC 5280 4.2.1.9): the most non-self-issued intermediate
   * CA certificates that may follow this one in a path; `undefined` when absent (no limit). Values over
   * 2^31 are read as 2^31 (no chain is that long).
   */
  readonly pathLen: number | undefined
  /** Issuer and subject names are byte-equal (RFC 5280 "self-issued"). */
  readonly selfIssued: boolean
  readonly subjectKeyId: Uint8Array | undefined
  /** OIDs of critical extensions this checker does not understand. */
  readonly unknownCritical: readonly string[]
}

/** Parses a DER certificate; throws {@link DerError} naming the bad field. */
export function parseCertificate(der: Uint8Array, where = 'certificate'): ParsedCertificate {
  const root = decodeDer(der, where)
  return parseCertificateNode(root, where)
}

/** Parses an already decoded certificate node. */
export function parseCertificateNode(root: Der, where: string): ParsedCertificate {
  const [tbsNode, sigAlgNode, sigNode, ...extra] = sequence(root, where, 'Certificate')
  if (extra.length > 0) throw new DerError(root.where, 'Certificate has extra fields')
  const tbsParts = sequence(tbsNode, `${where}.tbsCertificate`, 'TBSCertificate')
  let i = 0
  if (isContext(tbsParts[0], 0)) i++ // version [0] EXPLICIT (v3); not needed
  const serial = integer(tbsParts[i++], `${where}.serialNumber`, 'serialNumber')
  const innerAlg = algorithm(tbsParts[i++], `${where}.signature`, 'TBSCertificate.signature')
  const issuerNode = tbsParts[i++]
  const issuerRdns = sequence(issuerNode, `${where}.issuer`, 'issuer')
  const validity = sequence(tbsParts[i++], `${where}.validity`, 'validity')
  const notBefore = time(validity[0], `${where}.validity.notBefore`, 'notBefore').ms
  const notAfter = time(validity[1], `${where}.validity.notAfter`, 'notAfter').ms
  const subjectNode = tbsParts[i++]
  const subjectRdns = sequence(subjectNode, `${where}.subject`, 'subject')
  const spkiNode = tbsParts[i++]
  sequence(spkiNode, `${where}.subjectPublicKeyInfo`, 'subjectPublicKeyInfo')
  let extKeyUsage: ParsedCertificate['extKeyUsage']
  let keyUsage: Set<number> | undefined
  let isCA = false
  let pathLen: number | undefined
  let subjectKeyId: Uint8Array | undefined
  const unknownCritical: string[] = []
  for (; i < tbsParts.length; i++) {
    const part = tbsParts[i]!
    if (!isContext(part, 3)) continue // issuerUniqueID [1], subjectUniqueID [2]
    const exts = sequence(part.children[0], `${where}.extensions`, 'extensions')
    const seen = new Set<string>()
    for (const [k, ext] of exts.entries()) {
      const w = `${where}.extensions[${k}]`
      const fields = sequence(ext, w, 'Extension')
      const id = oid(fields[0], w, 'extnID')
      if (seen.has(id)) throw new DerError(w, `extension ${id} appears twice`)
      seen.add(id)
      let j = 1
      let critical = false
      if (fields[j]?.tag === TAG.BOOLEAN && fields[j]?.cls === 'universal') critical = boolean(fields[j++], w, 'critical')
      const value = octets(fields[j], w, 'extnValue')
      const inner = (): Der => decodeDer(value, `${w}.extnValue`)
      if (id === OID.extKeyUsage) {
        extKeyUsage = { usages: sequence(inner(), w, 'ExtKeyUsageSyntax').map((n, m) => oid(n, `${w}[${m}]`, 'KeyPurposeId')), critical }
      } else if (id === OID.keyUsage) {
        const bits = bitString(inner(), w, 'KeyUsage')
        keyUsage = new Set()
        bits.bytes.forEach((byte, b) => {
          for (let bit = 0; bit < 8; bit++) if ((byte & (0x80 >> bit)) !== 0) keyUsage!.add(b * 8 + bit)
        })
      } else if (id === OID.basicConstraints) {
        const bc = sequence(inner(), w, 'BasicConstraints')
        let b = 0
        if (bc[b] !== undefined && bc[b]!.tag === TAG.BOOLEAN && bc[b]!.cls === 'universal') isCA = boolean(bc[b++], w, 'cA')
        if (bc[b] !== undefined) {
          const limit = integer(bc[b++], w, 'pathLenConstraint')
          if (limit < 0n) throw new DerError(w, `pathLenConstraint is ${limit}, negative`)
          pathLen = limit > 2n ** 31n ? 2 ** 31 : Number(limit)
        }
        if (b !== bc.length) throw new DerError(w, 'BasicConstraints has extra fields')
      } else if (id === OID.subjectKeyIdentifier) {
        subjectKeyId = octets(inner(), w, 'SubjectKeyIdentifier')
      } else if (critical && !KNOWN_EXTENSIONS.has(id)) {
        unknownCritical.push(id)
      }
    }
  }
  const sigAlg = algorithm(sigAlgNode, `${where}.signatureAlgorithm`, 'signatureAlgorithm')
  if (sigAlg.oid !== innerAlg.oid || !sameParams(sigAlg.params, innerAlg.params)) throw new DerError(`${where}.signatureAlgorithm`, 'signatureAlgorithm differs from TBSCertificate.signature')
  const sig = bitString(sigNode, `${where}.signatureValue`, 'signatureValue')
  if (sig.unused !== 0) throw new DerError(`${where}.signatureValue`, 'signatureValue has unused bits')
  return {
    der: root.raw,
    tbs: tbsNode!.raw,
    serial,
    issuer: issuerNode!.raw,
    subject: subjectNode!.raw,
    name: nameOf(subjectRdns, `${where}.subject`),
    issuerName: nameOf(issuerRdns, `${where}.issuer`),
    notBefore,
    notAfter,
    spki: spkiNode!.raw,
    signatureAlgorithm: sigAlg,
    signature: sig.bytes,
    extKeyUsage,
    keyUsage,
    isCA,
    pathLen,
    selfIssued: bytesEqual(issuerNode!.raw, subjectNode!.raw),
    subjectKeyId,
    unknownCritical,
  }
}

function sameParams(a: Der | undefined, b: Der | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  return a.raw.length === b.raw.length && a.raw.every((x, i) => x === b.raw[i])
}

/** The subject's CN (last one), else its O, else "(no common name)". */
function nameOf(rdns: readonly Der[], where: string): string {
  let cn: string | undefined
  let org: string | undefined
  for (const [r, rdn] of rdns.entries()) {
    for (const atv of set(rdn, `${where}[${r}]`, 'RelativeDistinguishedName')) {
      const [type, value] = sequence(atv, `${where}[${r}]`, 'AttributeTypeAndValue')
      const id = oid(type, `${where}[${r}]`, 'attribute type')
      if (id !== OID.commonName && id !== OID.organizationName) continue
      const text = directoryString(value)
      if (id === OID.commonName) cn = text
      else org = text
    }
  }
  return cn ?? org ?? '(no common name)'
}

function directoryString(node: Der | undefined): string {
  if (node === undefined || node.constructed) return '?'
  if (node.tag === TAG.BMP) {
    let s = ''
    for (let i = 0; i + 1 < node.content.length; i += 2) s += String.fromCharCode((node.content[i]! << 8) | node.content[i + 1]!)
    return s
  }
  if (node.tag === TAG.UTF8) return new TextDecoder().decode(node.content)
  return String.fromCharCode(...node.content)
}
