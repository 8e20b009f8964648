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

const seed = sha256(new TextEncoder().encode('orbitdraw timestamp vectors v1'))
const notBefore = Date.UTC(2026, 0, 1)
const notAfter = Date.UTC(2036, 0, 1)
const genTime = Date.UTC(2026, 4, 18, 21, 0, 0)
const tsa = createTestTsa({ seed, notBefore, notAfter, now: () => genTime })
const digest = sha256(new TextEncoder().encode('an orbitdraw commitment'))
const other = sha256(new TextEncoder().encode('another commitment'))
const deadline = genTime / 1000 + 60

const vectors = [
  { name: 'valid', token: tsa.issue(digest, { nonce: 0x0123456789abcdefn }), digest, deadline, status: 'ok', problem: null, marginSeconds: 59 },
  { name: 'other commitment', token: tsa.issue(other), digest, deadline, status: 'failed', problem: 'TIMESTAMP_IMPRINT_MISMATCH', marginSeconds: 59 },
  { name: 'late: genTime + accuracy equals the deadline', token: tsa.issue(digest, { genTime: genTime + 59_000 }), digest, deadline, status: 'failed', problem: 'TIMESTAMP_LATE', marginSeconds: 0 },
  { name: 'bad signature', token: tsa.issue(digest, { badSignature: true }), digest, deadline, status: 'failed', problem: 'TIMESTAMP_BAD_SIGNATURE', marginSeconds: 59 },
  { name: 'no certificate carried', token: tsa.issue(digest, { certReq: false }), digest, deadline, status: 'failed', problem: 'TIMESTAMP_SIGNER_CERT_MISSING', marginSeconds: 59 },
]

const out = {
  description: 'Tokens of the orbitdraw emulator test TSA (ECDSA P-256, deterministic). Trust rootPem only for these vectors. deadline is unix seconds; digest is the SHA-256 the token must stamp. Written by scripts/make-timestamp-vectors.ts.',
  rootPem: tsa.rootPem,
  vectors: vectors.map((v) => ({ name: v.name, token: bytesToBase64(v.token), digest: bytesToHex(v.digest), deadline: v.deadline, expected: { status: v.status, problem: v.problem, marginSeconds: v.marginSeconds } })),
}
await writeFile(new URL('../test/vectors/timestamps.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`)
console.log(`wrote ${vectors.length} vectors`)
