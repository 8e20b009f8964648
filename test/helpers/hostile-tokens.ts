/**
 * Time-stamp tokens whose certificate sets make chain building expensive (issue 23, item 1), built with
 * the emulator's test authority: the attack of the report (many CA certificates with one subject and one
 * key, all signing each other), the same without duplicates (one subject, distinct keys), and an honest
 * token for comparison. Deterministic: keys come from fixed seeds.
 */
import { p256 } from '@noble/curves/nist.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { createTestTsa, makeTestCertificate, type TestTsa } from '../../src/emulator/tsa.js'

/** The common name every hostile CA certificate carries (subject and issuer). */
export const HOSTILE_NAME = 'orbitdraw hostile CA'
export const GEN_TIME = Date.UTC(2026, 4, 18, 21, 0, 0)
export const DEADLINE = GEN_TIME / 1000 + 60
export const DIGEST = sha256(new TextEncoder().encode('an orbitdraw commitment'))
const NOT_BEFORE = Date.UTC(2020, 0, 1)
const NOT_AFTER = Date.UTC(2036, 0, 1)

/** What a token stamps and when (default {@link DIGEST} at {@link GEN_TIME}). */
export interface Stamp {
  readonly digest?: Uint8Array
  readonly genTime?: number
}

const key = (label: string): Uint8Array => sha256(new TextEncoder().encode(`orbitdraw hostile tokens: ${label}`))

/**
 * A token signed by a TSA whose issuer is {@link HOSTILE_NAME}, carrying `cas` CA certificates named
 * {@link HOSTILE_NAME} (subject and issuer). `sameKey`: every CA certificate has the key that signs them
 * all and the TSA certificate (the report's attack: every one verifies under every other); otherwise
 * each has its own key and is signed by the next one's (a cycle: every name matches, one signature in
 * each pair verifies). `tsa.rootPem` is one of the CA certificates: trust another root to see the work
 * of a token that ends untrusted.
 */
export function hostileToken(cas: number, sameKey: boolean, label = 'a', at: Stamp = {}): { token: Uint8Array; tsa: TestTsa } {
  const keys = Array.from({ length: cas }, (_, i) => (sameKey ? key(`${label} shared`) : key(`${label} ${i}`)))
  const tsa = createTestTsa({ seed: key(`${label} tsa`), rootKey: keys[0]!, rootName: HOSTILE_NAME, notBefore: NOT_BEFORE, notAfter: NOT_AFTER, now: () => at.genTime ?? GEN_TIME })
  const extra: Uint8Array[] = [tsa.rootDer]
  for (let i = 1; i < cas; i++) {
    extra.push(makeTestCertificate({ serial: 1000 + i, issuer: HOSTILE_NAME, subject: HOSTILE_NAME, publicKey: p256.getPublicKey(keys[i]!, false), signingKey: keys[(i + 1) % cas]!, notBefore: NOT_BEFORE, notAfter: NOT_AFTER, ca: true }))
  }
  return { token: tsa.issue(at.digest ?? DIGEST, { extraCertificates: extra }), tsa }
}

/** An honest authority (root, TSA certificate) with the same clock, and its token over {@link DIGEST}. */
export function honestToken(): { token: Uint8Array; tsa: TestTsa } {
  const tsa = createTestTsa({ seed: key('honest'), notBefore: NOT_BEFORE, notAfter: NOT_AFTER, now: () => GEN_TIME })
  return { token: tsa.issue(DIGEST), tsa }
}

/**
 * A token whose CA certificates all share one key and are distinct only by their names: for `n` names,
 * one CA certificate per (issuer name, subject name) pair (n² of them, no duplicates), each signed by
 * the shared key, so every name-matching pair verifies and the number of simple paths grows as n^depth.
 * The TSA certificate is issued under the first name.
 */
export function nameGridToken(n: number, label = 'grid', at: Stamp = {}): { token: Uint8Array; tsa: TestTsa } {
  const shared = key(`${label} shared`)
  const names = Array.from({ length: n }, (_, i) => `${HOSTILE_NAME} ${i}`)
  const tsa = createTestTsa({ seed: key(`${label} tsa`), rootKey: shared, rootName: names[0]!, notBefore: NOT_BEFORE, notAfter: NOT_AFTER, now: () => at.genTime ?? GEN_TIME })
  const extra: Uint8Array[] = [tsa.rootDer]
  const publicKey = p256.getPublicKey(shared, false)
  names.forEach((issuer, i) =>
    names.forEach((subject, j) => {
      if (i === 0 && j === 0) return // the root certificate above
      extra.push(makeTestCertificate({ serial: 2000 + i * n + j, issuer, subject, publicKey, signingKey: shared, notBefore: NOT_BEFORE, notAfter: NOT_AFTER, ca: true }))
    }),
  )
  return { token: tsa.issue(at.digest ?? DIGEST, { extraCertificates: extra }), tsa }
}

/**
 * The most pure-JavaScript work a token can ask for under the bound: `cas` CA certificates named as the
 * TSA certificate's issuer, none of whose keys signed it, each issued under a name nothing carries. The
 * search checks every one against the TSA certificate and each check fails, so each costs Web Crypto's
 * "invalid" and then `@noble/curves`' answer; nothing is left to search above them. Cost: 1 + `cas`.
 */
export function invalidEdgesToken(cas: number, label = 'flat', at: Stamp = {}): { token: Uint8Array; tsa: TestTsa } {
  const tsa = createTestTsa({ seed: key(`${label} tsa`), rootKey: key(`${label} root`), rootName: HOSTILE_NAME, notBefore: NOT_BEFORE, notAfter: NOT_AFTER, now: () => at.genTime ?? GEN_TIME })
  const extra = Array.from({ length: cas }, (_, i) =>
    makeTestCertificate({ serial: 3000 + i, issuer: `${HOSTILE_NAME} elsewhere`, subject: HOSTILE_NAME, publicKey: p256.getPublicKey(key(`${label} ${i}`), false), signingKey: key(`${label} ${i}`), notBefore: NOT_BEFORE, notAfter: NOT_AFTER, ca: true }),
  )
  return { token: tsa.issue(at.digest ?? DIGEST, { extraCertificates: extra }), tsa }
}
