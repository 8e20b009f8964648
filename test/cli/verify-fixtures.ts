/**
 * The demo-sized proofs the start-up tests and bench verify, written into a directory: `plain.json`
 * (unsigned, untimestamped: verified with the rules relaxed), `signed.json` (an RSA-signed IPNS record
 * and an RFC 3161 token: the strict policy) and `tsa.pem` (the test authority's root, for `--trust-tsa`).
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { makeProof, TEST_TSA } from '../browser/fixtures.js'

/** Writes the three files into `dir`; returns the signed proof's beacon name (for `--trust-beacon`). */
export async function writeVerifyFixtures(dir: string): Promise<string> {
  const signed = await makeProof({ signed: 'RSA' })
  await writeFile(join(dir, 'plain.json'), JSON.stringify(await makeProof()))
  await writeFile(join(dir, 'signed.json'), JSON.stringify(signed))
  await writeFile(join(dir, 'tsa.pem'), TEST_TSA.rootPem)
  return (signed.commitment as { beacon: string }).beacon
}
