/**
 * Writes `test/vectors/timestamps.json`: tokens made by the emulator's test authority (deterministic:
 * fixed key seed, fixed genTime, RFC 6979 signatures), with the root to trust, the digest they stamp,
 * a deadline, and the expected verdict of `checkCommitmentTime` for each.
 *
 *   npx tsx scripts/make-timestamp-vectors.ts
 */
import { writeFile } from 'node:fs/promises'
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToBase64, bytesToHex } from '../src/core/bytes.js'
import { createTestTsa } from '../src/emulator/tsa.js'
import { hostileToken } from '../test/helpers/hostile-tokens.js'

const seed = sha256(new TextEncoder().encode('orbitdraw timestamp vectors v1'))
const notBefore = Date.UTC(2026, 0, 1)
const notAfter = Date.UTC(2036, 0, 1)
const genTime = Date.UTC(2026, 4, 18, 21, 0, 0)
const tsa = createTestTsa({ seed, notBefore, notAfter, now: () => genTime })
/** Same seed, names and validity: the same root certificate, with CA certificates between it and the TSA. */
const via = (intermediates: { name: string; pathLen?: number }[]) => createTestTsa({ seed, notBefore, notAfter, now: () => genTime, intermediates })
/** Its TSA certificate ends exactly at genTime: valid at genTime, not at genTime + accuracy (1 s). Its own root. */
const endsAtGenTime = createTestTsa({ seed, notBefore, notAfter: genTime, now: () => genTime })
const digest = sha256(new TextEncoder().encode('an orbitdraw commitment'))
const other = sha256(new TextEncoder().encode('another commitment'))
const deadline = genTime / 1000 + 60

const vectors = [
  { name: 'valid', token: tsa.issue(digest, { nonce: 0x0123456789abcdefn }), digest, deadline, status: 'ok', problem: null, marginSeconds: 59 },
  { name: 'other commitment', token: tsa.issue(other), digest, deadline, status: 'failed', problem: 'TIMESTAMP_IMPRINT_MISMATCH', marginSeconds: 59 },
  { name: 'late: genTime + accuracy equals the deadline', token: tsa.issue(digest, { genTime: genTime + 59_000 }), digest, deadline, status: 'failed', problem: 'TIMESTAMP_LATE', marginSeconds: 0 },
  { name: 'bad signature', token: tsa.issue(digest, { badSignature: true }), digest, deadline, status: 'failed', problem: 'TIMESTAMP_BAD_SIGNATURE', marginSeconds: 59 },
  { name: 'no certificate carried', token: tsa.issue(digest, { certReq: false }), digest, deadline, status: 'failed', problem: 'TIMESTAMP_SIGNER_CERT_MISSING', marginSeconds: 59 },
  { name: 'pathLenConstraint: root -> CA (pathLen 0) -> CA -> TSA', token: via([{ name: 'CA one', pathLen: 0 }, { name: 'CA two' }]).issue(digest), digest, deadline, status: 'failed', problem: 'TIMESTAMP_PATH_LEN_EXCEEDED', marginSeconds: 59 },
  { name: 'pathLenConstraint: root -> CA (pathLen 1) -> CA -> TSA', token: via([{ name: 'CA one', pathLen: 1 }, { name: 'CA two' }]).issue(digest), digest, deadline, status: 'ok', problem: null, marginSeconds: 59 },
  { name: 'pathLenConstraint: a self-issued CA is not counted (root -> A (pathLen 0) -> A (re-keyed) -> TSA)', token: via([{ name: 'CA A', pathLen: 0 }, { name: 'CA A' }]).issue(digest), digest, deadline, status: 'ok', problem: null, marginSeconds: 59 },
  { name: 'the same certificate carried twice', token: tsa.issue(digest, { extraCertificates: [tsa.rootDer, tsa.rootDer] }), digest, deadline, status: 'failed', problem: 'TIMESTAMP_DUPLICATE_CERTIFICATE', marginSeconds: 59 },
  { name: '15 CA certificates with one subject and distinct keys (226 signature checks counted)', token: hostileToken(15, false, 'vector', { digest, genTime }).token, digest, deadline, status: 'failed', problem: 'TIMESTAMP_LIMIT_EXCEEDED', marginSeconds: 59 },
  { name: 'content-type attribute missing', token: tsa.issue(digest, { signedAttributes: { contentType: 'missing' } }), digest, deadline, status: 'failed', problem: 'TIMESTAMP_CONTENT_TYPE_MISMATCH', marginSeconds: 59 },
  { name: 'content-type attribute not id-ct-TSTInfo', token: tsa.issue(digest, { signedAttributes: { contentType: 'wrong' } }), digest, deadline, status: 'failed', problem: 'TIMESTAMP_CONTENT_TYPE_MISMATCH', marginSeconds: 59 },
  { name: 'signing-certificate attribute missing', token: tsa.issue(digest, { signedAttributes: { signingCertificate: 'missing' } }), digest, deadline, status: 'failed', problem: 'TIMESTAMP_SIGNER_CERT_ID_MISSING', marginSeconds: 59 },
  { name: 'signing-certificate-v2 attribute twice', token: tsa.issue(digest, { signedAttributes: { signingCertificate: 'twice' } }), digest, deadline, status: 'failed', problem: 'TIMESTAMP_SIGNER_CERT_ID_DUPLICATE', marginSeconds: 59 },
  { name: 'signing-certificate (SHA-1) and signing-certificate-v2 both naming the signer', token: tsa.issue(digest, { signedAttributes: { signingCertificate: 'v1-and-v2' } }), digest, deadline, status: 'ok', problem: null, marginSeconds: 59 },
  { name: 'certificates end at genTime: valid at genTime, not at genTime + accuracy', token: endsAtGenTime.issue(digest), rootPem: endsAtGenTime.rootPem, digest, deadline, status: 'failed', problem: 'TIMESTAMP_CERT_NOT_VALID_AT_GENTIME', marginSeconds: 59 },
]

const out = {
  description: 'Tokens of the orbitdraw emulator test TSA (ECDSA P-256, deterministic). Check each token alone with the trusted roots [rootPem] (a vector\'s own rootPem, when it has one, instead). deadline is unix seconds; digest is the SHA-256 the token must stamp; expected is the verdict of checkCommitmentTime (docs/timestamps.md). Written by scripts/make-timestamp-vectors.ts.',
  rootPem: tsa.rootPem,
  vectors: vectors.map((v) => ({ name: v.name, token: bytesToBase64(v.token), ...('rootPem' in v ? { rootPem: v.rootPem } : {}), digest: bytesToHex(v.digest), deadline: v.deadline, expected: { status: v.status, problem: v.problem, marginSeconds: v.marginSeconds } })),
}
await writeFile(new URL('../test/vectors/timestamps.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`)
console.log(`wrote ${vectors.length} vectors`)
