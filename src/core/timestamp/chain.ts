/**
 * The certificate-chain step of a time-stamp token, with its work bound: duplicate certificates, the
 * token's signature-check cost counted from its bytes, validity over genTime ± accuracy, and a
 * breadth-first search from the signer certificate to a trust anchor that checks each (issuer,
 * certificate) signature at most once. Rules: `docs/timestamps.md` (steps 2, 7, 8a and 9) and
 * `docs/spec.md` (Commitment time).
 *
 * @module
 */
import { bytesEqual } from '../bytes.js'
import { LIMITS } from '../limits.js'
import type { ParsedCertificate } from './certificate.js'
import type { TimestampProblem } from './result.js'
import type { SignatureOutcome } from './signature.js'

/** A problem of one token, with its stable name (caught per token by `checkCommitmentTime`). */
export class Fail extends Error {
  constructor(readonly problem: TimestampProblem, readonly detail: string) {
    super(detail)
  }
}

/** A parsed trust anchor. */
export interface Anchor {
  readonly name: string
  readonly cert: ParsedCertificate
  /** The authority's window (unix microseconds), when it has one: the anchor vouches only for tokens inside it. */
  readonly fromMicros?: number
  readonly untilMicros?: number
}

/**
 * The interval a token vouches for, in unix microseconds: from genTime rounded down to the millisecond
 * minus the accuracy, to genTime rounded up to the next millisecond (when it has finer digits) plus the
 * accuracy. Every certificate must be valid over all of it.
 */
export interface TimeWindow {
  readonly lowMicros: number
  readonly highMicros: number
}

/** Checks one signature (the SignerInfo's, or a certificate's under an issuer key); counted by the caller. */
export type SignatureCheck = (alg: ParsedCertificate['signatureAlgorithm'], spki: Uint8Array, data: Uint8Array, signature: Uint8Array) => Promise<SignatureOutcome>

const iso = (micros: number): string => new Date(Math.floor(micros / 1000)).toISOString()

/** Validity over the whole window (inclusive bounds) and no unknown critical extension. */
export function usable(cert: ParsedCertificate, window: TimeWindow): void {
  if (cert.notBefore * 1000 > window.lowMicros || window.highMicros > cert.notAfter * 1000) {
    const at = window.lowMicros === window.highMicros ? `at genTime ${iso(window.lowMicros)}` : `over genTime ± accuracy (${iso(window.lowMicros)} to ${iso(window.highMicros)})`
    throw new Fail('TIMESTAMP_CERT_NOT_VALID_AT_GENTIME', `certificate ${cert.name} is valid from ${new Date(cert.notBefore).toISOString()} to ${new Date(cert.notAfter).toISOString()}, not ${at}`)
  }
  if (cert.unknownCritical.length > 0) throw new Fail('TIMESTAMP_CERT_UNUSABLE', `certificate ${cert.name} has critical extension(s) this verifier does not understand: ${cert.unknownCritical.join(', ')}`)
}

/** Maps a signature outcome to a problem (`invalid` to `TIMESTAMP_BAD_SIGNATURE` with `invalid` as its detail). */
export function judge(sig: SignatureOutcome, invalid: string): void {
  if (sig.kind === 'valid') return
  if (sig.kind === 'invalid') throw new Fail('TIMESTAMP_BAD_SIGNATURE', invalid)
  if (sig.kind === 'unsupported') throw new Fail('TIMESTAMP_ALGORITHM_REFUSED', `${sig.what} is refused or not supported`)
  throw new Fail('TIMESTAMP_UNCHECKABLE', sig.what)
}

/**
 * Throws `TIMESTAMP_DUPLICATE_CERTIFICATE` when two carried certificates have byte-equal issuer,
 * subject and subjectPublicKeyInfo (the same CA twice: it adds paths, never trust).
 */
export function refuseDuplicates(pool: readonly ParsedCertificate[]): void {
  for (let i = 0; i < pool.length; i++) {
    for (let j = i + 1; j < pool.length; j++) {
      const [a, b] = [pool[i]!, pool[j]!]
      if (bytesEqual(a.subject, b.subject) && bytesEqual(a.issuer, b.issuer) && bytesEqual(a.spki, b.spki)) {
        throw new Fail('TIMESTAMP_DUPLICATE_CERTIFICATE', `certificates ${i} and ${j} of the token have the same issuer, subject ("${a.name}") and key`)
      }
    }
  }
}

/** The carried certificates (other than `cert` itself) whose subject is `cert`'s issuer, in token order. */
function carriedIssuers(cert: ParsedCertificate, pool: readonly ParsedCertificate[]): ParsedCertificate[] {
  return pool.filter((c) => c !== cert && bytesEqual(c.subject, cert.issuer))
}

/**
 * The signature checks a token may need, counted from its bytes alone: 1 (its SignerInfo) plus, for
 * every certificate reachable from `leaf` by names (the leaf, and every carried certificate whose
 * subject is the issuer of one already reached), the number of carried certificates and of anchors
 * whose subject is its issuer. The chain search checks each such (issuer, certificate) pair at most once,
 * so its work never exceeds this count.
 */
export function signatureCost(leaf: ParsedCertificate, pool: readonly ParsedCertificate[], anchors: readonly Anchor[]): number {
  const reached = new Set<ParsedCertificate>([leaf])
  const todo = [leaf]
  let cost = 1
  while (todo.length > 0) {
    const cert = todo.shift()!
    const up = carriedIssuers(cert, pool)
    cost += up.length + anchors.filter((a) => bytesEqual(a.cert.subject, cert.issuer)).length
    for (const c of up) {
      if (reached.has(c)) continue
      reached.add(c)
      todo.push(c)
    }
  }
  return cost
}

/** One state of the search: a certificate of the path, its length so far and the non-self-issued intermediates up to it. */
interface State {
  readonly cert: ParsedCertificate
  /** Certificates in the path from the signer up to and including `cert`. */
  readonly depth: number
  /** Non-self-issued certificates among the path's intermediates, from just above the signer up to and including `cert`. */
  readonly intermediates: number
}

/**
 * Finds a path from `leaf` to a trust anchor through the token's certificates (docs/timestamps.md,
 * step 9): breadth-first from the signer, at each certificate the anchors first (verifier order), then
 * the carried certificates (token order); each (issuer, certificate) signature is checked once and
 * remembered, each certificate's own rules once, and a (certificate, intermediate count) state is
 * expanded once, at its shortest depth. Throws the most telling failure when no path exists.
 */
export async function findChain(leaf: ParsedCertificate, pool: readonly ParsedCertificate[], anchors: readonly Anchor[], window: TimeWindow, check: SignatureCheck): Promise<void> {
  let best: Fail | undefined
  const note = (f: Fail): void => {
    // Prefer an uncheckable host over any failure, then a concrete failure over "no path"; among equals the first met.
    const rank = (p: TimestampProblem): number => (p === 'TIMESTAMP_UNCHECKABLE' ? 3 : p === 'TIMESTAMP_UNTRUSTED' ? 1 : 2)
    if (best === undefined || rank(f.problem) > rank(best.problem)) best = f
  }
  const signatures = new Map<ParsedCertificate, Map<ParsedCertificate, Promise<SignatureOutcome>>>()
  const signedBy = (cert: ParsedCertificate, issuer: ParsedCertificate): Promise<SignatureOutcome> => {
    let byIssuer = signatures.get(cert)
    if (byIssuer === undefined) signatures.set(cert, (byIssuer = new Map()))
    let outcome = byIssuer.get(issuer)
    if (outcome === undefined) byIssuer.set(issuer, (outcome = check(cert.signatureAlgorithm, issuer.spki, cert.tbs, cert.signature)))
    return outcome
  }
  const ruled = new Map<ParsedCertificate, Fail | null>()
  const issuerRules = (issuer: ParsedCertificate, anchor: boolean): void => {
    let verdict = ruled.get(issuer)
    if (verdict === undefined) {
      try {
        usable(issuer, window)
        if (!anchor && (!issuer.isCA || (issuer.keyUsage !== undefined && !issuer.keyUsage.has(5)))) throw new Fail('TIMESTAMP_CERT_UNUSABLE', `certificate ${issuer.name} is not a CA certificate allowed to sign certificates`)
        verdict = null
      } catch (e) {
        if (!(e instanceof Fail)) throw e
        verdict = e
      }
      ruled.set(issuer, verdict)
    }
    if (verdict !== null) throw verdict
  }
  const pathLen = (issuer: ParsedCertificate, below: number): void => {
    if (issuer.pathLen !== undefined && below > issuer.pathLen) {
      throw new Fail('TIMESTAMP_PATH_LEN_EXCEEDED', `certificate ${issuer.name} allows ${issuer.pathLen} intermediate CA certificate(s) below it (pathLenConstraint), and this chain has ${below}`)
    }
  }
  const anchorCerts = anchors.map((a) => a.cert)
  const seen = new Set<string>()
  let level: State[] = [{ cert: leaf, depth: 1, intermediates: 0 }]
  while (level.length > 0) {
    const next: State[] = []
    for (const { cert, depth, intermediates } of level) {
      if (anchorCerts.some((a) => bytesEqual(a.der, cert.der))) return
      for (const anchor of anchors) {
        if (!bytesEqual(anchor.cert.subject, cert.issuer)) continue
        try {
          issuerRules(anchor.cert, true)
          pathLen(anchor.cert, intermediates)
          judge(await signedBy(cert, anchor.cert), '')
          return
        } catch (e) {
          if (!(e instanceof Fail)) throw e
          // Same name, other key: an impostor root, not the trusted one.
          note(e.problem === 'TIMESTAMP_BAD_SIGNATURE' ? new Fail('TIMESTAMP_UNTRUSTED', `certificate ${cert.name} names the trusted root ${anchor.name} as issuer but is not signed by its key`) : e)
        }
      }
      if (depth >= LIMITS.maxTimestampChainDepth) {
        note(new Fail('TIMESTAMP_UNTRUSTED', `the certificate chain is longer than maxTimestampChainDepth = ${LIMITS.maxTimestampChainDepth}`))
        continue
      }
      for (const issuer of carriedIssuers(cert, pool)) {
        try {
          issuerRules(issuer, false)
          pathLen(issuer, intermediates)
          judge(await signedBy(cert, issuer), `certificate ${cert.name} is not signed by ${issuer.name}`)
        } catch (e) {
          if (!(e instanceof Fail)) throw e
          note(e)
          continue
        }
        const state = { cert: issuer, depth: depth + 1, intermediates: intermediates + (issuer.selfIssued ? 0 : 1) }
        const key = `${pool.indexOf(issuer)}:${state.intermediates}`
        if (seen.has(key)) continue
        seen.add(key)
        next.push(state)
      }
    }
    level = next
  }
  if (best !== undefined) throw best
  throw new Fail('TIMESTAMP_UNTRUSTED', `the signer's chain ends at ${topOf(leaf, pool)}, which is not a trusted time-stamping root (add its root with trust.timestampAuthorities / --trust-tsa)`)
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
